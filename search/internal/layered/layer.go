package layered

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sync/errgroup"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"
)

// Layer is one peg count's canonical positions, sorted by mixed key, with
// optional path counts and random-play probability mass. In a search from
// several starts the keys are packed words instead, with their tags (see
// packing).
type Layer struct {
	Pegs int
	Keys []uint64
	M    []exact.U128 // paths from the start to the position's orbit
	Q    []uint64     // probability (fixed point) that random play reaches the orbit; nil without mass
	// Stored, if set, holds the keys coded while the layer waits (keys is
	// then nil unless loaded; see store and load).
	Stored *Stored
}

func (l *Layer) Len() int { return len(l.Keys) }

// Size returns l's positions, held as keys or coded.
func (l *Layer) Size() int {
	if l.Keys == nil && l.Stored != nil {
		return l.Stored.N
	}
	return len(l.Keys)
}

func (l *Layer) Bytes() int64 {
	n := int64(len(l.Keys))*8 + int64(len(l.M))*16 + int64(len(l.Q))*8
	if l.Stored != nil {
		n += l.Stored.Bytes()
	}
	return n
}

// Store codes l's keys (a plain layer of a board of holes holes, without
// counts) and lets them go, moving their charge in mem to the code's.
func (l *Layer) Store(holes, workers int, mem *memory.Budget) {
	raw := int64(len(l.Keys)) * 8
	l.Stored = StoreKeys(l.Keys, holes, workers)
	l.Keys = nil
	mem.Replace(raw, l.Stored.Bytes()) // smaller than what it replaces
}

// Load decodes a stored layer's keys, charged to mem until drop.
func (l *Layer) Load(workers int, mem *memory.Budget) error {
	if l.Stored == nil || l.Keys != nil {
		return nil
	}
	if err := mem.Take(int64(l.Stored.N)*8, "a stored layer's positions"); err != nil {
		return err
	}
	l.Keys = l.Stored.Keys(workers) // sorted in place (see sortKeys)
	return nil
}

// Drop lets a stored layer's loaded keys go.
func (l *Layer) Drop(mem *memory.Budget) {
	if l.Stored != nil && l.Keys != nil {
		mem.Give(int64(len(l.Keys)) * 8)
		l.Keys = nil
	}
}

// Stats is what expanding a layer learns about its positions.
type Stats struct {
	Positions int64      // positions up to symmetry
	Raw       int64      // positions counting every symmetric image
	DeadEnds  int64      // positions with no legal jump
	Games     exact.U128 // paths ending in a dead end here
	overflow  bool
	// In a search from several starts (tags), raw and deadEnds by start.
	RawBy, DeadBy [64]int64
}

// Expander grows layers by one jump.
type Expander struct {
	Gen     *movegen.Gen
	Workers int
	Counts  bool // carry path counts and random-play mass
	NoMass  bool // with counts: carry path counts only
	// Pack, if set, is how positions and the starts that reach them are
	// packed in a search from several starts (see packing).
	Pack *key.Packing
	// Within, if set, holds the keys (sorted) that the next layer keeps:
	// children with other keys are dropped as they come, before they take
	// room in a table. A search that counts only through known positions
	// (the winnable ones) sets it.
	Within []uint64
	// WithinCode, if set, is within for a stored layer: the tables are
	// seeded from its code, never decoded whole. Without counts or tags,
	// the tables are then keyed by the layer's packed words (the mixed key
	// shifted up; see packing), the order its code decodes in, so that
	// each table fills in order (see seedCoded); the layer found is turned
	// back into mixed keys.
	WithinCode *Stored
	// Seeded, if set, is called once the tables are Seeded from within
	// or withinCode, which expand does not read after that: the caller
	// may let them go.
	Seeded func()
	// Spent, if set, is called with a layer once its positions are
	// expanded, before its children are collected into the next layer,
	// which they are not needed for: a reachable-only search lets them go
	// there, before the layer's largest moment.
	Spent func(cur *Layer)
	// Undo makes the expander find parents instead of children: the jumps
	// that can be undone in a position are those legal in its complement,
	// and undoing one flips the same three holes as making it. (Its layer
	// stats then speak of the complements.)
	Undo bool
	// Code, if set, reports whether a layer of n bare keys, collected
	// from tables of tableBytes, is to be coded as it is collected (see
	// codeTables) rather than held as keys.
	Code func(n int, tableBytes int64) bool
	// Store is whether forward codes the layers it has expanded once the
	// keys it holds pass a share of the budget (Tuning.Share; see
	// storedKeys): they wait for the walk back in about a quarter of the
	// memory.
	Store bool
	Mem   *memory.Budget
	// Tuning moves thresholds for tests; the zero value is the default.
	Tuning Tuning
	// Progress, if set, is called with the number of parents done so far.
	Progress func(done, total int)
	states   []*workerState
	// ratios holds, for each layer expanded forward, its distinct
	// children over its parents (see expect).
	ratios []float64
}

func (e *Expander) nworkers() int { return pool.Size(e.Workers) }

// keyShift returns how far up the tables' keys are shifted from the
// children's mixed keys: to their packed words where bare keys fill tables
// seeded from code (see withinCode), else not at all.
func (e *Expander) keyShift() uint {
	if e.WithinCode == nil || e.Counts || e.Pack != nil {
		return 0
	}
	return e.WithinCode.pk.Shift
}

// record is one child found by a worker when the search carries counts,
// waiting to be added to its bucket.
type record struct {
	key uint64
	m   exact.U128
	q   uint64
}

// narrow is a record whose path count fits in 64 bits, which holds for
// every child when the parents' counts are below 2^51 (see narrowEnough):
// three quarters of the bytes to move and hold.
type narrow struct {
	key uint64
	m   uint64
	q   uint64
}

// paths is a narrow record without random-play mass, for a search that
// counts only paths: two thirds of the bytes.
type paths struct {
	key uint64
	m   uint64
}

// packed is a child in a search from several starts: a packed word,
// position and tags (see packing).
type packed uint64

// narrowEnough reports whether every child of l can count its paths in 64
// bits. A child's count sums its parents' counts over the jumps that lead
// to its orbit: at most one per jump undone in each of its images, and no
// board has more than 64 holes x 8 directions x 12 symmetries < 2^13 of
// those, so parents below 2^51 keep every child below 2^64.
func narrowEnough(l *Layer, below uint64) bool {
	for _, m := range l.M {
		if m.Hi != 0 || m.Lo >= below {
			return false
		}
	}
	return true
}

// maxKeptLists is the most bytes of children's lists that workers keep
// for the next layer, and a sixteenth of the budget where that is less
// (but never under minKeptLists): larger ones are let go before a layer is
// collected, where the French board's widest layers would hold 2 GiB of
// them beside the tables and the layer collected from them (French d3
// within 6 GiB stopped there).
const (
	maxKeptLists = 1 << 30
	minKeptLists = 64 << 20
)

// Tuning holds two thresholds of the layered search that its tests move
// to reach, on small boards, the paths large boards take. The zero value
// is the default.
type Tuning struct {
	// StoreShare is the share of the memory budget (1/StoreShare; default
	// 8) that the keys of the layers a forward pass has expanded may take
	// before it stores them coded; tests raise it to store every layer.
	StoreShare int64
	// NarrowBelow bounds the parents' path counts under which children
	// count paths in 64 bits (see narrowEnough; default 2^51); tests lower
	// it to make the search use wide records.
	NarrowBelow uint64
}

// Share returns the share of the memory budget that layers waiting for the
// walk back may take as keys before they are coded (see StoreShare).
func (t Tuning) Share() int64 {
	if t.StoreShare > 0 {
		return t.StoreShare
	}
	return 8
}

// narrowBelow returns NarrowBelow or its default.
func (t Tuning) narrowBelow() uint64 {
	if t.NarrowBelow > 0 {
		return t.NarrowBelow
	}
	return 1 << 51
}

// rec is what a bucket holds: a record, a narrow record, a paths record
// (no random-play mass), a bare mixed key when the search carries no counts
// (a quarter of the bytes to sort and hold), or a packed word with tags.
// The key is the first word of each, so keyOf reads it without knowing
// which (for a packed word, with its tags: the tables mask them).
type rec interface {
	uint64 | narrow | paths | record | packed
}

func keyOf[R rec](r *R) uint64 { return *(*uint64)(unsafe.Pointer(r)) }

// workerState holds one worker's children, one list per bucket, in the
// layer's kind: recs (128-bit counts), nars (64-bit counts), paths (64-bit
// counts, no mass), keys (no counts) or packs (tagged). Only that kind's
// lists are set while a layer is expanded.
type workerState struct {
	recs  [][]record
	nars  [][]narrow
	paths [][]paths
	keys  [][]uint64
	packs [][]packed
	par   *movegen.Parent // the parent being expanded
	moves []int16
	// parents holds a chunk of a stored layer's positions, decoded.
	parents []engine.Position
	stats   Stats
}

func newWorkerState(gen *movegen.Gen) *workerState {
	return &workerState{par: gen.NewParent()}
}

// roundRecords is the fewest children a round holds before they go into
// the buckets' tables: rounds grow with the layer (see roundSize).
const roundRecords = 1 << 23

// RoundSize returns the children a round of a layer of n parents holds:
// roundRecords, or an eighth of the layer's children (about ten a parent)
// when that is more, so a layer pauses between expanding and tabling about
// eight times at most; but the round's children may take at most an
// eighth of the memory budget. (Rounds of a fixed 4M or 2M children held
// less but ran up to 15% slower.)
func RoundSize(n int, recordBytes, budget int64) int {
	size := max(roundRecords, 10*n/8)
	return int(max(roundRecords, min(int64(size), budget/8/recordBytes)))
}

// Next expands cur into the layer with one peg fewer, and returns the stats
// of cur's positions.
//
// Parents are expanded in rounds. In a round, workers expand chunks of
// parents and append each child to a per-worker list for its bucket (the top
// bits of its mixed key); then each bucket's children go into its table of
// distinct children (bucketTable), buckets in parallel, so both phases
// touch memory in cache-sized pieces and no locks are taken.
func (e *Expander) Next(ctx context.Context, cur *Layer) (*Layer, Stats, error) {
	next, st, err := e.Grow(ctx, cur)
	if errors.Is(err, memory.ErrExceeded) {
		// Say how far the search came.
		err = fmt.Errorf("%w, finding the positions of %d pegs", err, cur.Pegs-1)
	}
	return next, st, err
}

// Grow is next without the note on a memory error.
func (e *Expander) Grow(ctx context.Context, cur *Layer) (*Layer, Stats, error) {
	if e.Counts && e.NoMass && narrowEnough(cur, e.Tuning.narrowBelow()) {
		return expand(ctx, e, cur, func(w *workerState) *[][]paths { return &w.paths })
	}
	if e.Counts && narrowEnough(cur, e.Tuning.narrowBelow()) {
		return expand(ctx, e, cur, func(w *workerState) *[][]narrow { return &w.nars })
	}
	if e.Counts {
		return expand(ctx, e, cur, func(w *workerState) *[][]record { return &w.recs })
	}
	if e.Pack != nil {
		return expand(ctx, e, cur, func(w *workerState) *[][]packed { return &w.packs })
	}
	return expand(ctx, e, cur, func(w *workerState) *[][]uint64 { return &w.keys })
}

// expand is next for one kind of child: lists picks a worker's lists of
// that kind.
func expand[R rec](ctx context.Context, e *Expander, cur *Layer, lists func(*workerState) *[][]R) (*Layer, Stats, error) {
	n := cur.Len()
	// A stored layer (plain keys only) is expanded as it is decoded, a
	// chunk at a time.
	coded := cur.Keys == nil && cur.Stored != nil
	keyShift := e.keyShift()
	var pk key.Packing // the packing of keys shifted up (keyShift)
	if keyShift != 0 {
		pk = e.WithinCode.pk
	}
	if coded {
		if e.Counts || e.Pack != nil {
			return nil, Stats{}, errors.New("a stored layer has no counts or tags to expand")
		}
		n = cur.Stored.N
	}
	size := int64(unsafe.Sizeof(*new(R)))
	bbits := 0
	for (n*2)>>uint(bbits) > 4096 && bbits < 9 {
		bbits++
	}
	nb := 1 << uint(bbits)
	// tabs[b] holds bucket b's distinct children found so far.
	tabs := make([]bucketTable[R], nb)
	// Each bucket's table is sized for its share of the children expected
	// at tableFill, and doubles past maxLoad.
	tsize := SlotsFor(e.Expect(n)/nb, TableFill)
	for b := range tabs {
		tabs[b] = bucketTable[R]{size: tsize, bb: uint(bbits), mem: e.Mem}
		if e.Pack != nil {
			tabs[b].low = e.Pack.Tags
		}
	}
	var listBytes int64
	defer func() {
		for b := range tabs {
			if tabs[b].slots != nil {
				tabs[b].free()
			}
		}
		e.Mem.Give(listBytes)
	}()
	closed := e.Within != nil || e.WithinCode != nil
	if e.WithinCode != nil {
		if err := seedCoded(tabs, e.WithinCode, keyShift, e.Workers); err != nil {
			return nil, Stats{}, err
		}
	} else if closed {
		// Each bucket's table is seeded with its keys, buckets in
		// parallel.
		var g errgroup.Group
		g.SetLimit(e.nworkers())
		for b := range tabs {
			g.Go(func() error {
				lo, hi := 0, len(e.Within)
				if b > 0 {
					lo, _ = slices.BinarySearch(e.Within, uint64(b)<<uint(64-bbits))
				}
				if b+1 < nb {
					hi, _ = slices.BinarySearch(e.Within, uint64(b+1)<<uint(64-bbits))
				}
				return tabs[b].seed(e.Within[lo:hi])
			})
		}
		if err := g.Wait(); err != nil {
			return nil, Stats{}, err
		}
	}
	if closed && e.Seeded != nil {
		e.Seeded()
	}
	nw := e.nworkers()
	if len(e.states) != nw {
		e.states = make([]*workerState, nw)
		for i := range e.states {
			e.states[i] = newWorkerState(e.Gen)
		}
	}
	workers := e.states
	roundChildren := RoundSize(n, size, e.Mem.Limit())
	// Where the budget is tight, a round's lists take at most half of
	// what the tables leave at their expected size (closed tables are
	// already in use).
	free := e.Mem.Limit() - e.Mem.Used()
	if !closed {
		free -= int64(tsize) * int64(nb) * size
	}
	roundChildren = max(roundRecords, min(roundChildren, int(max(0, free)/2/(size*5/4))))
	idle := make(chan *workerState, nw)
	for _, w := range workers {
		// Keep only this kind's lists: the expansion below picks its kind
		// by which lists are set.
		out := lists(w)
		kept := *out
		w.recs, w.nars, w.paths, w.keys, w.packs = nil, nil, nil, nil, nil
		*out = kept
		if len(*out) != nb {
			*out = make([][]R, nb)
		}
		// Room for a round's share of children, so appends rarely copy.
		want := min(roundChildren, 10*n) / (nw * nb) * 5 / 4
		for b := range *out {
			if cap((*out)[b]) < want {
				(*out)[b] = make([]R, 0, want)
			}
		}
		w.stats = Stats{}
		idle <- w
	}
	nsym := e.Gen.NSym
	full := e.Gen.Board.Full()
	// bare: children are plain keys, with no counts or tags.
	bare := !e.Counts && e.Pack == nil
	// A round's parents: enough to fill about roundChildren children at ten
	// jumps a parent.
	round := max(1024, roundChildren/10)
	chunk := max(256, min(1<<12, round/(8*nw)+1))
	var done atomic.Int64
	for rlo := 0; rlo < n; rlo += round {
		rhi := min(n, rlo+round)
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(nw)
		for lo := rlo; lo < rhi; lo += chunk {
			hi := min(rhi, lo+chunk)
			g.Go(func() error {
				if err := gctx.Err(); err != nil {
					return err
				}
				w := <-idle
				defer func() { idle <- w }()
				if coded {
					w.parents = cur.Stored.Positions(w.parents[:0], lo, hi)
				}
				for i := lo; i < hi; i++ {
					var p engine.Position
					switch {
					case coded:
						p = w.parents[i-lo]
					case e.Pack != nil:
						p = e.Pack.Pos(cur.Keys[i])
					default:
						p = key.Unmix(cur.Keys[i])
					}
					imgs := w.par.Set(p)
					fixed := 0
					for _, x := range imgs {
						if x == p {
							fixed++
						}
					}
					w.stats.Raw += int64(nsym / fixed)
					mover := p // whose jumps make the children
					if e.Undo {
						mover = full &^ p
					}
					if bare {
						// Each child's key as its jump is found (see
						// appendMoves).
						q, empty := e.Gen.LatticeOf(mover)
						children := 0
						for gi := range e.Gen.Groups {
							sg := &e.Gen.Groups[gi]
							for f := sg.Legal(q, empty); f != 0; f &= f - 1 {
								key := key.Mix(w.par.Child(sg.First(f))) << keyShift
								b := bucketOf(key, uint(bbits))
								w.keys[b] = append(w.keys[b], key)
								children++
							}
						}
						if children == 0 {
							w.stats.DeadEnds++
						}
						continue
					}
					w.moves = e.Gen.AppendMoves(w.moves[:0], mover)
					if e.Pack != nil {
						tags := cur.Keys[i] & e.Pack.Tags
						for t := tags; t != 0; t &= t - 1 {
							s := bits.TrailingZeros64(t)
							w.stats.RawBy[s] += int64(nsym / fixed)
							if len(w.moves) == 0 {
								w.stats.DeadBy[s]++
							}
						}
						for _, k := range w.moves {
							key := e.Pack.Key(w.par.Child(k)) | tags
							b := bucketOf(key, uint(bbits))
							w.packs[b] = append(w.packs[b], packed(key))
						}
						if len(w.moves) == 0 {
							w.stats.DeadEnds++
						}
						continue
					}
					// Past here the children carry counts (bare and
					// tagged children went above).
					m := cur.M[i]
					var q uint64
					if cur.Q != nil {
						q = cur.Q[i]
					}
					if len(w.moves) == 0 {
						w.stats.DeadEnds++
						s, of := w.stats.Games.Add(m)
						w.stats.overflow = w.stats.overflow || of
						w.stats.Games = s
						continue
					}
					q /= uint64(len(w.moves))
					if w.paths != nil {
						for _, k := range w.moves {
							key := key.Mix(w.par.Child(k))
							b := bucketOf(key, uint(bbits))
							w.paths[b] = append(w.paths[b], paths{key, m.Lo})
						}
						continue
					}
					if w.nars != nil {
						for _, k := range w.moves {
							key := key.Mix(w.par.Child(k))
							b := bucketOf(key, uint(bbits))
							w.nars[b] = append(w.nars[b], narrow{key, m.Lo, q})
						}
						continue
					}
					for _, k := range w.moves {
						key := key.Mix(w.par.Child(k))
						b := bucketOf(key, uint(bbits))
						w.recs[b] = append(w.recs[b], record{key, m, q})
					}
				}
				if e.Progress != nil {
					e.Progress(int(done.Add(int64(hi-lo))), n)
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return nil, Stats{}, err
		}
		// Account for the lists as they stand at their largest.
		var lb int64
		for _, w := range workers {
			for _, o := range *lists(w) {
				lb += int64(cap(o)) * size
			}
		}
		if lb > listBytes {
			if err := e.Mem.Take(lb-listBytes, "the children of a layer"); err != nil {
				return nil, Stats{}, err
			}
			listBytes = lb
		}
		// Each bucket's children go into its table, in parallel.
		overflow := make([]bool, nb)
		g, gctx = errgroup.WithContext(ctx)
		g.SetLimit(nw)
		for b := range tabs {
			g.Go(func() error {
				t := &tabs[b]
				for _, w := range workers {
					list := (*lists(w))[b]
					if len(list) == 0 {
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
					(*lists(w))[b] = list[:0]
				}
				return gctx.Err()
			})
		}
		if err := g.Wait(); err != nil {
			return nil, Stats{}, err
		}
		if slices.Contains(overflow, true) {
			return nil, Stats{}, ErrOverflow
		}
	}
	st := Stats{Positions: int64(n)}
	for _, w := range workers {
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
	if listBytes > min(maxKeptLists, max(e.Mem.Limit()/16, minKeptLists)) {
		// Lists this large are not worth keeping for the next layer
		// while the tables turn into it.
		for _, w := range workers {
			*lists(w) = nil
		}
		e.Mem.Give(listBytes)
		listBytes = 0
	}
	if e.Spent != nil {
		e.Spent(cur)
	}
	next, err := collect(ctx, e, tabs, cur.Pegs-1, keyShift)
	if err == nil && keyShift != 0 {
		// Found as packed words: back to mixed keys, in their order.
		pool.Chunks(len(next.Keys), e.Workers, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				next.Keys[i] = key.Mix(pk.Pos(next.Keys[i]))
			}
		})
		key.Sort(next.Keys, e.Workers)
	}
	if err == nil && !closed && n > 0 {
		e.ratios = append(e.ratios, float64(next.Size())/float64(n))
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

// seedCoded seeds and closes the tables of a layer's buckets with the keys
// of stored layer s (see bucketTable.seed), each key its mixed key shifted
// up by shift, decoding them a chunk at a time so that they are never held
// whole. One pass counts each bucket's keys. Then, where the tables are
// keyed by packed word (shift is the packing's; see expander.withinCode),
// the code's order, each bucket's keys come in a run and in the order of
// their home slots: each worker decodes the runs of its own buckets and
// fills their tables front to back. Keyed by mixed key, each worker
// decodes every key and puts those of its own buckets, each in a random
// slot of what may be gigabytes of tables (on the French board that took
// most of the walk back). (A layer decoded whole took 1.7 GB beside its
// tables at the French walk back's widest.)
func seedCoded[R rec](tabs []bucketTable[R], s *Stored, shift uint, workers int) error {
	nb, bb := len(tabs), tabs[0].bb
	const step = 1 << 14 // positions decoded at once
	counts := make([][]int, pool.ChunkCount(s.N, workers))
	pool.Chunks(s.N, workers, func(c, lo, hi int) {
		count := make([]int, nb)
		var buf []engine.Position
		for at := lo; at < hi; at += step {
			buf = s.Positions(buf[:0], at, min(hi, at+step))
			for _, p := range buf {
				count[bucketOf(key.Mix(p)<<shift, bb)]++
			}
		}
		counts[c] = count
	})
	// start[b]: where bucket b's run begins when the code is in runs.
	start := make([]int, nb+1)
	for b := range nb {
		start[b+1] = start[b]
		for _, count := range counts {
			start[b+1] += count[b]
		}
	}
	var g errgroup.Group
	g.SetLimit(pool.Size(workers))
	for b := range tabs {
		g.Go(func() error {
			return tabs[b].alloc(tabs[b].seedSize(start[b+1] - start[b]))
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	runs := shift == s.pk.Shift
	nw := pool.Size(workers)
	for w := range nw {
		g.Go(func() error {
			// Runs of buckets of about equal keys, or equal buckets.
			lo, hi := w*nb/nw, (w+1)*nb/nw
			from, to := 0, s.N
			if runs {
				lo = sort.SearchInts(start[:nb], w*s.N/nw)
				if hi = nb; w+1 < nw {
					hi = sort.SearchInts(start[:nb], (w+1)*s.N/nw)
				}
				from, to = start[lo], start[hi]
			}
			var buf []engine.Position
			for at := from; at < to; at += step {
				buf = s.Positions(buf[:0], at, min(to, at+step))
				for _, p := range buf {
					k := key.Mix(p) << shift
					if b := bucketOf(k, bb); b >= lo && b < hi {
						if err := tabs[b].put(k); err != nil {
							return err
						}
					}
				}
			}
			for b := lo; b < hi; b++ {
				if err := tabs[b].close(); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}

// Expect returns how many distinct children n parents are expected to have,
// for sizing the tables: the last layer's ratio of children to parents,
// times that ratio's last change where it fell (the ratio falls layer by
// layer past the first few), or 1.5 a parent before two layers are known.
// Too low an estimate costs only time, the tables that pass maxLoad
// doubling.
func (e *Expander) Expect(n int) int {
	r := e.ratios
	if len(r) < 2 {
		return 3 * n / 2
	}
	a, b := r[len(r)-1], r[len(r)-2]
	return int(float64(n) * a * min(1, a/b))
}

// fold adds r's counts into x (same key) and reports whether the path
// count passed 128 bits.
func (x *record) fold(r *record) (overflow bool) {
	x.m, overflow = x.m.Add(r.m)
	x.q += r.q
	return overflow
}

// ErrOverflow reports a count that passed 128 bits.
var ErrOverflow = errors.New("a count passed 128 bits")

// collect turns the buckets' tables into a sorted layer; keyShift is how
// far up their keys are shifted (see expander.keyShift).
func collect[R rec](ctx context.Context, e *Expander, tabs []bucketTable[R], pegs int, keyShift uint) (*Layer, error) {
	total := 0
	offs := make([]int, len(tabs)+1)
	for b := range tabs {
		total += tabs[b].n
		offs[b+1] = total
	}
	// Tables of packed words (see expander.keyShift) are not coded here:
	// codeTables reads mixed keys.
	if keyTabs, ok := any(tabs).([]bucketTable[uint64]); ok && e.Code != nil && keyShift == 0 {
		var tableBytes int64
		for b := range keyTabs {
			tableBytes += int64(len(keyTabs[b].slots)) * 8
		}
		if e.Code(total, tableBytes) {
			s, err := codeTables(ctx, keyTabs, e.Gen.Board.Holes(), e.Workers, e.Mem)
			if err != nil {
				return nil, err
			}
			return &Layer{Pegs: pegs, Stored: s}, nil
		}
	}
	l := &Layer{Pegs: pegs, Keys: make([]uint64, total)}
	if e.Counts {
		l.M = make([]exact.U128, total)
		if !e.NoMass {
			l.Q = make([]uint64, total)
		}
	}
	if err := e.Mem.Take(l.Bytes(), "a layer"); err != nil {
		return nil, err
	}
	var g errgroup.Group
	g.SetLimit(e.nworkers())
	for b := range tabs {
		g.Go(func() error {
			if tabs[b].slots == nil {
				return nil
			}
			base := offs[b]
			switch recs := any(tabs[b].sorted()).(type) {
			case []record:
				for j, r := range recs {
					l.Keys[base+j], l.M[base+j] = r.key, r.m
					if l.Q != nil {
						l.Q[base+j] = r.q
					}
				}
			case []paths:
				for j, r := range recs {
					l.Keys[base+j], l.M[base+j] = r.key, exact.U128{Lo: r.m}
				}
			case []narrow:
				for j, r := range recs {
					l.Keys[base+j], l.M[base+j], l.Q[base+j] = r.key, exact.U128{Lo: r.m}, r.q
				}
			case []uint64:
				copy(l.Keys[base:], recs)
			case []packed:
				for j, r := range recs {
					l.Keys[base+j] = uint64(r)
				}
			}
			tabs[b].free()
			return nil
		})
	}
	return l, g.Wait()
}

// Only returns the positions of l whose keys are in keys (sorted), with
// whatever they carry (counts, tags), in new arrays so that the memory of
// the others can go. Chunks of l are matched in parallel. The bits low of
// l's keys (the tags of packed words) are left out of the match.
func (l *Layer) Only(keys []uint64, low uint64, workers int) *Layer {
	found := make([][]int, pool.ChunkCount(l.Len(), workers))
	pool.Chunks(l.Len(), workers, func(c, lo, hi int) {
		j, _ := slices.BinarySearch(keys, l.Keys[lo]&^low)
		for i := lo; i < hi && j < len(keys); i++ {
			k := l.Keys[i] &^ low
			for j < len(keys) && keys[j] < k {
				j++
			}
			if j < len(keys) && keys[j] == k {
				found[c] = append(found[c], i)
			}
		}
	})
	idx := slices.Concat(found...)
	out := &Layer{Pegs: l.Pegs, Keys: make([]uint64, len(idx))}
	if l.M != nil {
		out.M = make([]exact.U128, len(idx))
	}
	if l.Q != nil {
		out.Q = make([]uint64, len(idx))
	}
	pool.Chunks(len(idx), workers, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			i := idx[j]
			out.Keys[j] = l.Keys[i]
			if out.M != nil {
				out.M[j] = l.M[i]
			}
			if out.Q != nil {
				out.Q[j] = l.Q[i]
			}
		}
	})
	return out
}
