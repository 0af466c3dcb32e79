package search

import (
	"math/rand/v2"
	"slices"
	"testing"

	"pegs/engine"
)

// TestMoveGenAgrees checks the shift-group move generator, in lattice order
// where the board fits 64 bits and in hole order where it does not
// (triangle:10), against the board's own legal jumps.
func TestMoveGenAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	orders := map[bool]int{} // boards by whether they use lattice order
	for _, info := range engine.Boards() {
		b, err := engine.Lookup(info.Name)
		if err != nil {
			t.Fatal(err)
		}
		gen := newMoveGen(b, b.Symmetry())
		orders[gen.lattice != nil]++
		for range 2000 {
			p := engine.Position(rng.Uint64()) & b.Full()
			var got, want []int
			for _, k := range gen.appendMoves(nil, p) {
				got = append(got, int(k))
			}
			for _, j := range b.Moves(nil, p) {
				want = append(want, slices.Index(b.Jumps(), j))
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: moves of %s = %v, want %v", b.Name(), b.Line(p), got, want)
			}
		}
	}
	if orders[true] == 0 || orders[false] == 0 {
		t.Errorf("boards in lattice order / hole order: %d / %d, want some of each", orders[true], orders[false])
	}
}
