package layered

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/pool"
	"pegs/search/internal/spill"
)

// Spilled runs the forward pass and the walk back on layers held in a
// spill directory (see package spill) rather than in memory, a partition
// at a time, so that memory bounds only the largest partition's work and
// a killed run resumes from the last partition it completed.
//
// Forward, a layer is expanded a partition at a time by the Expander (the
// same expansion as in memory, over a Layer made of the partition): each
// partition's distinct children, sorted, are split by partition of the
// next layer into runs, one file per pair of partitions. Then each of the
// next layer's partitions is merged from its runs, which are sorted, a
// k-way merge that folds the counts of the positions reached from several
// partitions. The walk back streams the layers in reverse, from one peg
// up: a partition's winnable positions are its parents of the winnable
// positions of the layer below (ParentsOf, its tables closed on the
// partition's keys), written as winnable files.
type Spilled struct {
	Dir *spill.Dir
	E   *Expander // its Counts says whether files carry path counts
	// MaxPartition, if positive, caps the positions of a partition below
	// what the budget allows: tests set it low to make many partitions.
	MaxPartition int
	Progress     Progress
	// Expanded counts the partitions this process expanded.
	Expanded atomic.Int64
	// Chunked counts the partitions this process expanded in more than
	// one chunk; Passes is the most passes the walk back made over a
	// layer (see WalkBack).
	Chunked atomic.Int64
	Passes  int
	// MaxChunk, if positive, makes the expansion of a chunk of more
	// positions stop as if past the budget, and WalkRoom, if positive,
	// caps the bytes of the set the walk back looks children up in: tests
	// set them low to make small boards split partitions on the fly and
	// walk back in passes.
	MaxChunk int
	WalkRoom int64
	// MaxFanIn, if positive, caps the runs a merge reads at once below
	// what the budget allows: tests set it low to make merges take
	// passes. Intermediate counts the runs written between passes.
	MaxFanIn     int
	Intermediate atomic.Int64
	// Free, if positive, stands for the free space of the directory's
	// file system in the check before a run (CheckRunDisk): tests set it
	// low to see a run refused.
	Free int64
	// chunk, once a chunk's expansion passed the budget, is the size of
	// the chunk that replaced it, for the layer's partitions after it.
	chunk int
}

func (s *Spilled) header(kind spill.Kind, pegs, part, parts, source int) spill.Header {
	counts := kind == spill.ChanceFile || s.E.counts && kind != spill.WinnableFile
	return spill.Header{Kind: kind, Counts: counts, Pegs: pegs, Partition: part, Partitions: parts, Source: source}
}

// Forward writes first (of the start's pegs, with its counts if any) as
// the first layer, unless the directory has it, then expands layers a
// partition at a time until one is empty, calling visit with each
// expanded layer's stats (from the manifest for layers expanded before a
// resume).
func (s *Spilled) Forward(ctx context.Context, first *Layer, visit func(pegs int, st Stats)) error {
	d := s.Dir
	p0 := first.pegs
	if l, ok := d.M.Layers[p0]; !ok || !l.Done() {
		l := d.NewLayer(p0, 1)
		n, err := s.writeRange(first, s.header(spill.LayerFile, p0, 0, 1, 0))
		if err != nil {
			return err
		}
		l.Complete[0], l.Records[0] = true, n
		if err := d.Save(); err != nil {
			return err
		}
	}
	for pegs := p0; pegs > 0; pegs-- {
		l := d.M.Layers[pegs]
		if l == nil || !l.Done() {
			return fmt.Errorf("spill: %s: layer %d is not complete", d.Path, pegs)
		}
		if l.Positions() == 0 {
			return nil
		}
		if err := s.expandLayer(ctx, pegs, l); err != nil {
			return err
		}
		var st Stats
		for _, ps := range l.Expanded {
			st.Positions += ps.Positions
			st.Raw += ps.Raw
			st.DeadEnds += ps.DeadEnds
			var of bool
			st.Games, of = st.Games.Add(ps.Games)
			if of {
				return ErrOverflow
			}
		}
		if visit != nil {
			visit(pegs, st)
		}
	}
	return nil
}

// Partitions returns the partition count for a layer of about n
// positions: a power of two that leaves each partition's expansion within
// half the budget. A parent's expansion holds the parent (24 bytes with
// its count), the workers' lists of its children (up to ten of 24 bytes,
// a quarter spare), the tables of its distinct children (ratio a parent,
// at tableFill) and the sorted children collected from them.
func (s *Spilled) Partitions(n int64) int {
	need := s.pieces(n)
	p := 1
	for float64(p) < need && p < maxPartitions {
		p *= 2
	}
	return p
}

// pieces returns into how many pieces n positions must be cut for each
// piece's expansion to fit in half the budget (or MaxPartition).
func (s *Spilled) pieces(n int64) float64 {
	ratio := 1.5
	perParent := 24 + 10*24*5/4 + ratio*24*10/tableFill + ratio*24
	need := float64(n) * perParent / float64(max(1, s.E.mem.Limit()/2))
	if s.MaxPartition > 0 {
		need = max(need, float64(n)/float64(s.MaxPartition))
	}
	return need
}

// Chunks returns the chunks that a partition of n positions is expanded
// in: one where the layer's partition count, fixed from an estimate before
// the layer existed, left it small enough, more where the layer came out
// larger than estimated (at most maxChunks).
func (s *Spilled) Chunks(n int64) int {
	return min(maxChunks, max(1, int(math.Ceil(s.pieces(n)))))
}

// maxChunks bounds the chunks of one partition: a run's source (spill's
// Header.Source, 16 bits) is its partition plus its chunk times the
// layer's partitions (at most maxPartitions).
const maxChunks = 256

// runSource returns the source that the runs of chunk c of partition p,
// of a layer of parts partitions, are written under.
func runSource(p, c, parts int) int { return p + c*parts }

// expect returns how many positions the layer below layer pegs is
// expected to have, as Expander.expect reckons from whole layers (the
// expander's own ratios are a partition's): the last layer's ratio of
// positions to its parents', times that ratio's last change where it
// fell, or 1.5 a parent before two layers are known.
func (s *Spilled) expect(pegs int) int64 {
	size := func(p int) float64 {
		if l, ok := s.Dir.M.Layers[p]; ok && l.Done() {
			return float64(l.Positions())
		}
		return 0
	}
	n := size(pegs)
	a, b := size(pegs)/size(pegs+1), size(pegs+1)/size(pegs+2)
	if size(pegs+1) == 0 || size(pegs+2) == 0 {
		return int64(n * 1.5)
	}
	return int64(n * a * min(1, a/b))
}

// checkDisk checks that the directory's file system has room for the
// layer below layer pegs, l: its runs and its partitions, at as many bytes
// a position as l's files take (32, the most a key and a count take,
// before a layer of a thousand positions is known), for the positions
// expected.
func (s *Spilled) checkDisk(pegs int, l *spill.LayerState) error {
	perPos := 32.0
	if n := l.Positions(); n >= 1000 {
		var size int64
		for q := range l.Partitions {
			if st, err := os.Stat(s.Dir.File(s.header(spill.LayerFile, pegs, q, l.Partitions, 0))); err == nil {
				size += st.Size()
			}
		}
		perPos = float64(size) / float64(n)
	}
	need := int64(2 * perPos * float64(s.expect(pegs)))
	return s.Dir.Check(need, fmt.Sprintf("the positions of %d pegs", pegs-1))
}

// maxPartitions bounds a layer's partitions: a layer's runs are a file
// for each pair of its partitions and the next layer's.
const maxPartitions = 256

// expandLayer expands layer pegs, l, a partition at a time into runs, and
// merges the runs into the next layer's partitions, skipping what the
// manifest says is done.
func (s *Spilled) expandLayer(ctx context.Context, pegs int, l *spill.LayerState) error {
	d := s.Dir
	child := d.M.Layers[pegs-1]
	if child == nil {
		child = d.NewLayer(pegs-1, s.Partitions(s.expect(pegs)))
		if err := d.Save(); err != nil {
			return err
		}
	}
	if !child.Done() {
		if err := s.checkDisk(pegs, l); err != nil {
			return err
		}
	}
	total, done := int(l.Positions()), 0
	s.chunk = 0 // learned anew for each layer
	for p := range l.Partitions {
		if l.Expanded[p] != nil {
			done += int(l.Records[p])
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		st, chunks, err := s.expandPartition(ctx, pegs, p, l, child.Partitions, done, total)
		if err != nil {
			return err
		}
		done += int(l.Records[p])
		l.Expanded[p] = &spill.Stats{Positions: st.Positions, Raw: st.Raw, DeadEnds: st.DeadEnds, Games: st.Games, Chunks: chunks}
		s.Expanded.Add(1)
		if err := d.Save(); err != nil {
			return err
		}
	}
	// Merge the runs into the next layer's partitions, a group of them
	// at a time, groups in parallel as far as the budget holds their
	// readers.
	groups := runGroups(child.Partitions)
	per := child.Partitions / groups
	par, fanIn, err := s.mergePlan(l, groups)
	if err != nil {
		return err
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(par)
	merged := make(chan int, groups)
	for r := range groups {
		if !slices.Contains(child.Complete[r*per:(r+1)*per], false) {
			continue
		}
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			if err := s.merge(pegs-1, r, l, child, fanIn); err != nil {
				return err
			}
			merged <- r
			return nil
		})
	}
	err = g.Wait()
	close(merged)
	for r := range merged {
		for q := r * per; q < (r+1)*per; q++ {
			child.Complete[q] = true
		}
	}
	if serr := d.Save(); err == nil {
		err = serr
	}
	if err != nil {
		return err
	}
	// The runs go once the manifest counts what was merged from them.
	for r := range groups {
		for p := range l.Partitions {
			for c := range l.Expanded[p].Pieces() {
				if err := d.Remove(s.header(spill.RunFile, pegs-1, r, groups, runSource(p, c, l.Partitions))); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// maxRunGroups bounds the groups of a layer's partitions that each
// partition of the layer above writes a run for: runs are a file for each
// pair of a partition and a group, and a file takes a millisecond or more
// to create, sync and remove, where one for each pair of partitions took
// most of the time of a small board's run. Groups merge in parallel.
const maxRunGroups = 8

// runGroups returns the groups of parts partitions that runs go to: each
// a range of consecutive partitions, the same for every run and resume.
func runGroups(parts int) int { return min(parts, maxRunGroups) }

// expandPartition expands partition p of layer pegs and writes its
// children as runs into the next layer's parts partitions, in chunks
// where the whole does not fit the budget, each chunk's runs apart: the
// merge folds the positions that several chunks reach as it folds those
// of several partitions. It returns the stats of the whole partition and
// its chunks.
//
// A layer's partition count is fixed from an estimate before the layer
// exists, and a partition's expansion from an estimate of the memory a
// parent takes; where either is short, the expansion of a chunk stops
// within the budget, and the chunk is cut in two and each half expanded
// in turn, the later partitions of the layer starting at the size that
// fitted.
func (s *Spilled) expandPartition(ctx context.Context, pegs, p int, l *spill.LayerState, parts, done, total int) (Stats, int, error) {
	d, e := s.Dir, s.E
	n := l.Records[p]
	if err := e.mem.Take(n*8+n*16, "a partition of a spilled layer"); err != nil {
		return Stats{}, 0, err
	}
	defer e.mem.Give(n*8 + n*16)
	keys, counts, err := d.Read(s.header(spill.LayerFile, pegs, p, l.Partitions, 0))
	if err != nil {
		return Stats{}, 0, err
	}
	var st Stats
	chunks := 0
	var expand func(lo, hi int) error
	expand = func(lo, hi int) error {
		if s.Progress != nil {
			e.progress = func(n, _ int) { s.Progress("forward", pegs, done+lo+n, total) }
		}
		cur := &Layer{pegs: pegs, keys: keys[lo:hi]}
		if counts != nil {
			cur.m = counts[lo:hi]
		}
		var cst Stats
		var err error
		if s.MaxChunk > 0 && hi-lo > s.MaxChunk {
			err = &memory.Error{What: "a chunk of a spilled partition", Need: int64(hi - lo), Budget: int64(s.MaxChunk)}
		} else {
			cst, err = s.expandChunk(ctx, cur, runSource(p, chunks, l.Partitions), parts)
		}
		if errors.Is(err, memory.ErrExceeded) && hi-lo >= 2*minChunk && chunks+2 <= maxChunks {
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
		st.Positions += cst.Positions
		st.Raw += cst.Raw
		st.DeadEnds += cst.DeadEnds
		var of bool
		if st.Games, of = st.Games.Add(cst.Games); of {
			return ErrOverflow
		}
		return nil
	}
	pieces := s.Chunks(n)
	if s.chunk > 0 {
		pieces = max(pieces, min(maxChunks, (len(keys)+s.chunk-1)/s.chunk))
	}
	for c := range pieces {
		if err := expand(c*len(keys)/pieces, (c+1)*len(keys)/pieces); err != nil {
			return st, 0, err
		}
	}
	if chunks > 1 {
		s.Chunked.Add(1)
	}
	// The runs are synced together, before the manifest counts them.
	return st, chunks, s.Dir.Sync()
}

// minChunk is the fewest positions a chunk is cut to.
const minChunk = 256

// expandChunk expands cur, positions of one partition, and writes its
// children, sorted and split into the next layer's parts partitions at
// their top bits, as runs from source.
func (s *Spilled) expandChunk(ctx context.Context, cur *Layer, source, parts int) (Stats, error) {
	e := s.E
	next, st, err := e.Next(ctx, cur)
	if err != nil {
		return st, err
	}
	defer e.mem.Give(next.Bytes())
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(e.nworkers())
	groups := runGroups(parts)
	lo := 0
	for q := range groups {
		hi := len(next.keys)
		if q+1 < groups {
			hi = lo
			for hi < len(next.keys) && spill.PartitionOf(next.keys[hi], groups) == q {
				hi++
			}
		}
		part := &Layer{pegs: cur.pegs - 1, keys: next.keys[lo:hi]}
		if next.m != nil {
			part.m = next.m[lo:hi]
		}
		if next.narrow != nil {
			part.narrow = next.narrow[lo:hi]
		}
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			_, err := s.write(part, s.header(spill.RunFile, cur.pegs-1, q, groups, source), false)
			return err
		})
		lo = hi
	}
	return st, g.Wait()
}

// writeRange writes l's keys and counts as the file h, synced.
func (s *Spilled) writeRange(l *Layer, h spill.Header) (int64, error) { return s.write(l, h, true) }

// write writes l's keys and counts as the file h, synced if sync.
func (s *Spilled) write(l *Layer, h spill.Header, sync bool) (int64, error) {
	w, err := s.Dir.Create(h)
	if err != nil {
		return 0, err
	}
	w.NoSync = !sync
	for i, k := range l.keys {
		var c exact.U128
		if l.Counted() {
			c = l.Count(i)
		}
		if err := w.Add(k, c); err != nil {
			w.Abort()
			return 0, err
		}
	}
	n := w.Records()
	return n, s.Dir.Commit(w)
}

// readerBytes is about what an open reader holds.
const readerBytes = 64<<10 + 4096*30 + 4096*24

// runSources returns the sources of the runs that the partitions of
// parent, a layer, wrote into each group of the layer below.
func runSources(parent *spill.LayerState) []int {
	var sources []int
	for p := range parent.Partitions {
		for c := range parent.Expanded[p].Pieces() {
			sources = append(sources, runSource(p, c, parent.Partitions))
		}
	}
	return sources
}

// mergeBytes is what a merge of fanIn runs holds: a reader for each, and
// a writer where the merge writes an intermediate run.
func mergeBytes(fanIn int) int64 { return int64(fanIn+1) * readerBytes }

// minFanIn is the fewest runs a merge reads at once where it cannot read
// them all: with fewer, the passes over the runs multiply.
const minFanIn = 8

// mergePlan returns how many groups of runs from parent merge at once and
// the most runs each reads at once (its fan-in), within what the budget
// has left: all of a group's runs where they fit, else fewer, merged in
// passes (see merge); groups in parallel as far as that leaves each
// minFanIn runs. Where not even two runs fit, it refuses at once.
func (s *Spilled) mergePlan(parent *spill.LayerState, groups int) (par, fanIn int, err error) {
	mem := s.E.mem
	n := len(runSources(parent))
	avail := mem.Limit() - mem.Used()
	par = max(1, min(s.E.nworkers(), groups))
	for par > 1 && avail/int64(par) < mergeBytes(min(n, minFanIn)) {
		par--
	}
	fanIn = min(n, int(avail/int64(par)/readerBytes)-1)
	if s.MaxFanIn > 0 {
		fanIn = min(fanIn, s.MaxFanIn)
	}
	if n > 1 && fanIn < 2 {
		return 0, 0, &memory.Error{Budget: mem.Limit(), Need: mergeBytes(2), InUse: mem.Used(), What: "merging two runs of a spilled partition"}
	}
	return par, max(1, fanIn), nil
}

// merge merges the runs from the partitions of parent, the layer above,
// into run group r of layer pegs, child, folding the counts of a position
// in several, and writes the group's partitions and their records in
// child. It reads at most fanIn runs at once: where the group has more,
// it first merges them fanIn at a time into intermediate runs, pass after
// pass, which it removes as it reads them (the group's own runs stay
// until the manifest counts the merge, as a resume needs them).
func (s *Spilled) merge(pegs, r int, parent, child *spill.LayerState, fanIn int) error {
	d, mem := s.Dir, s.E.mem
	parts := child.Partitions
	groups := runGroups(parts)
	per := parts / groups
	sources := runSources(parent)
	held := mergeBytes(min(fanIn, len(sources)))
	if err := mem.Take(held, "merging a spilled partition"); err != nil {
		return err
	}
	defer mem.Give(held)
	// Intermediate runs take the sources after the group's own.
	base, next := 0, 0
	for p := range parent.Partitions {
		base = max(base, runSource(p, parent.Expanded[p].Pieces(), parent.Partitions))
	}
	next = base
	run := func(src int) spill.Header { return s.header(spill.RunFile, pegs, r, groups, src) }
	removeIntermediate := func(srcs []int) error {
		for _, src := range srcs {
			if src >= base {
				if err := d.Remove(run(src)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	open := func(srcs []int) (*spill.Merger, error) {
		var rs []*spill.Reader
		for _, src := range srcs {
			rd, err := d.Open(run(src))
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
				return fmt.Errorf("spill: merging layer %d: more intermediate runs than a header numbers", pegs)
			}
			if err := s.mergeInto(open, batch, run(next)); err != nil {
				return err
			}
			s.Intermediate.Add(1)
			if err := removeIntermediate(batch); err != nil {
				return err
			}
			out = append(out, next)
			next++
		}
		sources = out
	}
	defer removeIntermediate(sources)
	m, err := open(sources)
	if err != nil {
		return err
	}
	defer m.Close()
	// The group's partitions are written in turn, q the one being written.
	q := r*per - 1
	var w *spill.Writer
	defer func() {
		if w != nil {
			w.Abort()
		}
	}()
	// upTo commits partitions up to the one before end, and starts end's.
	upTo := func(end int) error {
		for q < end {
			if w != nil {
				child.Records[q] = w.Records()
				err := d.Commit(w)
				w = nil
				if err != nil {
					return err
				}
			}
			if q++; q < (r+1)*per {
				var err error
				if w, err = d.Create(s.header(spill.LayerFile, pegs, q, parts, 0)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := upTo(r * per); err != nil {
		return err
	}
	for m.Next() {
		k, c := m.Key(), m.Val()
		if err := upTo(spill.PartitionOf(k, parts)); err != nil {
			return err
		}
		if err := w.Add(k, c); err != nil {
			return err
		}
	}
	if err := m.Err(); errors.Is(err, spill.ErrSumOverflow) {
		return ErrOverflow
	} else if err != nil {
		return err
	}
	return upTo((r + 1) * per)
}

// mergeInto merges the runs srcs, opened by open, into the run h.
func (s *Spilled) mergeInto(open func([]int) (*spill.Merger, error), srcs []int, h spill.Header) error {
	m, err := open(srcs)
	if err != nil {
		return err
	}
	defer m.Close()
	w, err := s.Dir.Create(h)
	if err != nil {
		return err
	}
	w.NoSync = true // a crash redoes the whole merge, from the group's own runs
	for m.Next() {
		if err := w.Add(m.Key(), m.Val()); err != nil {
			w.Abort()
			return err
		}
	}
	if err := m.Err(); err != nil {
		w.Abort()
		if errors.Is(err, spill.ErrSumOverflow) {
			return ErrOverflow
		}
		return err
	}
	return s.Dir.Commit(w)
}

// WalkBack finds the winnable positions of the layers in the directory,
// from one peg up to p0, a partition at a time, and writes them as
// winnable files, calling each with every layer's winnable count, fewest
// pegs first (layers done before a resume included).
//
// A position is winnable when one of its children is a winnable position
// of the layer below, which is held in memory as a set to look children
// up in: whole where it fits in half of what the budget has left, else a
// range of its partitions at a time, the layer's partitions expanded once
// for each range, a bit a position marking those found winnable so far.
// A layer's winnable files are written in its last pass.
func (s *Spilled) WalkBack(ctx context.Context, goal engine.Goal, p0 int, each func(pegs int, winnable int64) error) error {
	d := s.Dir
	for pegs := 1; pegs <= p0; pegs++ {
		l := d.M.Layers[pegs]
		if l == nil || l.Positions() == 0 {
			continue
		}
		if !l.AllWon() {
			if err := s.walkLayer(ctx, goal, pegs, l); err != nil {
				return err
			}
		}
		var n int64
		for _, w := range l.Winnable {
			n += w
		}
		if err := each(pegs, n); err != nil {
			return err
		}
	}
	return nil
}

// walkLayer finds and writes the winnable positions of the partitions of
// layer pegs, l, not yet written.
func (s *Spilled) walkLayer(ctx context.Context, goal engine.Goal, pegs int, l *spill.LayerState) error {
	d, mem := s.Dir, s.E.mem
	ranges := [][2]int{{0, 0}} // one pass, nothing below to look up
	below := d.M.Layers[pegs-1]
	if pegs > 1 && below != nil && below.AllWon() {
		ranges = s.belowRanges(below)
	}
	s.Passes = max(s.Passes, len(ranges))
	// marks[q] marks the winnable positions of partition q found so far,
	// when there are passes before the last.
	marks := make([][]uint64, l.Partitions)
	if len(ranges) > 1 {
		for q := range l.Partitions {
			if !l.Won[q] {
				words := (l.Records[q] + 63) / 64
				if err := mem.Take(words*8, "the winnable marks of a spilled layer"); err != nil {
					return err
				}
				defer mem.Give(words * 8)
				marks[q] = make([]uint64, words)
			}
		}
	}
	for i, r := range ranges {
		set, held, err := s.belowSet(pegs-1, r)
		if err != nil {
			return err
		}
		last := i == len(ranges)-1
		for q := range l.Partitions {
			if l.Won[q] {
				continue
			}
			if err := ctx.Err(); err != nil {
				mem.Give(held)
				return err
			}
			if s.Progress != nil {
				s.Progress("backward", pegs, 0, int(l.Positions()))
			}
			if err := s.walkPartition(ctx, goal, pegs, q, l, set, marks[q], last); err != nil {
				mem.Give(held)
				return err
			}
		}
		mem.Give(held)
	}
	return nil
}

// belowRanges cuts the partitions of below, a layer whose winnable
// positions are written, into ranges whose sets fit in half of what the
// budget has left (a range of one partition where even that does not),
// or one range of them all; none if it has no winnable position.
func (s *Spilled) belowRanges(below *spill.LayerState) [][2]int {
	return s.ranges(below.Winnable, func(n int64) int64 { return n*8 + key.SetBytes(int(n)) })
}

// ranges cuts partitions of sizes[q] positions into ranges whose
// positions take at most half of what the budget has left (bytes tells
// what n of them take), a range of one partition where even that does
// not; one range of them all where they fit, none where there are none.
func (s *Spilled) ranges(sizes []int64, bytes func(n int64) int64) [][2]int {
	mem := s.E.mem
	room := (mem.Limit() - mem.Used()) / 2
	if s.WalkRoom > 0 {
		room = min(room, s.WalkRoom)
	}
	var n int64
	for _, w := range sizes {
		n += w
	}
	if n == 0 {
		return [][2]int{{0, 0}}
	}
	if bytes(n) <= room {
		return [][2]int{{0, len(sizes)}}
	}
	var ranges [][2]int
	lo, held := 0, int64(0)
	for q, w := range sizes {
		if q > lo && bytes(held+w) > room {
			ranges = append(ranges, [2]int{lo, q})
			lo, held = q, 0
		}
		held += w
	}
	return append(ranges, [2]int{lo, len(sizes)})
}

// belowSet reads the winnable positions of partitions r of layer pegs as
// a set (nil for an empty range), charged to the budget: it returns what
// to give back.
func (s *Spilled) belowSet(pegs int, r [2]int) (*key.Set, int64, error) {
	if r[0] == r[1] {
		return nil, 0, nil
	}
	l := s.Dir.M.Layers[pegs]
	var n int64
	for q := r[0]; q < r[1]; q++ {
		n += l.Winnable[q]
	}
	held := n*8 + key.SetBytes(int(n))
	if err := s.E.mem.Take(held, "the winnable positions of a spilled layer"); err != nil {
		return nil, 0, err
	}
	keys := make([]uint64, 0, n)
	for q := r[0]; q < r[1]; q++ {
		part, _, err := s.Dir.Read(s.header(spill.WinnableFile, pegs, q, l.Partitions, 0))
		if err != nil {
			s.E.mem.Give(held)
			return nil, 0, err
		}
		keys = append(keys, part...)
	}
	return key.NewSet(keys, s.E.workers), held, nil
}

// walkPartition marks the positions of partition q of layer pegs, l, that
// have a child in below (a set of winnable positions of the layer below,
// nil if none; at one peg, those that meet goal) in marks, a bit a
// position (nil for one pass); in the last pass it writes the partition's
// winnable file. Its positions are expanded and their children looked up,
// which costs one expansion of the layer a pass, where undoing jumps from
// below into tables closed on each partition (ParentsOf) cost an
// expansion of below for every partition.
func (s *Spilled) walkPartition(ctx context.Context, goal engine.Goal, pegs, q int, l *spill.LayerState, below *key.Set, marks []uint64, last bool) error {
	e := s.E
	n := l.Records[q]
	if err := e.mem.Take(n*8+n*16, "a partition of a spilled layer"); err != nil {
		return err
	}
	keys, _, err := s.Dir.Read(s.header(spill.LayerFile, pegs, q, l.Partitions, 0))
	e.mem.Give(n * 16)
	defer e.mem.Give(n * 8)
	if err != nil {
		return err
	}
	if marks == nil {
		words := (n + 63) / 64
		if err := e.mem.Take(words*8, "the winnable marks of a partition"); err != nil {
			return err
		}
		defer e.mem.Give(words * 8)
		marks = make([]uint64, words)
	}
	gen := e.gen
	var stopped atomic.Bool
	pool.Chunks(len(keys), e.workers, func(_, lo, hi int) {
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
				win = wins(goal, gen.Group, k)
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
		return ctx.Err()
	}
	if !last {
		return nil
	}
	var win []uint64
	for i, k := range keys {
		if marks[i/64]&(1<<(i%64)) != 0 {
			win = append(win, k)
		}
	}
	if err := e.mem.Take(int64(len(win))*8, "the winnable positions of a partition"); err != nil {
		return err
	}
	defer e.mem.Give(int64(len(win)) * 8)
	w, err := s.writeRange(&Layer{pegs: pegs, keys: win}, s.header(spill.WinnableFile, pegs, q, l.Partitions, 0))
	if err != nil {
		return err
	}
	l.Won[q], l.Winnable[q] = true, w
	return s.Dir.Save()
}

// Chances finds the random player's chance of winning (see
// layered.Chances) from each winnable position of the layers in the
// directory, from one peg up to p0, written as chance files, and returns
// that of the start, the one position of p0 pegs, or false if it cannot
// win. The chances of the layer below are held in memory to look children
// up in, whole where they fit in half of what the budget has left, else a
// range of partitions at a time, as the walk back holds its winnable
// positions: between passes a chance file holds the sums found so far,
// divided by the position's jumps in the last pass.
func (s *Spilled) Chances(ctx context.Context, p0 int) (exact.U128, bool, error) {
	d := s.Dir
	for pegs := 1; pegs <= p0; pegs++ {
		l := d.M.Layers[pegs]
		if l == nil || !l.AllWon() || total(l.Winnable) == 0 {
			return exact.U128{}, false, nil // none winnable here: none above either
		}
		ranges := [][2]int{{0, 0}}
		below := d.M.Layers[pegs-1]
		if pegs > 1 {
			ranges = s.ranges(below.Winnable, func(n int64) int64 { return n*24 + key.IndexBytes(int(n)) })
		}
		s.Passes = max(s.Passes, len(ranges))
		for i, r := range ranges {
			prev, vals, held, err := s.chanceSet(pegs-1, r)
			if err != nil {
				return exact.U128{}, false, err
			}
			var index *key.Index
			if prev != nil {
				index = key.NewIndex(prev)
			}
			for q := range l.Partitions {
				if err = ctx.Err(); err != nil {
					break
				}
				if err = s.chancePartition(ctx, pegs, q, l, index, vals, i == 0, i == len(ranges)-1); err != nil {
					break
				}
			}
			s.E.mem.Give(held)
			if err != nil {
				return exact.U128{}, false, err
			}
		}
		if below != nil {
			for q := range below.Partitions {
				if err := d.Remove(s.header(spill.ChanceFile, pegs-1, q, below.Partitions, 0)); err != nil {
					return exact.U128{}, false, err
				}
			}
		}
	}
	l := d.M.Layers[p0]
	for q := range l.Partitions {
		if l.Winnable[q] == 0 {
			continue
		}
		_, vals, err := d.Read(s.header(spill.ChanceFile, p0, q, l.Partitions, 0))
		if err != nil {
			return exact.U128{}, false, err
		}
		return vals[0], true, nil
	}
	return exact.U128{}, false, nil
}

func total(ns []int64) int64 {
	var n int64
	for _, x := range ns {
		n += x
	}
	return n
}

// chanceSet reads the chances of the winnable positions of partitions r
// of layer pegs (none for an empty range), charged to the budget with
// their index: it returns what to give back.
func (s *Spilled) chanceSet(pegs int, r [2]int) ([]uint64, []exact.U128, int64, error) {
	if r[0] == r[1] {
		return nil, nil, 0, nil
	}
	l := s.Dir.M.Layers[pegs]
	n := total(l.Winnable[r[0]:r[1]])
	held := n*24 + key.IndexBytes(int(n))
	if err := s.E.mem.Take(held, "the random player's chances"); err != nil {
		return nil, nil, 0, err
	}
	keys, vals := make([]uint64, 0, n), make([]exact.U128, 0, n)
	for q := r[0]; q < r[1]; q++ {
		if l.Winnable[q] == 0 {
			continue
		}
		k, v, err := s.Dir.Read(s.header(spill.ChanceFile, pegs, q, l.Partitions, 0))
		if err != nil {
			s.E.mem.Give(held)
			return nil, nil, 0, err
		}
		keys, vals = append(keys, k...), append(vals, v...)
	}
	return keys, vals, held, nil
}

// chancePartition adds to the sums of the winnable positions of partition
// q of layer pegs, l, the chances of their children in index (some
// winnable positions of the layer below, their chances vals; nil at one
// peg, where every winnable position is won), from zero in the first pass
// and from the partition's chance file after, and writes the sums, or in
// the last pass the chances, to its chance file.
func (s *Spilled) chancePartition(ctx context.Context, pegs, q int, l *spill.LayerState, index *key.Index, vals []exact.U128, first, last bool) error {
	n := l.Winnable[q]
	if n == 0 {
		return nil
	}
	e := s.E
	if err := e.mem.Take(n*24, "the random player's chances"); err != nil {
		return err
	}
	defer e.mem.Give(n * 24)
	h := s.header(spill.ChanceFile, pegs, q, l.Partitions, 0)
	var keys []uint64
	var sums []exact.U128
	var err error
	if first {
		keys, _, err = s.Dir.Read(s.header(spill.WinnableFile, pegs, q, l.Partitions, 0))
		sums = make([]exact.U128, len(keys))
	} else {
		keys, sums, err = s.Dir.Read(h)
	}
	if err != nil {
		return err
	}
	if index == nil {
		for i := range sums {
			sums[i] = exact.ProbOne
		}
	} else if !addChances(ctx, e.gen, keys, index, vals, sums, last, e.workers) {
		return ctx.Err()
	}
	_, err = s.write(&Layer{pegs: pegs, keys: keys, m: sums}, h, false)
	return err
}

// Load reads layer pegs whole, keys and counts, charged to the budget.
func (s *Spilled) Load(pegs int) (*Layer, error) {
	l := s.Dir.M.Layers[pegs]
	if l == nil || !l.Done() {
		return nil, fmt.Errorf("spill: %s: layer %d is not complete", s.Dir.Path, pegs)
	}
	out := &Layer{pegs: pegs}
	for q := range l.Partitions {
		keys, counts, err := s.Dir.Read(s.header(spill.LayerFile, pegs, q, l.Partitions, 0))
		if err != nil {
			return nil, err
		}
		out.keys = append(out.keys, keys...)
		out.m = append(out.m, counts...)
	}
	return out, s.E.mem.Take(out.Bytes(), "a spilled layer")
}

// wins reports whether the one-peg position of mixed key k meets goal
// (a goal hole counts up to group).
func wins(goal engine.Goal, group *engine.Group, k uint64) bool {
	p := key.Unmix(k)
	return goal.Reached(p) || goal.Kind == engine.OnePegAt && group.Canonical(p) == group.Canonical(1<<uint(goal.Hole))
}
