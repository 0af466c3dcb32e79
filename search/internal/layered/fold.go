package layered

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"unsafe"

	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"
)

// foldFor returns the numbering of the layer that cur's children form,
// where a counted expansion can fold their paths by number rather than
// in tables (see expandFolded): a layer of keys, or of one class's
// bitset (see TakeFolded), with counts that fit in 64 bits (the caller checks narrowEnough), no layer kept to, a board that a key.Ranker takes, the symmetries
// keeping the class of cur's first position, and one bitset a worker for
// the children that is set directly (not scattered) within what the
// budget has left, as denseFor asks. Otherwise nil.
func (e *Expander) foldFor(cur *Layer) *numbering {
	n := cur.Size()
	if e.noDense || !e.counts || e.pack != nil || e.within != nil || e.withinCode != nil || e.undo ||
		n < minDenseParents || cur.pegs < 2 {
		return nil
	}
	if cur.keys == nil && (cur.dense == nil || cur.dense.packed != nil || len(cur.dense.num.ds) != 1) {
		return nil
	}
	b, ranker := e.gen.Board, e.gen.Ranker()
	if ranker == nil {
		return nil
	}
	p0 := firstOf(cur)
	if !key.ClassKept(b, e.gen.Group, p0) {
		return nil
	}
	d := ranker.Layer(cur.pegs-1, b.Class(p0))
	if d == nil {
		return nil
	}
	num := numberingOf(d)
	nw := e.nworkers()
	words := num.words()
	if words > 16*int64(n) || e.scatterFor(num, nw) != nil || int64(nw)*words*8 > (e.mem.Limit()-e.mem.Used())/2 {
		return nil
	}
	return num
}

// folded is a layer's children with the paths to each summed by number
// (see expandFolded), kept for each part of an expansion in parts.
type folded struct {
	cur  *Layer // the parents
	kids *Layer // the children, as the bitset of their numbers
	set  []uint64
	pl   *places
	sum  []uint64 // the paths to each child, in kids's order
	st   Stats    // cur's
	// bytes is what the bitset and sum are charged (pl its own).
	bytes int64
	// final: the caller's last part of cur is done (see TakeFolded).
	final bool
}

// free gives f's memory back to mem (f may be nil).
func (f *folded) free(mem *memory.Budget) {
	if f == nil {
		return
	}
	f.pl.free(mem)
	mem.Give(f.bytes)
	mem.Spare(f.set)
	mem.Spare(f.sum)
	*f = folded{}
}

// dropFold lets go the folded children e keeps, if any.
func (e *Expander) dropFold() {
	e.fold.free(e.mem)
	e.fold = nil
}

// TakeFolded returns the children of the layer whose last part (see
// NextPart) e expanded last, where it found them folded by number (see
// expandFolded): the same positions and path counts as that expansion's
// layers together, held as the bitset of their numbers with the counts
// in that order, charged to e's budget for the caller to let go
// (Layer.Release); nil where e has none. Held so, the English layer of
// 15 pegs takes 38 MB rather than 58 as keys, and its expansion reads
// its positions in the order of their numbers, whose children share
// cache lines, rather than in the order of their keys.
func (e *Expander) TakeFolded() *Layer {
	f := e.fold
	if f == nil || !f.final {
		return nil
	}
	e.fold = nil
	f.pl.free(e.mem)
	l := f.kids
	l.narrow = f.sum
	// The bitset was charged by its capacity; the layer gives back its
	// length (Release spares it, charged as it is).
	e.mem.Give(f.bytes - l.Bytes())
	return l
}

// DropParts lets go what e keeps of a layer being expanded in parts (see
// NextPart) for its next part: for a caller that gives the layer up
// before its last part.
func (e *Expander) DropParts() {
	e.dropFold()
	e.partsOf = nil
}

// expandFolded is the counted expansion (Paths, counts in 64 bits) of a
// layer held whole, as a spilled run holds one that fits its budget: the
// paths to each child are summed by its number, not child by child in
// the buckets' tables (see fold); then each distinct child of the part
// kept (see NextPart) goes once, with its paths, into its bucket's table,
// which sorts the layer by key as before (collect). A child is found
// about seven times, so the tables take a seventh of the children they
// took. The children folded are kept for the next part of the same
// layer: each part costs a scan of their bitset, not an expansion.
//
// ok is false, with nothing held, where the expansion is left to the
// tables: a child of a class num does not number (markDense), or the
// budget refused the fold's bitsets or arrays.
func (e *Expander) expandFolded(ctx context.Context, cur *Layer, num *numbering) (next *Layer, st Stats, ok bool, err error) {
	f := e.fold
	if f == nil || f.cur != cur {
		e.dropFold()
		if f, ok, err = e.foldPaths(ctx, cur, num); !ok || err != nil {
			return nil, Stats{}, ok, err
		}
		e.fold = f
	}
	x, err := newExpansion(e, cur, func(w *workerState) *[][]paths { return &w.paths })
	if err != nil {
		return nil, Stats{}, true, err
	}
	defer x.free()
	// The tables are sized for the children there are.
	n := f.kids.Size()
	x.tsize = slotsFor(n/x.nb, tableFill)
	for b := range x.tabs {
		x.tabs[b].size = x.tsize
	}
	idle, roundChildren := x.prepareWorkers()
	// The distinct children of the part kept, each with its paths, into
	// the tables, in rounds of about roundChildren.
	partShift, plo, span := e.partRange()
	x.emit = func(w *workerState, lo, hi int) {
		w.parents = f.kids.parentsAt(w.parents, lo, hi)
		base, bb := f.kids.dense.start(lo), uint(x.bbits)
		for k, p := range w.parents {
			ck := key.Mix(p)
			if ck>>partShift-plo >= span {
				continue
			}
			b := bucketOf(ck, bb)
			w.paths[b] = append(w.paths[b], paths{ck, f.sum[base+k]})
		}
	}
	for lo := 0; lo < f.kids.units(); {
		hi := f.kids.unitsUpTo(lo, roundChildren)
		if err := x.round(ctx, idle, lo, hi, 1); err != nil {
			if !e.keepFold && e.slices <= 1 {
				e.dropFold()
			}
			return nil, Stats{}, true, err
		}
		lo = hi
	}
	st = f.st
	if !e.keepFold && e.slices <= 1 {
		e.dropFold() // before the layer is collected
	}
	next, _, err = x.finish(ctx)
	if err == nil && e.keepFold {
		f.final = true
	}
	return next, st, true, err
}

// fold finds cur's children and the paths to each, summed by number: the
// children's numbers are first marked in bitsets, as the dense pass does
// (markDense), which keeps their numbers where the budget has room (see
// keptRanks); then each parent's children's numbers, kept or made again,
// are placed among the set bits (as Games places them; see placesIn) and
// the parent's count added at each place in an array of each worker's,
// and the arrays summed. ok is false, with nothing held, where a child is of
// a class num does not number or the budget refuses the bitsets or
// arrays.
func (e *Expander) foldPaths(ctx context.Context, cur *Layer, num *numbering) (f *folded, ok bool, err error) {
	nw, d := e.nworkers(), num.ds[0]
	// The children's numbers the mark pass makes kept for the fold where
	// they are below 2^32 and the budget has room (see keptRanks).
	var kept *keptRanks
	if d.Size() <= 1<<32 {
		chunk := cur.chunkUnits(nw)
		kept = &keptRanks{chunk: chunk, chunks: make([]keptChunk, (cur.units()+chunk-1)/chunk)}
	}
	e.kept = kept
	sets, bitBytes, _, ok, err := e.markDense(ctx, cur, num)
	e.kept = nil
	defer kept.free(e.mem)
	if !ok || errors.Is(err, memory.ErrExceeded) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	// The workers' bitsets merged into the first; the others spared.
	set := mergeSets(sets[0], nil, e.workers)[0]
	f = &folded{cur: cur, set: set, bytes: bitBytes}
	for _, s := range sets[0][1:] {
		e.mem.Give(int64(cap(s)) * 8)
		f.bytes -= int64(cap(s)) * 8
		e.mem.Spare(s)
	}
	var cnts [][]uint64 // each worker's sums, the first f.sum
	fail := func(err error) (*folded, bool, error) {
		for _, c := range cnts[min(1, len(cnts)):] {
			e.mem.GiveWords(c)
		}
		f.free(e.mem)
		if errors.Is(err, memory.ErrExceeded) {
			return nil, false, nil
		}
		return nil, true, err
	}
	if f.kids, err = newBitLayer(ctx, num, [][]uint64{set}, cur.pegs-1, nw); err != nil {
		return fail(err)
	}
	// Where the budget refuses the places or the sums, the numbers kept
	// are let go first.
	f.pl, err = placesOf(f.kids, nw, e.mem)
	if errors.Is(err, memory.ErrExceeded) && kept.free(e.mem) {
		f.pl, err = placesOf(f.kids, nw, e.mem)
	}
	if err != nil {
		return fail(err)
	}
	n := f.kids.Size()
	for i := range nw {
		c, err := e.mem.TakeWords(n, "the paths to the next layer's positions")
		if errors.Is(err, memory.ErrExceeded) && kept.free(e.mem) {
			c, err = e.mem.TakeWords(n, "the paths to the next layer's positions")
		}
		if err != nil {
			return fail(err)
		}
		cnts = append(cnts, c)
		if i == 0 {
			f.sum, f.bytes = c, f.bytes+int64(len(c))*8
		}
	}
	if len(e.states) != nw {
		e.states = make([]*workerState, nw)
		for i := range e.states {
			e.states[i] = newWorkerState(e.gen)
		}
	}
	byIndex := make(chan int, nw)
	for i := range nw {
		e.states[i].stats = Stats{}
		byIndex <- i
	}
	lost := make([]bool, nw)
	var done atomic.Int64
	err = pool.Each(ctx, byIndex, 0, cur.units(), cur.chunkUnits(nw), func(i, lo, hi int) {
		lost[i] = foldChunk(e.states[i], cur, set, f.pl.before[0], d, kept.at(lo), cnts[i], lo, hi) || lost[i]
		if e.progress != nil {
			e.progress(int(done.Add(int64(cur.parentsIn(lo, hi)))), cur.Size())
		}
	})
	if err != nil {
		return fail(err)
	}
	if slices.Contains(lost, true) {
		return fail(errLost)
	}
	f.st = Stats{Positions: int64(cur.Size())}
	for _, w := range e.states {
		f.st.Raw += w.stats.Raw
		f.st.DeadEnds += w.stats.DeadEnds
		s, of := f.st.Games.Add(w.stats.Games)
		f.st.overflow = f.st.overflow || w.stats.overflow || of
		f.st.Games = s
	}
	if f.st.overflow {
		return fail(ErrOverflow)
	}
	// Each worker's paths summed into the first's.
	pool.Chunks(n, e.workers, func(_, lo, hi int) {
		for _, c := range cnts[1:] {
			for j := lo; j < hi; j++ {
				f.sum[j] += c[j]
			}
		}
	})
	for _, c := range cnts[1:] {
		e.mem.GiveWords(c)
	}
	return f, true, nil
}

// foldChunk adds the path count of each parent of cur's units lo..hi to
// cnt at the place of each of its children in set (numbered by d, before
// as in places), and counts the parents' stats in w as expandChunk does;
// it reports a child whose bit is not set (the bitsets are not of cur's
// children), and stops there. Where k holds the chunk's children's
// numbers (see keptRanks) they are read, not made again.
func foldChunk(w *workerState, cur *Layer, set []uint64, before []uint32, d *key.Dense, k *keptChunk, cnt []uint64, lo, hi int) (lost bool) {
	base := lo // the place of the first parent, whose counts are in cur's order
	if cur.dense != nil {
		base = cur.dense.start(lo)
	}
	var ends [movegen.MaxBatch]int32
	if k != nil {
		w.stats.Raw += k.raw
		rest := k.ranks
		for i0 := 0; i0 < len(k.n); i0 += movegen.MaxBatch {
			ns := k.n[i0:min(len(k.n), i0+movegen.MaxBatch)]
			end := int32(0)
			for j, n := range ns {
				end += int32(n)
				ends[j] = end
			}
			ranks := w.ranks[:0]
			for _, r := range rest[:end] {
				ranks = append(ranks, uint64(r))
			}
			rest = rest[end:]
			w.ranks = ranks
			if foldBatch(w, cur, set, before, cnt, ranks, ends[:len(ns)], base+i0) {
				return true
			}
		}
		return false
	}
	w.parents = cur.parentsAt(w.parents, lo, hi)
	for i0 := 0; i0 < len(w.parents); i0 += movegen.MaxBatch {
		batch := w.parents[i0:min(len(w.parents), i0+movegen.MaxBatch)]
		ranks := w.par.MoveRanksBatch(w.ranks[:0], batch, nil, d, ends[:len(batch)])
		w.ranks = ranks
		for j := range batch {
			w.stats.Raw += w.par.BatchOrbit(j)
		}
		if foldBatch(w, cur, set, before, cnt, ranks, ends[:len(batch)], base+i0) {
			return true
		}
	}
	return false
}

// foldBatch is foldChunk's work for a batch of parents, the first at
// place base of cur, whose children's numbers are ranks, parent j's
// ending at ends[j]: each child's place found, the parent's count added
// there, and the dead ends counted; it reports a child whose bit is not
// set.
func foldBatch(w *workerState, cur *Layer, set []uint64, before []uint32, cnt []uint64, ranks []uint64, ends []int32, base int) (lost bool) {
	if len(ranks) > 0 {
		// Each child's place, its count's line asked for (see
		// placesIn).
		prefetchBits(&set[0], &before[0], ranks)
		if placesIn(set, before, ranks, unsafe.Pointer(&cnt[0]), 3) < len(ranks) {
			return true
		}
	}
	prev := int32(0)
	for j, end := range ends {
		m := cur.Count(base + j)
		if end == prev {
			w.stats.DeadEnds++
			s, of := w.stats.Games.Add(m)
			w.stats.overflow = w.stats.overflow || of
			w.stats.Games = s
			continue
		}
		// Below 2^51, so no child's sum passes 64 bits (see
		// narrowEnough).
		for _, at := range ranks[prev:end] {
			cnt[at] += m.Lo
		}
		prev = end
	}
	return false
}

// keptRanks holds the numbers of a layer's children that the mark pass
// of a fold made (see denseChunk), chunk by chunk, with each parent's
// count of them and the parents' orbits, charged to the budget, for the
// fold to read rather than make them again (see foldChunk). A chunk the
// budget has no room for is not kept, and the fold makes its children
// again. The English full analysis spilled within 256 MiB keeps them all
// (116 MiB at most, for the layer of 15 pegs) and spent 0.73-0.75 s of
// CPU in MoveRanksBatch against 1.91-1.94 s before, the fold 1.10-1.37 s
// against 2.26-2.40 s, the copies kept 0.22-0.24 s (CPU profiles of two
// runs each, the machine loaded by other work).
type keptRanks struct {
	chunk  int         // units a chunk
	chunks []keptChunk // by chunk, its first unit over chunk
	bytes  atomic.Int64
}

// keptChunk is a chunk's part of keptRanks.
type keptChunk struct {
	ranks []uint32 // the children's numbers, parent by parent
	n     []uint8  // each parent's children
	raw   int64    // the parents' orbits (Stats.Raw)
}

// keep keeps w's children's numbers and counts for the chunk whose first
// unit is lo, where mem has room for them.
func (k *keptRanks) keep(mem *memory.Budget, lo int, w *workerState, raw int64) {
	bytes := int64(len(w.keptRanks))*4 + int64(len(w.keptN))
	if mem.Take(bytes, "the numbers of the next layer's positions") != nil {
		return
	}
	k.bytes.Add(bytes)
	k.chunks[lo/k.chunk] = keptChunk{ranks: slices.Clone(w.keptRanks), n: slices.Clone(w.keptN), raw: raw}
}

// at returns the chunk whose first unit is lo, or nil where it was not
// kept (or k is nil).
func (k *keptRanks) at(lo int) *keptChunk {
	if k == nil || k.chunks == nil || k.chunks[lo/k.chunk].n == nil {
		return nil
	}
	return &k.chunks[lo/k.chunk]
}

// free gives k's memory back to mem and reports whether it held any (k
// may be nil); its chunks are made again after.
func (k *keptRanks) free(mem *memory.Budget) bool {
	if k == nil || k.chunks == nil {
		return false
	}
	b := k.bytes.Swap(0)
	mem.Give(b)
	k.chunks = nil
	return b > 0
}
