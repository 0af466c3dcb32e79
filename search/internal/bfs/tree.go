package bfs

import (
	"math/bits"
	"sync/atomic"

	"pegs/engine"
)

// treeParents is how many parents of a level a worker expands together:
// their moves are looked up a round at a time (see tree), so that the
// cache misses of a round's lookups overlap.
const treeParents = 32

// readAheadFrom is the fewest winnable positions whose moves are grown
// in trees: fewer, a side walks each parent's moves instead (see chains).
const readAheadFrom = 1 << 16

// tree holds the moves of a few parents of a level, one move on from
// them in a side's direction, as the positions after them: a parent's
// moves one jump long, then each winnable one's extensions by one more
// jump of the same peg, and so on, a round of one more jump at a time.
// Each round is made canonical, then looked up together (by a Batcher,
// which asks for every lookup's first lines before it reads them), where
// a walk of the moves in order (movegen.Chains and ReverseChains) looked
// each one up as it came, its cache misses one after another. The moves
// are then taken in that walk's order (walk): a move, then its
// extensions, then the next; so the levels, the meeting and the path are
// the walk's.
type tree struct {
	nodes []chainNode
	// roots[b] is where parent b's moves of one jump are in nodes.
	roots []span
	// stack is walk's.
	stack []span
	// cs[i] and ids[i] are node i's position made canonical and its
	// number, or -1 where it cannot win: no longer move through it is
	// made (see grow). moves is a parent's jumps.
	cs    []engine.Position
	ids   []int32
	moves []int16
	// touched is a sum of what was read ahead (see Batcher and walk).
	touched uint64
}

// chainNode is a position one move from a parent in a side's direction.
type chainNode struct {
	pos engine.Position
	// hole is where the moving peg stands (forward) or stood before the
	// jump undone (back): its next jump starts (forward) or ends there.
	hole int16
	// kids is where the position's extensions by one more jump are.
	kids span
}

// span is a range of a tree's nodes.
type span struct{ lo, hi int32 }

// Batcher is a Winnable that numbers a batch of positions at once,
// faster than one at a time: their cache misses overlap.
type Batcher interface {
	// Numbers sets ids[k] to the number of cs[k], or -1 where it is not
	// winnable, and returns a sum of what it read ahead, for its caller
	// to keep.
	Numbers(cs []engine.Position, ids []int32) uint64
}

// grow makes the moves of parents in s's direction that pass through
// winnable positions alone, numbered by win.
func (t *tree) grow(s *side, parents []node, group *engine.Group, win Winnable) {
	t.nodes, t.roots = t.nodes[:0], t.roots[:0]
	gen := s.gen
	for _, p := range parents {
		lo := int32(len(t.nodes))
		if s.forward {
			t.moves = gen.AppendMoves(t.moves[:0], p.pos)
			for _, k := range t.moves {
				t.nodes = append(t.nodes, chainNode{pos: p.pos ^ gen.Masks[k], hole: int16(gen.Jumps[k].To)})
			}
		} else {
			for q := uint64(p.pos); q != 0; q &= q - 1 {
				t.extend(s, p.pos, bits.TrailingZeros64(q))
			}
		}
		t.roots = append(t.roots, span{lo, int32(len(t.nodes))})
	}
	batcher, _ := win.(Batcher)
	t.cs, t.ids = t.cs[:0], t.ids[:0]
	for from := 0; from < len(t.nodes); {
		to := len(t.nodes)
		for i := from; i < to; i++ {
			t.cs = append(t.cs, group.Canonical(t.nodes[i].pos))
			t.ids = append(t.ids, -1)
		}
		if batcher != nil {
			t.touched += batcher.Numbers(t.cs[from:to], t.ids[from:to])
		} else {
			for i := from; i < to; i++ {
				if id, ok := win.Number(t.cs[i]); ok {
					t.ids[i] = int32(id)
				}
			}
		}
		// Most moves lose, and a chain that passes through a position
		// that cannot win cannot win either: a position after it wins
		// only if it does. Backward, a position before it is winnable
		// only if it is. So only a winnable position's move goes on.
		for i := from; i < to; i++ {
			lo := int32(len(t.nodes))
			if t.ids[i] >= 0 {
				t.extend(s, t.nodes[i].pos, int(t.nodes[i].hole))
			}
			t.nodes[i].kids = span{lo, int32(len(t.nodes))}
		}
		from = to
	}
}

// extend adds the positions one jump on from q by the peg at hole h (or,
// back, one jump undone that ended at h), as movegen's walks test them.
func (t *tree) extend(s *side, q engine.Position, h int) {
	for _, j := range s.by[h] {
		if q&j.Need == j.Want {
			t.nodes = append(t.nodes, chainNode{pos: q ^ j.Mask, hole: j.Hole})
		}
	}
}

// walk takes the winnable positions of t's moves that s has not reached,
// parent by parent, each parent's in the order of a walk of its moves (a
// move before its extensions), appending them to list with their
// parent's place in the level (first, the place of t's first parent),
// and stops after the first that other has reached, reporting it.
func (t *tree) walk(s, other *side, list []reached, first int) ([]reached, bool) {
	// The marks of the positions are asked for together first.
	var sum uint64
	for _, id := range t.ids {
		if id >= 0 {
			sum += atomic.LoadUint64(&s.marks[id]) // see side.reach
		}
	}
	t.touched += sum
	stack := t.stack
	for b, root := range t.roots {
		stack = append(stack[:0], root)
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.lo == top.hi {
				stack = stack[:len(stack)-1]
				continue
			}
			i := top.lo
			top.lo++
			id := t.ids[i]
			if id < 0 {
				continue
			}
			if !s.seen(int(id)) {
				list = append(list, reached{node{t.cs[i], id}, int32(first + b)})
				if other.seen(int(id)) {
					t.stack = stack
					return list, true
				}
			}
			stack = append(stack, t.nodes[i].kids)
		}
	}
	t.stack = stack
	return list, false
}
