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
	Paths  []exact.U128
	Chance []exact.U128 // fixed point, see exact.DivFloor
	// A position's place: for positions of one class that a key.Dense
	// numbers, in the order of their numbers, its bit's place among the
	// set bits of set (before[w]: the bits set before word w); else its
	// key's in index.
	d           *key.Dense
	set         []uint64
	before      []uint32
	beforeWords []uint64 // before's memory, for reuse
	index       *key.Index
	bytes       int64
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
// A child is looked up by its number in a bitset of below's positions,
// where they are of one class whose numbering the symmetries keep, as
// every reachable position's is on the English board (see key.Dense; the
// positions are then put in the order of their numbers, each at its bit's
// place among the set bits), else by its key in a key.Index. The children
// of a batch of parents are looked up together, so that their misses
// overlap.
func Win(ctx context.Context, gen *movegen.Gen, keys []uint64, below *Winning, workers int, mem *memory.Budget) (*Winning, error) {
	return win(ctx, gen, keys, below, workers, mem, true)
}

// win is Win, with bitsets only where dense allows them (a test's way to
// the index).
func win(ctx context.Context, gen *movegen.Gen, keys []uint64, below *Winning, workers int, mem *memory.Budget, dense bool) (*Winning, error) {
	n := len(keys)
	w := &Winning{bytes: int64(n) * 40}
	if err := mem.Take(w.bytes, "the winnable positions' counts"); err != nil {
		return nil, err
	}
	if err := w.order(gen, keys, workers, mem, dense); err != nil {
		w.Free(mem)
		return nil, err
	}
	w.Paths, w.Chance = memory.Make[exact.U128](n), memory.Make[exact.U128](n)
	if below == nil {
		for i := range w.Pos {
			w.Paths[i], w.Chance[i] = exact.U128{Lo: 1}, exact.ProbOne
		}
	} else if err := w.sum(ctx, gen, below, workers); err != nil {
		w.Free(mem)
		return nil, err
	}
	return w, nil
}

// Free gives w's memory back to mem, its bitset's for reuse.
func (w *Winning) Free(mem *memory.Budget) {
	mem.Give(w.bytes)
	if w.set != nil {
		mem.Spare(w.set)
		mem.Spare(w.beforeWords)
	}
	w.set, w.before, w.beforeWords, w.index = nil, nil, nil, nil
}

// order puts keys' positions in w.Pos, in their numbers' order with the
// bitset of their numbers where they are of one class that a key.Dense
// numbers and the symmetries keep, else in keys' order with an index of
// keys; it charges the bitset or index to mem.
func (w *Winning) order(gen *movegen.Gen, keys []uint64, workers int, mem *memory.Budget, dense bool) error {
	ps := memory.Make[engine.Position](len(keys))
	pool.Chunks(len(keys), workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			ps[i] = key.Unmix(keys[i])
		}
	})
	w.Pos = ps
	if dense {
		w.d = numberOne(gen, ps, workers)
	}
	if w.d == nil {
		ib := key.IndexBytes(len(keys))
		if err := mem.Take(ib, "the winnable positions' index"); err != nil {
			return err
		}
		w.bytes += ib
		w.index = key.NewIndex(keys)
		return nil
	}
	words := int(w.d.Size()/64 + 1)
	bytes := int64(words)*8 + int64(words+1)/2*8
	if err := mem.Take(bytes, "the winnable positions' bitset"); err != nil {
		w.d = nil
		return err
	}
	w.bytes += bytes
	w.set, w.beforeWords = mem.Words(words), mem.Words((words+1)/2)
	w.before = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(w.beforeWords))), words)
	d, set := w.d, w.set
	for _, p := range ps {
		r := d.Rank(p)
		set[r/64] |= 1 << (r % 64)
	}
	countBefore(set, w.before, workers)
	// Each position to its bit's place.
	w.Pos = memory.Make[engine.Position](len(ps))
	pool.Chunks(len(ps), workers, func(_, lo, hi int) {
		for _, p := range ps[lo:hi] {
			r := d.Rank(p)
			x := set[r/64] & (1<<(r%64) - 1)
			w.Pos[int(w.before[r/64])+bits.OnesCount64(x)] = p
		}
	})
	return nil
}

// numberOne returns the numbering of ps's positions where they are of one
// class that a key.Dense numbers and gen's symmetries keep, else nil.
func numberOne(gen *movegen.Gen, ps []engine.Position, workers int) *key.Dense {
	r := gen.Ranker()
	if r == nil || len(ps) < minDenseParents {
		return nil
	}
	b := gen.Board
	class := b.Class(ps[0])
	if !key.ClassKept(b, gen.Group, ps[0]) {
		return nil
	}
	d := r.Layer(ps[0].Pegs(), class)
	if d == nil || d.Size()/64 > 64*uint64(len(ps)) {
		return nil
	}
	var other atomic.Bool
	pool.Chunks(len(ps), workers, func(_, lo, hi int) {
		for _, p := range ps[lo:hi] {
			if b.Class(p) != class {
				other.Store(true)
				return
			}
		}
	})
	if other.Load() {
		return nil
	}
	return d
}

// countBefore sets before[i] to the bits of set before word i, chunks of
// words in parallel.
func countBefore(set []uint64, before []uint32, workers int) {
	counts := make([]int, pool.ChunkCount(len(set), workers)+1)
	pool.Chunks(len(set), workers, func(c, lo, hi int) {
		n := 0
		for _, x := range set[lo:hi] {
			n += bits.OnesCount64(x)
		}
		counts[c+1] = n
	})
	for c := 1; c < len(counts); c++ {
		counts[c] += counts[c-1]
	}
	pool.Chunks(len(set), workers, func(c, lo, hi int) {
		n := counts[c]
		for i := lo; i < hi; i++ {
			before[i] = uint32(n)
			n += bits.OnesCount64(set[i])
		}
	})
}

// sum fills w's counts from below's.
func (w *Winning) sum(ctx context.Context, gen *movegen.Gen, below *Winning, workers int) error {
	var overflow atomic.Bool
	type state struct {
		par   *movegen.Parent
		kids  []engine.Position
		ranks []uint64
		found []int32 // a child's place in below, or -1
		owner []int32
		jumps []int32 // by parent of the batch
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
			end := min(hi, at+32)
			owner, found := st.owner[:0], st.found[:0]
			st.jumps = st.jumps[:0]
			if below.d != nil {
				ranks := st.ranks[:0]
				for i := at; i < end; i++ {
					p := w.Pos[i]
					st.par.Set(p)
					var c int
					ranks, c = st.par.MoveRanks(ranks, p, below.d)
					for range c {
						owner = append(owner, int32(i-at))
					}
					st.jumps = append(st.jumps, int32(c))
				}
				for _, r := range ranks {
					x, bit := below.set[r/64], uint64(1)<<(r%64)
					j := int32(-1)
					if x&bit != 0 {
						j = int32(below.before[r/64]) + int32(bits.OnesCount64(x&(bit-1)))
					}
					found = append(found, j)
				}
				st.ranks = ranks
			} else {
				kids := st.kids[:0]
				for i := at; i < end; i++ {
					p := w.Pos[i]
					st.par.Set(p)
					before := len(kids)
					kids = st.par.MoveChildren(kids, p)
					for range len(kids) - before {
						owner = append(owner, int32(i-at))
					}
					st.jumps = append(st.jumps, int32(len(kids)-before))
				}
				for _, c := range kids {
					j, ok := below.index.Find(key.Mix(c))
					if !ok {
						j = -1
					}
					found = append(found, int32(j))
				}
				st.kids = kids
			}
			for k, j := range found {
				if j < 0 {
					continue
				}
				i := at + int(owner[k])
				var o bool
				w.Paths[i], o = w.Paths[i].Add(below.Paths[j])
				of = of || o
				w.Chance[i], _ = w.Chance[i].Add(below.Chance[j]) // at most 1023 ones: no overflow
			}
			for b, jumps := range st.jumps {
				if jumps > 0 {
					w.Chance[at+b] = exact.DivFloor(w.Chance[at+b], uint64(jumps))
				}
			}
			st.owner, st.found = owner, found
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
