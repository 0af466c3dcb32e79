package dfs

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/search/internal/key"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// all and pruned are the configurations of every technique, and of depth
// first alone.
var (
	all    = Config{Memory: 1 << 30, Techniques: All()}
	pruned = Config{Memory: 1 << 30, Techniques: Techniques{Table: true, Symmetry: true, Prune: true}}
)

// withDead is all with a shared table of refuted positions.
func withDead(dead *PosSet) Config {
	c := all
	c.Dead = dead
	return c
}

// checkSolution replays jumps and checks they meet the goal.
func checkSolution(t *testing.T, b *engine.Board, start engine.Position, g engine.Goal, jumps []engine.Jump) {
	t.Helper()
	final, err := b.Replay(start, jumps)
	if err != nil {
		t.Fatalf("solution does not replay: %v", err)
	}
	if g.Kind != engine.FewestPegs && !g.Reached(final) {
		t.Fatalf("solution ends in %s, missing the goal", b.Line(final))
	}
}

// winnable returns the positions start reaches that can meet g, canonical
// under g's symmetry, from a layered search forward and a walk back.
func winnable(t *testing.T, b *engine.Board, start engine.Position, g engine.Goal) map[engine.Position]bool {
	t.Helper()
	ctx := context.Background()
	gen := movegen.New(b, b.GoalSymmetry(g))
	mem := memory.New(1 << 32)
	e, err := layered.NewExpander(layered.Positions, layered.Setup{Gen: gen, Mem: mem})
	if err != nil {
		t.Fatal(err)
	}
	first := layered.First(gen.Group, start, false)
	fwd, err := layered.Forward(ctx, e, first, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	byPegs := make(map[int]*layered.Layer)
	for _, l := range fwd {
		byPegs[l.Pegs()] = l
	}
	win := map[engine.Position]bool{}
	err = layered.WalkBack(ctx, g, gen, byPegs, start.Pegs(), false, false, layered.Config{}, mem, func(_ int, keys []uint64) error {
		for _, k := range keys {
			win[key.Unmix(k)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return win
}

// TestSolveBeam checks the beam searches that Solve runs beside depth
// first once it has taken long (see beamAfter): a solution they find
// replays, and a refutation that passes them is the same as depth first's
// alone (Pruned).
func TestSolveBeam(t *testing.T) {
	ctx := context.Background()
	dia, _ := engine.Lookup("diamond")
	start, _ := dia.Vacate("e3")
	anyGoal := engine.Goal{Kind: engine.OnePeg}
	s := newSolver(ctx, dia, start, anyGoal, all)
	const width = 1 << 10
	if !s.beam(start, width, beamIsolated[0]) {
		t.Fatalf("a beam %d wide finds no solution vacating e3 on the diamond board", width)
	}
	var jumps []engine.Jump
	for _, k := range s.path[:start.Pegs()-1] {
		jumps = append(jumps, dia.Jumps()[k])
	}
	checkSolution(t, dia, start, anyGoal, jumps)
	sol, err := Solve(ctx, dia, start, anyGoal, all)
	if err != nil || !sol.Solvable {
		t.Fatalf("Solve vacating e3 on the diamond board: %v, %v", sol.Solvable, err)
	}
	checkSolution(t, dia, start, anyGoal, sol.Jumps)
	if sol.Nodes <= beamAfter {
		t.Errorf("solved in %d positions: no beam search ran", sol.Nodes)
	}

	eng := engine.English()
	centre := enginetest.Goal(t, eng, "center")
	p, _ := eng.ParsePosition("..o..oooo.o.ooooooooooo.oooo.oooo") // 25 pegs, lost
	full, err := Solve(ctx, eng, p, centre, all)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := Solve(ctx, eng, p, centre, pruned)
	if err != nil {
		t.Fatal(err)
	}
	if full.Solvable != alone.Solvable || full.Nodes <= beamAfter {
		t.Errorf("with beams: solvable %v after %d positions; depth first alone: %v after %d", full.Solvable, full.Nodes, alone.Solvable, alone.Nodes)
	}
}

// TestSolveShared checks that searches sharing their refuted positions
// (Config.Dead) answer as separate ones do, with less work, along a random
// English game from its end back to its last winnable position: lost
// positions, each a parent of the one before, as a hint's jumps taken back
// refute them.
func TestSolveShared(t *testing.T) {
	b := engine.English()
	g := enginetest.Goal(t, b, "center")
	jumps := b.RandomGame(b.Start(), rand.New(rand.NewPCG(1, 2)))
	dead := NewPosSet(1 << 30)
	var alone, shared int64
	lost := 0
	for i := len(jumps); i >= 0; i-- {
		p, _ := b.Replay(b.Start(), jumps[:i])
		a, err := Solve(context.Background(), b, p, g, all)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Solve(context.Background(), b, p, g, withDead(dead))
		if err != nil {
			t.Fatal(err)
		}
		if a.Solvable != s.Solvable {
			t.Fatalf("%s: solvable %v alone, %v sharing", b.Line(p), a.Solvable, s.Solvable)
		}
		alone += a.Nodes
		shared += s.Nodes
		if s.Solvable {
			checkSolution(t, b, p, g, s.Jumps)
			break
		}
		lost++
	}
	if lost < 5 {
		t.Errorf("%d lost positions before the last winnable one; want 5 or more", lost)
	}
	if shared >= alone {
		t.Errorf("sharing searched %d positions, alone %d", shared, alone)
	}

	// A shared table that earlier searches filled too far for this one is
	// emptied, and this one still answers: a lost position that tables
	// thousands of positions, with a table of 1 MiB (at most 32,768 held)
	// already holding nearly that many.
	for i := len(jumps) - 1; i >= 0; i-- {
		p, _ := b.Replay(b.Start(), jumps[:i])
		fresh := NewPosSet(1 << 20)
		sol, err := Solve(context.Background(), b, p, g, withDead(fresh))
		if err != nil || sol.Solvable {
			break
		}
		if fresh.n < 4096 {
			continue
		}
		full := NewPosSet(1 << 20)
		for k := range 32768 - fresh.n/2 {
			full.Add(engine.Position(k+1) << 40) // no position of the board
		}
		if _, err := solveOnce(context.Background(), b, p, g, withDead(full)); !errors.Is(err, memory.ErrExceeded) {
			t.Fatalf("%s: %v with a full table; want memory.ErrExceeded, or the test shows nothing", b.Line(p), err)
		}
		full = NewPosSet(1 << 20)
		for k := range 32768 - fresh.n/2 {
			full.Add(engine.Position(k+1) << 40)
		}
		if sol, err := Solve(context.Background(), b, p, g, withDead(full)); err != nil || sol.Solvable {
			t.Errorf("%s: %v, solvable %v with a full shared table; want a refutation", b.Line(p), err, sol.Solvable)
		}
		return
	}
	t.Error("no lost position of the game tables 4,096 positions or more")
}

// TestSolveCutTable checks that a depth-first round cut short for a beam
// search (see find) tables no position it has not refuted: after rounds
// of a few thousand positions each, every position in the table of dead
// positions must be one the English centre game's winnable set lacks (a
// position the game reaches has its descendants in the game).
func TestSolveCutTable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the English winnable set")
	}
	ctx := context.Background()
	b := engine.English()
	centre := enginetest.Goal(t, b, "center")
	ws := winnable(t, b, b.Start(), centre)
	// Winnable, but depth first spends millions of positions refuting its
	// first choices.
	p, _ := b.ParsePosition("oooooooooooooooooo.ooo..ooooo.ooo")
	if !ws[b.GoalSymmetry(centre).Canonical(p)] {
		t.Fatal("the test position is not winnable")
	}
	s := newSolver(ctx, b, p, centre, all)
	cuts := 0
	for s.probeEnd, s.cut = s.nodes+1<<12, false; !s.win(p, s.img[0], 0); s.probeEnd, s.cut = s.nodes+1<<12, false {
		if !s.cut || s.err != nil {
			t.Fatalf("depth first refuted a winnable position (%v)", s.err)
		}
		if cuts++; cuts == 50 {
			break
		}
	}
	if cuts == 0 {
		t.Fatal("no round was cut")
	}
	for _, q := range s.table.keys {
		if q != 0 && ws[q] {
			t.Fatalf("after %d cut rounds the dead table holds winnable %s", cuts, b.Line(q))
		}
	}
}

// TestFewestBeam checks the fewest-pegs search with beam searches: on the
// diamond board's centre start (one peg is ruled out by class) a beam finds
// two pegs, and a search cut into short rounds (see lowest) finds the same
// fewest as one that is not, on English dead ends searched exhaustively.
func TestFewestBeam(t *testing.T) {
	ctx := context.Background()
	dia, _ := engine.Lookup("diamond")
	fewest := engine.Goal{Kind: engine.FewestPegs}
	two := all
	two.Floor = 2 // the position classes rule out one peg
	sol, err := Solve(ctx, dia, dia.Start(), fewest, two)
	if err != nil || sol.Final.Pegs() != 2 {
		t.Fatalf("fewest on the diamond board: %d pegs, %v", sol.Final.Pegs(), err)
	}
	checkSolution(t, dia, dia.Start(), fewest, sol.Jumps)
	if sol.Nodes <= fewestBeamAfter {
		t.Errorf("two pegs after %d positions: no beam search ran", sol.Nodes)
	}

	b := engine.English()
	checked := 0
	games := rand.New(rand.NewPCG(12, 13))
	for range 40 {
		jumps := b.RandomGame(b.Start(), games)
		if len(jumps) < 12 {
			continue
		}
		p := b.Start()
		for _, j := range jumps[:len(jumps)-8] {
			p = p.Apply(j) // a position 8 jumps before the game ends
		}
		whole, err := Solve(ctx, b, p, fewest, pruned)
		if err != nil {
			t.Fatal(err)
		}
		if whole.Final.Pegs() == 1 {
			continue // not a dead end: the search stops at one
		}
		s := newSolver(ctx, b, p, fewest, all)
		for s.probeEnd, s.cut = s.nodes+64, false; ; s.probeEnd, s.cut = s.nodes+64, false {
			s.fewest(p, s.img[0], 0)
			if s.err != nil {
				t.Fatal(s.err)
			}
			if !s.cut {
				break
			}
		}
		if s.best != whole.Final.Pegs() {
			t.Fatalf("%s: in rounds of 64 positions the fewest is %d; at once, %d", b.Line(p), s.best, whole.Final.Pegs())
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d dead ends checked", checked)
	}
}

// BenchmarkEndgame measures building the English centre game's endgame
// tables, small (what a single solve builds first) and full.
func BenchmarkEndgame(b *testing.B) {
	eng := engine.English()
	goal, _ := eng.ParseGoal("center")
	gen := movegen.New(eng, eng.GoalSymmetry(goal))
	for _, c := range []struct {
		name string
		size int
	}{{"size=small", smallEndgame}, {"size=full", fullEndgame}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if buildEndgame(context.Background(), eng, goal, eng.Class(eng.Start()), gen, 1<<30, c.size) == nil {
					b.Fatal("no table")
				}
			}
		})
	}
}

// TestScoresFromParent checks what the solver takes from a parent rather
// than work out for each child: a child's pagoda value (the parent's plus
// the jump's rise, for a beam's canonical child where pagodaSym) and,
// where the goal's tables allow it (shift), a beam's
// score of the canonical child (the parent's cost plus the jump's shift,
// and the isolated pegs of the child in the parent's orientation), on
// random positions of boards and goals whose symmetries keep the costs
// and whose do not.
func TestScoresFromParent(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	shifts, pagodaSyms := 0, 0
	for _, bg := range []struct{ board, goal string }{
		{"english", "center"}, {"english", "any"}, {"english", "a3"}, {"french", "any"},
		{"triangle", "any"}, {"triangle", "1"}, {"diamond", "any"}, {"wiegleb", "center"},
	} {
		t.Run(bg.board+"/"+bg.goal, func(t *testing.T) {
			b, err := engine.Lookup(bg.board)
			if err != nil {
				t.Fatal(err)
			}
			g := enginetest.Goal(t, b, bg.goal)
			s := newSolver(context.Background(), b, b.Start(), g, all)
			if s.shift != nil {
				shifts++
			}
			if s.pagodaSym {
				pagodaSyms++
			}
			gen := s.gen
			w := gen.NewParent()
			for range 300 {
				p := engine.Position(rng.Uint64()) & b.Full()
				w.Set(p)
				q := gen.ToLattice(p)
				for _, k := range gen.AppendMoves(nil, p) {
					child := p ^ gen.Masks[k]
					if s.pagoda != nil {
						if got, want := s.pagoda.Value(p)+s.rise[k], s.pagoda.Value(child); got != want {
							t.Fatalf("pagoda value of %s after jump %d: %d, want %d", b.Line(p), k, got, want)
						}
					}
					if s.pagodaSym {
						if got, want := s.pagoda.Value(p)+s.rise[k], s.pagoda.Value(w.Child(k)); got != want {
							t.Fatalf("pagoda value of the canonical child of %s by jump %d: %d, want %d", b.Line(p), k, got, want)
						}
					}
					if s.shift == nil {
						continue
					}
					for _, iso := range beamIsolated {
						got := iso*gen.LatticeIsolated(q^gen.LatMasks[k]) + s.pegCost(p) + s.shift[k]
						if want := s.beamScore(w.Child(k), iso); got != want {
							t.Fatalf("beam score of %s after jump %d: %d, want %d", b.Line(p), k, got, want)
						}
					}
				}
			}
		})
	}
	if shifts == 0 || shifts == 8 {
		t.Errorf("%d of 8 goals' tables take beam scores from parents, want some and not all", shifts)
	}
	if pagodaSyms == 0 {
		t.Error("no goal's tables take a beam child's pagoda value from its parent")
	}
}
