package search

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"pegs/engine"
	"pegs/engine/enginetest"
)

func TestSolveClassicLevels(t *testing.T) {
	b := engine.English()
	g := enginetest.Goal(t, b, "center")
	levels := []struct{ name, pic string }{
		{"centre", b.Line(b.Start())},
		{"Cross", "....o...ooo.....o......o........."},
		{"Plus", "....o....o....ooooo....o....o...."},
		{"Fireplace", "oooooo..ooo....o.o..............."},
		{"Pyramid", "....o...ooo...ooooo.ooooooo......"},
		{"Arrow", ".o.ooo.ooooo....o......o...oooooo"},
		{"Diamond", ".o.ooo.ooooo.ooo.ooo.ooooo.ooo.o."},
		{"Full", "oooooooooooooooo.oooooooooooooooo"},
	}
	for _, lv := range levels {
		p, err := b.ParsePosition(lv.pic)
		if err != nil {
			t.Fatalf("%s: %v", lv.name, err)
		}
		sol, err := Solve(context.Background(), Problem{b, p, g}, SolveOptions{})
		if err != nil || !sol.Solvable {
			t.Fatalf("%s: solvable=%v err=%v, want a solution to d4", lv.name, sol.Solvable, err)
		}
		checkSolution(t, b, p, g, sol)
		if got, want := len(sol.Jumps), p.Pegs()-1; got != want {
			t.Errorf("%s: %d jumps, want %d", lv.name, got, want)
		}
	}
}

func TestSolveTriangleStarts(t *testing.T) {
	b := enginetest.Board(t, "triangle")
	g := enginetest.Goal(t, b, "any")
	for h := range b.Holes() {
		start := b.Full() &^ (1 << uint(h))
		sol, err := Solve(context.Background(), Problem{b, start, g}, SolveOptions{})
		if err != nil || !sol.Solvable {
			t.Fatalf("vacate %s: solvable=%v err=%v", b.Label(h), sol.Solvable, err)
		}
		checkSolution(t, b, start, g, sol)
	}
}

// TestSolveFrench checks that the French centre start is refuted by class
// at once, and solves one start of each of the three symmetry classes of
// single vacancies that can be reduced to one peg.
func TestSolveFrench(t *testing.T) {
	b := engine.French()
	g := enginetest.Goal(t, b, "any")
	sol, err := Solve(context.Background(), Problem{b, b.Start(), g}, SolveOptions{})
	if err != nil || sol.Solvable || !sol.Refuted || sol.Nodes != 0 {
		t.Errorf("French centre: solvable=%v refuted=%v nodes=%d err=%v; want refuted by class at once", sol.Solvable, sol.Refuted, sol.Nodes, err)
	}
	if testing.Short() {
		t.Skip("French solves take about a minute")
	}
	for _, s := range []string{"c1", "d2", "d3"} {
		start, err := b.Vacate(s)
		if err != nil {
			t.Fatal(err)
		}
		sol, err := Solve(context.Background(), Problem{b, start, g}, SolveOptions{})
		if err != nil || !sol.Solvable {
			t.Fatalf("French vacate %s: solvable=%v err=%v", s, sol.Solvable, err)
		}
		checkSolution(t, b, start, g, sol)
	}
}

// TestFrenchOnePegVacancies checks that exactly the published 16 single
// vacancies can be reduced to one peg: the others are refuted by class, and
// each of the 16 falls in one of three symmetry classes, one of which
// TestSolveFrench solves.
func TestFrenchOnePegVacancies(t *testing.T) {
	want := loadPublished(t).FrenchOnePeg
	b := engine.French()
	g := enginetest.Goal(t, b, "any")
	var feasible []string
	for h := range b.Holes() {
		if b.Feasible(b.Full()&^(1<<uint(h)), g) {
			feasible = append(feasible, b.Label(h))
		}
	}
	slices.Sort(feasible)
	slices.Sort(want)
	if diff := cmp.Diff(want, feasible); diff != "" {
		t.Errorf("class-feasible single vacancies (-published +got):\n%s", diff)
	}
	reps := map[engine.Position]bool{}
	for _, l := range feasible {
		p, _ := b.Vacate(l)
		reps[b.Symmetry().Canonical(p)] = true
	}
	for _, l := range []string{"c1", "d2", "d3"} {
		p, _ := b.Vacate(l)
		delete(reps, b.Symmetry().Canonical(p))
	}
	if len(reps) != 0 {
		t.Errorf("%d feasible vacancies lie outside the classes of c1, d2, d3", len(reps))
	}
}

func TestSolveFewest(t *testing.T) {
	b := engine.English()
	// Two pegs apart cannot jump: the fewest is two.
	p, _ := b.ParsePosition("o.o..............................")
	sol, err := Solve(context.Background(), Problem{b, p, engine.Goal{Kind: engine.FewestPegs}}, SolveOptions{})
	if err != nil || sol.Final.Pegs() != 2 {
		t.Errorf("fewest from two apart: %d pegs, %v", sol.Final.Pegs(), err)
	}
	sol, err = Solve(context.Background(), Problem{b, b.Start(), engine.Goal{Kind: engine.FewestPegs}}, SolveOptions{})
	if err != nil || sol.Final.Pegs() != 1 {
		t.Errorf("fewest from the centre start: %d pegs, %v", sol.Final.Pegs(), err)
	}
	checkSolution(t, b, b.Start(), engine.Goal{Kind: engine.FewestPegs}, sol)
}

// TestSolveMemoryBudget refutes a lost English position of 27 pegs, which
// takes millions of positions, within 64 KiB.
func TestSolveMemoryBudget(t *testing.T) {
	b := engine.English()
	start, _ := b.ParsePosition("ooo..ooo.oooooo..oooooo.ooooooooo")
	_, err := Solve(context.Background(), Problem{b, start, enginetest.Goal(t, b, "center")}, SolveOptions{Budget: Budget{Memory: 64 << 10}})
	if err == nil {
		t.Fatal("a 64 KiB budget sufficed; want ErrMemory")
	}
	if !isMemory(err) {
		t.Errorf("err = %v, want ErrMemory", err)
	}
}

func TestSolveCancel(t *testing.T) {
	b := engine.French()
	start, _ := b.Vacate("d3")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Solve(ctx, Problem{b, start, enginetest.Goal(t, b, "any")}, SolveOptions{}); err == nil {
		t.Error("cancelled search returned no error")
	}
}

// TestSolveMaxNodes checks that a search past SolveOptions.MaxNodes stops with
// ErrNodeLimit, having visited about that many positions: a lost English
// position of 27 pegs that takes millions to refute.
func TestSolveMaxNodes(t *testing.T) {
	b := engine.English()
	p, err := b.ParsePosition("ooo..ooo.oooooo..oooooo.ooooooooo")
	if err != nil {
		t.Fatal(err)
	}
	sol, err := Solve(context.Background(), Problem{b, p, enginetest.Goal(t, b, "center")}, SolveOptions{MaxNodes: 1 << 16})
	if !errors.Is(err, ErrNodeLimit) || sol.Nodes > 1<<17 {
		t.Errorf("MaxNodes 2^16: err = %v after %d positions, want ErrNodeLimit after about 2^16", err, sol.Nodes)
	}
}

// TestDecide checks Decide against the English centre game's winnable set
// on positions of random games, with its depth-first budget lowered so that
// lost positions take the layered way (depth first looks at its budget
// every 65,536 positions, so winnable ones mostly do not), and the fewest
// pegs against depth first alone. A budget too small for the layered
// search leaves depth first to answer alone.
func TestDecide(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the English winnable set")
	}
	opt := SolveOptions{Budget: withLoneBase(Budget{}, 1<<6)}
	b := engine.English()
	g := enginetest.Goal(t, b, "center")
	ws, err := Winnable(context.Background(), Problem{b, b.Start(), g}, Budget{})
	if err != nil {
		t.Fatal(err)
	}
	layered, layeredFewest := 0, 0
	games := rand.New(rand.NewPCG(7, 8))
	for game := range 3 {
		jumps := b.RandomGame(b.Start(), games)
		p := b.Start()
		for _, j := range jumps {
			if p = p.Apply(j); p.Pegs() > 22 {
				continue
			}
			sol, err := Decide(context.Background(), Problem{b, p, g}, opt)
			if err != nil {
				t.Fatalf("game %d at %s: %v", game, b.Line(p), err)
			}
			if want := ws.Contains(p); sol.Solvable != want {
				t.Fatalf("game %d at %s: solvable %v, want %v", game, b.Line(p), sol.Solvable, want)
			}
			if sol.Layered {
				layered++
			}
			if p.Pegs() > 20 {
				continue
			}
			// The fewest pegs: the last layer of a layered count, then depth
			// first to that many, against depth first alone.
			fewest := engine.Goal{Kind: engine.FewestPegs}
			sol, err = Decide(context.Background(), Problem{b, p, fewest}, opt)
			want, err2 := Solve(context.Background(), Problem{b, p, fewest}, SolveOptions{})
			if err != nil || err2 != nil || sol.Final.Pegs() != want.Final.Pegs() {
				t.Fatalf("game %d at %s: fewest %d (%v), depth first alone %d (%v)", game, b.Line(p), sol.Final.Pegs(), err, want.Final.Pegs(), err2)
			}
			if sol.Layered {
				layeredFewest++
			}
		}
	}
	if layered == 0 || layeredFewest == 0 {
		t.Errorf("%d positions decided layer by layer, %d fewest pegs counted so: want some of each", layered, layeredFewest)
	}
	// A lost position of 23 pegs: its layered search passes 8 MiB, its
	// depth-first refutation does not (at 16 MiB the layered search fits).
	p, err := b.ParsePosition("oo...oo....ooo.o..ooooooooooooooo")
	if err != nil || ws.Contains(p) {
		t.Fatalf("%s: %v; want a lost position", b.Line(p), err)
	}
	sol, err := Decide(context.Background(), Problem{b, p, g}, SolveOptions{Budget: withLoneBase(Budget{Memory: 8 << 20}, 1<<6)})
	if err != nil || sol.Solvable || sol.Layered {
		t.Errorf("lost %s within 8 MiB: solvable %v, layered %v, %v; want refuted depth first", b.Line(p), sol.Solvable, sol.Layered, err)
	}
}
