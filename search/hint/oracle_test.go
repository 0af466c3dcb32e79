package hint

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/search"
	"pegs/search/internal/kernel"
)

func TestStartReaches(t *testing.T) {
	b := engine.English()
	other, _ := b.Hole("d3")
	if b.Class(b.Complement(1<<uint(other))) == b.Class(b.Start()) {
		t.Fatal("d3's start is in the class of the centre's")
	}
	for _, c := range []struct {
		start engine.Position
		want  bool
	}{{b.Start(), true}, {b.Complement(1 << uint(other)), false}} {
		games := rand.New(rand.NewPCG(9, 10))
		for range 5 {
			jumps := b.RandomGame(c.start, games)
			p := c.start
			for i := 0; i <= len(jumps); i++ {
				if i > 0 {
					p = p.Apply(jumps[i-1])
				}
				want := c.want && p.Pegs() >= levelCheckFrom
				got, err := startReaches(context.Background(), b, b.Start(), p, kernel.SolveConfig{Memory: search.DefaultMemory, Techniques: kernel.All()})
				if err != nil || got != want {
					t.Fatalf("start %s reaches %s: %v (%v); want %v", b.Line(b.Start()), b.Line(p), got, err, want)
				}
			}
		}
	}
}

func TestOracleOutsideLevel(t *testing.T) {
	b := engine.English()
	g := enginetest.Goal(t, b, "center")
	o, err := NewOracle(context.Background(), search.Problem{Board: b, Start: b.Start(), Goal: g}, search.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	// A position of 31 pegs that can end at the centre although the
	// centre game never reaches it: its two holes, as pegs, cannot come
	// back to one peg at d4.
	var outside engine.Position
	for x := 0; x < b.Holes() && outside == 0; x++ {
		for y := x + 1; y < b.Holes(); y++ {
			q := b.Full() &^ (1<<uint(x) | 1<<uint(y))
			win, err1 := search.Solve(context.Background(), search.Problem{Board: b, Start: q, Goal: g}, search.SolveOptions{})
			back, err2 := search.Solve(context.Background(), search.Problem{Board: b, Start: b.Complement(q), Goal: g}, search.SolveOptions{})
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if win.Solvable && !back.Solvable {
				outside = q
				break
			}
		}
	}
	if outside == 0 {
		t.Fatal("no winnable position outside the centre game found")
	}
	if w, _ := o.Winnable(outside); w {
		t.Fatalf("the oracle holds %s, which its start does not reach", b.Line(outside))
	}
	a := NewAdvisor(Options{})
	defer a.Close()
	a.AddOracle(o)
	h, err := a.Hint(context.Background(), b, outside, g, nil)
	if err != nil || h.Status != GoalPossible || h.Jump == nil {
		t.Errorf("hint for %s with the oracle: %+v, %v; want the goal possible", b.Line(outside), h, err)
	}
	// A history from outside is of another level, whose positions the
	// oracle, which calls outside lost, does not know.
	if w, ok := o.Winnable(outside); w || !ok {
		t.Fatalf("the oracle says %v (ok %v) for %s; want false, true (else the history below tests nothing)", w, ok, b.Line(outside))
	}
	h, err = a.Hint(context.Background(), b, outside, g, &History{Start: outside})
	if err != nil || h.Status != GoalPossible || h.Jump == nil || !b.Legal(outside, *h.Jump) {
		t.Errorf("hint for %s with a history from it and the centre game's oracle: %+v, %v; want the goal possible", b.Line(outside), h, err)
	}
	other := b.Full() &^ 1
	want, err := search.Solve(context.Background(), search.Problem{Board: b, Start: other, Goal: g}, search.SolveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h, err = a.Hint(context.Background(), b, other, g, &History{Start: other})
	if err != nil || h.GoalPossible != want.Solvable {
		t.Errorf("hint for %s with a history from it and the centre game's oracle: %+v, %v; want goal possible %v", b.Line(other), h, err, want.Solvable)
	}
}

func TestOracleOnePeg(t *testing.T) {
	b := enginetest.Board(t, "triangle")
	start, _ := b.Vacate("1")
	g := enginetest.Goal(t, b, "10")
	o, err := NewOracle(context.Background(), search.Problem{Board: b, Start: start, Goal: g}, search.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	loaded, _ := roundTrip(t, o)
	extra := 0
	games := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		jumps := b.RandomGame(start, games)
		p := start
		for i := 0; ; i++ {
			for _, c := range []struct {
				g   engine.Goal
				ask func(engine.Position) (bool, bool)
			}{{g, loaded.Winnable}, {enginetest.Goal(t, b, "any"), loaded.OnePeg}} {
				got, ok := c.ask(p)
				sol, err := search.Solve(context.Background(), search.Problem{Board: b, Start: p, Goal: c.g}, search.SolveOptions{})
				if err != nil || !ok || got != sol.Solvable {
					t.Fatalf("%s toward %s: oracle says %v (ok %v), solver %v (%v)", b.Line(p), b.FormatGoal(c.g), got, ok, sol.Solvable, err)
				}
			}
			if w, _ := loaded.Winnable(p); !w {
				if one, _ := loaded.OnePeg(p); one {
					extra++
				}
			}
			if i == len(jumps) {
				break
			}
			p = p.Apply(jumps[i])
		}
	}
	if extra == 0 {
		t.Error("no game met a position that can end with one peg but not at the goal; the test checks nothing of the one-peg table")
	}
}

func TestOracleFewest(t *testing.T) {
	b := enginetest.Board(t, "triangle")
	start, _ := b.Vacate("1")
	for _, name := range []string{"any", "10"} {
		g := enginetest.Goal(t, b, name)
		o, err := NewOracle(context.Background(), search.Problem{Board: b, Start: start, Goal: g}, search.Budget{})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := o.Fewest(start); ok {
			t.Fatalf("goal %s: an oracle without the fewest table claims to know", name)
		}
		o.fewestMin = 1
		if err := o.AddFewest(context.Background(), search.Budget{}); err != nil {
			t.Fatal(err)
		}
		loaded, _ := roundTrip(t, o)
		if loaded.FewestLen() != o.FewestLen() || o.FewestLen() == 0 {
			t.Fatalf("goal %s: fewest table of %d positions, %d after loading", name, o.FewestLen(), loaded.FewestLen())
		}
		seen := map[engine.Position]bool{}
		var byFewest [16]int
		var walk func(p engine.Position)
		walk = func(p engine.Position) {
			if seen[p] {
				return
			}
			seen[p] = true
			sol, err := fewestPegs(context.Background(), b, p, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			want := sol.Final.Pegs()
			byFewest[want]++
			if got, ok := loaded.Fewest(p); !ok || got != want {
				t.Fatalf("goal %s, %s: fewest %d (ok %v), exhaustive search %d", name, b.Line(p), got, ok, want)
			}
			for _, j := range b.Moves(nil, p) {
				walk(p.Apply(j))
			}
		}
		walk(start)
		if byFewest[3] == 0 {
			t.Errorf("goal %s: no position ends with three pegs at best; the table is not tested", name)
		}
	}
}

func roundTrip(t testing.TB, o *Oracle) (*Oracle, int) {
	t.Helper()
	var buf bytes.Buffer
	if err := o.Write(&buf); err != nil {
		t.Fatal(err)
	}
	size := buf.Len()
	loaded, err := LoadOracle(&buf, o.board)
	if err != nil {
		t.Fatal(err)
	}
	return loaded, size
}
