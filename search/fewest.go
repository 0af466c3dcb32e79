package search

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sync/atomic"

	"pegs/engine"
)

// fewestFrom is the fewest pegs of the positions an oracle's fewest table
// holds. Below it, the depth-first search that stops at two pegs answers a
// dead end at once on the English board: over about 3,000 dead ends of
// random games per peg count, at 13 pegs mean 21 us, max 0.58 ms (14: max
// 1.1 ms, 15: 2.0 ms, 16: 4.4 ms; from 20 pegs up to 0.35 s). Tests lower
// it.
var fewestFrom = 14

// fewestLayer is one peg count of an oracle's fewest table: the canonical
// positions that cannot end with fewer than three pegs, one list of ranks
// per fewest, kept as they are stored.
type fewestLayer struct {
	vals  []uint8 // increasing
	lists []*rankList
}

// len returns the number of positions in the layer.
func (l *fewestLayer) len() int {
	n := 0
	for _, r := range l.lists {
		n += r.n
	}
	return n
}

// fewest returns the fewest pegs p (canonical) can reach by the table, which
// knows only its level's positions that cannot end with one peg: those not
// in it reach two.
func (l *fewestLayer) fewest(p engine.Position) int {
	r := rank(p)
	for i, list := range l.lists {
		if list.has(r) {
			return int(l.vals[i])
		}
	}
	return 2
}

// rankList is a sorted list of distinct ranks coded as the uvarints of
// their gaps (the first from 0), about one byte and a half a rank in the
// fewest tables; every 64th rank and its offset index the rest.
type rankList struct {
	n     int
	data  []byte
	first []uint64 // ranks 0, 64, 128, ...
	off   []int    // where they begin in data
}

const rankBlock = 64

// newRankList codes ranks (sorted, distinct). It sizes the code first, so
// that coding a layer of a billion positions takes no more than the code
// (appending took up to a quarter more, uncharged, and a copy as it grew).
func newRankList(ranks []uint64) *rankList {
	size, prev := 0, uint64(0)
	for _, r := range ranks {
		size += max(1, (bits.Len64(r-prev)+6)/7) // uvarint bytes
		prev = r
	}
	blocks := (len(ranks) + rankBlock - 1) / rankBlock
	l := &rankList{n: len(ranks), data: make([]byte, 0, size), first: make([]uint64, 0, blocks), off: make([]int, 0, blocks)}
	prev = 0
	for i, r := range ranks {
		if i%rankBlock == 0 {
			l.first = append(l.first, r)
			l.off = append(l.off, len(l.data))
		}
		l.data = binary.AppendUvarint(l.data, r-prev)
		prev = r
	}
	return l
}

// errRanks reports coded ranks that do not decode.
var errRanks = errors.New("ranks out of order or range")

// decodeRankList checks data, the code of n ranks each below limit, and
// indexes it.
func decodeRankList(n int, limit uint64, data []byte) (*rankList, error) {
	l := &rankList{n: n, data: data}
	prev, at := uint64(0), 0
	for i := range n {
		gap, k := binary.Uvarint(data[at:])
		r := prev + gap
		if k <= 0 || r < prev || i > 0 && gap == 0 || r >= limit {
			return nil, errRanks
		}
		if i%rankBlock == 0 {
			l.first = append(l.first, r)
			l.off = append(l.off, at)
		}
		prev, at = r, at+k
	}
	if at != len(data) {
		return nil, errRanks
	}
	return l, nil
}

// has reports whether rank want is in the list.
func (l *rankList) has(want uint64) bool {
	b, _ := slices.BinarySearch(l.first, want+1) // blocks that begin at or before want
	if b == 0 {
		return false
	}
	b--
	r, at := l.first[b], l.off[b]
	_, k := binary.Uvarint(l.data[at:]) // the first's gap is from the block before
	at += k
	for i := b*rankBlock + 1; r < want && i < min(l.n, (b+1)*rankBlock); i++ {
		gap, k := binary.Uvarint(l.data[at:])
		r, at = r+gap, at+k
	}
	return r == want
}

// fewestTable finds the fewest pegs every position prob's start reaches can
// end with, and returns, for the layers of from pegs or more, those that
// cannot end with fewer than three. ones holds, by peg count, the sorted
// mixed keys of the positions that can end with one peg. It searches every
// layer forward, then goes back up from the fewest pegs: a position's
// fewest is its own peg count in a dead end, else the least of its
// children's. Only the positions of three or more need a table for the
// layer above to look in: a child in neither ones nor it ends with two.
func fewestTable(ctx context.Context, prob Problem, ones map[int][]uint64, from int, opt ExploreOptions) (map[int]*fewestLayer, error) {
	if err := prob.check(); err != nil {
		return nil, err
	}
	if prob.Board.Holes() > 56 {
		return nil, fmt.Errorf("a fewest table needs a board of 56 holes or fewer, not %d", prob.Board.Holes())
	}
	mem := &memBudget{limit: Options{Memory: opt.Memory}.memory()}
	gen := newMoveGen(prob.Board, prob.Group())
	e := &expander{gen: gen, workers: opt.Workers, mem: mem}
	first := &layer{pegs: prob.Start.Pegs(), keys: []uint64{mix(gen.group.Canonical(prob.Start))}}
	fwd, err := forward(ctx, e, []*layer{first}, "forward", opt.Progress, nil)
	if err != nil {
		return nil, err
	}
	table := map[int]*fewestLayer{}
	var below *keyVals // the layer below's positions of three or more
	var held int64
	defer func() { mem.give(held) }()
	for i := len(fwd) - 1; i >= 0; i-- {
		l := fwd[i]
		if opt.Progress != nil {
			opt.Progress(Progress{Phase: "fewest", Pegs: l.pegs, Total: l.len()})
		}
		one := ones[l.pegs]
		chunks := chunksOf(l.len(), opt.Workers)
		keys := make([][]uint64, chunks)
		vals := make([][]uint8, chunks)
		var done atomic.Int64
		inChunks(l.len(), opt.Workers, func(c, lo, hi int) {
			if ctx.Err() != nil {
				return
			}
			w := newWorkerState(gen)
			j, _ := slices.BinarySearch(one, l.keys[lo])
			for _, k := range l.keys[lo:hi] {
				for j < len(one) && one[j] < k {
					j++
				}
				if j < len(one) && one[j] == k {
					continue
				}
				q := unmix(k)
				w.setParent(gen, q)
				w.moves = gen.appendMoves(w.moves[:0], q)
				v := uint8(l.pegs) // a dead end
				if len(w.moves) > 0 {
					v = below.least(w, gen)
				}
				if v >= 3 {
					keys[c] = append(keys[c], k)
					vals[c] = append(vals[c], v)
				}
			}
			if opt.Progress != nil {
				opt.Progress(Progress{Phase: "fewest", Pegs: l.pegs, Done: int(done.Add(int64(hi - lo))), Total: l.len()})
			}
		})
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The layer's keys are done with: the layer above looks in below.
		mem.give(int64(l.len()) * 8)
		l.keys = nil
		k, v := slices.Concat(keys...), slices.Concat(vals...)
		mem.give(held)
		below = newKeyVals(k, v)
		held = int64(len(below.slots)) * 8
		if err := mem.take(held, "the fewest pegs of a layer"); err != nil {
			held = 0
			return nil, err
		}
		if l.pegs < from {
			continue
		}
		// The table codes them by rank: each rank with its value in the
		// low byte (ranks of 56 holes fit in 53 bits), sorted as words.
		rv := make([]uint64, len(k))
		inChunks(len(k), opt.Workers, func(_, lo, hi int) {
			for j := lo; j < hi; j++ {
				rv[j] = rank(unmix(k[j]))<<8 | uint64(v[j])
			}
		})
		slices.Sort(rv)
		byVal := map[uint8][]uint64{}
		for _, x := range rv {
			byVal[uint8(x)] = append(byVal[uint8(x)], x>>8)
		}
		fl := &fewestLayer{}
		for val := range uint8(l.pegs + 1) {
			if ranks, ok := byVal[val]; ok {
				fl.vals = append(fl.vals, val)
				fl.lists = append(fl.lists, newRankList(ranks))
			}
		}
		if len(fl.lists) > 0 {
			table[l.pegs] = fl
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
	s := &keyVals{slots: make([]uint64, size), shift: uint(64 - log2(size))}
	for j, k := range keys {
		i := int(k >> s.shift)
		for s.slots[i] != 0 {
			i = (i + 1) & (size - 1)
		}
		s.slots[i] = uint64(unmix(k)) | uint64(vals[j])<<56
	}
	return s
}

// least returns the fewest pegs among the children of the parent set in w
// (by w.moves), a position that cannot end with one peg: a child in s ends
// with its value there, any other with two, so the first of those ends the
// look.
func (s *keyVals) least(w *workerState, gen *moveGen) uint8 {
	mask := len(s.slots) - 1
	least := uint8(255)
	for _, m := range w.moves {
		c := w.child(gen, m)
		want := uint64(c)
		for i := int(mix(c) >> s.shift); ; i = (i + 1) & mask {
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
