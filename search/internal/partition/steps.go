package partition

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/pool"
	"pegs/search/internal/spill"
)

// Steps are the steps of a run on one partition (see the package doc),
// over the run's store, with an expander of purpose layered.Paths whose
// budget, moves and workers they use. Made by NewSteps.
type Steps struct {
	st Store
	e  *layered.Expander
	// maxPartition and maxChunk are Knobs' MaxPartition and MaxChunk.
	maxPartition, maxChunk int
	// chunk, once a chunk's expansion passed the budget, is the size of
	// the chunk that replaced it, for the layer's partitions after it.
	chunk int
}

// NewSteps returns the steps over st with e (of purpose layered.Paths),
// moved by k's MaxPartition and MaxChunk.
func NewSteps(st Store, e *layered.Expander, k Knobs) *Steps {
	return &Steps{st: st, e: e, maxPartition: k.MaxPartition, maxChunk: k.MaxChunk}
}

// Mem returns the budget the steps charge.
func (s *Steps) Mem() *memory.Budget { return s.e.Mem() }

// Knobs move a run off its defaults, for tests: a small board then takes
// the paths of a large one.
type Knobs struct {
	// MaxPartition, if positive, caps the positions of a partition below
	// what the budget allows: tests set it low to make many partitions.
	MaxPartition int
	// MaxChunk, if positive, makes the expansion of a chunk of more
	// positions stop as if past the budget, and WalkRoom, if positive,
	// caps the bytes of the set the walk back looks children up in: tests
	// set them low to make small boards split partitions on the fly and
	// walk back in passes.
	MaxChunk int
	WalkRoom int64
	// MaxFanIn, if positive, caps the runs a merge reads at once below
	// what the budget allows: tests set it low to make merges take
	// passes.
	MaxFanIn int
	// Parts, if positive, makes a layer held in memory expand in at least
	// as many parts (at most the partitions of the layer below), whatever
	// MaxPartition: tests set it to make small boards take the path of a
	// layer whose children do not fit beside it (see Spilled).
	Parts int
	// Free, if positive, stands for the free space of the directory's
	// file system in the check before a run (CheckRunDisk): tests set it
	// low to see a run refused.
	Free int64
}

// Header returns the header of a run's file of kind holding partition
// part of parts of the positions of pegs pegs (of a run, from source):
// every file but a winnable one carries a 128-bit value a position, path
// counts or chances (the runs of Parents, made apart, carry none).
func Header(kind spill.Kind, pegs, part, parts, source int) spill.Header {
	return spill.Header{Kind: kind, Counts: kind != spill.WinnableFile, Pegs: pegs, Partition: part, Partitions: parts, Source: source}
}

// Add adds the stats of a partition, or of a chunk of one, to st: the
// one place a run's stats are summed.
func Add(st *layered.Stats, add layered.Stats) error {
	st.Positions += add.Positions
	st.Raw += add.Raw
	st.DeadEnds += add.DeadEnds
	var of bool
	if st.Games, of = st.Games.Add(add.Games); of {
		return layered.ErrOverflow
	}
	return nil
}

// pieces returns into how many pieces n positions must be cut for each
// piece's expansion to fit in half the budget (or MaxPartition).
func (s *Steps) pieces(n int64) float64 {
	need := layered.ExpansionBytes(n) / float64(max(1, s.e.Mem().Limit()/2))
	if s.maxPartition > 0 {
		need = max(need, float64(n)/float64(s.maxPartition))
	}
	return need
}

// Chunks returns the chunks that a partition of n positions is expanded
// in: one where the layer's partition count, fixed from an estimate before
// the layer existed, left it small enough, more where the layer came out
// larger than estimated (at most maxChunks).
func (s *Steps) Chunks(n int64) int {
	return min(maxChunks, max(1, int(math.Ceil(s.pieces(n)))))
}

// maxChunks bounds the chunks of one partition: a run's source (spill's
// Header.Source, 16 bits) is its partition plus its chunk times the
// layer's partitions (at most maxPartitions).
const maxChunks = 256

// RunSource returns the source that the runs of chunk c of partition p,
// of a layer of parts partitions, are written under.
func RunSource(p, c, parts int) int { return p + c*parts }

// minChunk is the fewest positions a chunk is cut to.
const minChunk = 256

// Expand expands cur, partition p of a layer of parts partitions, and
// writes its children as runs into the groups of the layer below, in
// chunks where the whole does not fit the budget, each chunk's runs apart
// (sources RunSource(p, c, parts) for chunk c): the merge folds the
// positions that several chunks reach as it folds those of several
// partitions. It returns the stats of the whole partition and its chunks.
// progress, if set, hears how many of cur's positions are done.
//
// A layer's partition count is fixed from an estimate before the layer
// exists, and a partition's expansion from an estimate of the memory a
// parent takes; where either is short, the expansion of a chunk stops
// within the budget, and the chunk is cut in two and each half expanded
// in turn, the later partitions of the layer starting at the size that
// fitted.
func (s *Steps) Expand(ctx context.Context, cur *layered.Layer, p, parts, groups int, progress func(done int)) (layered.Stats, int, error) {
	var st layered.Stats
	chunks := 0
	var expand func(lo, hi int) error
	expand = func(lo, hi int) error {
		if progress != nil {
			s.e.SetProgress(func(n, _ int) { progress(lo + n) })
		}
		var cst layered.Stats
		var err error
		if s.maxChunk > 0 && hi-lo > s.maxChunk {
			err = &memory.Error{What: "a chunk of a spilled partition", Need: int64(hi - lo), Budget: int64(s.maxChunk)}
		} else {
			cst, err = s.runs(ctx, cur.Slice(lo, hi), RunSource(p, chunks, parts), groups)
		}
		if errors.Is(err, memory.ErrExceeded) && hi-lo >= 2*minChunk && chunks+2 <= maxChunks && RunSource(p, chunks+1, parts) < 1<<16 {
			mid := lo + (hi-lo)/2
			s.chunk = mid - lo
			if err := expand(lo, mid); err != nil {
				return err
			}
			return expand(mid, hi)
		}
		if err != nil {
			return err
		}
		chunks++
		return Add(&st, cst)
	}
	n := cur.Len()
	pieces := s.Chunks(int64(n))
	if s.chunk > 0 {
		pieces = max(pieces, min(maxChunks, (n+s.chunk-1)/s.chunk))
	}
	for c := range pieces {
		if err := expand(c*n/pieces, (c+1)*n/pieces); err != nil {
			return st, 0, err
		}
	}
	return st, chunks, nil
}

// runs expands cur, positions of one partition, and writes its children,
// sorted and split into the groups of the layer below at their top bits,
// as runs from source, one for each group.
func (s *Steps) runs(ctx context.Context, cur *layered.Layer, source, groups int) (layered.Stats, error) {
	e := s.e
	next, st, err := e.Next(ctx, cur)
	if err != nil {
		return st, err
	}
	defer e.Mem().Give(next.Bytes())
	_, err = s.split(ctx, s.st, next, 0, groups, groups, func(q int) spill.Header { return Header(spill.RunFile, cur.Pegs()-1, q, groups, source) })
	return st, err
}

// split writes the positions of l, sorted, split at their top bits into
// groups first to first+n-1 of parts, where they all fall, one file of st
// for each group q (h(q)), the groups in parallel, and returns each
// file's records.
func (s *Steps) split(ctx context.Context, st Store, l *layered.Layer, first, n, parts int, h func(q int) spill.Header) ([]int64, error) {
	records := make([]int64, n)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(pool.Size(s.e.Workers()))
	keys := l.Keys()
	lo := 0
	for i := range n {
		q := first + i
		hi := len(keys)
		if i+1 < n {
			hi = lo
			for hi < len(keys) && spill.PartitionOf(keys[hi], parts) == q {
				hi++
			}
		}
		part := l.Slice(lo, hi)
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			n, err := write(gctx, st, part, h(q))
			records[i] = n
			return err
		})
		lo = hi
	}
	return records, g.Wait()
}

// writeSorted writes the children kids, left in their buckets' tables
// (see layered.Expander.NextPartSorted), as the files h(first) to
// h(first+n-1) of st: partitions first to first+n-1 of parts of their
// layer, whole buckets of kids each, files in parallel. It returns their
// records. Each bucket's table is let go once written.
func (s *Steps) writeSorted(ctx context.Context, st Store, kids *layered.Sorted, first, n, parts int, h func(q int) spill.Header) ([]int64, error) {
	per := kids.Buckets() / parts // buckets a partition
	records := make([]int64, n)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(pool.Size(s.e.Workers()))
	for i := range n {
		q := first + i
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			return st.Write(gctx, h(q), func(w *spill.Writer) error {
				for b := q * per; b < (q+1)*per; b++ {
					if err := kids.Each(b, w.Add); err != nil {
						return err
					}
				}
				records[i] = w.Records()
				return nil
			})
		})
	}
	return records, g.Wait()
}

// write writes l's keys and counts as the file h of the steps' store and
// returns its records.
func (s *Steps) write(ctx context.Context, l *layered.Layer, h spill.Header) (int64, error) {
	return write(ctx, s.st, l, h)
}

// write writes l's keys and counts as the file h of st and returns its
// records.
func write(ctx context.Context, st Store, l *layered.Layer, h spill.Header) (int64, error) {
	var n int64
	err := st.Write(ctx, h, func(w *spill.Writer) error {
		for i, k := range l.Keys() {
			var c exact.U128
			if l.Counted() {
				c = l.Count(i)
			}
			if err := w.Add(k, c); err != nil {
				return err
			}
		}
		n = w.Records()
		return nil
	})
	return n, err
}

// readerBytes is about what an open reader holds.
const readerBytes = 64<<10 + 4096*30 + 4096*24

// mergeBytes is what a merge of fanIn runs holds: a reader for each, and
// a writer where the merge writes an intermediate run.
func mergeBytes(fanIn int) int64 { return int64(fanIn+1) * readerBytes }

// minFanIn is the fewest runs a merge reads at once where it cannot read
// them all: with fewer, the passes over the runs multiply.
const minFanIn = 8

// MergePlan returns how many merges of n runs each may run at once, of
// groups, and the most runs each reads at once (its fan-in, at most
// maxFanIn where that is positive), within what the budget has left: all
// of a merge's runs where they fit, else fewer, merged in passes (see
// Merge); merges in parallel as far as that leaves each minFanIn runs.
// Where not even two runs fit, it refuses at once.
func (s *Steps) MergePlan(n, groups, maxFanIn int) (par, fanIn int, err error) {
	mem := s.e.Mem()
	avail := mem.Limit() - mem.Used()
	par = max(1, min(pool.Size(s.e.Workers()), groups))
	for par > 1 && avail/int64(par) < mergeBytes(min(n, minFanIn)) {
		par--
	}
	fanIn = min(n, int(avail/int64(par)/readerBytes)-1)
	if maxFanIn > 0 {
		fanIn = min(fanIn, maxFanIn)
	}
	if n > 1 && fanIn < 2 {
		return 0, 0, &memory.Error{Budget: mem.Limit(), Need: mergeBytes(2), InUse: mem.Used(), What: "merging two runs of a spilled partition"}
	}
	return par, max(1, fanIn), nil
}

// Merge merges the runs from sources into group r (of groups) of layer
// pegs, folding the counts of a position in several, and writes the
// group's partitions (of parts in all; a group is a range of them); it
// returns the records of each. It reads at most fanIn runs at once: where
// the group has more, it first merges them fanIn at a time into
// intermediate runs (sources past the group's own), pass after pass,
// which it removes as it reads them, and returns how many it wrote (the
// group's own runs stay: a resume needs them until what was merged from
// them is counted).
func (s *Steps) Merge(ctx context.Context, pegs, r, groups, parts int, sources []int, fanIn int) ([]int64, int64, error) {
	mem := s.e.Mem()
	per := parts / groups
	held := mergeBytes(min(fanIn, len(sources)))
	if err := mem.Take(held, "merging a spilled partition"); err != nil {
		return nil, 0, err
	}
	defer mem.Give(held)
	// Intermediate runs take the sources after the group's own.
	next := 0
	for _, src := range sources {
		next = max(next, src+1)
	}
	base := next
	var intermediate int64
	run := func(src int) spill.Header { return Header(spill.RunFile, pegs, r, groups, src) }
	removeIntermediate := func(srcs []int) error {
		for _, src := range srcs {
			if src >= base {
				if err := s.st.Remove(ctx, run(src)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	open := func(srcs []int) (*spill.Merger, error) {
		var rs []*spill.Reader
		for _, src := range srcs {
			rd, err := s.st.Open(ctx, run(src))
			if err != nil {
				for _, rd := range rs {
					rd.Close()
				}
				return nil, err
			}
			rs = append(rs, rd)
		}
		return spill.NewMerger(rs)
	}
	for len(sources) > fanIn {
		var out []int
		for i := 0; i < len(sources); i += fanIn {
			batch := sources[i:min(i+fanIn, len(sources))]
			if len(batch) == 1 {
				out = append(out, batch[0])
				continue
			}
			if next >= 1<<16 {
				return nil, intermediate, fmt.Errorf("spill: merging layer %d: more intermediate runs than a header numbers", pegs)
			}
			if err := s.mergeInto(ctx, open, batch, run(next)); err != nil {
				return nil, intermediate, err
			}
			intermediate++
			if err := removeIntermediate(batch); err != nil {
				return nil, intermediate, err
			}
			out = append(out, next)
			next++
		}
		sources = out
	}
	defer removeIntermediate(sources)
	m, err := open(sources)
	if err != nil {
		return nil, intermediate, err
	}
	defer m.Close()
	// The group's partitions are written in turn, each from the merged
	// keys that fall in it.
	records := make([]int64, per)
	more := m.Next()
	for i := range per {
		q := r*per + i
		err := s.st.Write(ctx, Header(spill.LayerFile, pegs, q, parts, 0), func(w *spill.Writer) error {
			for ; more && spill.PartitionOf(m.Key(), parts) == q; more = m.Next() {
				if err := w.Add(m.Key(), m.Val()); err != nil {
					return err
				}
			}
			records[i] = w.Records()
			return mergeErr(m.Err())
		})
		if err != nil {
			return nil, intermediate, err
		}
	}
	return records, intermediate, nil
}

// mergeErr is a merger's error, ErrOverflow where a sum passed 128 bits.
func mergeErr(err error) error {
	if errors.Is(err, spill.ErrSumOverflow) {
		return layered.ErrOverflow
	}
	return err
}

// mergeInto merges the runs srcs, opened by open, into the run h.
func (s *Steps) mergeInto(ctx context.Context, open func([]int) (*spill.Merger, error), srcs []int, h spill.Header) error {
	m, err := open(srcs)
	if err != nil {
		return err
	}
	defer m.Close()
	return s.st.Write(ctx, h, func(w *spill.Writer) error {
		for m.Next() {
			if err := w.Add(m.Key(), m.Val()); err != nil {
				return err
			}
		}
		return mergeErr(m.Err())
	})
}

// read reads the file h of n records (-1 where the caller does not know
// how many: a file of another count is corrupt), charged to the budget as
// what: it returns what to give back.
func (s *Steps) read(ctx context.Context, h spill.Header, n, perRecord int64, what string) ([]uint64, []exact.U128, int64, error) {
	mem := s.e.Mem()
	if n < 0 {
		keys, vals, err := Read(ctx, s.st, h)
		if err != nil {
			return nil, nil, 0, err
		}
		n = int64(len(keys))
		if err := mem.Take(n*perRecord, what); err != nil {
			return nil, nil, 0, err
		}
		return keys, vals, n * perRecord, nil
	}
	if err := mem.Take(n*perRecord, what); err != nil {
		return nil, nil, 0, err
	}
	r, err := s.st.Open(ctx, h)
	if err != nil {
		mem.Give(n * perRecord)
		return nil, nil, 0, err
	}
	defer r.Close()
	keys := make([]uint64, n)
	var vals []exact.U128
	if r.Header().Counts {
		vals = make([]exact.U128, n)
	}
	if err := spill.ReadInto(r, keys, vals); err != nil {
		mem.Give(n * perRecord)
		return nil, nil, 0, err
	}
	return keys, vals, n * perRecord, nil
}

// readParts reads the files h(q) of partitions lo to hi-1, of sizes[q]
// records each, into keys and, unless nil, vals, which hold them all in
// order: the files in parallel, each into its own range. A partition of
// no records is not read.
func (s *Steps) readParts(ctx context.Context, h func(q int) spill.Header, sizes []int64, lo, hi int, keys []uint64, vals []exact.U128) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(pool.Size(s.e.Workers()))
	var off int64
	for q := lo; q < hi; q++ {
		n := sizes[q]
		k, v := keys[off:off+n], vals
		if vals != nil {
			v = vals[off : off+n]
		}
		off += n
		if n == 0 {
			continue
		}
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			r, err := s.st.Open(gctx, h(q))
			if err != nil {
				return err
			}
			defer r.Close()
			return spill.ReadInto(r, k, v)
		})
	}
	return g.Wait()
}

// WinSet reads the winnable positions of partitions r of layer pegs (of
// parts partitions; sizes holds each partition's count, or is nil where
// the caller does not know them) as a set to look children up in (nil
// for an empty range), charged to the budget: it returns what to give
// back.
func (s *Steps) WinSet(ctx context.Context, pegs, parts int, r [2]int, sizes []int64) (*key.Set, int64, error) {
	if r[0] == r[1] {
		return nil, 0, nil
	}
	mem := s.e.Mem()
	const what = "the winnable positions of a spilled layer"
	var held int64
	if sizes != nil {
		n := total(sizes[r[0]:r[1]])
		held = n*8 + key.SetBytes(int(n))
		if err := mem.Take(held, what); err != nil {
			return nil, 0, err
		}
	}
	var keys []uint64
	if sizes != nil {
		keys = make([]uint64, total(sizes[r[0]:r[1]]))
		if err := s.readParts(ctx, func(q int) spill.Header { return Header(spill.WinnableFile, pegs, q, parts, 0) }, sizes, r[0], r[1], keys, nil); err != nil {
			mem.Give(held)
			return nil, 0, err
		}
	}
	for q := r[0]; q < r[1] && sizes == nil; q++ {
		part, _, err := Read(ctx, s.st, Header(spill.WinnableFile, pegs, q, parts, 0))
		if err != nil {
			return nil, 0, err
		}
		keys = append(keys, part...)
	}
	if sizes == nil {
		n := int64(len(keys))
		held = n*8 + key.SetBytes(int(n))
		if err := mem.Take(held, what); err != nil {
			return nil, 0, err
		}
	}
	return key.NewSet(keys, s.e.Workers()), held, nil
}

// Walk marks the positions of partition q of layer pegs (of parts
// partitions, n positions or -1 where the caller does not know) that have
// a child in below (a set of winnable positions of the layer below, nil
// if none; at one peg, those that meet goal) in marks, a bit a position
// (nil for one pass); in the last pass it writes the partition's winnable
// file and returns how many positions it holds. Its positions are
// expanded and their children looked up, which costs one expansion of
// the layer a pass, where undoing jumps from below into tables closed on
// each partition (ParentsOf) cost an expansion of below for every
// partition.
func (s *Steps) Walk(ctx context.Context, goal engine.Goal, pegs, q, parts int, n int64, below *key.Set, marks []uint64, last bool) (int64, error) {
	e := s.e
	mem := e.Mem()
	keys, _, held, err := s.read(ctx, Header(spill.LayerFile, pegs, q, parts, 0), n, 24, "a partition of a spilled layer")
	if err != nil {
		return 0, err
	}
	n = int64(len(keys))
	mem.Give(held - n*8) // the counts, read and let go
	defer mem.Give(n * 8)
	if marks == nil {
		words := (n + 63) / 64
		if err := mem.Take(words*8, "the winnable marks of a partition"); err != nil {
			return 0, err
		}
		defer mem.Give(words * 8)
		marks = make([]uint64, words)
	}
	gen := e.Gen()
	var stopped atomic.Bool
	pool.Chunks(len(keys), e.Workers(), func(_, lo, hi int) {
		if ctx.Err() != nil {
			stopped.Store(true)
			return
		}
		par := gen.NewParent()
		var moves []int16
		for i, k := range keys[lo:hi] {
			i += lo
			if atomic.LoadUint64(&marks[i/64])&(1<<(i%64)) != 0 {
				continue // found in an earlier pass
			}
			win := false
			switch {
			case pegs == 1:
				win = layered.Wins(goal, gen.Group, k)
			case below != nil:
				p := key.Unmix(k)
				par.Set(p)
				moves = gen.AppendMoves(moves[:0], p)
				for _, m := range moves {
					if below.Has(key.Mix(par.Child(m))) {
						win = true
						break
					}
				}
			}
			if win {
				atomic.OrUint64(&marks[i/64], 1<<(i%64))
			}
		}
	})
	if stopped.Load() {
		return 0, ctx.Err()
	}
	if !last {
		return 0, nil
	}
	var win []uint64
	for i, k := range keys {
		if marks[i/64]&(1<<(i%64)) != 0 {
			win = append(win, k)
		}
	}
	if err := mem.Take(int64(len(win))*8, "the winnable positions of a partition"); err != nil {
		return 0, err
	}
	defer mem.Give(int64(len(win)) * 8)
	return s.write(ctx, layered.NewLayer(pegs, win), Header(spill.WinnableFile, pegs, q, parts, 0))
}

// parentsHeader is the header of a run of parents found by Parents, of
// pegs pegs, for partition t of parts from source: a run without values.
func parentsHeader(pegs, t, parts, source int) spill.Header {
	return spill.Header{Kind: spill.RunFile, Pegs: pegs, Partition: t, Partitions: parts, Source: source}
}

// Parents undoes every jump into win, the winnable positions (sorted) of
// partition p of layer pegs, and writes the parents found, positions of
// pegs+1 pegs reachable or not, as runs from source p into each of the
// parts partitions of the layer above; Winnable keeps the reachable ones.
// It costs an expansion of the winnable positions alone, where Walk
// expands every reachable position, for a shuffle of the parents through
// runs: the walk back of a Beam run, whose steps hold a partition at a
// time.
func (s *Steps) Parents(ctx context.Context, win []uint64, pegs, p, parts int) error {
	found := layered.NewLayer(pegs+1, nil)
	if len(win) > 0 {
		e, err := layered.NewExpander(layered.Parents, layered.Setup{Gen: s.e.Gen(), Mem: s.e.Mem(), Workers: s.e.Workers()})
		if err != nil {
			return err
		}
		// A Parents expander's layer is labelled one peg past the
		// parents it finds.
		if found, _, err = e.Grow(ctx, layered.NewLayer(pegs+2, win)); err != nil {
			return err
		}
		defer s.e.Mem().Give(found.Bytes())
	}
	_, err := s.split(ctx, s.st, found, 0, parts, parts, func(q int) spill.Header { return parentsHeader(pegs+1, q, parts, p) })
	return err
}

// Winnable merges the runs of parents that Parents wrote for partition t
// of layer pegs (of parts partitions) from sources, keeps those among the
// partition's reachable positions, its winnable ones, and writes them as
// its winnable file; it returns how many it holds.
func (s *Steps) Winnable(ctx context.Context, pegs, t, parts int, sources []int) (int64, error) {
	mem := s.e.Mem()
	held := mergeBytes(len(sources))
	if err := mem.Take(held, "merging the parents of a partition"); err != nil {
		return 0, err
	}
	defer mem.Give(held)
	var rs []*spill.Reader
	for _, src := range sources {
		rd, err := s.st.Open(ctx, parentsHeader(pegs, t, parts, src))
		if err != nil {
			for _, rd := range rs {
				rd.Close()
			}
			return 0, err
		}
		rs = append(rs, rd)
	}
	m, err := spill.NewMerger(rs)
	if err != nil {
		return 0, err
	}
	defer m.Close()
	reach, err := s.st.Open(ctx, Header(spill.LayerFile, pegs, t, parts, 0))
	if err != nil {
		return 0, err
	}
	defer reach.Close()
	// The parents found that are reachable, as key.Intersect, both read
	// a block at a time.
	var n int64
	err = s.st.Write(ctx, Header(spill.WinnableFile, pegs, t, parts, 0), func(w *spill.Writer) error {
		more := reach.Next()
		for m.Next() && more {
			k := m.Key()
			for more && reach.Key() < k {
				more = reach.Next()
			}
			if more && reach.Key() == k {
				if err := w.Add(k, exact.U128{}); err != nil {
					return err
				}
			}
		}
		if err := m.Err(); err != nil {
			return err
		}
		n = w.Records()
		return reach.Err()
	})
	return n, err
}

// ChanceSet reads the chances of the winnable positions of partitions r
// of layer pegs (of parts; sizes holds each partition's winnable count,
// or is nil where the caller does not know them; none for an empty
// range), charged to the budget with their index: it returns what to
// give back.
func (s *Steps) ChanceSet(ctx context.Context, pegs, parts int, r [2]int, sizes []int64) ([]uint64, []exact.U128, int64, error) {
	if r[0] == r[1] {
		return nil, nil, 0, nil
	}
	mem := s.e.Mem()
	const what = "the random player's chances"
	var held int64
	var keys []uint64
	var vals []exact.U128
	if sizes != nil {
		n := total(sizes[r[0]:r[1]])
		held = n*24 + key.IndexBytes(int(n))
		if err := mem.Take(held, what); err != nil {
			return nil, nil, 0, err
		}
		keys, vals = make([]uint64, n), make([]exact.U128, n)
		if err := s.readParts(ctx, func(q int) spill.Header { return Header(spill.ChanceFile, pegs, q, parts, 0) }, sizes, r[0], r[1], keys, vals); err != nil {
			mem.Give(held)
			return nil, nil, 0, err
		}
	}
	for q := r[0]; q < r[1] && sizes == nil; q++ {
		k, v, err := Read(ctx, s.st, Header(spill.ChanceFile, pegs, q, parts, 0))
		if err != nil {
			return nil, nil, 0, err
		}
		keys, vals = append(keys, k...), append(vals, v...)
	}
	if sizes == nil {
		n := int64(len(keys))
		held = n*24 + key.IndexBytes(int(n))
		if err := mem.Take(held, what); err != nil {
			return nil, nil, 0, err
		}
	}
	return keys, vals, held, nil
}

// Chance adds to the sums of the winnable positions of partition q of
// layer pegs (of parts partitions; n of them, or -1 where the caller does
// not know) the chances of their children in index (some winnable
// positions of the layer below, their chances vals; nil at one peg, where
// every winnable position is won), from zero in the first pass and from
// the partition's chance file after, and writes the sums, or in the last
// pass the chances, to its chance file. A partition known to have no
// winnable position has no chance file.
func (s *Steps) Chance(ctx context.Context, pegs, q, parts int, n int64, index *key.Index, vals []exact.U128, first, last bool) error {
	if n == 0 {
		return nil
	}
	h := Header(spill.ChanceFile, pegs, q, parts, 0)
	from := h
	if first {
		from = Header(spill.WinnableFile, pegs, q, parts, 0)
	}
	keys, sums, held, err := s.read(ctx, from, n, 24, "the random player's chances")
	if err != nil {
		return err
	}
	defer s.e.Mem().Give(held)
	if first {
		sums = make([]exact.U128, len(keys))
	}
	if index == nil {
		for i := range sums {
			sums[i] = exact.ProbOne
		}
	} else if !layered.AddChances(ctx, s.e.Gen(), keys, index, vals, sums, last, s.e.Workers()) {
		return ctx.Err()
	}
	_, err = s.write(ctx, layered.NewCounted(pegs, keys, sums), h)
	return err
}

func total(ns []int64) int64 {
	var n int64
	for _, x := range ns {
		n += x
	}
	return n
}
