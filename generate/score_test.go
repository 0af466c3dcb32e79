package generate

import (
	"context"
	"errors"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pegs/engine"
	"pegs/search"
	"pegs/search/measure"
)

func TestScoreParts(t *testing.T) {
	b := engine.English()
	g, _ := b.ParseGoal("center")
	for _, pic := range []string{"....o...ooo.....o......o.........", "....o....o....ooooo....o....o...."} {
		p, _ := b.ParsePosition(pic)
		l, err := Grade(context.Background(), b, p, g, search.SolveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d, m := l.Difficulty, l.Metrics
		if math.Abs(d.LengthPart+d.ForesightPart-d.Score) > 1e-12 || d.Score != l.Score {
			t.Errorf("%s: parts %+v do not add up to the score", pic, d)
		}
		if want := math.Log10(float64(l.Pegs - 1)); d.LengthPart != want {
			t.Errorf("%s: length part %g, want log10(%d jumps) = %g", pic, d.LengthPart, l.Pegs-1, want)
		}
		if want := m.ForesightNeeded * math.Log10(76.0/33); math.Abs(d.ForesightPart-want) > 1e-12 {
			t.Errorf("%s: foresight part %g, want %g·log10(76/33) = %g", pic, d.ForesightPart, m.ForesightNeeded, want)
		}
		if l.Grade < 1 || l.Grade > 5 || l.Explanation == "" || len(m.Foresight) == 0 || m.Foresight[0].WinProbability != m.P0 {
			t.Errorf("%s: grade %d, explanation %q, foresight %v", pic, l.Grade, l.Explanation, m.Foresight)
		}
	}
}

// TestGradeSolves checks Grade's solution, found while the par is
// searched: the depth-first search's own (search.Solve's) on a level that
// can be won, replaying to its goal; none, and ErrUnsolvable, on one the
// measures find cannot (the triangle's hole 5 to itself, which its
// position class allows); the context's error once cancelled.
func TestGradeSolves(t *testing.T) {
	english := engine.English()
	tri, err := engine.Triangle(5)
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name  string
		b     *engine.Board
		pic   string
		goal  string
		ctx   context.Context
		want  error
		solve bool
	}{
		{"plus", english, "....o....o....ooooo....o....o....", "center", context.Background(), nil, true},
		{"triangle-5", tri, "oooo.oooooooooo", "5", context.Background(), ErrUnsolvable, false},
		{"cancelled", english, "....o....o....ooooo....o....o....", "center", cancelled, context.Canceled, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := c.b.ParsePosition(c.pic)
			if err != nil {
				t.Fatal(err)
			}
			g, err := c.b.ParseGoal(c.goal)
			if err != nil {
				t.Fatal(err)
			}
			l, err := Grade(c.ctx, c.b, p, g, search.SolveOptions{})
			if !errors.Is(err, c.want) {
				t.Fatalf("got error %v, want %v", err, c.want)
			}
			if !c.solve {
				return
			}
			sol, err := search.Solve(context.Background(), search.Problem{Board: c.b, Start: p, Goal: g}, search.SolveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, j := range sol.Jumps {
				want = append(want, c.b.FormatJump(j))
			}
			if !slices.Equal(l.Solution, want) {
				t.Errorf("got solution %v, want search.Solve's %v", l.Solution, want)
			}
			jumps, err := c.b.ParseMoves(joinJumps(l.Solution))
			if err != nil {
				t.Fatal(err)
			}
			if final, err := c.b.Replay(p, jumps); err != nil || !g.Reached(final) {
				t.Errorf("solution %v does not replay to the goal: %v", l.Solution, err)
			}
		})
	}
}

func TestExplain(t *testing.T) {
	for _, c := range []struct {
		name string
		w    []float64
		want string
	}{
		{"random wins half", []float64{0.5, 1}, "a player who jumps at random wins 50% of tries"},
		{"one jump", []float64{0.0156, 0.5, 0.667, 1}, "a player who looks 1 jump ahead wins 50% of tries; one who jumps at random, 2%"},
		{"rare", []float64{0.00391, 0.0278, 0.0417, 0.167, 0.333, 1}, "a player who looks 5 jumps ahead wins 100% of tries; one who looks 4 ahead, 33%"},
		{"1 in N", []float64{1.35e-8, 0.004, 0.62, 1}, "a player who looks 2 jumps ahead wins 62% of tries; one who looks 1 ahead, 1 in 250"},
		{"almost sure", []float64{0.1, 0.9974, 1}, "a player who looks 1 jump ahead wins 99% of tries; one who jumps at random, 10%"},
		{"unwinnable", nil, "no player wins"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Explain(measure.Metrics{Foresight: c.w}); got != c.want {
				t.Errorf("Explain(%v) = %q, want %q", c.w, got, c.want)
			}
		})
	}
}

func TestRoundCount(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{74.1, "74"}, {741, "740"}, {7449, "7,400"}, {74_130_000, "74,000,000"}, {1.5, "2"}, {99.6, "100"}} {
		if got := roundCount(c.x); got != c.want {
			t.Errorf("roundCount(%g) = %q, want %q", c.x, got, c.want)
		}
	}
}

// BenchmarkGrade grades the English board's Full level (32 pegs, 23.5
// million positions) and the seven classic levels together (Full among
// them), as pegs grade does. positions/s counts the levels' reachable
// positions; peak-MiB is the most memory the process held (see
// samplePeak), sampled every few milliseconds, its collector paced as pegs
// grade paces it (GOGC 25, cli.LimitHeap).
func BenchmarkGrade(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	eng := engine.English()
	goal, err := eng.ParseGoal("center")
	if err != nil {
		b.Fatal(err)
	}
	var full, classic []engine.Position
	for _, l := range engine.ClassicLevels() {
		classic = append(classic, l.Position)
		if l.Name == "full" {
			full = append(full, l.Position)
		}
	}
	for _, c := range []struct {
		name   string
		levels []engine.Position
	}{{"Full", full}, {"classic7", classic}} {
		b.Run("level="+c.name, func(b *testing.B) {
			if len(c.levels) == 0 {
				b.Fatal("no such classic level")
			}
			peak := samplePeak()
			var positions int64
			for b.Loop() {
				for _, p := range c.levels {
					l, err := Grade(context.Background(), eng, p, goal, search.SolveOptions{})
					if err != nil {
						b.Fatal(err)
					}
					positions += l.Metrics.Reachable
				}
			}
			b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
			b.ReportMetric(float64(peak())/(1<<20), "peak-MiB")
		})
	}
}

// samplePeak collects garbage, then samples the memory the process holds
// every 5 ms until the function it returns is called, which returns the
// most it saw: its resident memory where /proc/self/statm tells it (the
// measures of a large level live in memory mapped outside the Go heap,
// which the runtime does not count), else what it holds from the runtime
// (mapped and not released).
func samplePeak() func() uint64 {
	runtime.GC()
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	held := func() uint64 {
		if rss, ok := resident(); ok {
			return rss
		}
		metrics.Read(samples)
		return samples[0].Value.Uint64() - samples[1].Value.Uint64()
	}
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		most := held()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				most = max(most, held())
			case <-stop:
				done <- max(most, held())
				return
			}
		}
	}()
	return func() uint64 {
		close(stop)
		return <-done
	}
}

// resident returns the process's resident memory, from /proc/self/statm,
// and whether it could read it.
func resident() (uint64, bool) {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * uint64(os.Getpagesize()), true
}
