package search

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/search/internal/key"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// TestWalkBackMirror checks the walk back that stops at the middle and
// complements the layers past it (games whose start is the complement of
// their goal) against the walk back through every layer, and the winnable
// positions that Winnable finds by meeting in the middle against both.
func TestWalkBackMirror(t *testing.T) {
	// The 4x6 rectangle has an even number of holes (24), so its middle
	// layer's complements have as many pegs; the others an odd number.
	rect, err := engine.Parse("rect", strings.Repeat("oooooo\n", 4), engine.Square)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][3]string{{"triangle", "1", "1"}, {"triangle:6", "5", "5"}, {"rect", "a1", "a1"}, {"english", "d4", "center"}} {
		if c[0] == "english" && testing.Short() {
			continue
		}
		b := rect
		if c[0] != "rect" {
			b = enginetest.Board(t, c[0])
		}
		start, err := b.Vacate(c[1])
		if err != nil {
			t.Fatal(err)
		}
		prob := Problem{b, start, enginetest.Goal(t, b, c[2])}
		gen := movegen.New(b, prob.Group())
		if !layered.Mirrored(prob.Board, prob.Start, prob.Goal, gen.Group) {
			t.Fatalf("%s, vacate %s, goal %s: not mirrored", c[0], c[1], c[2])
		}
		mem := memory.New(1 << 30)
		e, err := layered.NewExpander(layered.Positions, layered.Setup{Gen: gen, Mem: mem})
		if err != nil {
			t.Fatal(err)
		}
		fwd, err := layered.Forward(context.Background(), e, layered.First(gen.Group, prob.Start, false), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		byPegs := make(map[int]*layered.Layer)
		for _, l := range fwd {
			byPegs[l.Pegs()] = l
		}
		walk := func(mirror bool) map[int][]uint64 {
			win := map[int][]uint64{}
			before := inUse(mem)
			err := layered.WalkBack(context.Background(), prob.Goal, gen, byPegs, prob.Start.Pegs(), false, mirror, layered.Config{}, mem, func(pegs int, keys []uint64) error {
				win[pegs] = keys
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if after := inUse(mem); after != before {
				t.Errorf("%s: budget in use %d after the walk back, %d before", c[0], after, before)
			}
			return win
		}
		want, got := walk(false), walk(true)
		if len(want) < 3 {
			t.Fatalf("%s: %d layers of winnable positions", c[0], len(want))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: winnable positions mirrored past the middle differ (-walked +mirrored):\n%s", c[0], diff)
		}
		// Winnable meets in the middle from the forward layers alone.
		ws, err := Winnable(context.Background(), prob, Budget{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, ws.allKeys()); diff != "" {
			t.Errorf("%s: winnable positions met in the middle differ (-walked +met):\n%s", c[0], diff)
		}
	}
}

// TestWinnableGoalsTogether checks the winnable positions of a goal and
// of one peg anywhere found in one search (as oracles do) against each
// found alone. In the English centre game the second rides on the first's
// meeting in the middle (sameAfterOne); on the triangles it does not.
func TestWinnableGoalsTogether(t *testing.T) {
	cases := []struct{ board, start, goal string }{
		{"triangle", "1", "1"},
		{"triangle:6", "5", "5"},
		{"english", "d4", "center"},
	}
	for _, c := range cases {
		if c.board == "english" && testing.Short() {
			continue
		}
		b := enginetest.Board(t, c.board)
		start, err := b.Vacate(c.start)
		if err != nil {
			t.Fatal(err)
		}
		prob := Problem{b, start, enginetest.Goal(t, b, c.goal)}
		anyProb := Problem{b, start, engine.Goal{Kind: engine.OnePeg}}
		sets, err := WinnableGoals(context.Background(), prob, []engine.Goal{prob.Goal, anyProb.Goal}, Budget{})
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range []Problem{prob, anyProb} {
			alone, err := Winnable(context.Background(), p, Budget{})
			if err != nil {
				t.Fatal(err)
			}
			for pegs := 1; pegs <= start.Pegs(); pegs++ {
				if got, want := sets[i].layer(pegs), alone.layer(pegs); !slices.Equal(got, want) {
					t.Errorf("%s vacate %s, goal %v, %d pegs: %d winnable together, %d alone", c.board, c.start, p.Goal, pegs, len(got), len(want))
				}
				// Contains searches them: forward layers left unsorted
				// must not leave them so.
				if !slices.IsSorted(alone.layer(pegs)) {
					t.Errorf("%s vacate %s, goal %v, %d pegs: winnable keys not sorted", c.board, c.start, p.Goal, pegs)
				}
			}
		}
	}
}

// allKeys returns every layer of w by peg count, the mirroring ones made.
func (w *WinSet) allKeys() map[int][]uint64 {
	all := map[int][]uint64{}
	for pegs := range w.keys {
		all[pegs] = w.layer(pegs)
	}
	for pegs := range w.mirror {
		all[pegs] = w.layer(pegs)
	}
	return all
}

// TestWinSetMirror checks the layers of a mirrored problem past the middle,
// which a WinSet makes only when asked for: on the 15-hole triangle from
// hole 1 to hole 1, Contains answers every position of the board alike
// before and after they are made, and the layers' counts are their sizes.
func TestWinSetMirror(t *testing.T) {
	b := enginetest.Board(t, "triangle")
	start, err := b.Vacate("1")
	if err != nil {
		t.Fatal(err)
	}
	ws, err := Winnable(context.Background(), Problem{b, start, enginetest.Goal(t, b, "1")}, Budget{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws.mirror) == 0 {
		t.Fatal("no layer mirrors another")
	}
	before := make([]bool, 1<<b.Holes())
	for p := range before {
		before[p] = ws.Contains(engine.Position(p))
	}
	all := ws.allKeys()
	for p, got := range before {
		c := ws.group.Canonical(engine.Position(p))
		_, want := slices.BinarySearch(all[c.Pegs()], key.Mix(c))
		if got != want || ws.Contains(engine.Position(p)) != want {
			t.Fatalf("%s: Contains %v before the mirroring layers were made, %v after; want %v", b.Line(engine.Position(p)), got, ws.Contains(engine.Position(p)), want)
		}
	}
	for _, l := range ws.Layers {
		if got := len(all[l.Pegs]); int64(got) != l.Winnable {
			t.Errorf("%d pegs: %d winnable counted, %d in the layer", l.Pegs, l.Winnable, got)
		}
	}
}

// TestForwardPass checks that a winnable set's forward pass counts the
// reachable positions Explore does, by layer and in all (it counts no
// raw positions or dead ends).
func TestForwardPass(t *testing.T) {
	b, _ := engine.Lookup("triangle:6")
	start, _ := b.Vacate("1")
	prob := Problem{Board: b, Start: start, Goal: engine.Goal{Kind: engine.OnePeg}}
	w, err := Winnable(context.Background(), prob, Budget{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Explore(context.Background(), prob, ExploreOptions{ReachableOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	got := w.ForwardPass()
	if got.Reachable != a.Reachable || got.Reachable == 0 || got.Symmetries != a.Symmetries {
		t.Errorf("forward pass: %d positions up to %d symmetries, want %d up to %d", got.Reachable, got.Symmetries, a.Reachable, a.Symmetries)
	}
	byLayer := func(ls []LayerStats) map[int]int64 {
		m := map[int]int64{}
		for _, l := range ls {
			m[l.Pegs] = l.Reachable
		}
		return m
	}
	if diff := cmp.Diff(byLayer(a.Layers), byLayer(got.Layers)); diff != "" {
		t.Errorf("reachable by layer (-explore +forward pass):\n%s", diff)
	}
}
