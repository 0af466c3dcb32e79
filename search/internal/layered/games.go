package layered

import (
	"context"
	"errors"
	"math"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"
	"pegs/search/internal/prefetch"
)

// Games returns the complete games from the positions of the first of
// layers, a forward pass's layers in its order (each the children of the
// one before, the last all dead ends; see Forward), held as keys, coded
// or bitsets: the jump sequences that end where no jump is left.
//
// They are counted backward, a layer at a time from the last: the games
// from a position are the sum over its jumps of the games from each child
// (one for a dead end), and each child is looked up by its place in the
// layer below, whose games are held in that order (for a layer held as
// bitsets, its bit's place among the set bits; otherwise a key.Index). So
// a worker only reads the layer below and writes its own parents' sums: no
// path count is carried forward, tabled or merged, and only two layers'
// counts are held at a time, in 32 or 64 bits a position where they fit. A
// layer's positions are visited in the order parentsAt gives, which a
// stored layer's loaded keys keep.
//
// Games reports ErrOverflow where a count passes 128 bits, and ctx's error
// if cancelled. A layer's counts are narrow (64 bits, or 32 where the
// board's jumps times the layer below's largest fit) where that largest
// is under t's NarrowBelow (see Tuning), so that no sum of a position's
// jumps passes them.
func Games(ctx context.Context, gen *movegen.Gen, layers []*Layer, cfg Config, t Tuning, mem *memory.Budget) (exact.U128, error) {
	nw := pool.Size(cfg.Workers)
	var below *places // the layer below's
	var vals counts   // the games from each position of the layer below
	defer func() {
		below.free(mem)
		vals.free(mem)
	}()
	growth := 0.0 // the last layer's largest count over its layer below's
	for i := len(layers) - 1; i >= 0; i-- {
		l := layers[i]
		loaded := l.dense == nil && l.keys == nil && l.stored != nil
		if loaded {
			if err := l.Load(cfg.Workers, mem); err != nil {
				return exact.U128{}, err
			}
		}
		guess := uint64(math.MaxUint64) // this layer's largest count
		if growth > 0 && vals.max.Hi == 0 && float64(vals.max.Lo)*growth < math.MaxUint64/2 {
			guess = uint64(float64(vals.max.Lo) * growth)
		}
		out, err := gamesOf(ctx, gen, l, below, vals, nw, t, guess, cfg.Progress, mem)
		if err == nil && vals.max.Hi == 0 && vals.max.Lo > 0 && out.max.Hi == 0 {
			growth = float64(out.max.Lo) / float64(vals.max.Lo)
		} else {
			growth = 0
		}
		if err == nil {
			below.free(mem)
			vals.free(mem)
			vals = out
			below, err = placesOf(l, nw, mem)
		}
		if loaded {
			l.Drop(mem)
		}
		if err != nil {
			return exact.U128{}, err
		}
	}
	var total exact.U128
	for i := range vals.len() {
		var of bool
		if total, of = total.Add(vals.at(i)); of {
			return exact.U128{}, ErrOverflow
		}
	}
	return total, nil
}

// counts holds a count a position of a layer, in its order: in 32 bits
// where every one fits (small), else in 64 (narrow), else in 128 (wide);
// max is the largest. (On the English board the widest layers', up to 16
// pegs, fit in 32.)
type counts struct {
	wide   []exact.U128
	narrow []uint64
	small  []uint32
	words  []uint64 // the memory of any, for reuse
	max    exact.U128
}

func (c counts) len() int { return len(c.wide) + len(c.narrow) + len(c.small) }

func (c counts) at(i int) exact.U128 {
	switch {
	case c.small != nil:
		return exact.U128{Lo: uint64(c.small[i])}
	case c.narrow != nil:
		return exact.U128{Lo: c.narrow[i]}
	}
	return c.wide[i]
}

// base returns the address of c's first count and the log2 of a count's
// bytes (nil for none).
func (c counts) base() (unsafe.Pointer, uint64) {
	switch {
	case len(c.small) > 0:
		return unsafe.Pointer(&c.small[0]), 2
	case len(c.narrow) > 0:
		return unsafe.Pointer(&c.narrow[0]), 3
	case len(c.wide) > 0:
		return unsafe.Pointer(&c.wide[0]), 4
	}
	return nil, 0
}

// bytes returns the memory c holds: its words, whichever width they hold.
func (c counts) bytes() int64 {
	if c.words != nil {
		return int64(len(c.words)) * 8
	}
	return int64(len(c.wide))*16 + int64(len(c.narrow))*8 + int64(len(c.small))*4
}

// width is how many bits counts holds a count in.
type width int

const (
	small  width = iota // 32 bits
	narrow              // 64
	wide                // 128
)

// makeCounts returns counts for n positions of width w, charged to mem,
// for the caller to write every one of (see
// memory.Budget.TakeWordsToFill): words the budget keeps from arrays let
// go before where it has them (the English full analysis so took 172 MiB
// of RSS against 203, and a third less system time, its arrays no longer
// waiting for a collection as garbage while new ones were made), else
// fresh ones, whose pages the kernel writes in at once (see memory.Make)
// on Games's one goroutine while its workers wait: 0.1 to 180 ms for
// each of the English full analysis's arrays of 8 to 26 MB on this
// project's VM, the host busy.
//
// Made ahead, the layer above's counts taken on a goroutine of their own
// while a layer's were summed, Games no longer waited for the kernel to
// write fresh pages in (the traces' time with no goroutine running fell
// in each of three runs), but the English full analysis's peak charge
// rose from 126 to 146 MiB and its wall and CPU time did not change
// measurably on a loaded machine: not done.
func makeCounts(n int, w width, mem *memory.Budget) (counts, error) {
	words := n
	switch w {
	case small:
		words = (n + 1) / 2
	case wide:
		words = 2 * n
	}
	ws, err := mem.TakeWordsToFill(words, "the games from a layer")
	if err != nil {
		return counts{}, err
	}
	c := counts{words: ws}
	at := unsafe.Pointer(unsafe.SliceData(ws))
	switch {
	case w == narrow:
		c.narrow = ws
	case n == 0 && w == small:
		c.small = []uint32{}
	case n == 0:
		c.wide = []exact.U128{}
	case w == small:
		c.small = unsafe.Slice((*uint32)(at), n)
	default:
		c.wide = unsafe.Slice((*exact.U128)(at), n)
	}
	return c, nil
}

// free gives c's bytes back to mem, and its memory for reuse.
func (c *counts) free(mem *memory.Budget) {
	mem.Give(c.bytes())
	if c.words != nil {
		mem.Spare(c.words)
	}
	*c = counts{}
}

// places finds the place of a position in its layer's order (see
// Layer.parentsAt).
type places struct {
	bl *bitLayer
	// before[s][w] is how many of the layer's positions come before word
	// w of slot s's bitset.
	before [][]uint32
	words  [][]uint64 // before's memory, taken from the budget
	index  *key.Index // for a layer held as keys
	bytes  int64      // the index's
}

// placesOf returns l's places, charged to mem until freed.
func placesOf(l *Layer, nw int, mem *memory.Budget) (*places, error) {
	if l.dense == nil {
		n := l.Len()
		if err := mem.Take(key.IndexBytes(n), "a layer's index"); err != nil {
			return nil, err
		}
		return &places{index: key.NewIndex(l.keys), bytes: key.IndexBytes(n)}, nil
	}
	bl := l.dense
	pl := &places{bl: bl, before: make([][]uint32, len(bl.sets))}
	base := 0
	for s, set := range bl.sets {
		// Memory a layer let go where the budget keeps some: every word
		// is written.
		words, err := mem.TakeWordsToFill((len(set)+1)/2, "a layer's index")
		if err != nil {
			pl.free(mem)
			return nil, err
		}
		pl.words = append(pl.words, words)
		before := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(words))), len(set))
		// Each chunk counts its words' bits, then numbers them from its
		// start.
		counts := make([]int, pool.ChunkCount(len(set), nw)+1)
		pool.Chunks(len(set), nw, func(c, lo, hi int) {
			n := 0
			for _, w := range set[lo:hi] {
				n += bits.OnesCount64(w)
			}
			counts[c+1] = n
		})
		counts[0] = base
		for c := 1; c < len(counts); c++ {
			counts[c] += counts[c-1]
		}
		pool.Chunks(len(set), nw, func(c, lo, hi int) {
			n := counts[c]
			for w := lo; w < hi; w++ {
				before[w] = uint32(n)
				n += bits.OnesCount64(set[w])
			}
		})
		pl.before[s] = before
		base = counts[len(counts)-1]
	}
	return pl, nil
}

// free gives pl's memory back to mem (pl may be nil).
func (pl *places) free(mem *memory.Budget) {
	if pl != nil {
		mem.Give(pl.bytes)
		for _, w := range pl.words {
			mem.GiveWords(w)
		}
		pl.words = nil
	}
}

// find returns the place of canonical position c, false if the layer does
// not hold it.
func (pl *places) find(c engine.Position) (int, bool) {
	if pl.index != nil {
		return pl.index.Find(key.Mix(c))
	}
	s := pl.bl.num.slot[pl.bl.num.ds[0].Board().Class(c)]
	if s < 0 {
		return 0, false
	}
	return pl.at(int(s), pl.bl.num.ds[s].Rank(c))
}

// at returns the place of number r of slot s, false if it is not set.
func (pl *places) at(s int, r uint64) (int, bool) {
	w, bit := r/64, uint64(1)<<(r%64)
	word := pl.bl.sets[s][w]
	return int(pl.before[s][w]) + bits.OnesCount64(word&(bit-1)), word&bit != 0
}

// errLost reports a child not found in the layer below: the layers are not
// a forward pass's.
var errLost = errors.New("layered: a child is missing from the layer below")

// gamesOf returns the games from each position of l, in its order, given
// those of the layer below (vals, its places below; nil for none, every
// position of l then a dead end), charged to mem. They are narrow where
// the largest of vals is under narrowBelow (at most 2^55, so that
// maxJumps of them fit in 64 bits), and small (32 bits) where the board's
// jumps times it fit in 32 bits as well; else wide (see gamesWidth).
// Where they would be narrow but the layer below is one bitset, they are
// small where guess, its largest times their growth from the layer
// before (see Games), fits: a sum past 32 bits (past t's SmallAbove) is
// kept aside as sumDenseOut makes it, and those kept widen the counts to
// 64 bits (widened) once all are summed. In the English full analysis the
// layer of 16 pegs's so fit, and no longer took 64 bits a position copied
// down to 32: its peak charge fell from 126 to 108 MiB. Where they all
// fit in fewer bits after all, they are copied down (see narrowed).
//
// Each worker sums a chunk of parents at a time (gameSums): by the
// numbers of their children where the layer below is one dense bitset,
// each sum written to out as it is made where it fits in 64 bits
// (sumDenseOut), else into 128-bit sums (sumDense, a loop for each width
// of vals); else by looking each child up (sumFound); those 128-bit sums
// it then stores in out's width (store).
func gamesOf(ctx context.Context, gen *movegen.Gen, l *Layer, below *places, vals counts, nw int, t Tuning, guess uint64, progress Progress, mem *memory.Budget) (counts, error) {
	n := l.Size()
	w := gamesWidth(gen, below, vals, t.narrowBelow())
	g := &gameSums{l: l, below: below, vals: vals, small: t.smallAbove()}
	// One numbering of the layer below: its children numbered in a batch.
	if below != nil && below.bl != nil && len(below.bl.num.ds) == 1 {
		g.d = below.bl.num.ds[0]
		if w == narrow && guess <= g.small {
			// Counted as they are made (sumDenseOut), sums past 32 bits are
			// kept aside for a widening: the layer's counts are guessed to
			// fit in 32 bits, as its layer below's times their growth.
			w = small
		}
	}
	out, err := makeCounts(n, w, mem)
	if err != nil {
		return out, err
	}
	g.out = &out
	idle := make(chan *gameChunk, nw)
	for range nw {
		idle <- &gameChunk{par: gen.NewParent()}
	}
	var done atomic.Int64
	err = pool.Each(ctx, idle, 0, l.units(), l.chunkUnits(nw), func(st *gameChunk, lo, hi int) {
		g.chunk(st, lo, hi)
		if progress != nil {
			progress("games", l.pegs, int(done.Add(int64(len(st.ps)))), n)
		}
	})
	if err == nil && g.lost.Load() {
		err = errLost
	}
	if err == nil && g.overflow.Load() {
		err = ErrOverflow
	}
	if err == nil && len(g.above) > 0 {
		out, err = widened(out, g.above, nw, mem)
	}
	if err != nil {
		out.free(mem)
		return counts{}, err
	}
	if out.narrow != nil && out.max.Lo <= math.MaxUint32 {
		// Every count fits in 32 bits after all: the lookups of the layer
		// above then miss the cache on half the bytes.
		return narrowed(out, small, nw, mem), nil
	}
	if out.wide != nil && out.max.Hi == 0 {
		// Every count fits in 64 bits after all: narrow them for the
		// lookups of the layer above.
		if out.max.Lo <= math.MaxUint32 {
			return narrowed(out, small, nw, mem), nil
		}
		return narrowed(out, narrow, nw, mem), nil
	}
	return out, nil
}

// gamesWidth returns the width of the games of a layer whose layer below
// has games vals (see gamesOf).
func gamesWidth(gen *movegen.Gen, below *places, vals counts, narrowBelow uint64) width {
	if below != nil && (vals.wide != nil || vals.max.Hi != 0 || vals.max.Lo >= min(narrowBelow, 1<<55)) {
		return wide
	}
	// A position's sum is of one count a jump, so it fits in 32 bits where
	// that many of the largest do.
	if below == nil || vals.max.Lo <= math.MaxUint32/uint64(len(gen.Board.Jumps())) {
		return small
	}
	return narrow
}

// gameSums is the count of one layer's games, which gamesOf's workers
// share: they only read it but for out's max (under mu) and the flags.
type gameSums struct {
	l        *Layer
	below    *places
	vals     counts
	d        *key.Dense // the layer below's one numbering, or nil
	out      *counts
	small    uint64       // the largest sum small counts take (Tuning.SmallAbove)
	above    []aboveSmall // the sums past it, where out is small (sumDenseOut)
	mu       sync.Mutex   // guards out.max and above
	lost     atomic.Bool
	overflow atomic.Bool
}

// gameChunk is a worker's state: a chunk's parents and their sums, and
// the batch of children being looked up.
type gameChunk struct {
	par   *movegen.Parent
	ps    []engine.Position
	kids  []engine.Position
	ranks []uint64
	owner []int32
	sums  []exact.U128 // a chunk's, then copied out
	above []aboveSmall // a chunk's sums past small counts (sumDenseOut)
	ends  []int32      // where each parent's children end in a batch
	who   []int32      // each of those parents' place in the chunk
}

// chunk sums the games of the parents of l's units lo to hi and stores
// them.
func (g *gameSums) chunk(st *gameChunk, lo, hi int) {
	st.ps = g.l.parentsAt(st.ps, lo, hi)
	base := lo
	if g.l.dense != nil {
		base = g.l.dense.start(lo)
	}
	if g.d != nil && g.out.wide == nil && g.vals.wide == nil {
		// Every sum within 64 bits: each goes to out as it is made.
		most, miss := g.sumDenseOut(st, base)
		g.raise(exact.U128{Lo: most})
		if miss {
			g.lost.Store(true)
		}
		return
	}
	st.sums = slices.Grow(st.sums[:0], len(st.ps))[:len(st.ps)]
	clear(st.sums)
	var of, miss bool
	switch {
	case g.below == nil:
		for j := range st.sums {
			st.sums[j] = exact.U128{Lo: 1}
		}
	case g.d != nil:
		of, miss = g.sumDense(st)
	default:
		of, miss = g.sumFound(st)
	}
	g.store(base, st.sums)
	if of {
		g.overflow.Store(true)
	}
	if miss {
		g.lost.Store(true)
	}
}

// sumDense sums st's parents' games by their children's numbers in the
// layer below, a batch of parents at a time: the children's numbers, then
// their places, then their counts: a place waits on its bitset word, and
// a count on its place, so in one loop each child's misses came one after
// the other. A parent's children are a run of the batch's, ending at its
// end, and their counts are summed in a register and stored once (one
// child at a time into the parent's sum in memory, Games took 1.4 %
// longer in BenchmarkGames, within its noise). It reports a sum past 128
// bits, and a child missing from the layer below.
//
// Two changes did not pay (Games's CPU time at one worker, English centre
// game, 8 runs each alternated with this in one process, on a machine
// loaded four times over its two cores): a count before each block of
// eight words rather than each word, the words before a child's in its
// block summed by a masked VPOPCNTQ (a table an eighth the size, which a
// core's cache holds), took 1.15 times as long (median of the runs'
// ratios); a pipeline of three batches on top of it, a batch's words
// asked for once it was made, its places found once the next was made
// and its counts read once the one after was, 1.30 times. Asked for a
// batch ahead, lines are lost from the caches before they are read. Nor
// did a bitset word and the count before it side by side, 16 bytes a
// word, so that a child's place is found in one line rather than two:
// 1.10 times the CPU time and 1.15 the wall (8 runs each alternated in
// one process, one worker, loaded machine), the arrays read at random
// then a third larger.
func (g *gameSums) sumDense(st *gameChunk) (of, miss bool) {
	sums, vals := st.sums, g.vals
	dead := func(j int) { sums[j] = exact.U128{Lo: 1} }
	g.batches(st, dead, func(ranks []uint64, ends, who []int32) {
		if !g.place(ranks) {
			miss = true // Games fails
			return
		}
		switch {
		case vals.small != nil:
			sumSmall(sums, vals.small, ranks, ends, who)
		case vals.narrow != nil:
			sumNarrow(sums, vals.narrow, ranks, ends, who)
		default:
			of = sumWide(sums, vals.wide, ranks, ends, who) || of
		}
	})
	return of, miss
}

// place turns the numbers ranks of children in the layer below into
// their places (see placesIn), each array's lines asked for a batch ahead
// of reading them (see prefetchBits), and reports whether every child is
// there.
func (g *gameSums) place(ranks []uint64) bool {
	set, before := g.below.bl.sets[0], g.below.before[0]
	prefetchBits(&set[0], &before[0], ranks)
	valsAt, shift := g.vals.base()
	return placesIn(set, before, ranks, valsAt, shift) == len(ranks)
}

// batches makes the numbers of the children of st's parents in the layer
// below, a batch of parents at a time (Parent.MoveRanksBatch), calls dead
// with the place in the chunk of each parent without a child, and hands
// sum the numbers made (ranks, each parent's run of them ending at ends[b]
// for the parent at who[b]) once they are denseBatch or more, and at the
// end.
func (g *gameSums) batches(st *gameChunk, dead func(j int), sum func(ranks []uint64, ends, who []int32)) {
	ranks, ends, who := st.ranks[:0], st.ends[:0], st.who[:0]
	var batchEnds [movegen.MaxBatch]int32
	for j := 0; j < len(st.ps); {
		batch := st.ps[j:min(len(st.ps), j+movegen.MaxBatch)]
		n := len(ranks)
		ranks = st.par.MoveRanksBatch(ranks, batch, nil, g.d, batchEnds[:len(batch)])
		prev := int32(0)
		for i, e := range batchEnds[:len(batch)] {
			if e == prev {
				dead(j + i)
				continue
			}
			prev = e
			ends = append(ends, int32(n)+e)
			who = append(who, int32(j+i))
		}
		j += len(batch)
		if len(ranks) >= denseBatch {
			sum(ranks, ends, who)
			ranks, ends, who = ranks[:0], ends[:0], who[:0]
		}
	}
	sum(ranks, ends, who)
	st.ranks, st.ends, st.who = ranks, ends, who
}

// sumDenseOut is sumDense for sums that fit in 64 bits, out and vals each
// 32 or 64 bits a count (see gamesWidth): each parent's sum goes to out,
// at base on, as it is made, rather than to a chunk's 128-bit sums that
// store copies out. Games of the English centre game took 3-5 % less CPU
// time at one worker (medians of the ratios of 8 runs each, alternated in
// one process, twice; the machine loaded four times over); at two, 1.06
// and 0.99, no clear change. It returns the largest sum, and whether a
// child is missing from the layer below.
func (g *gameSums) sumDenseOut(st *gameChunk, base int) (most uint64, miss bool) {
	vals, out := g.vals, g.out
	n := len(st.ps)
	dead := func(j int) {
		out.setOne(base + j)
		most = max(most, 1)
	}
	g.batches(st, dead, func(ranks []uint64, ends, who []int32) {
		if !g.place(ranks) {
			miss = true // Games fails
			return
		}
		var m uint64
		switch {
		case out.small != nil && vals.small != nil:
			m, st.above = sumTo(out.small[base:base+n], vals.small, ranks, ends, who, g.small, st.above)
		case out.small != nil:
			m, st.above = sumTo(out.small[base:base+n], vals.narrow, ranks, ends, who, g.small, st.above)
		case vals.small != nil:
			m, _ = sumTo(out.narrow[base:base+n], vals.small, ranks, ends, who, math.MaxUint64, nil)
		default:
			m, _ = sumTo(out.narrow[base:base+n], vals.narrow, ranks, ends, who, math.MaxUint64, nil)
		}
		most = max(most, m)
	})
	if len(st.above) > 0 {
		g.mu.Lock()
		for _, a := range st.above {
			g.above = append(g.above, aboveSmall{base + a.at, a.sum})
		}
		g.mu.Unlock()
		st.above = st.above[:0]
	}
	return most, miss
}

// sumTo writes to dst[who[b]] the sum of the counts of vals at the places
// in ranks of the parent's children, ranks[ends[b-1]:ends[b]], and returns
// the largest: each fits in 64 bits (see gamesWidth). A sum past limit
// (where dst's width may not hold it) is appended to above, with its
// place in dst, and dst holds 0 there.
func sumTo[D, V uint32 | uint64](dst []D, vals []V, ranks []uint64, ends, who []int32, limit uint64, above []aboveSmall) (most uint64, _ []aboveSmall) {
	k := 0
	for b, e := range ends {
		var s uint64
		for _, i := range ranks[k:e] {
			s += uint64(vals[i])
		}
		v := D(s)
		if s > limit {
			above, v = append(above, aboveSmall{int(who[b]), s}), 0 // set in by widened
		}
		dst[who[b]] = v
		most = max(most, s)
		k = int(e)
	}
	return most, above
}

// sumSmall sums into sums[who[b]] the counts of small, in 32 bits, at the
// places in ranks of the parent's children, ranks[ends[b-1]:ends[b]]: at
// most maxJumps counts under 2^32, so no carry.
func sumSmall(sums []exact.U128, small []uint32, ranks []uint64, ends, who []int32) {
	k := 0
	for b, e := range ends {
		var s uint64
		for _, i := range ranks[k:e] {
			s += uint64(small[i])
		}
		sums[who[b]] = exact.U128{Lo: s}
		k = int(e)
	}
}

// sumNarrow is sumSmall for counts in 64 bits.
func sumNarrow(sums []exact.U128, narrow []uint64, ranks []uint64, ends, who []int32) {
	k := 0
	for b, e := range ends {
		var lo, hi uint64
		for _, i := range ranks[k:e] {
			var c uint64
			lo, c = bits.Add64(lo, narrow[i], 0)
			hi += c
		}
		sums[who[b]] = exact.U128{Lo: lo, Hi: hi}
		k = int(e)
	}
}

// sumWide is sumSmall for counts in 128 bits; it reports a sum past them.
func sumWide(sums []exact.U128, wide []exact.U128, ranks []uint64, ends, who []int32) (of bool) {
	k := 0
	for b, e := range ends {
		var s exact.U128
		for _, i := range ranks[k:e] {
			var o bool
			s, o = s.Add(wide[i])
			of = of || o
		}
		sums[who[b]] = s
		k = int(e)
	}
	return of
}

// sumFound sums st's parents' games by looking each child up in the layer
// below, as sumDense a batch at a time: the children of a batch of
// parents, then their places, then their counts.
func (g *gameSums) sumFound(st *gameChunk) (of, miss bool) {
	sums := st.sums
	kids, owner := st.kids[:0], st.owner[:0]
	sum := func() {
		places := st.ranks[:0]
		for _, c := range kids {
			i, ok := g.below.find(c)
			miss = miss || !ok
			places = append(places, uint64(i))
		}
		for k, i := range places {
			var o bool
			sums[owner[k]], o = sums[owner[k]].Add(g.vals.at(int(i)))
			of = of || o
		}
		st.ranks = places
		kids, owner = kids[:0], owner[:0]
	}
	for j, p := range st.ps {
		st.par.Set(p)
		c := len(kids)
		kids = st.par.MoveChildren(kids, p)
		if len(kids) == c {
			sums[j] = exact.U128{Lo: 1}
		}
		for range len(kids) - c {
			owner = append(owner, int32(j))
		}
		if len(kids) >= denseBatch {
			sum()
		}
	}
	sum()
	st.kids, st.owner = kids, owner
	return of, miss
}

// store copies sums to out from base on, in out's width, and raises
// out's max to theirs.
func (g *gameSums) store(base int, sums []exact.U128) {
	out := g.out
	var most exact.U128
	switch {
	case out.small != nil:
		dst := out.small[base : base+len(sums)]
		for j, s := range sums {
			dst[j] = uint32(s.Lo) // below 2^32: see gamesWidth
			most.Lo = max(most.Lo, s.Lo)
		}
	case out.narrow != nil:
		dst := out.narrow[base : base+len(sums)]
		for j, s := range sums {
			dst[j] = s.Lo // below 2^64: see gamesWidth
			most.Lo = max(most.Lo, s.Lo)
		}
	default:
		copy(out.wide[base:], sums)
		for _, s := range sums {
			if most.Less(s) {
				most = s
			}
		}
	}
	g.raise(most)
}

// raise raises out's max to most.
func (g *gameSums) raise(most exact.U128) {
	g.mu.Lock()
	if g.out.max.Less(most) {
		g.out.max = most
	}
	g.mu.Unlock()
}

// setOne sets count i of c, 32 or 64 bits, to one.
func (c counts) setOne(i int) {
	if c.small != nil {
		c.small[i] = 1
	} else {
		c.narrow[i] = 1
	}
}

// widened returns small counts c in 64 bits, with the sums that did not
// fit, above (place, sum), set in, and frees c; it returns c, and an
// error, where the budget refuses the copy.
func widened(c counts, above []aboveSmall, nw int, mem *memory.Budget) (counts, error) {
	out, err := makeCounts(c.len(), narrow, mem)
	if err != nil {
		return c, err
	}
	pool.Chunks(c.len(), nw, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out.narrow[i] = uint64(c.small[i])
		}
	})
	for _, a := range above {
		out.narrow[a.at] = a.sum
	}
	out.max = c.max
	c.free(mem)
	return out, nil
}

// aboveSmall is a sum that did not fit in a layer's small counts, and its
// place.
type aboveSmall struct {
	at  int
	sum uint64
}

// narrowed returns c's counts in w bits, each of which holds them, copied
// by nw workers, and frees c; or c where the budget refuses the copy.
func narrowed(c counts, w width, nw int, mem *memory.Budget) counts {
	n := c.len()
	out, err := makeCounts(n, w, mem)
	if err != nil {
		return c
	}
	pool.Chunks(n, nw, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if x := c.at(i).Lo; out.small != nil {
				out.small[i] = uint32(x)
			} else {
				out.narrow[i] = x
			}
		}
	})
	out.max = c.max
	c.free(mem)
	return out
}

// absent marks a place placesIn found no bit for.
const absent = 1 << 63

// placesIn turns each number in ranks into its place in set, given before
// (see places), or where its bit is not set into that place | absent;
// asks the caches for each place's value in the array at vals (of
// 1<<shift bytes each; see prefetch.At); and returns how many bits were
// set. Where the processor has BMI2 it is a loop in assembly
// (placesBMI2); in Go (placesGo) the compiler kept Games's slices in
// memory, reading and writing them back for each child.
func placesIn(set []uint64, before []uint32, ranks []uint64, vals unsafe.Pointer, shift uint64) (hits int) {
	if len(ranks) == 0 {
		return 0
	}
	if havePlacesBMI2() {
		return placesBMI2(&set[0], &before[0], ranks, vals, shift)
	}
	hits = placesGo(set, before, ranks)
	prefetch.At(vals, ranks, shift)
	return hits
}

// placesGo is placesIn's loop in Go, the value prefetches left out.
func placesGo(set []uint64, before []uint32, ranks []uint64) (hits int) {
	for k, r := range ranks {
		w := r / 64
		word := set[w]
		bit := word >> (r % 64) & 1
		hits += int(bit)
		ranks[k] = uint64(before[w]) + uint64(bits.OnesCount64(word&(1<<(r%64)-1))) | (bit^1)<<63
	}
	return hits
}
