package hint

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sync/atomic"

	"pegs/engine"
	"pegs/search"
	"pegs/search/internal/kernel"
)

// fewestLayer is one peg count of an oracle's fewest table: the canonical
// positions that cannot end with fewer than three pegs, one list of ranks
// per fewest, kept as they are stored.
type fewestLayer struct {
	vals  []uint8 // increasing
	lists []*kernel.RankList
}

// len returns the number of positions in the layer.
func (l *fewestLayer) len() int {
	n := 0
	for _, r := range l.lists {
		n += r.Len()
	}
	return n
}

// fewest returns the fewest pegs p (canonical) can reach by the table, which
// knows only its level's positions that cannot end with one peg: those not
// in it reach two.
func (l *fewestLayer) fewest(p engine.Position) int {
	r := kernel.Rank(p)
	for i, list := range l.lists {
		if list.Has(r) {
			return int(l.vals[i])
		}
	}
	return 2
}

// fewestTable finds the fewest pegs every position prob's start reaches can
// end with, and returns, for the layers of from pegs or more, those that
// cannot end with fewer than three. ones holds, by peg count, the sorted
// mixed keys of the positions that can end with one peg. It searches every
// layer forward, then goes back up from the fewest pegs: a position's
// fewest is its own peg count in a dead end, else the least of its
// children's. Only the positions of three or more need a table for the
// layer above to look in: a child in neither ones nor it ends with two.
func fewestTable(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, ones map[int][]uint64, from int, opt search.Budget) (map[int]*fewestLayer, error) {
	if b.Holes() > 56 {
		return nil, fmt.Errorf("a fewest table needs a board of 56 holes or fewer, not %d", b.Holes())
	}
	mem := kernel.NewBudget(opt.Bytes())
	gen := kernel.NewGen(b, b.GameSymmetry(start, goal))
	e, err := kernel.NewExpander(kernel.Positions, kernel.Setup{Gen: gen, Mem: mem, Workers: opt.Workers})
	if err != nil {
		return nil, err
	}
	first := kernel.First(gen.Group, start, false)
	var progress kernel.Progress
	if opt.Progress != nil {
		progress = func(phase string, pegs, done, total int) {
			opt.Progress(search.Progress{Phase: phase, Pegs: pegs, Done: done, Total: total})
		}
	}
	fwd, err := kernel.Forward(ctx, e, first, progress, nil)
	if err != nil {
		return nil, err
	}
	table := map[int]*fewestLayer{}
	var below *keyVals // the layer below's positions of three or more
	var held int64
	defer func() { mem.Give(held) }()
	for i := len(fwd) - 1; i >= 0; i-- {
		l := fwd[i]
		if progress != nil {
			progress("fewest", l.Pegs(), 0, l.Len())
		}
		one := ones[l.Pegs()]
		chunks := kernel.ChunkCount(l.Len(), opt.Workers)
		keys := make([][]uint64, chunks)
		vals := make([][]uint8, chunks)
		var done atomic.Int64
		kernel.Chunks(l.Len(), opt.Workers, func(c, lo, hi int) {
			if ctx.Err() != nil {
				return
			}
			w := gen.NewParent()
			var moves []int16
			j, _ := slices.BinarySearch(one, l.Keys()[lo])
			for _, k := range l.Keys()[lo:hi] {
				for j < len(one) && one[j] < k {
					j++
				}
				if j < len(one) && one[j] == k {
					continue
				}
				q := kernel.Unmix(k)
				w.Set(q)
				moves = gen.AppendMoves(moves[:0], q)
				v := uint8(l.Pegs()) // a dead end
				if len(moves) > 0 {
					v = below.least(w, moves)
				}
				if v >= 3 {
					keys[c] = append(keys[c], k)
					vals[c] = append(vals[c], v)
				}
			}
			if progress != nil {
				progress("fewest", l.Pegs(), int(done.Add(int64(hi-lo))), l.Len())
			}
		})
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The layer's keys are done with: the layer above looks in below.
		l.Release(mem)
		k, v := slices.Concat(keys...), slices.Concat(vals...)
		mem.Give(held)
		below = newKeyVals(k, v)
		held = int64(len(below.slots)) * 8
		if err := mem.Take(held, "the fewest pegs of a layer"); err != nil {
			held = 0
			return nil, err
		}
		if l.Pegs() < from {
			continue
		}
		// The table codes them by rank: each rank with its value in the
		// low byte (ranks of 56 holes fit in 53 bits), sorted as words.
		rv := make([]uint64, len(k))
		kernel.Chunks(len(k), opt.Workers, func(_, lo, hi int) {
			for j := lo; j < hi; j++ {
				rv[j] = kernel.Rank(kernel.Unmix(k[j]))<<8 | uint64(v[j])
			}
		})
		slices.Sort(rv)
		byVal := map[uint8][]uint64{}
		for _, x := range rv {
			byVal[uint8(x)] = append(byVal[uint8(x)], x>>8)
		}
		fl := &fewestLayer{}
		for val := range uint8(l.Pegs() + 1) {
			if ranks, ok := byVal[val]; ok {
				fl.vals = append(fl.vals, val)
				fl.lists = append(fl.lists, kernel.NewRankList(ranks))
			}
		}
		if len(fl.lists) > 0 {
			table[l.Pegs()] = fl
		}
	}
	return table, nil
}

// keyVals is a read-only hash table from mixed keys to values below 256,
// for boards of 56 holes or fewer: a slot holds the position (the unmixed
// key) and its value in the top byte, so a hit costs one memory access.
type keyVals struct {
	slots []uint64
	shift uint
}

func newKeyVals(keys []uint64, vals []uint8) *keyVals {
	size := 16
	for size < len(keys)+len(keys)/4 {
		size *= 2
	}
	s := &keyVals{slots: make([]uint64, size), shift: uint(64 - bits.Len(uint(size)-1))}
	for j, k := range keys {
		i := int(k >> s.shift)
		for s.slots[i] != 0 {
			i = (i + 1) & (size - 1)
		}
		s.slots[i] = uint64(kernel.Unmix(k)) | uint64(vals[j])<<56
	}
	return s
}

// least returns the fewest pegs among the children by moves of the
// parent set in w, a position that cannot end with one peg: a child in s ends
// with its value there, any other with two, so the first of those ends the
// look.
func (s *keyVals) least(w *kernel.Parent, moves []int16) uint8 {
	mask := len(s.slots) - 1
	least := uint8(255)
	for _, m := range moves {
		c := w.Child(m)
		want := uint64(c)
		for i := int(kernel.Mix(c) >> s.shift); ; i = (i + 1) & mask {
			slot := s.slots[i]
			if slot&(1<<56-1) == want {
				least = min(least, uint8(slot>>56))
				break
			}
			if slot == 0 {
				return 2
			}
		}
	}
	return least
}
