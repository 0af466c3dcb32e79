package generate

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"pegs/engine"
	"pegs/search"
)

func TestGenerateLevels(t *testing.T) {
	b := engine.English()
	g, _ := b.ParseGoal("center")
	opt := Options{Goal: g, MinPegs: 6, MaxPegs: 12, Seed: 3, Workers: 2}
	levels, err := Generate(context.Background(), b, 30, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(levels) != 30 {
		t.Fatalf("%d levels, want 30", len(levels))
	}
	seen := map[engine.Position]bool{}
	for _, l := range levels {
		p := l.Position()
		key := b.Symmetry().Canonical(p)
		if seen[key] {
			t.Errorf("level %s is a symmetric image of an earlier one", l.Picture)
		}
		seen[key] = true
		sol, err := search.Solve(context.Background(), search.Problem{Board: b, Start: p, Goal: g}, search.SolveOptions{})
		if err != nil || !sol.Solvable {
			t.Errorf("level %s does not re-solve: %v", l.Picture, err)
		}
		if l.Metrics.P0 > maxP0 || l.Pegs < 6 || l.Pegs > 12 || l.Grade < 1 || l.Grade > 5 || l.Par < 1 {
			t.Errorf("level %s: P0 %g, %d pegs, grade %d, par %d", l.Picture, l.Metrics.P0, l.Pegs, l.Grade, l.Par)
		}
		jumps, err := b.ParseMoves(joinJumps(l.Solution))
		if err != nil {
			t.Fatal(err)
		}
		if final, err := b.Replay(p, jumps); err != nil || !g.Reached(final) {
			t.Errorf("level %s: its solution does not replay to the goal: %v", l.Picture, err)
		}
	}
}

func joinJumps(s []string) string {
	out := ""
	for _, j := range s {
		out += j + " "
	}
	return out
}

// TestDeterministic checks that the output does not depend on the workers.
func TestDeterministic(t *testing.T) {
	b := engine.English()
	g, _ := b.ParseGoal("center")
	var prev []byte
	for _, w := range []int{1, 2, 3} {
		levels, err := Generate(context.Background(), b, 12, Options{Goal: g, MinPegs: 6, MaxPegs: 12, Seed: 9, Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(levels)
		if prev != nil && string(data) != string(prev) {
			t.Errorf("workers=%d gives different levels", w)
		}
		prev = data
	}
}

func TestPackRises(t *testing.T) {
	b := engine.English()
	g, _ := b.ParseGoal("center")
	levels, err := Pack(context.Background(), b, 5, Options{Goal: g, MinPegs: 6, MaxPegs: 12, Seed: 5, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	checkPack(t, levels, 5)
}

// TestPackOneSize makes a pack of five levels of 12 pegs: difficulty
// still rises strictly, by the foresight the levels need.
func TestPackOneSize(t *testing.T) {
	if testing.Short() {
		t.Skip("a pool of 40 levels of 12 pegs takes several seconds; run without -short")
	}
	b := engine.English()
	g, _ := b.ParseGoal("center")
	levels, err := Pack(context.Background(), b, 5, Options{Goal: g, MinPegs: 12, MaxPegs: 12, Seed: 5, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	checkPack(t, levels, 5)
	for i := 1; i < len(levels); i++ {
		if Harder(levels[i], levels[i-1]) <= 0 {
			t.Errorf("level %d is not harder than level %d by its look-ahead curve", i+1, i)
		}
	}
}

// checkPack checks that a pack holds k levels of strictly rising score and
// no two levels that differ by one peg moved.
func checkPack(t *testing.T, levels []Level, k int) {
	t.Helper()
	if len(levels) != k {
		t.Fatalf("%d levels, want %d", len(levels), k)
	}
	for i := 1; i < len(levels); i++ {
		if levels[i].Score <= levels[i-1].Score {
			t.Errorf("level %d score %g does not rise above %g", i+1, levels[i].Score, levels[i-1].Score)
		}
		if oneMoved(levels[i], levels[:i]) {
			t.Errorf("level %d, %s, is an earlier level with one peg moved", i+1, levels[i].Picture)
		}
	}
}

// TestOneMoved checks the near-repeat test Progression uses, up to the
// board's symmetry.
func TestOneMoved(t *testing.T) {
	b := engine.English()
	level := func(pic string) Level {
		p, err := b.ParsePosition(pic)
		if err != nil {
			t.Fatal(err)
		}
		return Level{Pegs: p.Pegs(), position: p, board: b}
	}
	plus := level("....o....o....ooooo....o....o....")
	for _, c := range []struct {
		name, pic string
		want      bool
	}{
		{"itself", "....o....o....ooooo....o....o....", false},
		{"the top peg moved down a row", ".........o....ooooo....o....oo...", true},
		{"a mirror image of one moved", ".......o.o....ooooo....o....o....", true},
		{"two pegs moved", ".........o....ooooo....o.......oo", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := oneMoved(level(c.pic), []Level{plus}); got != c.want {
				t.Errorf("oneMoved = %v, want %v", got, c.want)
			}
		})
	}
}

func TestSymmetric(t *testing.T) {
	for _, c := range []struct{ board, goal string }{{"english", "center"}, {"triangle", "any"}, {"french", "any"}} {
		b, err := engine.Lookup(c.board)
		if err != nil {
			t.Fatal(err)
		}
		g, err := b.ParseGoal(c.goal)
		if err != nil {
			t.Fatal(err)
		}
		levels, err := Generate(context.Background(), b, 8, Options{Goal: g, MinPegs: 6, MaxPegs: 14, Seed: 2, Workers: 2, Symmetric: true})
		if err != nil {
			t.Fatalf("%s: %v", c.board, err)
		}
		for _, l := range levels {
			p := l.Position()
			if n := b.Symmetry().Stabilizer(p).Len(); n < 2 || n != l.Symmetries {
				t.Errorf("%s level %s: %d symmetries keep it, level says %d", c.board, l.Picture, n, l.Symmetries)
			}
			if sol, err := search.Solve(context.Background(), search.Problem{Board: b, Start: p, Goal: g}, search.SolveOptions{}); err != nil || !sol.Solvable {
				t.Errorf("%s level %s does not re-solve: %v", c.board, l.Picture, err)
			}
		}
	}
}

// BenchmarkGenerate measures making and grading English levels of 6 to 20
// pegs with the default shape, at 1 and 2 workers, and the issue's
// workload of 1,000 levels on two (44 s before designed shapes, on two
// quiet cores).
func BenchmarkGenerate(b *testing.B) {
	eng := engine.English()
	g, _ := eng.ParseGoal("center")
	for _, c := range []struct{ count, workers int }{{100, 1}, {100, 2}, {1000, 2}} {
		b.Run(fmt.Sprintf("levels=%d/workers=%d", c.count, c.workers), func(b *testing.B) {
			for b.Loop() {
				if _, err := Generate(context.Background(), eng, c.count, Options{Goal: g, MinPegs: 6, MaxPegs: 20, Seed: 1, Workers: c.workers}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(c.count*b.N)/b.Elapsed().Seconds(), "levels/s")
		})
	}
}

// TestTooFewLevels asks for more levels than a small board has: Generate
// must stop and say so rather than search forever.
func TestTooFewLevels(t *testing.T) {
	b, err := engine.Lookup("triangle:4")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Generate(context.Background(), b, 500, Options{Goal: engine.Goal{Kind: engine.OnePeg}, MinPegs: 3, MaxPegs: 6, Seed: 1, Workers: 2})
	if err == nil || !strings.Contains(err.Error(), "too few distinct levels") {
		t.Errorf("Generate = %v, want a too-few-levels error", err)
	}
}
