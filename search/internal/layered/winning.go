package layered

import (
	"context"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"
)

// Winning holds, for each winnable position of one peg count, the jump
// sequences from it that meet the goal and the random player's chance of
// meeting it from there, and finds a position's place among them for the
// layer above (see Win).
type Winning struct {
	Pos    []engine.Position // canonical, in the order of the counts
	Counts []WinCount
	// pl finds a position's place: in bitsets of the positions' numbers
	// by class, the positions in the order of their classes and numbers,
	// or by key.
	pl *places
	// d, if set, numbers every child of a position of the layer above:
	// the positions are of one class, which the symmetries keep, so the
	// children of the layer above are numbered in a batch (see
	// movegen.Parent.MoveRanks) and placed in its bitset.
	d     *key.Dense
	bytes int64
	words []uint64 // Counts' memory, taken from mem
	// chanceOnly leaves the paths uncounted (see WinChances).
	chanceOnly bool
}

// WinCount is what a winnable position counts: the jump sequences from it
// that meet the goal, and the random player's chance of meeting it, fixed
// point (see exact.DivFloor). The two are held together, so that a child's
// are read in one cache line.
type WinCount struct {
	Paths, Chance exact.U128
}

// Win returns Winning for the winnable positions keys (mixed keys of one
// peg count), given below, Winning for those of one peg fewer; below nil
// means keys are the goal's positions, each met by one path with
// certainty. Both sums run over a position's jumps: a path is a jump to a
// winnable child and a path on from it, and the chance is the mean of the
// children's over all the jumps (a child that cannot win has none),
// rounded down. It reports ErrOverflow where a path count passes 128 bits,
// and ctx's error if cancelled.
//
// A child is looked up at its place among below's positions, as Games
// looks children up: where the board's positions are numbered (see
// key.Dense), below's are held in a bitset of their numbers for each of
// their classes, in the order of their classes and numbers, and a child's
// place is its bit's among the set bits; otherwise its key's place in a
// key.Index. The children of a batch of parents are looked up together,
// so that their misses overlap.
func Win(ctx context.Context, gen *movegen.Gen, keys []uint64, below *Winning, workers int, mem *memory.Budget) (*Winning, error) {
	return win(ctx, gen, keys, below, workers, mem, true, false)
}

// WinChances is Win for the chances alone: every count's Paths is left
// zero (the goal's one each), so that no path count can pass 128 bits.
func WinChances(ctx context.Context, gen *movegen.Gen, keys []uint64, below *Winning, workers int, mem *memory.Budget) (*Winning, error) {
	return win(ctx, gen, keys, below, workers, mem, true, true)
}

// win is Win, with bitsets only where dense allows them (a test's way to
// the index), and with chanceOnly WinChances.
func win(ctx context.Context, gen *movegen.Gen, keys []uint64, below *Winning, workers int, mem *memory.Budget, dense, chanceOnly bool) (*Winning, error) {
	n := len(keys)
	w := &Winning{bytes: int64(n) * 8, chanceOnly: chanceOnly}
	if err := mem.Take(w.bytes, "the winnable positions"); err != nil {
		return nil, err
	}
	if err := w.order(ctx, gen, keys, workers, mem, dense); err != nil {
		w.Free(mem)
		return nil, err
	}
	// Memory a layer below let go where the budget keeps it; every count
	// is written.
	words, err := mem.TakeWordsToFill(n*wordsPerCount, "the winnable positions' counts")
	if err != nil {
		w.Free(mem)
		return nil, err
	}
	w.words = words
	w.Counts = unsafe.Slice((*WinCount)(unsafe.Pointer(unsafe.SliceData(words))), n)
	if below == nil {
		for i := range w.Counts {
			w.Counts[i] = WinCount{Paths: exact.U128{Lo: 1}, Chance: exact.ProbOne}
		}
	} else if err := w.sum(ctx, gen, below, workers); err != nil {
		w.Free(mem)
		return nil, err
	}
	return w, nil
}

// wordsPerCount is the words of a WinCount.
const wordsPerCount = int(unsafe.Sizeof(WinCount{}) / 8)

// Free gives w's memory back to mem, its bitsets for reuse (see
// memory.Budget.Spare).
func (w *Winning) Free(mem *memory.Budget) {
	mem.Give(w.bytes)
	if w.words != nil {
		mem.GiveWords(w.words)
		w.words, w.Counts = nil, nil
	}
	if w.pl != nil && w.pl.bl != nil {
		for _, set := range w.pl.bl.sets { // order made them
			mem.Spare(set)
		}
	}
	w.pl.free(mem)
	w.pl = nil
}

// order puts keys' positions in w.Pos and makes w's places: in bitsets
// where dense and numberAll allow them, else by key.
func (w *Winning) order(ctx context.Context, gen *movegen.Gen, keys []uint64, workers int, mem *memory.Budget, dense bool) error {
	nw := pool.Size(workers)
	ps := memory.Make[engine.Position](len(keys))
	pool.Chunks(len(keys), workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			ps[i] = key.Unmix(keys[i])
		}
	})
	var num *numbering
	if dense {
		num = numberAll(gen, ps, workers)
	}
	if num == nil {
		w.Pos = ps
		var err error
		w.pl, err = placesOf(&Layer{keys: keys}, nw, mem)
		return err
	}
	bytes := num.words() * 8
	// The bitsets take memory the process has written before where the
	// budget keeps some (see memory.Budget.TakeWords), and Free gives it
	// back.
	sets := make([][]uint64, len(num.ds))
	spare := func() {
		for _, set := range sets {
			if set != nil {
				mem.GiveWords(set)
			}
		}
	}
	for s, d := range num.ds {
		// Cleared here by the workers, a page of fresh memory each
		// faults in on one.
		set, err := mem.TakeWordsToFill(int((d.Size()+63)/64), "the winnable positions' bitsets")
		if err != nil {
			spare()
			return err
		}
		pool.Chunks(len(set), workers, func(_, lo, hi int) { clear(set[lo:hi]) })
		sets[s] = set
	}
	b := gen.Board
	pool.Chunks(len(ps), workers, func(_, lo, hi int) {
		for _, p := range ps[lo:hi] {
			s := num.slot[b.Class(p)]
			r := num.ds[s].Rank(p)
			atomic.OrUint64(&sets[s][r/64], 1<<(r%64))
		}
	})
	w.Pos = ps
	var err error
	if w.pl, err = placeBits(num, sets, ps, nw, mem); err != nil {
		spare()
		return err
	}
	w.bytes += bytes
	if len(num.ds) == 1 && key.ClassKept(b, gen.Group, ps[0]) {
		w.d = num.ds[0]
	}
	return nil
}

// placeBits returns the places of the positions whose bits sets (by
// slot of num) hold, and writes those positions to ps in their order: in
// two passes over the words, a chunk a worker, the first counting their
// bits, the second noting the count before each word and taking each
// bit's position from its number's high part (see key.Dense.Lows). A
// bitLayer's runs, its positions and places took four: the English full
// analysis's Win spent 82-83 ms of wall time ordering its layers so, 57-59
// ms this way (its winnable layers fill a few thousandths of their
// bitsets, so the passes, not the positions, are the cost). before is
// charged to mem, as placesOf charges it.
func placeBits(num *numbering, sets [][]uint64, ps []engine.Position, nw int, mem *memory.Budget) (*places, error) {
	pl := &places{bl: &bitLayer{num: num, sets: sets, n: len(ps)}, before: make([][]uint32, len(sets))}
	type chunk struct{ s, lo, hi int } // words lo..hi-1 of slot s
	var chunks []chunk
	for s, set := range sets {
		words, err := mem.TakeWordsToFill((len(set)+1)/2, "a layer's index")
		if err != nil {
			pl.free(mem)
			return nil, err
		}
		pl.words = append(pl.words, words)
		pl.before[s] = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(words))), len(set))
		step := len(set)/(8*nw) + 1
		for lo := 0; lo < len(set); lo += step {
			chunks = append(chunks, chunk{s, lo, min(len(set), lo+step)})
		}
	}
	starts := make([]int, len(chunks)+1)
	pool.Chunks(len(chunks), nw, func(_, lo, hi int) {
		for k, c := range chunks[lo:hi] {
			n := 0
			for _, x := range sets[c.s][c.lo:c.hi] {
				n += bits.OnesCount64(x)
			}
			starts[lo+k+1] = n
		}
	})
	for k := range chunks {
		starts[k+1] += starts[k]
	}
	pool.Chunks(len(chunks), nw, func(_, lo, hi int) {
		for k, c := range chunks[lo:hi] {
			n := starts[lo+k]
			d, set, before := num.ds[c.s], sets[c.s], pl.before[c.s]
			// The high part of each number in turn, walked up from the
			// chunk's first: a handful of numbers a part.
			h := d.Part(uint64(c.lo) * 64)
			start, end := d.Range(h)
			high, lows := d.Lows(h)
			for i := c.lo; i < c.hi; i++ {
				before[i] = uint32(n)
				for x := set[i]; x != 0; x &= x - 1 {
					r := uint64(i)*64 + uint64(bits.TrailingZeros64(x))
					if r >= end {
						for r >= end {
							h++
							start, end = d.Range(h)
						}
						high, lows = d.Lows(h)
					}
					ps[n] = high | engine.Position(lows[r-start])
					n++
				}
			}
		}
	})
	return pl, nil
}

// numberAll returns the numbering of the classes of ps (positions of one
// peg count), where gen's board numbers them and their bitsets together
// hold no more than 64 words for each of ps's positions, else nil.
func numberAll(gen *movegen.Gen, ps []engine.Position, workers int) *numbering {
	r := gen.Ranker()
	if r == nil || len(ps) < minDenseParents {
		return nil
	}
	b := gen.Board
	if b.Classes() > 64 {
		return nil
	}
	// The classes seen, a bit each, a chunk at a time.
	var seen atomic.Uint64
	pool.Chunks(len(ps), workers, func(_, lo, hi int) {
		var mine uint64
		for _, p := range ps[lo:hi] {
			mine |= 1 << b.Class(p)
		}
		seen.Or(mine)
	})
	if bits.OnesCount64(seen.Load()) > 1<<slotBits {
		return nil
	}
	var ds []*key.Dense
	for c := range b.Classes() {
		if seen.Load()>>c&1 == 0 {
			continue
		}
		d := r.Layer(ps[0].Pegs(), engine.Class(c))
		if d == nil {
			return nil
		}
		ds = append(ds, d)
	}
	num := numberingOf(ds...)
	if num.words() > 64*int64(len(ps)) {
		return nil
	}
	return num
}

// sum fills w's counts from below's.
func (w *Winning) sum(ctx context.Context, gen *movegen.Gen, below *Winning, workers int) error {
	var overflow atomic.Bool
	type state struct {
		par    *movegen.Parent
		kids   []engine.Position
		places []uint64 // a child's number, then its place in below (absent: none)
		jumps  []int32  // by parent of the batch
	}
	nw := pool.Size(workers)
	idle := make(chan *state, nw)
	for range nw {
		idle <- &state{par: gen.NewParent()}
	}
	n := len(w.Pos)
	err := pool.Each(ctx, idle, 0, n, max(64, min(4096, n/(8*nw)+1)), func(st *state, lo, hi int) {
		of := false
		for at := lo; at < hi; {
			// A batch of parents: their children, then their places,
			// then the sums.
			end := min(hi, at+movegen.MaxBatch)
			places := st.places[:0]
			st.jumps = st.jumps[:0]
			if below.d != nil {
				// Made together (Parent.MoveRanksBatch).
				var ends [movegen.MaxBatch]int32
				batch := w.Pos[at:end]
				places = st.par.MoveRanksBatch(places, batch, nil, below.d, ends[:len(batch)])
				prev := int32(0)
				for _, e := range ends[:len(batch)] {
					st.jumps = append(st.jumps, e-prev)
					prev = e
				}
				set, before := below.pl.bl.sets[0], below.pl.before[0]
				prefetchBits(&set[0], &before[0], places)
				placesIn(set, before, places, unsafe.Pointer(unsafe.SliceData(below.Counts)), 5)
			} else {
				kids := st.kids[:0]
				for i := at; i < end; i++ {
					p := w.Pos[i]
					st.par.Set(p)
					before := len(kids)
					kids = st.par.MoveChildren(kids, p)
					st.jumps = append(st.jumps, int32(len(kids)-before))
				}
				for _, c := range kids {
					j, ok := below.pl.find(c)
					if !ok {
						places = append(places, absent)
						continue
					}
					places = append(places, uint64(j))
				}
				st.kids = kids
			}
			// A parent's children are a run of places, in order: their
			// counts are summed in registers and each parent's stored
			// once, so that a fresh page of w.Counts is written, not read
			// first (see memory.Budget.TakeWordsToFill).
			k := 0
			for b, jumps := range st.jumps {
				var c WinCount
				for _, j := range places[k : k+int(jumps)] {
					if j&absent != 0 {
						continue
					}
					from := &below.Counts[j]
					if !w.chanceOnly {
						var o bool
						c.Paths, o = c.Paths.Add(from.Paths)
						of = of || o
					}
					c.Chance, _ = c.Chance.Add(from.Chance) // at most 1023 ones: no overflow
				}
				if jumps > 0 {
					c.Chance = exact.DivFloor(c.Chance, uint64(jumps))
				}
				w.Counts[at+b] = c
				k += int(jumps)
			}
			st.places = places
			at = end
		}
		if of {
			overflow.Store(true)
		}
	})
	if err == nil && overflow.Load() {
		err = ErrOverflow
	}
	return err
}
