package layered

import (
	"context"
	"errors"
	"math/bits"
	"slices"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sync/errgroup"

	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"
)

// expansion is one layer being expanded into the next, for one kind of
// child R (see rec): the parents, the buckets' tables of distinct children
// and the workers' lists of children waiting for them.
type expansion[R rec] struct {
	e   *Expander
	cur *Layer
	n   int // parents
	// lists picks a worker's lists of children of kind R, a list a bucket.
	lists func(*workerState) *[][]R
	// coded: the parents are a stored layer (plain keys only), expanded as
	// it is decoded, a chunk at a time.
	coded bool
	// keyShift is how far up the tables' keys are shifted (see
	// Expander.keyShift); pk, the packing of keys so shifted.
	keyShift uint
	pk       key.Packing
	size     int64 // bytes of a child
	bbits    int   // key bits that pick a bucket
	nb       int   // buckets
	// tabs[b] holds bucket b's distinct children found so far, in tables
	// of tsize home slots each.
	tabs  []bucketTable[R]
	tsize int
	// closed: the tables are seeded with the keys the next layer keeps
	// (Within or WithinCode), and other children are dropped.
	closed bool
	// bare: children are plain keys, with no counts or tags.
	bare      bool
	workers   []*workerState
	listBytes int64 // the workers' lists, charged to the budget
	done      atomic.Int64
	// emit, if set, appends the children of units lo..hi to w's lists in
	// place of expandChunk: those of a layer whose paths were folded by
	// number (see expandFolded).
	emit func(w *workerState, lo, hi int)
}

// expand is Next for one kind of child: lists picks a worker's lists of
// that kind.
//
// Parents are expanded in rounds. In a round, workers expand chunks of
// parents and append each child to a per-worker list for its bucket (the
// top bits of its mixed key); then each bucket's children go into its
// table of distinct children (bucketTable), buckets in parallel, so both
// phases touch memory in cache-sized pieces and no locks are taken.
func expand[R rec](ctx context.Context, e *Expander, cur *Layer, lists func(*workerState) *[][]R) (*Layer, Stats, error) {
	x, err := newExpansion(e, cur, lists)
	if err != nil {
		return nil, Stats{}, err
	}
	defer x.free()
	if err := x.seed(); err != nil {
		return nil, Stats{}, err
	}
	idle, roundChildren := x.prepareWorkers()
	// A round's parents: enough to fill about roundChildren children at
	// the jumps a parent of the last round, at least ten (see
	// jumpsPerParent): the lists are sized for roundChildren, and the
	// widest French layers have twelve.
	parents := func() int { return max(1024, roundChildren/e.jumpsPerParent()) }
	chunk := max(256, min(1<<12, parents()/(8*e.nworkers())+1))
	for lo := 0; lo < x.n; {
		hi := min(x.n, lo+parents())
		if err := x.round(ctx, idle, lo, hi, chunk); err != nil {
			return nil, Stats{}, err
		}
		lo = hi
	}
	return x.finish(ctx)
}

func newExpansion[R rec](e *Expander, cur *Layer, lists func(*workerState) *[][]R) (*expansion[R], error) {
	x := &expansion[R]{e: e, cur: cur, n: cur.Size(), lists: lists, keyShift: e.keyShift(),
		coded: cur.keys == nil && cur.stored != nil, size: int64(unsafe.Sizeof(*new(R))),
		closed: e.within != nil || e.withinCode != nil, bare: !e.counts && e.pack == nil}
	if x.keyShift != 0 {
		x.pk = e.withinCode.pk
	}
	if x.coded {
		if e.counts || e.pack != nil {
			return nil, errors.New("a stored layer has no counts or tags to expand")
		}
		x.n = cur.stored.N
	}
	for (x.n*2)>>uint(x.bbits) > 4096 && x.bbits < 9 {
		x.bbits++
	}
	for 1<<uint(x.bbits) < e.slices {
		x.bbits++ // a bucket is of one slice (see Expander.slices)
	}
	x.nb = 1 << uint(x.bbits)
	// Each bucket's table is sized for its share of the children expected
	// at tableFill, and doubles past maxLoad.
	x.tsize = slotsFor(e.expectChildren(cur, x.n)/x.nb, tableFill)
	x.tabs = make([]bucketTable[R], x.nb)
	for b := range x.tabs {
		x.tabs[b] = bucketTable[R]{size: x.tsize, bb: uint(x.bbits), mem: e.mem}
		if e.pack != nil {
			x.tabs[b].low = e.pack.Tags
		}
	}
	return x, nil
}

// free gives back the tables not yet collected; the lists the workers
// keep for the next expansion stay charged, kept by the budget, which
// lets them go where it is short (see Expander.keptLists).
func (x *expansion[R]) free() {
	for b := range x.tabs {
		if x.tabs[b].slots != nil {
			x.tabs[b].free()
		}
	}
	if x.listBytes == 0 {
		return
	}
	states := x.e.states
	x.e.keptLists = x.e.mem.Keep(x.listBytes, func() {
		for _, w := range states {
			w.recs, w.paths, w.keys, w.packs = nil, nil, nil, nil
		}
	})
	x.listBytes = 0
}

// seed closes the tables on the keys the next layer keeps, if any: from
// their code, or each bucket's keys, buckets in parallel.
func (x *expansion[R]) seed() error {
	e := x.e
	switch {
	case e.withinCode != nil:
		if err := seedCoded(x.tabs, e.withinCode, x.keyShift, e.workers); err != nil {
			return err
		}
	case e.within != nil:
		var g errgroup.Group
		g.SetLimit(e.nworkers())
		for b := range x.tabs {
			g.Go(func() error {
				lo, hi := 0, len(e.within)
				if b > 0 {
					lo, _ = slices.BinarySearch(e.within, uint64(b)<<uint(64-x.bbits))
				}
				if b+1 < x.nb {
					hi, _ = slices.BinarySearch(e.within, uint64(b+1)<<uint(64-x.bbits))
				}
				return x.tabs[b].seed(e.within[lo:hi])
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
	}
	if x.closed && e.seeded != nil {
		e.seeded()
	}
	return nil
}

// prepareWorkers gives each worker lists of this kind with room for a
// round's share of children, and returns the pool of idle workers and the
// children a round holds.
func (x *expansion[R]) prepareWorkers() (chan *workerState, int) {
	e := x.e
	nw := e.nworkers()
	if len(e.states) != nw {
		e.states = make([]*workerState, nw)
		for i := range e.states {
			e.states[i] = newWorkerState(e.gen)
		}
	}
	x.workers = e.states
	// The lists kept from the last expansion come with their charge,
	// unless the budget let them go.
	if e.keptLists != nil && e.mem.Reclaim(e.keptLists) {
		x.listBytes = e.keptLists.Bytes()
	}
	e.keptLists = nil
	roundChildren := roundSize(x.n, x.size, e.mem.Limit())
	// Where the budget is tight, a round's lists take at most half of
	// what the tables leave at their expected size (closed tables are
	// already in use), the lists kept counted as room.
	free := e.mem.Limit() - e.mem.Used() + x.listBytes
	if !x.closed {
		free -= int64(x.tsize) * int64(x.nb) * x.size
	}
	roundChildren = max(tightRoundRecords, min(roundChildren, int(max(0, free)/2/(x.size*5/4))))
	idle := make(chan *workerState, nw)
	for _, w := range x.workers {
		// Keep only this kind's lists: the expansion picks its kind by
		// which lists are set.
		out := x.lists(w)
		kept := *out
		w.recs, w.paths, w.keys, w.packs = nil, nil, nil, nil
		*out = kept
		if len(*out) != x.nb {
			*out = make([][]R, x.nb)
		}
		// Room for a round's share of children, so appends rarely copy.
		want := min(roundChildren, 10*x.n) / (nw * x.nb) * 5 / 4
		// Lists start empty: a round stopped by the budget leaves its
		// children in them, which a retry of the same Expander (a
		// spilled partition cut in two) must not fold in again.
		short := false
		for b := range *out {
			(*out)[b] = (*out)[b][:0]
			short = short || cap((*out)[b]) < want
		}
		if short {
			// One array cut into the lists, so that it can have huge
			// pages (see memory.Make): a worker appends to every bucket's
			// list in turn, and with a 4 KiB page a list most appends
			// miss the TLB. A list that outgrows its share moves out.
			slab := memory.Make[R](want * x.nb)
			for b := range *out {
				(*out)[b] = slab[b*want : b*want : (b+1)*want]
			}
		}
		w.stats = Stats{}
		idle <- w
	}
	// Lists of another kind went, and lists too short for a round were
	// made anew: the charge follows what the workers hold now where that
	// is less (round charges what it grows by).
	if lb := x.heldLists(); lb < x.listBytes {
		e.mem.Give(x.listBytes - lb)
		x.listBytes = lb
	}
	return idle, roundChildren
}

// heldLists returns the bytes of the workers' lists of this kind: their
// capacity.
func (x *expansion[R]) heldLists() int64 {
	var lb int64
	for _, w := range x.workers {
		for _, o := range *x.lists(w) {
			lb += int64(cap(o)) * x.size
		}
	}
	return lb
}

// round expands parents lo..hi in chunks of chunk on the workers, then
// puts their children in the tables.
func (x *expansion[R]) round(ctx context.Context, idle chan *workerState, lo, hi, chunk int) error {
	err := pool.Each(ctx, idle, lo, hi, chunk, func(w *workerState, clo, chi int) {
		if x.emit != nil {
			x.emit(w, clo, chi)
			return
		}
		x.expandChunk(w, clo, chi)
		if x.e.progress != nil {
			x.e.progress(int(x.done.Add(int64(chi-clo))), x.n)
		}
	})
	if err != nil {
		return err
	}
	// Account for the lists as they stand at their largest.
	lb := x.heldLists()
	var children int64
	for _, w := range x.workers {
		for _, o := range *x.lists(w) {
			children += int64(len(o))
		}
	}
	if hi-lo >= 1024 && x.emit == nil {
		x.e.perParent = float64(children) / float64(hi-lo)
	}
	if lb > x.listBytes {
		if err := x.e.mem.Take(lb-x.listBytes, "the children of a layer"); err != nil {
			return err
		}
		x.listBytes = lb
	}
	return x.table(ctx)
}

// expandChunk appends the children of parents lo..hi to w's lists: the
// hot loop of every layered search. The children of a batch of parents
// are made together (Parent.MoveChildrenBatch, in assembly where the dense
// pass's are), then go to their lists a parent at a time; the loop stays
// one loop, its locals in registers, for every kind of child: split into
// a method a parent it ran 7-10% slower (BenchmarkExplore/board=english,
// full and winnable at two workers).
func (x *expansion[R]) expandChunk(w *workerState, lo, hi int) {
	e, cur := x.e, x.cur
	if e.pack != nil {
		x.expandTagged(w, lo, hi)
		return
	}
	w.parents = cur.parentsAt(w.parents, lo, hi)
	board, par := e.gen.Board, &w.par
	bare, keyShift, bb := x.bare, x.keyShift, uint(x.bbits)
	// A counted child outside the part kept (NextPart) is not listed.
	partShift, plo, span := e.partRange()
	var ends [movegen.MaxBatch]int32
	for i0 := lo; i0 < hi; i0 += movegen.MaxBatch {
		batch := w.parents[i0-lo : min(hi, i0+movegen.MaxBatch)-lo]
		w.kids = par.MoveChildrenBatch(w.kids[:0], batch, w.movers(batch, board, e.undo), ends[:len(batch)])
		start := int32(0)
		for j := range batch {
			w.stats.Raw += par.BatchOrbit(j)
			kids := w.kids[start:ends[j]]
			start = ends[j]
			if bare {
				// Each child's key (see movegen.Gen.AppendMoves).
				for _, c := range kids {
					k := key.Mix(c) << keyShift
					b := bucketOf(k, bb)
					w.keys[b] = append(w.keys[b], k)
				}
				if len(kids) == 0 {
					w.stats.DeadEnds++
				}
				continue
			}
			// Past here the children carry path counts.
			m := cur.Count(i0 + j)
			if w.paths != nil {
				for _, c := range kids {
					ck := key.Mix(c)
					if ck>>partShift-plo >= span {
						continue
					}
					b := bucketOf(ck, bb)
					w.paths[b] = append(w.paths[b], paths{ck, m.Lo})
				}
			} else {
				for _, c := range kids {
					ck := key.Mix(c)
					if ck>>partShift-plo >= span {
						continue
					}
					b := bucketOf(ck, bb)
					w.recs[b] = append(w.recs[b], record{ck, m})
				}
			}
			if len(kids) == 0 {
				w.stats.DeadEnds++
				s, of := w.stats.Games.Add(m)
				w.stats.overflow = w.stats.overflow || of
				w.stats.Games = s
			}
		}
	}
}

// expandTagged is expandChunk for children with the tags of the starts
// that reach them (Expander.pack): a parent at a time.
func (x *expansion[R]) expandTagged(w *workerState, lo, hi int) {
	e, cur, pack := x.e, x.cur, x.e.pack
	for i := lo; i < hi; i++ {
		p := pack.Pos(cur.keys[i])
		raw := movegen.OrbitSize(w.par.Set(p), p)
		w.stats.Raw += raw
		mover := p // whose jumps make the children
		if e.undo {
			mover = e.gen.Board.Full() &^ p
		}
		w.moves = e.gen.AppendMoves(w.moves[:0], mover)
		x.tagged(w, cur.keys[i]&pack.Tags, raw)
	}
}

// tagged appends the packed words of the children by w.moves of a parent
// with the tags of the starts that reach it to w's lists; raw is its
// positions counting symmetric images.
func (x *expansion[R]) tagged(w *workerState, tags uint64, raw int64) {
	for t := tags; t != 0; t &= t - 1 {
		s := bits.TrailingZeros64(t)
		w.stats.RawBy[s] += raw
		if len(w.moves) == 0 {
			w.stats.DeadBy[s]++
		}
	}
	for _, k := range w.moves {
		pw := x.e.pack.Key(w.par.Child(k)) | tags
		b := bucketOf(pw, uint(x.bbits))
		w.packs[b] = append(w.packs[b], packed(pw))
	}
	if len(w.moves) == 0 {
		w.stats.DeadEnds++
	}
}

// table puts each bucket's children from the workers' lists into its
// table, buckets in parallel.
func (x *expansion[R]) table(ctx context.Context) error {
	overflow := make([]bool, x.nb)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(x.e.nworkers())
	for b := range x.tabs {
		g.Go(func() error {
			t := &x.tabs[b]
			// A bucket outside the part kept (NextPart) is dropped.
			drop := x.e.slices > 1 && (b>>(x.bbits-bits.TrailingZeros(uint(x.e.slices))) < x.e.lo || b>>(x.bbits-bits.TrailingZeros(uint(x.e.slices))) >= x.e.hi)
			for _, w := range x.workers {
				list := (*x.lists(w))[b]
				if len(list) == 0 {
					continue
				}
				if drop {
					(*x.lists(w))[b] = list[:0]
					continue
				}
				if t.slots == nil {
					if err := t.alloc(t.size); err != nil {
						return err
					}
				}
				of, err := t.add(list)
				if err != nil {
					return err
				}
				overflow[b] = overflow[b] || of
				(*x.lists(w))[b] = list[:0]
			}
			return gctx.Err()
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if slices.Contains(overflow, true) {
		return ErrOverflow
	}
	return nil
}

// finish sums the workers' stats and collects the tables into the next
// layer.
func (x *expansion[R]) finish(ctx context.Context) (*Layer, Stats, error) {
	e := x.e
	st := Stats{Positions: int64(x.n)}
	for _, w := range x.workers {
		st.Raw += w.stats.Raw
		st.DeadEnds += w.stats.DeadEnds
		for s := range st.RawBy {
			st.RawBy[s] += w.stats.RawBy[s]
			st.DeadBy[s] += w.stats.DeadBy[s]
		}
		s, of := st.Games.Add(w.stats.Games)
		st.overflow = st.overflow || w.stats.overflow || of
		st.Games = s
	}
	if st.overflow {
		return nil, st, ErrOverflow
	}
	if x.listBytes > min(maxKeptLists, max(e.mem.Limit()/16, minKeptLists)) {
		// Lists this large are not worth keeping for the next layer
		// while the tables turn into it.
		for _, w := range x.workers {
			*x.lists(w) = nil
		}
		e.mem.Give(x.listBytes)
		x.listBytes = 0
	}
	if e.spent != nil {
		e.spent(x.cur)
	}
	if e.sorted != nil && x.keyShift == 0 {
		// The tables are the caller's now (NextPartSorted).
		*e.sorted = sortedOf(x.tabs)
		x.tabs = nil
		return nil, st, nil
	}
	next, err := collect(ctx, e, x.tabs, x.cur.pegs-1, x.keyShift)
	if err == nil && x.keyShift != 0 {
		// Found as packed words: back to mixed keys, in their order.
		pool.Chunks(len(next.keys), e.workers, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				next.keys[i] = key.Mix(x.pk.Pos(next.keys[i]))
			}
		})
		key.Sort(next.keys, e.workers)
	}
	if err == nil && !x.closed && x.n > 0 && e.slices <= 1 {
		e.ratios = append(e.ratios, float64(next.Size())/float64(x.n))
	}
	return next, st, err
}

// bucketOf returns the bucket of a mixed key among 1<<bits: its top bits.
func bucketOf(key uint64, bits uint) int {
	if bits == 0 {
		return 0
	}
	return int(key >> (64 - bits))
}
