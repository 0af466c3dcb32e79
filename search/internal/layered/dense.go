package layered

import (
	"context"
	"math"
	"math/bits"
	"slices"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"pegs/engine"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"
)

// minDenseParents is the fewest parents a layer expanded into a bitset
// has: below it, the tables' rounds cost less than the bitset's scan.
const minDenseParents = 1 << 12

// denseFor returns the numbering of the layer that cur's children form,
// where they can go into bitsets (see expandDense): bare keys, no tables
// to seed, a board that a key.Ranker takes, bitsets no larger than
// sixteen words a parent for each worker and within what the budget has
// left. Otherwise nil. The children are numbered in the class of cur's
// first position where the symmetries keep it, else in each class of its
// images (the French board's off-centre games in four).
func (e *Expander) denseFor(cur *Layer) *numbering {
	n := cur.Size()
	if e.noDense || e.counts || e.pack != nil || e.within != nil || e.withinCode != nil ||
		e.undo || n < minDenseParents || cur.pegs < 2 {
		return nil
	}
	b := e.gen.Board
	ranker := e.gen.Ranker()
	if ranker == nil {
		e.noDense = true
		return nil
	}
	p0 := firstOf(cur)
	classes := []engine.Class{b.Class(p0)}
	if !key.ClassKept(b, e.gen.Group, p0) {
		g := e.gen.Group
		for s := 1; s < g.Len(); s++ {
			if c := b.Class(g.Apply(s, p0)); !slices.Contains(classes, c) {
				classes = append(classes, c)
			}
		}
	}
	if len(classes) > 1<<slotBits {
		return nil
	}
	ds := make([]*key.Dense, len(classes))
	for i, c := range classes {
		if ds[i] = ranker.Layer(cur.pegs-1, c); ds[i] == nil {
			return nil
		}
	}
	num := numberingOf(ds...)
	words := num.words()
	if words > 16*int64(n) || int64(e.nworkers())*words*8 > (e.mem.Limit()-e.mem.Used())/2 {
		return nil
	}
	return num
}

// numbering numbers the positions of one peg count in one class or a
// few, a key.Dense and a bitset each.
type numbering struct {
	ds   []*key.Dense // by slot
	slot []int8       // by class: its slot in ds, or -1
}

// numberingOf returns the numbering by ds, one class each (of one board
// and peg count), in slots in their order.
func numberingOf(ds ...*key.Dense) *numbering {
	num := &numbering{ds: ds, slot: make([]int8, ds[0].Board().Classes())}
	for c := range num.slot {
		num.slot[c] = -1
	}
	for s, d := range ds {
		num.slot[d.Class()] = int8(s)
	}
	return num
}

// words returns the words of each class's bitset, together.
func (num *numbering) words() int64 {
	var w int64
	for _, d := range num.ds {
		w += int64(d.Size()+63) / 64
	}
	return w
}

// firstOf returns the first position of cur (not empty).
func firstOf(cur *Layer) engine.Position {
	if cur.dense != nil {
		return cur.parentsAt(nil, 0, 1)[0]
	}
	if cur.keys != nil {
		return key.Unmix(cur.keys[0])
	}
	return cur.stored.Positions(nil, 0, 1)[0]
}

// expandDense expands cur into the layer of numbering num as bitsets:
// each worker sets the bit of the number of each child it finds in a
// bitset of its own for the child's class, with no list, table or lock
// between finding a child and marking it (markDense); the next layer is
// the set bits of the bitsets together, read in order, each made a mixed
// key, then sorted; with Bitsets, the bitsets themselves (bitLayer). A
// layer with a child of a class num does not number (its classes judged
// by its first position) is left, and ok is false: the caller expands it
// with tables, as it will every layer after.
func (e *Expander) expandDense(ctx context.Context, cur *Layer, num *numbering) (next *Layer, st Stats, ok bool, err error) {
	sets, bitBytes, st, ok, err := e.markDense(ctx, cur, num)
	if !ok || err != nil {
		return nil, Stats{}, ok, err
	}
	held := bitBytes
	defer func() { e.mem.Give(held) }()
	n := cur.Size()
	if e.spent != nil {
		e.spent(cur)
	}
	if e.bitsets {
		// The workers' bitsets merged, each class's in the first.
		merged := make([][]uint64, len(sets))
		for s := range sets {
			// The layer keeps the bitset with least room, and those
			// with more are spared for the next layer's (see roomFor).
			byWorker := sets[s]
			least := 0
			for i, set := range byWorker {
				if cap(set) < cap(byWorker[least]) {
					least = i
				}
			}
			byWorker[0], byWorker[least] = byWorker[least], byWorker[0]
			merged[s] = mergeSets(byWorker, nil, e.workers)[0]
			for _, set := range sets[s][1:] {
				e.mem.Spare(set)
			}
		}
		if next, err = newBitLayer(ctx, num, merged, cur.pegs-1, e.nworkers()); err != nil {
			return nil, Stats{}, true, err
		}
		held -= next.Bytes() // the layer's now
		if n > 0 {
			e.ratios = append(e.ratios, float64(next.Size())/float64(n))
		}
		return next, st, true, nil
	}
	next, err = e.collectDense(ctx, num.ds, sets, cur.pegs-1)
	spareSets(e.mem, sets)
	if err != nil {
		return nil, Stats{}, true, err
	}
	if e.code != nil && e.code(next.Len(), bitBytes) {
		next.Store(e.gen.Board.Holes(), e.workers, e.mem)
	}
	if n > 0 {
		e.ratios = append(e.ratios, float64(next.Size())/float64(n))
	}
	return next, st, true, nil
}

// markDense sets the bits of cur's children (their parents, with Undo)
// numbered by num, in a bitset a class and worker (sets[slot][worker]),
// or where those would be too large for the caches in one bitset a class
// (see scatter); it returns them with the bytes charged to the budget for
// the caller to give back. ok is false, with nothing held, where a child
// is of a class num does not number.
func (e *Expander) markDense(ctx context.Context, cur *Layer, num *numbering) (sets [][][]uint64, held int64, st Stats, ok bool, err error) {
	nw := e.nworkers()
	if sc := e.scatterFor(num, nw); sc != nil {
		return e.markScattered(ctx, cur, sc)
	}
	if len(e.states) != nw {
		e.states = make([]*workerState, nw)
		for i := range e.states {
			e.states[i] = newWorkerState(e.gen)
		}
	}
	sets = make([][][]uint64, len(num.ds))
	for s := range num.ds {
		sets[s] = make([][]uint64, nw)
	}
	// A bit is set by a read and a write, so a page of zeros would fault
	// twice, the second time flushing every core's TLB (see
	// memory.Touched): each worker's bitsets are written once a page as
	// they are made, on a goroutine a worker. The English winnable set at
	// two workers spent 0.14-0.28 s in the kernel before, 0.02-0.09 s
	// after (0.50-0.55 s wall against 0.57-0.65 s); touching only those
	// below huge pages, 0.11-0.15 s. The French d3 run, whose larger
	// layers are scattered instead, took the same time (131.8-132.4 s
	// against 131.8-133.1 s).
	// Arrays the budget keeps from earlier bitsets are cleared instead
	// (see memory.Budget.TakeWords), and those made fresh have room for
	// the next layer's bitsets where those are larger (see roomFor).
	room := e.roomFor(num, nw)
	var made errgroup.Group
	for i := range nw {
		made.Go(func() error {
			for s, d := range num.ds {
				set, err := e.mem.TakeWordsRoom(int((d.Size()+63)/64), room[s], "the next layer's positions")
				if err != nil {
					return err
				}
				sets[s][i] = set
			}
			return nil
		})
	}
	err = made.Wait()
	var bitBytes int64 // charged by capacity
	for _, byWorker := range sets {
		for _, set := range byWorker {
			bitBytes += int64(cap(set)) * 8
		}
	}
	if err != nil {
		e.mem.Give(bitBytes)
		spareSets(e.mem, sets)
		return nil, 0, Stats{}, true, err
	}
	mine := make([][][]uint64, nw) // by worker, its bitsets by slot
	idle := make(chan int, nw)
	for i := range nw {
		for s := range sets {
			mine[i] = append(mine[i], sets[s][i])
		}
		e.states[i].stats = Stats{}
		idle <- i
	}
	var t tally
	err = pool.Each(ctx, idle, 0, cur.units(), cur.chunkUnits(nw), func(i, lo, hi int) {
		var c int64
		var ok bool
		if len(num.ds) == 1 {
			c, ok = e.denseChunk(e.states[i], cur, mine[i][0], num.ds[0], lo, hi)
		} else {
			c, ok = e.denseChunkClasses(e.states[i], cur, mine[i], num, lo, hi)
		}
		t.add(e, cur, lo, hi, c, ok)
	})
	if err != nil {
		e.mem.Give(bitBytes)
		spareSets(e.mem, sets)
		return nil, 0, Stats{}, true, err
	}
	if t.mixed.Load() {
		e.mem.Give(bitBytes)
		spareSets(e.mem, sets)
		e.noDense = true
		return nil, 0, Stats{}, false, nil
	}
	return sets, bitBytes, t.stats(e, cur), true, nil
}

// roomFor returns the words, by slot of num, that the workers' bitsets
// for the children numbered by num (parents, undoing jumps) are made with
// room for (memory.Budget.TakeWordsRoom, which takes room only where it
// is more than the words): those of the bitsets of the layer after, where
// these would be set directly (not scattered) within what the budget has
// left, so that a growing layer's bitsets reuse the last one's, spared;
// else none. Where a layer takes fresh memory for its
// bitsets the kernel writes its pages in and the runtime clears them:
// the English winnable set's process (two workers, layers of 0.7 to 9 MB
// bitsets a worker) took 9.0 thousand page faults and 0.66 s of CPU
// before, 7.5 thousand and 0.62 s with the room (medians of 15 runs each,
// alternated, the machine loaded by two other searches).
func (e *Expander) roomFor(num *numbering, nw int) []int {
	room := make([]int, len(num.ds))
	pegs := num.ds[0].Pegs() - 1 // the next layer's children's
	if e.undo {
		pegs += 2 // parents'
	}
	r := e.gen.Ranker()
	if r == nil || pegs < 0 || pegs > e.gen.Board.Holes() {
		return room
	}
	next := make([]int64, len(num.ds))
	var words int64
	for s, d := range num.ds {
		nd := r.Layer(pegs, d.Class())
		if nd == nil {
			return room
		}
		next[s] = int64(nd.Size()+63) / 64
		words += max(next[s], int64(d.Size()+63)/64)
	}
	at := int64(scatterBytes)
	if e.scatterAt > 0 {
		at = e.scatterAt
	}
	if bytes := int64(nw) * words * 8; bytes >= at || bytes > (e.mem.Limit()-e.mem.Used())/2 {
		return room
	}
	for s := range room {
		room[s] = int(next[s])
	}
	return room
}

// spareSets gives the bitsets sets (by slot, then worker) to mem for
// reuse (see memory.Budget.Spare), once nothing reads them.
func spareSets(mem *memory.Budget, sets [][][]uint64) {
	for _, slot := range sets {
		for _, set := range slot {
			mem.Spare(set)
		}
	}
}

// tally sums what the chunks of a layer's expansion into bitsets found.
type tally struct {
	mixed          atomic.Bool // a child of a class not numbered
	done, children atomic.Int64
}

// add counts the result of the chunk of units lo..hi-1 of cur: its
// children and whether they were all numbered; it reports the parents
// done to e.Progress.
func (t *tally) add(e *Expander, cur *Layer, lo, hi int, children int64, ok bool) {
	if !ok {
		t.mixed.Store(true)
	}
	t.children.Add(children)
	if e.progress != nil {
		e.progress(int(t.done.Add(int64(cur.parentsIn(lo, hi)))), cur.Size())
	}
}

// stats returns the stats of cur's expansion, summed over e's workers, and
// notes its children a parent in e.
func (t *tally) stats(e *Expander, cur *Layer) Stats {
	n := cur.Size()
	st := Stats{Positions: int64(n)}
	for _, w := range e.states {
		st.Raw += w.stats.Raw
		st.DeadEnds += w.stats.DeadEnds
	}
	if n >= 1024 {
		e.perParent = float64(t.children.Load()) / float64(n)
	}
	return st
}

// denseChunk sets the bits of the children of parents lo..hi of cur (with
// Undo, their parents) in set, and returns how many it found; ok is false
// if a position of cur is not of d's class.
func (e *Expander) denseChunk(w *workerState, cur *Layer, set []uint64, d *key.Dense, lo, hi int) (children int64, ok bool) {
	b := e.gen.Board
	w.parents = cur.parentsAt(w.parents, lo, hi)
	class := d.Class()
	// A layer found in a bitset is of its numbering's class, the
	// children's: a jump keeps the class, and so do the symmetries.
	check := !cur.allOf(class)
	if check {
		for _, p := range w.parents {
			if b.Class(p) != class {
				return children, false
			}
		}
	}
	buf := w.ranks[:0]
	var ends [movegen.MaxBatch]int32
	keep, raw := e.kept != nil, w.stats.Raw
	w.keptRanks, w.keptN = w.keptRanks[:0], w.keptN[:0]
	// A batch of parents' children made together (Parent.MoveRanksBatch).
	for ps := w.parents; len(ps) > 0; {
		batch := ps[:min(len(ps), movegen.MaxBatch)]
		ps = ps[len(batch):]
		movers := w.movers(batch, b, e.undo)
		n := len(buf)
		buf = w.par.MoveRanksBatch(buf, batch, movers, d, ends[:len(batch)])
		prev := int32(0)
		for i := range batch {
			w.stats.Raw += w.par.BatchOrbit(i)
			if ends[i] == prev {
				w.stats.DeadEnds++
			}
			if keep {
				keep = ends[i]-prev <= math.MaxUint8
				w.keptN = append(w.keptN, uint8(ends[i]-prev))
			}
			prev = ends[i]
		}
		if keep {
			for _, r := range buf[n:] {
				w.keptRanks = append(w.keptRanks, uint32(r))
			}
		}
		children += int64(len(buf) - n)
		if len(buf) >= denseBatch {
			setBits(set, buf)
			buf = buf[:0]
		}
	}
	setBits(set, buf)
	w.ranks = buf[:0]
	if keep {
		e.kept.keep(e.mem, lo, w, w.stats.Raw-raw)
	}
	return children, true
}

// denseChunkClasses is denseChunk for a numbering of several classes,
// sets a bitset each: a child's canonical form may be of any class of
// its images, found child by child. ok is false if a child is of a class
// num does not number.
func (e *Expander) denseChunkClasses(w *workerState, cur *Layer, sets [][]uint64, num *numbering, lo, hi int) (children int64, ok bool) {
	b := e.gen.Board
	w.parents = cur.parentsAt(w.parents, lo, hi)
	buf := w.ranks[:0]
	for _, p := range w.parents {
		kids := w.childrenOf(e.gen, p, e.undo)
		for _, c := range kids {
			s := num.slot[b.Class(c)]
			if s < 0 {
				return children, false
			}
			// The slot in the low bits, under the number (below 2^32).
			buf = append(buf, num.ds[s].Rank(c)<<slotBits|uint64(s))
		}
		children += int64(len(kids))
		if len(buf) >= denseBatch {
			setSlotBits(sets, buf)
			buf = buf[:0]
		}
	}
	setSlotBits(sets, buf)
	w.ranks = buf[:0]
	return children, true
}

// slotBits is the bits of a class's slot that denseChunkClasses puts
// under a number: denseFor numbers 16 classes or fewer.
const slotBits = 4

// setSlotBits sets the bits of numbers tagged with their slots (see
// denseChunkClasses) in the slots' bitsets.
func setSlotBits(sets [][]uint64, tagged []uint64) {
	for _, t := range tagged {
		r := t >> slotBits
		sets[t&(1<<slotBits-1)][r/64] |= 1 << (r % 64)
	}
}

// denseBatch is how many children's numbers a worker holds before it sets
// their bits: set in one loop with nothing else between them, the bits'
// cache misses overlap; set as each child was found, one miss at a time
// stalled the search (BenchmarkNextLayer from=18, bitset, one worker:
// 418 ms a layer so, 348 ms batched). Batches of 64, 1024 and 4096, and
// a batch's bits set only once the next was made (its words asked for
// meanwhile), made the English centre game's forward pass no clearly
// faster at one worker (its CPU time, 8 or 16 runs each alternated in one
// process: medians of their ratios 0.82 to 1.04, those of 16 runs 0.97
// and 0.98, on a machine loaded three to six times over its two cores).
const denseBatch = 256

// setBits sets the bits numbered ranks in set: on amd64 in assembly
// (setBitsAsm), which asks for every word first, as Games's lookups do
// (see placesIn), then sets each bit with BTS in a register (the English
// winnable set at two workers: 292 -> 280 ms, p=0.038, 8 alternated runs
// of BenchmarkExplore each). Its time is the bitset's lines (8.7 MiB for
// the English board's widest layer): under perf (pegs explore --board
// english --start d4, perf record -F 999) 44 % of its samples are on the
// asking loop, whose prefetches wait for line fill buffers, and 54 % on
// the setting loop; asking with PREFETCHW, for lines to be written, left
// its samples over those of placesBMI2 and sumDenseOut's closure as they
// were (5 alternated runs each, medians 0.305 and 0.312).
func setBits(set []uint64, ranks []uint64) {
	if len(ranks) > 0 && haveSetBitsAsm {
		setBitsAsm(&set[0], ranks)
		return
	}
	setBitsGo(set, ranks)
}

// setBitsGo is setBits in Go.
func setBitsGo(set []uint64, ranks []uint64) {
	for _, r := range ranks {
		set[r/64] |= 1 << (r % 64)
	}
}

// mergeSets ors the bitsets sets into the first, and with mask (if not
// nil) ands it, words in parallel, and returns the first alone.
func mergeSets(sets [][]uint64, mask []uint64, workers int) [][]uint64 {
	set := sets[0]
	pool.Chunks(len(set), workers, func(_, lo, hi int) {
		for _, s := range sets[1:] {
			for i := lo; i < hi; i++ {
				set[i] |= s[i]
			}
		}
		if mask != nil {
			for i := lo; i < hi; i++ {
				set[i] &= mask[i]
			}
		}
	})
	return sets[:1]
}

// collectDense returns the layer of pegs pegs whose numbers by ds[s] are
// set in any of sets[s], as mixed keys: in the order of their classes and
// numbers, sorted unless the Expander is Unsorted. The numbers are split
// into runs by high part, one run a task: each counts its positions, then
// writes their keys at its place in the layer.
func (e *Expander) collectDense(ctx context.Context, ds []*key.Dense, sets [][][]uint64, pegs int) (*Layer, error) {
	nw := e.nworkers()
	type run struct{ s, lo, hi int } // the high parts lo..hi-1 of slot s
	var runs []run
	for s, d := range ds {
		// Runs of high parts of about equal numbers.
		bounds := []int{0}
		step := d.Size()/uint64(8*nw) + 1
		for h := 1; h < d.Parts(); h++ {
			if lo, _ := d.Range(h); lo >= uint64(len(bounds))*step {
				bounds = append(bounds, h)
			}
		}
		bounds = append(bounds, d.Parts())
		for k := range len(bounds) - 1 {
			runs = append(runs, run{s, bounds[k], bounds[k+1]})
		}
	}
	// first returns the first number of high part h of slot s, or its
	// Size past the last.
	first := func(s, h int) uint64 {
		if d := ds[s]; h < d.Parts() {
			lo, _ := d.Range(h)
			return lo
		}
		return ds[s].Size()
	}
	// word returns the bits of word i of slot s's sets together.
	word := func(s int, i uint64) uint64 {
		var x uint64
		for _, set := range sets[s] {
			x |= set[i]
		}
		return x
	}
	// each calls f with every number of slot s set within lo..hi-1, in
	// order.
	each := func(s int, lo, hi uint64, f func(r uint64)) {
		for i := lo / 64; i*64 < hi; i++ {
			for x := word(s, i) & wordMask(i, lo, hi); x != 0; x &= x - 1 {
				f(i*64 + uint64(bits.TrailingZeros64(x)))
			}
		}
	}
	counts := make([]int, len(runs)+1)
	var g errgroup.Group
	g.SetLimit(nw)
	for k, r := range runs {
		g.Go(func() error {
			c := 0
			lo, hi := first(r.s, r.lo), first(r.s, r.hi)
			for i := lo / 64; i*64 < hi; i++ {
				c += bits.OnesCount64(word(r.s, i) & wordMask(i, lo, hi))
			}
			counts[k+1] = c
			return nil
		})
	}
	g.Wait()
	for k := 1; k < len(counts); k++ {
		counts[k] += counts[k-1]
	}
	total := counts[len(counts)-1]
	if err := e.mem.Take(int64(total)*8, "a layer"); err != nil {
		return nil, err
	}
	l := &Layer{pegs: pegs, keys: memory.Make[uint64](total)}
	for k, r := range runs {
		g.Go(func() error {
			out := l.keys[counts[k]:counts[k]]
			d := ds[r.s]
			for h := r.lo; h < r.hi; h++ {
				lo, hi := d.Range(h)
				if lo == hi {
					continue
				}
				high, lows := d.Lows(h)
				each(r.s, lo, hi, func(n uint64) {
					out = append(out, key.Mix(high|engine.Position(lows[n-lo])))
				})
			}
			return ctx.Err()
		})
	}
	if err := g.Wait(); err != nil {
		e.mem.Give(l.Bytes())
		return nil, err
	}
	if len(ds) == 1 {
		l.numbered = ds[0]
	}
	if l.unsorted = e.unsortedKeys; !l.unsorted {
		key.Sort(l.keys, e.workers)
	}
	return l, nil
}

// meetingDense is MeetingKeys with goal as a bitset of their numbers (see
// key.Dense) instead of a key.Set, from's positions as keys: a child is
// looked up by its number, a bit test in a bitset a twelfth of the set's
// size, and the children of a batch of parents are tested in one loop,
// their words asked for first, so that their cache misses overlap. The positions of from found are
// returned in its order (as keys, or numbers for a layer held as bitsets).
// ok is false, and nothing is done, where the goal's positions cannot be
// numbered so: the board or its symmetries do not allow it, or the
// positions are of more than one class. goalLayer, if not nil, is the
// layer goal's keys are from (goal may then be nil): where it holds them
// as bitsets (see Scanned), its bitset of their class is the
// goal's.
func meetingDense(ctx context.Context, from *Layer, goal []uint64, goalLayer *Layer, gen *movegen.Gen, cfg Config, mem *memory.Budget) (won []uint64, ok bool, err error) {
	b := gen.Board
	n := from.Size()
	if n < minDenseParents || (goal == nil && goalLayer == nil) {
		return nil, false, nil
	}
	var g0 engine.Position
	if goal != nil {
		g0 = key.Unmix(goal[0])
	} else {
		g0 = firstOf(goalLayer)
	}
	p0 := firstOf(from)
	if g0.Pegs() != b.Holes()-p0.Pegs()+1 || !key.ClassKept(b, gen.Group, g0) {
		return nil, false, nil
	}
	class := b.Class(g0)
	// The children's complements, found from the parents' (see
	// MeetingKeys), are of the class of the parents' complements.
	if b.Class(b.Complement(p0)) != class {
		return nil, false, nil
	}
	r := gen.Ranker()
	if r == nil {
		return nil, false, nil
	}
	d := r.Layer(g0.Pegs(), class)
	if d == nil {
		return nil, false, nil
	}
	nw := pool.Size(cfg.Workers)
	var set []uint64
	switch {
	case goalLayer != nil && goalLayer.setOf(class) != nil:
		set = goalLayer.setOf(class)
	case goal == nil:
		return nil, false, nil
	default:
		var release func()
		if set, release, ok = fillSet(goal, d, g0.Pegs(), nw, mem); !ok {
			return nil, false, nil
		}
		defer release()
	}
	var other atomic.Bool // a position of from of another class
	fromClass := b.Class(p0)
	check := !from.allOf(fromClass)
	// Chunks of a few thousand positions, so a cancellation is seen soon
	// and the halves of a layer balance across workers.
	units := from.units()
	chunks := min(units, max(1, min(n/4096, 1024)))
	out := make([][]uint64, chunks)
	var done atomic.Int64
	// A worker's buffers, from chunk to chunk.
	type state struct {
		par   *movegen.Parent
		ps    []engine.Position
		comps []engine.Position // a batch of ps's complements
		found []uint64          // nonzero where a child is in goal
		ranks []uint64
		owner []int32
	}
	idle := make(chan *state, nw)
	for range nw {
		idle <- &state{par: gen.NewParent(), ranks: make([]uint64, 0, denseBatch+maxJumps), owner: make([]int32, 0, denseBatch+maxJumps)}
	}
	err = pool.Each(ctx, idle, 0, chunks, 1, func(st *state, c, _ int) {
		w := st.par
		lo, hi := c*units/chunks, (c+1)*units/chunks
		ps := from.parentsAt(st.ps[:0], lo, hi)
		st.ps = ps
		found := slices.Grow(st.found[:0], len(ps))[:len(ps)]
		clear(found)
		st.found = found
		ranks, owner := st.ranks[:0], st.owner[:0]
		test := func() {
			// The batch's words asked for first, so that more of their
			// misses overlap (see prefetchBits): the English winnable set
			// at two workers took 0.70 s of user time against 0.76 s
			// (medians of ten alternated runs of pegs explore
			// --winnable-only, on a loaded machine).
			if len(ranks) > 0 {
				prefetchBits(&set[0], nil, ranks)
			}
			for j, i := range ranks {
				found[owner[j]] |= set[i/64] >> (i % 64) & 1
			}
			ranks, owner = ranks[:0], owner[:0]
		}
		// A batch of parents' children made together
		// (Parent.MoveRanksBatch), from the complements' images.
		var ends [movegen.MaxBatch]int32
		for j := 0; j < len(ps); {
			batch := ps[j:min(len(ps), j+movegen.MaxBatch)]
			st.comps = st.comps[:0]
			for _, p := range batch {
				if check && b.Class(p) != fromClass {
					other.Store(true)
					return
				}
				st.comps = append(st.comps, b.Complement(p))
			}
			ranks = w.MoveRanksBatch(ranks, st.comps, batch, d, ends[:len(batch)])
			prev := int32(0)
			for i, e := range ends[:len(batch)] {
				for range e - prev {
					owner = append(owner, int32(j+i))
				}
				prev = e
			}
			j += len(batch)
			if len(ranks) >= denseBatch {
				test()
			}
		}
		test()
		st.ranks, st.owner = ranks, owner
		var keep []uint64
		for j, p := range ps {
			if found[j] != 0 {
				keep = append(keep, key.Mix(p))
			}
		}
		out[c] = keep
		if cfg.Progress != nil {
			cfg.Progress("join", p0.Pegs(), int(done.Add(int64(len(ps)))), n)
		}
	})
	if err != nil {
		return nil, true, err
	}
	if other.Load() {
		return nil, false, nil
	}
	return slices.Concat(out...), true, nil
}

// fillSet returns the bitset of goal's positions numbered by d, all of
// pegs pegs and d's class, charged to mem until release; ok is false, and
// nothing held, where the budget refuses it or a position is not of d's
// class. Each worker sets the bits of its share of goal in a bitset of its
// own (one shared, each bit set by an atomic or, took 80 ns a key), and
// the bitsets are then merged into the first.
func fillSet(goal []uint64, d *key.Dense, pegs, nw int, mem *memory.Budget) (set []uint64, release func(), ok bool) {
	words := int((d.Size() + 63) / 64)
	bytes := int64(nw) * int64(words) * 8
	sets := make([][]uint64, nw)
	for i := range sets {
		set, err := mem.TakeWords(words, "the positions where the searches meet")
		if err != nil {
			for _, set := range sets[:i] {
				mem.GiveWords(set)
			}
			return nil, nil, false // the set may fit, or say why not
		}
		sets[i] = set
	}
	var other atomic.Bool // a position of another class
	var fill errgroup.Group
	for c := range nw {
		fill.Go(func() error {
			fillDense(sets[c], goal[c*len(goal)/nw:(c+1)*len(goal)/nw], d, d.Class(), pegs, &other)
			return nil
		})
	}
	fill.Wait()
	if other.Load() {
		mem.Give(bytes)
		spareSets(mem, [][][]uint64{sets})
		return nil, nil, false
	}
	set = mergeSets(sets, nil, nw)[0]
	return set, func() {
		mem.Give(bytes)
		spareSets(mem, [][][]uint64{sets})
	}, true
}

// fillDense sets in own the bits of keys, numbered by d; it sets other
// and stops at a position not of class class and pegs pegs.
func fillDense(own []uint64, keys []uint64, d *key.Dense, class engine.Class, pegs int, other *atomic.Bool) {
	b := d.Board()
	ranks := make([]uint64, 0, denseBatch)
	for _, k := range keys {
		p := key.Unmix(k)
		if b.Class(p) != class || p.Pegs() != pegs {
			other.Store(true)
			return
		}
		if ranks = append(ranks, d.Rank(p)); len(ranks) == denseBatch {
			setBits(own, ranks)
			ranks = ranks[:0]
		}
	}
	setBits(own, ranks)
}

// maxJumps is more than the jumps of any position on a board of 64 holes
// or fewer (each hole the start of at most 8), so a batch of children
// never grows past denseBatch+maxJumps.
const maxJumps = 64 * 8

// parentsDense is ParentsOf with the parents of next marked in bitsets
// (markDense, undoing jumps) rather than put in tables closed on l's
// keys; l's positions whose bits are set are then kept, as sorted keys:
// where l is held as bitsets (Scanned), its bitset of the
// parents' class anded with theirs. ok is false,
// and nothing is done, where the parents cannot be numbered so (see
// denseFor) or the bitsets would be more than sixteen words for each of
// l's positions and next's.
func parentsDense(ctx context.Context, l *Layer, next []uint64, gen *movegen.Gen, workers int, mem *memory.Budget, free bool) (keys []uint64, ok bool, err error) {
	b := gen.Board
	n := l.Size()
	if n+len(next) < minDenseParents {
		return nil, false, nil
	}
	q0 := key.Unmix(next[0])
	if q0.Pegs()+1 != l.pegs || !key.ClassKept(b, gen.Group, q0) {
		return nil, false, nil
	}
	r := gen.Ranker()
	if r == nil {
		return nil, false, nil
	}
	d := r.Layer(l.pegs, b.Class(q0))
	nw := pool.Size(workers)
	if d == nil || d.Size()/64 > 16*uint64(n+len(next)) || int64(nw)*int64(d.Size()/8) > (mem.Limit()-mem.Used())/2 {
		return nil, false, nil
	}
	release := func() {
		if free {
			l.Release(mem)
		}
	}
	// mask, if l holds its positions as bitsets, is the one of next's
	// parents' class.
	mask, packed := l.setOf(d.Class()), l.packedOf(d.Class())
	if l.dense != nil && mask == nil && packed == nil {
		release()
		return nil, true, nil // l's positions are of another class than next's parents
	}
	e := &Expander{purpose: Parents, gen: gen, workers: workers, mem: mem, undo: true}
	marked, held, _, ok, err := e.markDense(ctx, &Layer{pegs: l.pegs + 1, keys: next}, numberingOf(d))
	if !ok || err != nil {
		return nil, ok, err
	}
	sets := marked[0]
	defer func() {
		mem.Give(held)
		spareSets(mem, marked)
	}()
	if mask != nil || packed != nil {
		// l's bitset and the parents' together.
		var merged [][]uint64
		if packed != nil {
			merged = mergePacked(sets, packed, workers)
		} else {
			merged = mergeSets(sets, mask, workers)
		}
		found, err := e.collectDense(ctx, []*key.Dense{d}, [][][]uint64{merged}, l.pegs)
		if err != nil {
			return nil, true, err
		}
		mem.Give(found.Bytes()) // the caller's to charge
		release()
		return found.keys, true, nil
	}
	// l's positions, a chunk a task, each kept where a bitset has its bit.
	chunks := pool.ChunkCount(n, workers)
	out := make([][]uint64, chunks)
	class := d.Class()
	check := l.numbered == nil || l.numbered.Class() != class
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(nw)
	for c := range chunks {
		g.Go(func() error {
			lo, hi := c*n/chunks, (c+1)*n/chunks
			var ps []engine.Position
			if l.keys == nil {
				ps = l.stored.Positions(nil, lo, hi)
			}
			for i := lo; i < hi; i++ {
				var p engine.Position
				if l.keys == nil {
					p = ps[i-lo]
				} else {
					p = key.Unmix(l.keys[i])
				}
				if check && b.Class(p) != class {
					continue // only positions of next's class are its parents
				}
				j := d.Rank(p)
				var set uint64
				for _, s := range sets {
					set |= s[j/64]
				}
				if set>>(j%64)&1 != 0 {
					out[c] = append(out[c], key.Mix(p))
				}
			}
			return gctx.Err()
		})
	}
	if err := g.Wait(); err != nil {
		return nil, true, err
	}
	keys = slices.Concat(out...)
	if l.keys == nil || l.unsorted {
		key.Sort(keys, workers) // in the order of l's code or numbers
	}
	release()
	return keys, true, nil
}
