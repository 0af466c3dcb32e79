package search

import (
	"context"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"pegs/engine"
)

// BenchmarkSolve measures the first solution of single problems, and the
// fewest-pegs search where one peg is impossible (the 55-hole triangle's
// corner start, ruled out by its position class).
func BenchmarkSolve(b *testing.B) {
	eng := engine.English()
	tri, _ := engine.Lookup("triangle:10")
	wie, _ := engine.Lookup("wiegleb")
	wieCentre, _ := wie.ParseGoal("center")
	centre, _ := eng.ParseGoal("center")
	cases := []struct {
		name string
		bd   *engine.Board
		pic  string
		goal engine.Goal
	}{
		{"problem=english-centre", eng, eng.Line(eng.Start()), centre},
		{"problem=english-diamond", eng, ".o.ooo.ooooo.ooo.ooo.ooooo.ooo.o.", centre},
		{"problem=english-arrow", eng, ".o.ooo.ooooo....o......o...oooooo", centre},
		{"problem=triangle10-corner-fewest", tri, "." + strings.Repeat("o", 54), engine.Goal{Kind: engine.FewestPegs}},
		{"problem=wiegleb-centre", wie, wie.Line(wie.Start()), wieCentre},
	}
	for _, c := range cases {
		p, err := c.bd.ParsePosition(c.pic)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/strategy=dfs", func(b *testing.B) {
			// The first solve on a board builds its endgame table, which
			// later solves share; b.Loop times only the solves after it.
			opt := SolveOptions{Tables: &Tables{}}
			if _, err := Solve(context.Background(), Problem{c.bd, p, c.goal}, opt); err != nil {
				b.Fatal(err)
			}
			var nodes int64
			for b.Loop() {
				sol, err := Solve(context.Background(), Problem{c.bd, p, c.goal}, opt)
				if err != nil || !sol.Solvable {
					b.Fatal(err)
				}
				nodes += sol.Nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "positions/op")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}

// french runs the French board's benchmark, minutes an op.
var french = flag.Bool("french", false, "run BenchmarkExplore on the French board (d3, whole group, reachable only and spilled with complete games: minutes an op)")

// BenchmarkExplore measures the layered searches on whole state spaces:
// full analyses (and without complete games, nogames), the winnable set
// alone, the random-play chance alone (RandomChance; for both, positions/s
// counts the winnable positions), reachable positions alone (on the
// English board from c1 under the whole board's symmetries too, whose
// canonical forms are of four classes: seconds an op), and (with -french)
// the French board's d3 class, reachable only and (spilled within 6 GiB)
// with complete games. peak-MiB is the search's largest charge to its
// memory budget; written-MiB, what a spilled run wrote. The English full
// analysis runs twice more, store=memory with room (no budget) and
// store=disk spilled (ExploreOptions.Spill) within a budget of 256 MiB,
// about what `pegs explore --spill DIR --mem 320MiB` leaves the search
// (see cli.SplitMem). In memory its peak charge is 108 MiB; spilled,
// layers are held in memory where they fit beside their expansion, and
// the fold's sums and kept numbers take the room, so it peaks near 256.
func BenchmarkExplore(b *testing.B) {
	cases := []struct {
		board, start, goal string
		search             string
		opt                ExploreOptions
	}{
		{"triangle", "1", "any", "full", ExploreOptions{}},
		{"triangle:6", "1", "any", "full", ExploreOptions{}},
		{"english", "d4", "center", "winnable", ExploreOptions{}},
		{"english", "d4", "center", "random", ExploreOptions{}},
		{"english", "d4", "center", "reachable", ExploreOptions{ReachableOnly: true}},
		{"english", "c1", "any", "reachable/start=c1/group=whole", ExploreOptions{WholeGroup: true, ReachableOnly: true}},
		{"english", "d4", "center", "full", ExploreOptions{}},
		{"english", "d4", "center", "nogames", ExploreOptions{NoGames: true}},
		{"english", "d4", "center", "full/store=memory", ExploreOptions{}},
		{"english", "d4", "center", "full/store=disk", ExploreOptions{Budget: Budget{Memory: 256 << 20}, Spill: Spill{Dir: "spill"}}},
		{"french", "d3", "any", "reachable", ExploreOptions{Budget: Budget{Memory: 6 << 30}, WholeGroup: true, ReachableOnly: true}},
		{"french", "d3", "any", "full/store=disk", ExploreOptions{Budget: Budget{Memory: 6 << 30}, WholeGroup: true, Spill: Spill{Dir: "spill"}}},
	}
	for _, c := range cases {
		bd, _ := engine.Lookup(c.board)
		start, _ := bd.Vacate(c.start)
		g, _ := bd.ParseGoal(c.goal)
		prob := Problem{bd, start, g}
		for _, w := range []int{1, 2} {
			b.Run("board="+c.board+"/search="+c.search+"/workers="+string(rune('0'+w)), func(b *testing.B) {
				if c.board == "french" && !*french {
					b.Skip("minutes an op: run with -french")
				}
				opt := c.opt
				opt.Workers = w
				if opt.Spill.Dir != "" {
					opt.Spill.Dir = filepath.Join(b.TempDir(), opt.Spill.Dir)
				}
				var positions, peak int64
				var spilled *SpillStats
				for b.Loop() {
					if c.search == "random" {
						r, err := RandomChance(context.Background(), prob, opt.Budget)
						if err != nil {
							b.Fatal(err)
						}
						positions += r.Winnable
						peak = max(peak, r.PeakBytes)
						continue
					}
					if c.search == "winnable" {
						ws, err := Winnable(context.Background(), prob, opt.Budget)
						if err != nil {
							b.Fatal(err)
						}
						positions += ws.Winnable
						peak = max(peak, ws.PeakBytes)
						continue
					}
					a, err := Explore(context.Background(), prob, opt)
					if err != nil {
						b.Fatal(err)
					}
					positions += a.Reachable
					peak = max(peak, a.PeakBytes)
					spilled = a.Spilled
				}
				b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
				b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
				if spilled != nil {
					b.ReportMetric(float64(spilled.Bytes)/(1<<20), "written-MiB")
				}
			})
		}
	}
}

// BenchmarkFirstSolution measures what `pegs solve` does for a board's
// usual start, cold: every table the solve needs is built in the op.
func BenchmarkFirstSolution(b *testing.B) {
	for _, name := range []string{"english", "wiegleb"} {
		bd, _ := engine.Lookup(name)
		g, _ := bd.ParseGoal("center")
		b.Run("board="+name, func(b *testing.B) {
			for b.Loop() {
				sol, err := Decide(context.Background(), Problem{bd, bd.Start(), g}, SolveOptions{})
				if err != nil || !sol.Solvable {
					b.Fatal(sol.Solvable, err)
				}
			}
		})
	}
}

// BenchmarkStarts compares the two ways Starts can analyse every start
// class: one search over the union of their state spaces (together), or
// one search per class (each, the fallback).
func BenchmarkStarts(b *testing.B) {
	for _, name := range []string{"triangle:6", "triangle:7"} {
		bd, _ := engine.Lookup(name)
		reps, _ := startClasses(bd)
		b.Run("board="+name+"/search=together", func(b *testing.B) {
			var positions int64
			for b.Loop() {
				err := startsTogether(context.Background(), bd, reps, ExploreOptions{}, func(_ int, a *Analysis) error {
					positions += a.Reachable
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
		})
		b.Run("board="+name+"/search=each", func(b *testing.B) {
			var positions int64
			for b.Loop() {
				for _, h := range reps {
					prob := Problem{bd, bd.Full() &^ (1 << uint(h)), engine.Goal{Kind: engine.OnePeg}}
					a, err := Explore(context.Background(), prob, ExploreOptions{WholeGroup: true, NoGames: true})
					if err != nil {
						b.Fatal(err)
					}
					positions += a.Reachable
				}
			}
			b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}

// BenchmarkFewestMoves measures optimal solutions by moves, the winnable
// set included; english-centre is the centre game (`pegs solve --board
// english --start d4 --metric moves`, 18 moves).
func BenchmarkFewestMoves(b *testing.B) {
	eng := engine.English()
	goal, _ := eng.ParseGoal("center")
	for _, c := range []struct{ name, pic string }{
		{"problem=english-pyramid", "....o...ooo...ooooo.ooooooo......"},
		{"problem=english-arrow", ".o.ooo.ooooo....o......o...oooooo"},
		{"problem=english-centre", eng.Line(eng.Start())},
	} {
		p, _ := eng.ParsePosition(c.pic)
		b.Run(c.name+"/strategy=fewest-moves", func(b *testing.B) {
			var nodes int64
			for b.Loop() {
				sol, err := FewestMoves(context.Background(), Problem{eng, p, goal}, Budget{})
				if err != nil || !sol.Solvable {
					b.Fatal(err)
				}
				nodes += sol.Nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "positions/op")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "positions/s")
		})
	}
}
