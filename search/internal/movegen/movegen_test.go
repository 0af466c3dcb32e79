package movegen

import (
	"math/rand/v2"
	"slices"
	"testing"

	"pegs/engine"
)

// TestMoveGenAgrees checks the shift-group move generator, in lattice order
// where the board fits 64 bits and in hole order where it does not
// (triangle:10), against the board's own legal jumps; and Isolated and
// LatMasks against their definitions.
func TestMoveGenAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	orders := map[bool]int{} // boards by whether they use lattice order
	for _, info := range engine.Boards() {
		b, err := engine.Lookup(info.Name)
		if err != nil {
			t.Fatal(err)
		}
		gen := New(b, b.Symmetry())
		orders[gen.lattice != nil]++
		for range 2000 {
			p := engine.Position(rng.Uint64()) & b.Full()
			var got, want []int
			for _, k := range gen.AppendMoves(nil, p) {
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
			isolated := 0
			for h := range b.Holes() {
				if p.Has(h) && !slices.ContainsFunc(b.Jumps(), func(j engine.Jump) bool { return j.From == h && p.Has(j.Over) }) {
					isolated++
				}
			}
			if got := gen.Isolated(p); got != isolated {
				t.Fatalf("%s: Isolated(%s) = %d, want %d", b.Name(), b.Line(p), got, isolated)
			}
			q := gen.ToLattice(p)
			for k, mask := range gen.Masks {
				if got, want := q^gen.LatMasks[k], gen.ToLattice(p^mask); got != want {
					t.Fatalf("%s: jump %d in lattice order: %#x, want %#x", b.Name(), k, got, want)
				}
			}
		}
	}
	if orders[true] == 0 || orders[false] == 0 {
		t.Errorf("boards in lattice order / hole order: %d / %d, want some of each", orders[true], orders[false])
	}
}

// TestChildren checks a Parent's children, with eight or fewer
// symmetries and more, against the canonical form of each child made from
// scratch; and Chains against chains of the board's own jumps.
func TestChildren(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, name := range []string{"english", "triangle", "wiegleb"} {
		b, err := engine.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []*engine.Group{b.Symmetry(), b.Symmetry().Trivial()} {
			gen := New(b, g)
			w := gen.NewParent()
			for range 500 {
				p := engine.Position(rng.Uint64()) & b.Full()
				w.Set(p)
				for _, k := range gen.AppendMoves(nil, p) {
					want := g.Canonical(p ^ gen.Masks[k])
					if got := w.Child(k); got != want {
						t.Fatalf("%s, %d symmetries: child of %s by %s = %s, want %s", name, g.Len(), b.Line(p), b.FormatJump(gen.Jumps[k]), b.Line(got), b.Line(want))
					}
				}
			}
		}
	}
	b := engine.English()
	gen := New(b, b.Symmetry())
	p := b.Start()
	var got []string
	gen.Chains(p, gen.FromHoles(), func(q engine.Position, jumps []engine.Jump) Step {
		if r, err := b.Replay(p, jumps); err != nil || r != q {
			t.Fatalf("chain %v does not lead to %s", b.FormatMoves(jumps), b.Line(q))
		}
		got = append(got, b.FormatMoves(jumps)[0])
		return Extend
	})
	slices.Sort(got)
	if want := []string{"b4-d4", "d2-d4", "d6-d4", "f4-d4"}; !slices.Equal(got, want) {
		t.Errorf("moves from the English start = %v, want %v", got, want)
	}
}

// TestReverseChains checks that ReverseChains undoes Chains: from random
// positions of several boards, every position a move leads to lists the
// position among those it is a move from, and every position listed so
// has a move to it.
func TestReverseChains(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, name := range []string{"english", "triangle", "french"} {
		b, err := engine.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		gen := New(b, b.Symmetry())
		byFrom, byTo := gen.FromHoles(), gen.ToHoles()
		children := func(p engine.Position) map[engine.Position]bool {
			set := map[engine.Position]bool{}
			gen.Chains(p, byFrom, func(q engine.Position, _ []engine.Jump) Step {
				set[q] = true
				return Extend
			})
			return set
		}
		parents := func(p engine.Position) map[engine.Position]bool {
			set := map[engine.Position]bool{}
			gen.ReverseChains(p, byTo, func(q engine.Position) Step {
				set[q] = true
				return Extend
			})
			return set
		}
		moves := 0
		for range 300 {
			p := engine.Position(rng.Uint64()) & b.Full()
			first := 0
			gen.Chains(p, byFrom, func(engine.Position, []engine.Jump) Step {
				first++
				return Prune
			})
			if want := len(gen.AppendMoves(nil, p)); first != want {
				t.Fatalf("%s: pruning every chain, Chains visits %d moves from %s, want its %d jumps", name, first, b.Line(p), want)
			}
			for q := range children(p) {
				moves++
				if !parents(q)[p] {
					t.Fatalf("%s: a move leads from %s to %s, which ReverseChains does not undo", name, b.Line(p), b.Line(q))
				}
			}
			for q := range parents(p) {
				if !children(q)[p] {
					t.Fatalf("%s: ReverseChains gives %s before %s, with no move between them", name, b.Line(q), b.Line(p))
				}
			}
		}
		if moves == 0 {
			t.Errorf("%s: no moves from 300 random positions", name)
		}
	}
}
