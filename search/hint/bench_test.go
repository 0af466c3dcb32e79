package hint

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"pegs/engine"
	"pegs/search"
	"pegs/search/internal/kernel"
)

// BenchmarkHint measures hints on the English board: one position with and
// without an oracle, a lookup, and every position of 30 random games (one
// op hints them all; ns/hint is the mean, p99-ms and max-ms the tail a
// game sees) with each kind of oracle.
func BenchmarkHint(b *testing.B) {
	eng := engine.English()
	g, _ := eng.ParseGoal("center")
	prob := search.Problem{Board: eng, Start: eng.Start(), Goal: g}
	o, err := NewOracle(context.Background(), prob, search.Budget{})
	if err != nil {
		b.Fatal(err)
	}
	jumps, _ := eng.ParseMoves("f4-d4 e6-e4 e3-e5 c4-e4")
	p, _ := eng.Replay(eng.Start(), jumps)
	hist := &History{eng.Start(), jumps}
	for _, c := range []struct {
		name string
		o    *Oracle
	}{{"oracle=none", nil}, {"oracle=file", o}} {
		b.Run(c.name, func(b *testing.B) {
			a := NewAdvisor(Options{})
			defer a.Close()
			if c.o != nil {
				a.AddOracle(c.o)
			}
			// Without a file, the first hint of a level builds its winnable
			// sets; b.Loop times the hints after it.
			a.Hint(context.Background(), eng, p, g, hist)
			for b.Loop() {
				if _, err := a.Hint(context.Background(), eng, p, g, hist); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("query=winnable", func(b *testing.B) {
		for b.Loop() {
			o.Winnable(p)
		}
	})
	hb := &hintBench{eng: eng, goal: g, prob: prob, file: o}
	steps, lone := hb.gameSteps()
	// With the oracle file, every position of the 30 games; a lone
	// position (no file, no history: depth first, then layered), those of
	// the first 10 (about 250 hints, half a minute).
	// With the file but no history, a lost position is first shown to be
	// in the level (see Oracle.inLevel).
	// With the fewest table too (built on first use, about 15 s), a dead
	// end's fewest pegs is a lookup from 4 pegs up.
	// With no file but the history (oracle=level), the level's tables
	// built by the Advisor answer, as a game server sees them once built:
	// first the winnable tables alone, then (level+fewest, about 20 s
	// later on one core) with the fewest pegs of dead ends too. Without the
	// history too, the same tables answer once the lone position is shown
	// to be of the board's own game.
	// Lone positions with no file and no tables (oracle=none) are timed as
	// a one-shot process sees them, which does not build the level: it is
	// marked as too big to build.
	file := func(*testing.B) *Oracle { return o }
	noFile := func(*testing.B) *Oracle { return nil }
	for _, c := range []struct {
		name   string
		steps  []step
		o      func(*testing.B) *Oracle
		noHist bool
	}{
		{"positions=random-games/oracle=file", steps, file, false},
		{"positions=random-games/oracle=file+fewest", steps, hb.withFewest, false},
		{"positions=random-games/oracle=file/history=none", steps, file, true},
		{"positions=random-games/oracle=file+fewest/history=none", steps, hb.withFewest, true},
		{"positions=random-games/oracle=level", steps, noFile, false},
		{"positions=random-games/oracle=level+fewest", steps, noFile, false},
		{"positions=random-games/oracle=level/history=none", steps, noFile, true},
		{"positions=random-games/oracle=level+fewest/history=none", steps, noFile, true},
		{"positions=random-games/oracle=none", steps[:lone], noFile, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			a := hb.advisor(b, c.name, c.o(b), c.steps[len(c.steps)-1].p)
			defer a.Close()
			var times []time.Duration
			for b.Loop() {
				for _, s := range c.steps {
					hist := s.hist
					if c.noHist {
						hist = nil
					}
					t0 := time.Now()
					if _, err := a.Hint(context.Background(), eng, s.p, g, hist); err != nil {
						b.Fatal(err)
					}
					times = append(times, time.Since(t0))
				}
			}
			reportTimes(b, times)
		})
	}
}

// step is a position of a game and how it got there.
type step struct {
	p    engine.Position
	hist *History
}

// hintBench holds what BenchmarkHint's sub-benchmarks share, each built on
// first use: the level's oracle as a file gives it, with its fewest table,
// and as an Advisor's build leaves it.
type hintBench struct {
	eng                            *engine.Board
	goal                           engine.Goal
	prob                           search.Problem
	file, fewest, level, levelFull *Oracle
}

// gameSteps returns every position of 30 random games, dead ends
// included, and how many of them the first 10 games hold.
func (hb *hintBench) gameSteps() (steps []step, lone int) {
	eng := hb.eng
	games := rand.New(rand.NewPCG(3, 4))
	for game := range 30 {
		jumps := eng.RandomGame(eng.Start(), games)
		if game == 10 {
			lone = len(steps)
		}
		p := eng.Start()
		for i := 0; ; i++ {
			steps = append(steps, step{p, &History{eng.Start(), jumps[:i]}})
			if i == len(jumps) {
				break
			}
			p = p.Apply(jumps[i])
		}
	}
	return steps, lone
}

// withFewest returns the file's oracle, read back, with its fewest table.
func (hb *hintBench) withFewest(b *testing.B) *Oracle {
	if hb.fewest == nil {
		f, _ := roundTrip(b, hb.file)
		if err := f.AddFewest(context.Background(), search.Budget{}); err != nil {
			b.Fatal(err)
		}
		hb.fewest = f
	}
	return hb.fewest
}

// levelOracle returns the level's oracle as an Advisor's build leaves it:
// the winnable tables, then (full) a copy with the fewest pegs of dead
// ends too.
func (hb *hintBench) levelOracle(b *testing.B, full bool) *Oracle {
	if hb.level == nil {
		lo, err := NewOracle(context.Background(), hb.prob, search.Budget{})
		if err != nil {
			b.Fatal(err)
		}
		hb.level = lo
	}
	if !full {
		return hb.level
	}
	if hb.levelFull == nil {
		f := *hb.level
		if err := f.AddFewest(context.Background(), search.Budget{}); err != nil {
			b.Fatal(err)
		}
		hb.levelFull = &f
	}
	return hb.levelFull
}

// advisor returns an Advisor for sub-benchmark name, given oracle w (nil
// for none), warmed up so that the hints along the games are timed as a
// game server sees them.
func (hb *hintBench) advisor(b *testing.B, name string, w *Oracle, last engine.Position) *Advisor {
	a := NewAdvisor(Options{})
	if w != nil {
		a.AddOracle(w)
	}
	// The first depth-first search of a goal builds its endgame table
	// (tens of ms, once an Advisor): build them first, so that each
	// sub-benchmark times the hints alone, run alone or not.
	for _, goal := range []engine.Goal{hb.goal, {Kind: engine.OnePeg}} {
		cfg := kernel.SolveConfig{Memory: a.memory(), Techniques: kernel.All(), Tables: &a.tables}
		if _, err := kernel.Solve(context.Background(), hb.eng, last, goal, cfg); err != nil {
			b.Fatal(err)
		}
	}
	// Without a file but with a history, the level's tables are built by
	// the first hint that depth first does not answer soon (about 1.5 s,
	// once an Advisor): build them first.
	if strings.HasSuffix(name, "oracle=none") {
		a.setTooBig(hb.eng, hb.eng.Start(), hb.goal, math.MaxInt64)
	} else if w == nil {
		a.setLevelOracle(hb.levelOracle(b, strings.Contains(name, "+fewest")))
	}
	return a
}

// reportTimes reports the mean hint and the tail a game sees.
func reportTimes(b *testing.B, times []time.Duration) {
	var total time.Duration
	for _, t := range times {
		total += t
	}
	slices.Sort(times)
	b.ReportMetric(float64(total)/float64(len(times)), "ns/hint")
	b.ReportMetric(float64(times[len(times)/2])/1e6, "median-ms")
	b.ReportMetric(float64(times[len(times)*9/10])/1e6, "p90-ms")
	b.ReportMetric(float64(times[len(times)*99/100])/1e6, "p99-ms")
	b.ReportMetric(float64(times[len(times)-1])/1e6, "max-ms")
}
