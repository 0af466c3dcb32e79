package bfs

import (
	"math/rand/v2"
	"slices"
	"testing"

	"pegs/engine"
	"pegs/search/internal/movegen"
)

// numbering is a Winnable for tests: it numbers every position as first
// asked, but those that lose (by a hash of the position) are not
// winnable.
type numbering struct {
	ids  map[engine.Position]int
	lose func(engine.Position) bool
}

func (w *numbering) Len() int { return 1 << 20 }

func (w *numbering) Number(c engine.Position) (int, bool) {
	if w.lose(c) {
		return 0, false
	}
	id, ok := w.ids[c]
	if !ok {
		id = len(w.ids)
		w.ids[c] = id
	}
	return id, true
}

// batched is numbering as a Batcher.
type batched struct{ *numbering }

func (w batched) Numbers(cs []engine.Position, ids []int32) uint64 {
	for k, c := range cs {
		ids[k] = -1
		if id, ok := w.Number(c); ok {
			ids[k] = int32(id)
		}
	}
	return 0
}

// TestTreeWalksAsChains checks that a tree's moves, grown a round at a
// time and walked, come in the order of movegen's walks (Chains forward,
// ReverseChains back), pruned where a position cannot win, on random
// English positions, with and without a Batcher.
func TestTreeWalksAsChains(t *testing.T) {
	b := engine.English()
	group := b.Symmetry()
	gen := movegen.New(b, group)
	byFrom, byTo := gen.FromHoles(), gen.ToHoles()
	rng := rand.New(rand.NewPCG(60, 6))
	for _, c := range []struct {
		name string
		lose func(engine.Position) bool
	}{
		{"all-win", func(engine.Position) bool { return false }},
		{"some-lose", func(p engine.Position) bool { return uint64(p)*0x9E3779B97F4A7C15>>62 == 0 }},
	} {
		for _, batch := range []bool{false, true} {
			for _, forward := range []bool{true, false} {
				num := &numbering{ids: map[engine.Position]int{}, lose: c.lose}
				var win Winnable = num
				if batch {
					win = batched{num}
				}
				var parents []node
				for range 2 * treeParents {
					p := engine.Position(rng.Uint64()) & b.Full()
					id, _ := num.Number(p)
					parents = append(parents, node{p, int32(id)})
				}
				marks := make([]uint64, win.Len())
				s := &side{marks: marks, gen: gen, forward: forward, by: byFrom}
				if !forward {
					s.by, s.shift = byTo, 32
				}
				other := &side{marks: marks, shift: 32 - s.shift}
				var tr tree
				var got []reached
				for g := 0; g < len(parents); g += treeParents {
					tr.grow(s, parents[g:g+treeParents], group, win)
					var stop bool
					if got, stop = tr.walk(s, other, got, g); stop {
						t.Fatalf("%s: the walk stopped where the other side reached nothing", c.name)
					}
				}
				var want []reached
				for i, p := range parents {
					visit := func(q engine.Position) movegen.Step {
						c := group.Canonical(q)
						id, ok := num.Number(c)
						if !ok {
							return movegen.Prune
						}
						want = append(want, reached{node{c, int32(id)}, int32(i)})
						return movegen.Extend
					}
					if forward {
						gen.Chains(p.pos, byFrom, func(q engine.Position, _ []engine.Jump) movegen.Step { return visit(q) })
					} else {
						gen.ReverseChains(p.pos, byTo, visit)
					}
				}
				if len(want) == 0 || !slices.Equal(got, want) {
					t.Errorf("%s, batch %v, forward %v: the tree walks %d moves, the chains %d, or in another order", c.name, batch, forward, len(got), len(want))
				}
			}
		}
	}
}
