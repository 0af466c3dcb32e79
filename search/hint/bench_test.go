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
	"pegs/search/internal/dfs"
)

func BenchmarkHint(b *testing.B) {
	eng := engine.English()
	g, _ := eng.ParseGoal("center")
	prob := search.Problem{Board: eng, Start: eng.Start(), Goal: g}
	o, err := NewOracle(context.Background(), prob, search.Options{})
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
	// Every position of 30 random games, dead ends included: one op hints
	// them all; ns/hint is the mean, p99-ms and max-ms the tail a game sees.
	type step struct {
		p    engine.Position
		hist *History
	}
	var steps []step
	lone := 0 // the positions of the first 10 games
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
	// With the oracle file, every position of the 30 games; a lone
	// position (no file, no history: depth first, then layered), those of
	// the first 10 (about 250 hints, half a minute).
	// With the file but no history, a lost position is first shown to be
	// in the level (see Oracle.inLevel).
	// With the fewest table too (built on first use, about 15 s), a dead
	// end's fewest pegs is a lookup from 14 pegs up.
	// With no file but the history (oracle=level), the level's tables
	// built by the Advisor answer, as a game server sees them once built:
	// first the winnable tables alone, then (level+fewest, about 20 s
	// later on one core) with the fewest pegs of dead ends too. Without the
	// history too, the same tables answer once the lone position is shown
	// to be of the board's own game.
	// Lone positions with no file and no tables (oracle=none) are timed as
	// a one-shot process sees them, which does not build the level: it is
	// marked as too big to build.
	var fewest, level, levelWithFewest *Oracle
	withFewest := func(b *testing.B) *Oracle {
		if fewest == nil {
			f, _ := roundTrip(b, o)
			if err := f.AddFewest(context.Background(), search.Options{}); err != nil {
				b.Fatal(err)
			}
			fewest = f
		}
		return fewest
	}
	// levelOracle returns the level's oracle as an Advisor's build leaves
	// it: the winnable tables, then (withFewest) a copy with the fewest
	// pegs of dead ends too; each is built on first use.
	levelOracle := func(b *testing.B, withFewest bool) *Oracle {
		if level == nil {
			lo, err := NewOracle(context.Background(), prob, search.Options{})
			if err != nil {
				b.Fatal(err)
			}
			level = lo
		}
		if !withFewest {
			return level
		}
		if levelWithFewest == nil {
			f := *level
			if err := f.AddFewest(context.Background(), search.Options{}); err != nil {
				b.Fatal(err)
			}
			levelWithFewest = &f
		}
		return levelWithFewest
	}
	file := func(*testing.B) *Oracle { return o }
	noFile := func(*testing.B) *Oracle { return nil }
	for _, c := range []struct {
		name   string
		steps  []step
		o      func(*testing.B) *Oracle
		noHist bool
	}{
		{"positions=random-games/oracle=file", steps, file, false},
		{"positions=random-games/oracle=file+fewest", steps, withFewest, false},
		{"positions=random-games/oracle=file/history=none", steps, file, true},
		{"positions=random-games/oracle=file+fewest/history=none", steps, withFewest, true},
		{"positions=random-games/oracle=level", steps, noFile, false},
		{"positions=random-games/oracle=level+fewest", steps, noFile, false},
		{"positions=random-games/oracle=level/history=none", steps, noFile, true},
		{"positions=random-games/oracle=level+fewest/history=none", steps, noFile, true},
		{"positions=random-games/oracle=none", steps[:lone], noFile, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			a := NewAdvisor(Options{})
			defer a.Close()
			w := c.o(b)
			if w != nil {
				a.AddOracle(w)
			}
			// The first depth-first search of a goal builds its endgame
			// table (tens of ms, once an Advisor): build them first, so
			// that each sub-benchmark times the hints alone, run alone or
			// not.
			last := c.steps[len(c.steps)-1].p
			for _, goal := range []engine.Goal{g, {Kind: engine.OnePeg}} {
				cfg := dfs.Config{Memory: a.memory(), Techniques: dfs.All(), Tables: &a.tables}
				if _, err := dfs.Solve(context.Background(), eng, last, goal, cfg); err != nil {
					b.Fatal(err)
				}
			}
			// Without a file but with a history, the level's tables are
			// built by the first hint that depth first does not answer
			// soon (about 1.5 s, once an Advisor): build them first, so
			// that the hints are timed as a game server sees them after
			// that.
			if strings.HasSuffix(c.name, "oracle=none") {
				a.setTooBig(eng, eng.Start(), g, math.MaxInt64)
			} else if w == nil {
				a.setLevelOracle(levelOracle(b, strings.Contains(c.name, "+fewest")))
			}
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
		})
	}
}
