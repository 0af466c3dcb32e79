package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"pegs/engine"
)

// square returns the full n x n square board.
func square(t *testing.T, n int) *engine.Board {
	t.Helper()
	b, err := engine.Parse(fmt.Sprint("square", n), strings.Repeat(strings.Repeat("o", n)+"\n", n), engine.Square)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMeet checks meetings against the winnable sets of searches of
// everything a position reaches: from positions along random games, whether
// the position, its children and grandchildren can meet the goal (the
// start's side of the meeting), the same for every position along the
// solution it finds and their children (past the meeting, the goal's side),
// and that the solution replays to the goal.
func TestMeet(t *testing.T) {
	for _, c := range []struct {
		board, goal       string
		most, least       int // pegs of the positions tried
		games             int
		wantWin, wantLoss bool
	}{
		{"english", "center", 23, 19, 2, true, true},
		{"english", "any", 23, 19, 2, true, true},
		{"triangle:6", "any", 20, 3, 4, true, true},
		{"triangle:6", "1", 20, 3, 4, true, true},
		{"square5", "center", 21, 5, 4, true, true},
		{"square5", "any", 21, 5, 4, true, true},
	} {
		t.Run(c.board+"/"+c.goal, func(t *testing.T) {
			var b *engine.Board
			if c.board == "square5" {
				b = square(t, 5)
			} else {
				b = lookup(t, c.board)
			}
			g := goal(t, b, c.goal)
			start := b.Start()
			if c.board == "square5" {
				// Two vacancies: no single one is in the class of the
				// centre's one peg.
				start = b.Full() &^ position(t, b, "a1", "d1")
			}
			wins, losses := 0, 0
			for _, jumps := range randomGames(b, start, c.games, rand.New(rand.NewPCG(3, 4))) {
				p := start
				for _, j := range jumps {
					if p = p.Apply(j); p.Pegs() > c.most || p.Pegs() < c.least {
						continue
					}
					prob := Problem{b, p, g}
					mt, err := meet(context.Background(), prob, ExploreOptions{})
					if err != nil {
						t.Fatal(err)
					}
					ws, err := Winnable(context.Background(), prob, ExploreOptions{})
					if err != nil {
						t.Fatal(err)
					}
					agree := func(q engine.Position) {
						t.Helper()
						if got, _ := mt.winnable(q); got != ws.Contains(q) {
							t.Fatalf("from %s: %s (%d pegs, met at %d) winnable %v, want %v", b.Line(p), b.Line(q), q.Pegs(), mt.m, got, ws.Contains(q))
						}
					}
					agree(p)
					for _, j := range b.Moves(nil, p) {
						q := p.Apply(j)
						agree(q)
						for _, j := range b.Moves(nil, q) {
							agree(q.Apply(j))
						}
					}
					path, err := mt.path(p)
					if !ws.Contains(p) {
						losses++
						if err == nil {
							t.Fatalf("%s: path %v from a lost position", b.Line(p), path)
						}
						continue
					}
					wins++
					if err != nil {
						t.Fatalf("%s: %v", b.Line(p), err)
					}
					q := p
					for _, j := range path {
						q = q.Apply(j)
						for _, k := range b.Moves(nil, q) {
							agree(q.Apply(k))
						}
					}
					if end, err := b.Replay(p, path); err != nil || !g.Reached(end) {
						t.Fatalf("%s: path %v ends in %s (%v), missing the goal", b.Line(p), path, b.Line(end), err)
					}
				}
			}
			if c.wantWin && wins == 0 || c.wantLoss && losses == 0 {
				t.Errorf("%d winnable and %d lost positions: want some of each", wins, losses)
			}
		})
	}
}

// position returns the position with pegs in the holes labelled.
func position(t *testing.T, b *engine.Board, labels ...string) engine.Position {
	t.Helper()
	var p engine.Position
	for _, l := range labels {
		h, err := b.Hole(l)
		if err != nil {
			t.Fatal(err)
		}
		p |= 1 << uint(h)
	}
	return p
}

// TestSameAsAny checks where a meeting for the centre answers for one peg
// anywhere too (and so a hint's oracle asks no second meeting): on the English board (the last peg of the centre's class
// ends at d4 or d1, whose vacancies lead to one position), meetings for
// both goals agree on positions of two pegs or more; on the 7x7 square the
// centre's class also ends in corners, and a position of two pegs that ends
// in a corner cannot end at the centre.
func TestSameAsAny(t *testing.T) {
	b := engine.English()
	centre, anyPeg := goal(t, b, "center"), goal(t, b, "any")
	if !sameAsAny(b, b.Start(), centre) {
		t.Errorf("English centre: sameAsAny false, want true")
	}
	for _, jumps := range randomGames(b, b.Start(), 3, rand.New(rand.NewPCG(11, 12))) {
		p := b.Start()
		for _, j := range jumps {
			if p = p.Apply(j); p.Pegs() > 20 {
				continue
			}
			mc, err := meet(context.Background(), Problem{b, p, centre}, ExploreOptions{})
			if err != nil {
				t.Fatal(err)
			}
			ma, err := meet(context.Background(), Problem{b, p, anyPeg}, ExploreOptions{})
			if err != nil {
				t.Fatal(err)
			}
			wc, _ := mc.winnable(p)
			wa, _ := ma.winnable(p)
			if wc != wa {
				t.Errorf("%s: centre %v, one peg anywhere %v; want the same", b.Line(p), wc, wa)
			}
		}
	}
	sq := square(t, 7)
	corner := position(t, sq, "a2", "a3") // a3-a1 ends in the corner
	centre, anyPeg = goal(t, sq, "center"), goal(t, sq, "any")
	if sameAsAny(sq, corner, centre) {
		t.Errorf("7x7 square: sameAsAny true, want false")
	}
	for _, c := range []struct {
		g    engine.Goal
		want bool
	}{{centre, false}, {anyPeg, true}} {
		mt, err := meet(context.Background(), Problem{sq, corner, c.g}, ExploreOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := mt.winnable(corner); got != c.want {
			t.Errorf("7x7 square %s, goal %v: winnable %v, want %v", sq.Line(corner), c.g, got, c.want)
		}
	}
	// A hint's oracle for a lone position asks the second meeting there.
	w, err := loneOracle(context.Background(), sq, corner, centre, Options{})
	if err != nil {
		t.Fatal(err)
	}
	win, ok1 := w.Winnable(corner)
	one, ok2 := w.OnePeg(corner)
	end := position(t, sq, "a1")
	oneEnd, ok3 := w.OnePeg(end)
	if win || !one || !oneEnd || !ok1 || !ok2 || !ok3 {
		t.Errorf("7x7 square %s: centre %v (%v), one peg %v (%v), then %v (%v); want false, true, true", sq.Line(corner), win, ok1, one, ok2, oneEnd, ok3)
	}
}
