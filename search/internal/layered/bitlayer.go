package layered

import (
	"context"
	"math/bits"
	"sort"

	"golang.org/x/sync/errgroup"

	"pegs/engine"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
)

// bitLayer is a layer held as the bitsets it was found in (see
// Scanned): one a class of its numbering, the workers' merged.
// It is expanded as it is, run by run, each run some high parts of one
// class, so that a worker takes a run's positions from its bits (Lows) in
// the order of their numbers; no key is made, sorted or coded.
type bitLayer struct {
	num  *numbering
	sets [][]uint64 // by slot
	// packed, if set, holds the bitsets packed, by slot, and sets is nil
	// (see Layer.Pack).
	packed []*packedSet
	runs   []bitRun
	n      int // positions
}

// bitRun is the high parts lo..hi-1 of slot s: start positions of the
// layer come before them, in the runs before.
type bitRun struct{ s, lo, hi, start int }

// runParents is about how many positions a run of a bitLayer holds at
// least: a worker's chunk.
const runParents = 2048

// newBitLayer returns the layer of pegs pegs whose numbers by num are set
// in sets (one a slot), split into runs in parallel.
func newBitLayer(ctx context.Context, num *numbering, sets [][]uint64, pegs, workers int) (*Layer, error) {
	type span struct{ s, lo, hi int } // high parts lo..hi-1 of slot s
	var spans []span
	for s, d := range num.ds {
		step := d.Parts()/(8*workers) + 1
		for lo := 0; lo < d.Parts(); lo += step {
			spans = append(spans, span{s, lo, min(d.Parts(), lo+step)})
		}
	}
	runs := make([][]bitRun, len(spans))
	var g errgroup.Group
	g.SetLimit(workers)
	for k, sp := range spans {
		g.Go(func() error {
			d, set := num.ds[sp.s], sets[sp.s]
			r := bitRun{s: sp.s, lo: sp.lo}
			for h := sp.lo; h < sp.hi; h++ {
				lo, hi := d.Range(h)
				r.start += countBits(set, lo, hi)
				if r.start >= runParents || h == sp.hi-1 {
					if r.start > 0 {
						r.hi = h + 1
						runs[k] = append(runs[k], r)
					}
					r = bitRun{s: sp.s, lo: h + 1}
				}
			}
			return ctx.Err()
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	bl := &bitLayer{num: num, sets: sets}
	for _, rs := range runs {
		for _, r := range rs {
			r.start, bl.n = bl.n, bl.n+r.start // start held the run's count
			bl.runs = append(bl.runs, r)
		}
	}
	return &Layer{pegs: pegs, dense: bl}, nil
}

// countBits returns how many of bits lo..hi-1 of set are set.
func countBits(set []uint64, lo, hi uint64) int {
	c := 0
	for i := lo / 64; i*64 < hi; i++ {
		c += bits.OnesCount64(set[i] & wordMask(i, lo, hi))
	}
	return c
}

// wordMask returns the bits of word i numbered lo..hi-1.
func wordMask(i, lo, hi uint64) uint64 {
	m := ^uint64(0)
	if i == lo/64 {
		m <<= lo % 64
	}
	if end := (i + 1) * 64; end > hi {
		m &= ^uint64(0) >> (end - hi)
	}
	return m
}

// positions appends the positions of runs lo..hi-1 to buf, in order.
func (bl *bitLayer) positions(buf []engine.Position, lo, hi int) []engine.Position {
	for _, r := range bl.runs[lo:hi] {
		d, set := bl.num.ds[r.s], bl.sets[r.s]
		for h := r.lo; h < r.hi; h++ {
			lo, hi := d.Range(h)
			if lo == hi {
				continue
			}
			high, lows := d.Lows(h)
			for i := lo / 64; i*64 < hi; i++ {
				for x := set[i] & wordMask(i, lo, hi); x != 0; x &= x - 1 {
					buf = append(buf, high|engine.Position(lows[i*64+uint64(bits.TrailingZeros64(x))-lo]))
				}
			}
		}
	}
	return buf
}

// setOf returns, for a layer held as bitsets (see Scanned), the
// bitset of its positions of class c, or nil if it holds none of c or is
// not so held.
func (l *Layer) setOf(c engine.Class) []uint64 {
	if l.dense == nil || l.dense.packed != nil || l.dense.num.slot[c] < 0 {
		return nil
	}
	return l.dense.sets[l.dense.num.slot[c]]
}

// packedOf is setOf for a packed layer (see Layer.Pack).
func (l *Layer) packedOf(c engine.Class) *packedSet {
	if l.dense == nil || l.dense.packed == nil || l.dense.num.slot[c] < 0 {
		return nil
	}
	return l.dense.packed[l.dense.num.slot[c]]
}

// start returns how many positions come before run i (Size past the last).
func (bl *bitLayer) start(i int) int {
	if i == len(bl.runs) {
		return bl.n
	}
	return bl.runs[i].start
}

// bytes returns the bytes of bl's bitsets.
func (bl *bitLayer) bytes() int64 {
	var n int64
	for _, s := range bl.sets {
		n += int64(len(s)) * 8
	}
	for _, p := range bl.packed {
		n += p.size()
	}
	return n
}

// units returns how many units l's positions are expanded in (see
// parentsAt): its positions, or a bitLayer's runs.
func (l *Layer) units() int {
	if l.dense != nil {
		return len(l.dense.runs)
	}
	return l.Size()
}

// chunkUnits returns how many units (see units) a worker's chunk of l is,
// of nw workers.
func (l *Layer) chunkUnits(nw int) int {
	if l.dense != nil {
		return 1 // a run, runParents or more
	}
	return max(256, min(1<<12, l.Size()/(8*nw)+1))
}

// parentsIn returns how many positions units lo..hi-1 of l hold.
func (l *Layer) parentsIn(lo, hi int) int {
	if l.dense != nil {
		return l.dense.start(hi) - l.dense.start(lo)
	}
	return hi - lo
}

// unitsUpTo returns the end of a round of l's units from lo that holds
// about n positions, at least one unit.
func (l *Layer) unitsUpTo(lo, n int) int {
	if l.dense == nil {
		return min(l.Size(), lo+n)
	}
	bl := l.dense
	want := bl.start(lo) + n
	return max(lo+1, sort.Search(len(bl.runs), func(i int) bool { return bl.runs[i].start >= want }))
}

// parentsAt returns the positions of units lo..hi-1 of l, in buf.
func (l *Layer) parentsAt(buf []engine.Position, lo, hi int) []engine.Position {
	switch {
	case l.dense != nil:
		return l.dense.positions(buf[:0], lo, hi)
	case l.keys == nil:
		return l.stored.Positions(buf[:0], lo, hi)
	}
	buf = buf[:0]
	for _, k := range l.keys[lo:hi] {
		buf = append(buf, key.Unmix(k))
	}
	return buf
}

// Keyed turns a layer held as bitsets (see Scanned) into keys in
// the order of their numbers, class by class, marked unsorted, charged to
// mem in place of its bitsets: for a reader of keys, such as an expansion.
// A packed layer (see Pack) is unpacked first. A layer of keys or code
// stays as it is.
func (l *Layer) Keyed(ctx context.Context, workers int, mem *memory.Budget) error {
	if l.dense == nil {
		return nil
	}
	if err := l.unpack(ctx, workers, mem); err != nil {
		return err
	}
	sets := make([][][]uint64, len(l.dense.sets))
	for s, set := range l.dense.sets {
		sets[s] = [][]uint64{set}
	}
	e := &Expander{workers: workers, mem: mem, unsortedKeys: true}
	found, err := e.collectDense(ctx, l.dense.num.ds, sets, l.pegs)
	if err != nil {
		return err
	}
	mem.Give(l.dense.bytes())
	l.keys, l.unsorted, l.dense = found.keys, true, nil
	return nil
}

// Bits returns the numbering and bitset of a layer held as the bitset of
// one class's numbering (see Scanned), unpacked first if packed (see
// Pack), for a reader of its positions in the order of their numbers that
// needs no keys; nil for a layer held otherwise. The bitset stays l's:
// Release lets it go.
func (l *Layer) Bits(ctx context.Context, workers int, mem *memory.Budget) (*key.Dense, []uint64, error) {
	if l.dense == nil || len(l.dense.num.ds) != 1 {
		return nil, nil, nil
	}
	if err := l.unpack(ctx, workers, mem); err != nil {
		return nil, nil, err
	}
	return l.dense.num.ds[0], l.dense.sets[0], nil
}
