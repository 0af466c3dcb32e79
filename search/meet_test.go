package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/search/internal/layered"
)

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
			t.Parallel()
			var b *engine.Board
			if c.board == "square5" {
				b = enginetest.Square(t, 5)
			} else {
				b = enginetest.Board(t, c.board)
			}
			g := enginetest.Goal(t, b, c.goal)
			start := b.Start()
			if c.board == "square5" {
				// Two vacancies: no single one is in the class of the
				// centre's one peg.
				start = b.Full() &^ enginetest.Position(t, b, "a1", "d1")
			}
			wins, losses := 0, 0
			games := rand.New(rand.NewPCG(3, 4))
			for range c.games {
				jumps := b.RandomGame(start, games)
				p := start
				for _, j := range jumps {
					if p = p.Apply(j); p.Pegs() > c.most || p.Pegs() < c.least {
						continue
					}
					prob := Problem{b, p, g}
					mt, err := layered.Meet(context.Background(), b, p, g, layered.Config{}, DefaultMemory)
					if err != nil {
						t.Fatal(err)
					}
					ws, err := Winnable(context.Background(), prob, Budget{})
					if err != nil {
						t.Fatal(err)
					}
					agree := func(q engine.Position) {
						t.Helper()
						if got, _ := mt.Winnable(q); got != ws.Contains(q) {
							t.Fatalf("from %s: %s (%d pegs) winnable %v, want %v", b.Line(p), b.Line(q), q.Pegs(), got, ws.Contains(q))
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
					path, err := mt.Path(p)
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

// TestSameAsAny checks where a meeting for the centre answers for one peg
// anywhere too (and so a hint's oracle asks no second meeting): on the English board (the last peg of the centre's class
// ends at d4 or d1, whose vacancies lead to one position), meetings for
// both goals agree on positions of two pegs or more; on the 7x7 square the
// centre's class also ends in corners, and a position of two pegs that ends
// in a corner cannot end at the centre.
func TestSameAsAny(t *testing.T) {
	t.Parallel()
	b := engine.English()
	centre, anyPeg := enginetest.Goal(t, b, "center"), enginetest.Goal(t, b, "any")
	if !layered.SameAsAny(b, b.Start(), centre) {
		t.Errorf("English centre: sameAsAny false, want true")
	}
	games := rand.New(rand.NewPCG(11, 12))
	for range 3 {
		jumps := b.RandomGame(b.Start(), games)
		p := b.Start()
		for _, j := range jumps {
			if p = p.Apply(j); p.Pegs() > 20 {
				continue
			}
			mc, err := layered.Meet(context.Background(), b, p, centre, layered.Config{}, DefaultMemory)
			if err != nil {
				t.Fatal(err)
			}
			ma, err := layered.Meet(context.Background(), b, p, anyPeg, layered.Config{}, DefaultMemory)
			if err != nil {
				t.Fatal(err)
			}
			wc, _ := mc.Winnable(p)
			wa, _ := ma.Winnable(p)
			if wc != wa {
				t.Errorf("%s: centre %v, one peg anywhere %v; want the same", b.Line(p), wc, wa)
			}
		}
	}
	sq := enginetest.Square(t, 7)
	corner := enginetest.Position(t, sq, "a2", "a3") // a3-a1 ends in the corner
	centre, anyPeg = enginetest.Goal(t, sq, "center"), enginetest.Goal(t, sq, "any")
	if layered.SameAsAny(sq, corner, centre) {
		t.Errorf("7x7 square: sameAsAny true, want false")
	}
	for _, c := range []struct {
		g    engine.Goal
		want bool
	}{{centre, false}, {anyPeg, true}} {
		mt, err := layered.Meet(context.Background(), sq, corner, c.g, layered.Config{}, DefaultMemory)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := mt.Winnable(corner); got != c.want {
			t.Errorf("7x7 square %s, goal %v: winnable %v, want %v", sq.Line(corner), c.g, got, c.want)
		}
	}
}
