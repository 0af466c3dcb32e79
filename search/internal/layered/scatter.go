package layered

import (
	"context"
	"math/bits"
	"sync"
	"sync/atomic"

	"pegs/engine"
	"pegs/search/internal/memory"
	"pegs/search/internal/pool"
)

// scatterBytes is the bytes of the workers' bitsets together past which
// markDense scatters the children into buckets before it sets their bits
// (see scatter): a bit set as its child is found then misses every cache.
// The English centre game's widest layer, 18 MB on two workers, is set
// directly; the French board's d3 game, whole group (four classes, 1.1
// GB on two workers), is scattered.
const scatterBytes = 64 << 20

// scatterRegion is about how many numbers a bucket spans: its part of a
// bitset, 1 MiB, stays in a core's cache while its bits are set. (The
// French d3 count, whole group, at 2^22, 2^23 and 2^24: the layer of 20
// pegs expanded in 17.6, 16.2 and 18.7 s.)
const scatterRegion = 1 << 23

// maxScatterBuckets is the most buckets a scatter has: each worker
// appends to a list each.
const maxScatterBuckets = 1 << 12

// scatter is how markDense sets the bits of a layer whose bitsets are too
// large for the caches: in rounds, workers append each child to a list
// of its own for the child's bucket (its class and the top bits of its
// position, kept as the 32 bits below them); then the buckets' bits are
// set, buckets in parallel, each in its region of its class's one bitset,
// whose numbers (ordered by high part) are contiguous. The words a region
// shares with its neighbours are set by atomic or, the rest plainly.
type scatter struct {
	num   *numbering
	top   uint // the bits of a position that pick its bucket within its class
	shift uint // the bits of a position below them, kept in a list
	sets  [][]uint64
}

// scatterFor returns how to scatter the children numbered by num on nw
// workers, or nil where their bitsets, one a worker, are small enough to
// set directly or the buckets cannot keep 32 bits of a position.
func (e *Expander) scatterFor(num *numbering, nw int) *scatter {
	at := int64(scatterBytes)
	if e.scatterAt > 0 {
		at = e.scatterAt
	}
	if int64(nw)*num.words()*8 < at {
		return nil
	}
	holes := uint(e.gen.Board.Holes())
	highBits := uint(bits.Len(uint(num.ds[0].Parts())) - 1)
	var widest uint64
	for _, d := range num.ds {
		widest = max(widest, d.Size())
	}
	top := uint(0)
	if holes > 32 {
		top = holes - 32
	}
	for top < highBits && widest>>top > scatterRegion {
		top++
	}
	if top > highBits || len(num.ds)<<top > maxScatterBuckets {
		return nil
	}
	return &scatter{num: num, top: top, shift: holes - top}
}

// markScattered is markDense by scatter: it returns a bitset a class
// (sets[slot][0]) and the bytes charged for them.
func (e *Expander) markScattered(ctx context.Context, cur *Layer, sc *scatter) (sets [][][]uint64, held int64, st Stats, ok bool, err error) {
	num := sc.num
	nw := e.nworkers()
	held = num.words() * 8
	if err := e.mem.Take(held, "the next layer's positions"); err != nil {
		return nil, 0, Stats{}, true, err
	}
	sets = make([][][]uint64, len(num.ds))
	sc.sets = make([][]uint64, len(num.ds))
	for s, d := range num.ds {
		sc.sets[s] = memory.Make[uint64](int((d.Size() + 63) / 64))
		sets[s] = [][]uint64{sc.sets[s]}
	}
	fail := func(err error) ([][][]uint64, int64, Stats, bool, error) {
		e.mem.Give(held)
		return nil, 0, Stats{}, true, err
	}
	// A round's children: what a quarter of the budget left holds at 4
	// bytes each, at most 2^25 (128 MiB of lists).
	nb := len(num.ds) << sc.top
	free := e.mem.Limit() - e.mem.Used()
	roundChildren := int(max(1<<20, min(1<<25, free/16)))
	if len(e.states) != nw {
		e.states = make([]*workerState, nw)
		for i := range e.states {
			e.states[i] = newWorkerState(e.gen)
		}
	}
	idle := make(chan int, nw)
	for i, w := range e.states {
		w.lows = &blockLists{lists: make([][]uint32, nb), full: make([][][]uint32, nb)}
		w.stats = Stats{}
		idle <- i
	}
	var listBytes int64 // charged for the workers' blocks
	defer func() {
		for _, w := range e.states {
			w.lows = nil
		}
		e.mem.Give(listBytes)
	}()
	var t tally
	chunk := cur.chunkUnits(nw)
	parents := max(1024, roundChildren/e.jumpsPerParent())
	for lo, hi := 0, 0; lo < cur.units(); lo = hi {
		hi = cur.unitsUpTo(lo, parents)
		err := pool.Each(ctx, idle, lo, hi, chunk, func(i, clo, chi int) {
			c, ok := e.scatterChunk(e.states[i], cur, sc, clo, chi)
			t.add(e, cur, clo, chi, c, ok)
		})
		if err != nil {
			return fail(err)
		}
		if t.mixed.Load() {
			e.mem.Give(held)
			e.noDense = true
			return nil, 0, Stats{}, false, nil
		}
		// Account for the blocks as they stand at their most.
		var lb int64
		for _, w := range e.states {
			lb += int64(w.lows.blocks) * scatterBlock * 4
		}
		if lb > listBytes {
			if err := e.mem.Take(lb-listBytes, "the children of a layer"); err != nil {
				return fail(err)
			}
			listBytes = lb
		}
		if err := pool.Each(ctx, idle, 0, nb, 1, func(_, b, _ int) { sc.setBucket(e.states, b) }); err != nil {
			return fail(err)
		}
	}
	return sets, held, t.stats(e, cur), true, nil
}

// scatterChunk appends the children of parents lo..hi of cur (with Undo,
// their parents) to w's lists by bucket, and returns how many it found; ok
// is false if a child is of a class sc does not number.
func (e *Expander) scatterChunk(w *workerState, cur *Layer, sc *scatter, lo, hi int) (children int64, ok bool) {
	b := e.gen.Board
	w.parents = cur.parentsAt(w.parents, lo, hi)
	top, shift, slot := sc.top, sc.shift, sc.num.slot
	below := engine.Position(1)<<shift - 1
	bl := w.lows
	lists := bl.lists
	for _, p := range w.parents {
		kids := w.childrenOf(e.gen, p, e.undo)
		for _, c := range kids {
			s := slot[b.Class(c)]
			if s < 0 {
				return children, false
			}
			k := int(s)<<top | int(c>>shift)
			l := lists[k]
			if len(l) == cap(l) {
				l = bl.next(k)
			}
			lists[k] = append(l, uint32(c&below))
		}
		children += int64(len(kids))
	}
	return children, true
}

// setBucket sets the bits of bucket k's children in the workers' lists
// and empties them.
func (sc *scatter) setBucket(workers []*workerState, k int) {
	s, part := k>>sc.top, k&(1<<sc.top-1)
	d, set := sc.num.ds[s], sc.sets[s]
	per := d.Parts() >> sc.top // high parts a bucket
	lo, _ := d.Range(part * per)
	_, hi := d.Range((part+1)*per - 1)
	if lo == hi {
		return // no position of its class has these top bits
	}
	// The words of the region's ends, which its neighbours may share.
	first, last := lo/64, (hi-1)/64
	base := engine.Position(part) << sc.shift
	for _, w := range workers {
		bl := w.lows
		for _, list := range append(bl.full[k], bl.lists[k]) {
			for _, v := range list {
				r := d.Rank(base | engine.Position(v))
				if i, bit := r/64, uint64(1)<<(r%64); i == first || i == last {
					atomic.OrUint64(&set[i], bit)
				} else {
					set[i] |= bit
				}
			}
		}
		bl.reset(k)
	}
}

// scatterBlock is the children a block of a bucket's list holds.
const scatterBlock = 2048

// blockLists are a worker's lists of children by bucket, each a chain of
// blocks of scatterBlock, so that a bucket with many more children than
// the others (canonical forms gather at low top bits) takes more blocks
// rather than copying its list as it grows. A bucket's blocks go back to
// the worker's free ones once its bits are set. A list is touched by its
// worker while children are scattered, then by one task setting its
// bucket.
type blockLists struct {
	lists  [][]uint32   // by bucket: its block being filled
	full   [][][]uint32 // by bucket: its full blocks
	blocks int          // made, in use or free
	mu     sync.Mutex   // for free: the buckets are set in parallel
	free   [][]uint32
}

// next moves bucket k's full block to its full ones and returns an empty
// block for it.
func (bl *blockLists) next(k int) []uint32 {
	if l := bl.lists[k]; cap(l) > 0 {
		bl.full[k] = append(bl.full[k], l)
	}
	bl.mu.Lock()
	defer bl.mu.Unlock()
	if n := len(bl.free); n > 0 {
		b := bl.free[n-1]
		bl.free = bl.free[:n-1]
		return b
	}
	bl.blocks++
	return make([]uint32, 0, scatterBlock)
}

// reset frees bucket k's blocks.
func (bl *blockLists) reset(k int) {
	bl.mu.Lock()
	defer bl.mu.Unlock()
	for _, b := range bl.full[k] {
		bl.free = append(bl.free, b[:0])
	}
	bl.full[k] = bl.full[k][:0]
	if l := bl.lists[k]; cap(l) > 0 {
		bl.free = append(bl.free, l[:0])
	}
	bl.lists[k] = nil
}
