package layered

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
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
}

func (s *Spilled) header(kind spill.Kind, pegs, part, parts, source int) spill.Header {
	return spill.Header{Kind: kind, Counts: s.E.Counts && kind != spill.WinnableFile, Pegs: pegs, Partition: part, Partitions: parts, Source: source}
}

// Forward writes first (of the start's pegs, with its counts if any) as
// the first layer, unless the directory has it, then expands layers a
// partition at a time until one is empty, calling visit with each
// expanded layer's stats (from the manifest for layers expanded before a
// resume).
func (s *Spilled) Forward(ctx context.Context, first *Layer, visit func(pegs int, st Stats)) error {
	d := s.Dir
	p0 := first.Pegs
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
// at TableFill) and the sorted children collected from them.
func (s *Spilled) Partitions(n int64) int {
	e := s.E
	ratio := 1.5
	perParent := 24 + 10*24*5/4 + ratio*24*10/TableFill + ratio*24
	need := float64(n) * perParent / float64(max(1, e.Mem.Limit()/2))
	if s.MaxPartition > 0 {
		need = max(need, float64(n)/float64(s.MaxPartition))
	}
	p := 1
	for float64(p) < need && p < maxPartitions {
		p *= 2
	}
	return p
}

// expect returns how many positions the layer below layer pegs is
// expected to have, as Expander.Expect reckons from whole layers (the
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
	d, e := s.Dir, s.E
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
	for p := range l.Partitions {
		if l.Expanded[p] != nil {
			done += int(l.Records[p])
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		st, err := s.expandPartition(ctx, pegs, p, l, child.Partitions, done, total)
		if err != nil {
			return err
		}
		done += int(l.Records[p])
		l.Expanded[p] = &spill.Stats{Positions: st.Positions, Raw: st.Raw, DeadEnds: st.DeadEnds, Games: st.Games}
		s.Expanded.Add(1)
		if err := d.Save(); err != nil {
			return err
		}
	}
	// Merge the runs into the next layer's partitions, a group of them
	// at a time, groups in parallel.
	groups := runGroups(child.Partitions)
	per := child.Partitions / groups
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(e.nworkers())
	merged := make(chan int, groups)
	for r := range groups {
		if !slices.Contains(child.Complete[r*per:(r+1)*per], false) {
			continue
		}
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			if err := s.merge(pegs-1, r, l.Partitions, child); err != nil {
				return err
			}
			merged <- r
			return nil
		})
	}
	err := g.Wait()
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
			if err := d.Remove(s.header(spill.RunFile, pegs-1, r, groups, p)); err != nil {
				return err
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
// children as runs into the next layer's parts partitions.
func (s *Spilled) expandPartition(ctx context.Context, pegs, p int, l *spill.LayerState, parts, done, total int) (Stats, error) {
	d, e := s.Dir, s.E
	if s.Progress != nil {
		e.Progress = func(n, _ int) { s.Progress("forward", pegs, done+n, total) }
	}
	n := l.Records[p]
	if err := e.Mem.Take(n*8+n*16, "a partition of a spilled layer"); err != nil {
		return Stats{}, err
	}
	keys, counts, err := d.Read(s.header(spill.LayerFile, pegs, p, l.Partitions, 0))
	if err != nil {
		e.Mem.Give(n*8 + n*16)
		return Stats{}, err
	}
	cur := &Layer{Pegs: pegs, Keys: keys, M: counts}
	next, st, err := e.Next(ctx, cur)
	e.Mem.Give(n*8 + n*16)
	if err != nil {
		return st, err
	}
	defer e.Mem.Give(next.Bytes())
	// The children, sorted, split into the next layer's partitions at
	// their top bits.
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(e.nworkers())
	groups := runGroups(parts)
	lo := 0
	for q := range groups {
		hi := len(next.Keys)
		if q+1 < groups {
			hi = lo
			for hi < len(next.Keys) && spill.PartitionOf(next.Keys[hi], groups) == q {
				hi++
			}
		}
		part := &Layer{Pegs: pegs - 1, Keys: next.Keys[lo:hi]}
		if next.M != nil {
			part.M = next.M[lo:hi]
		}
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			_, err := s.write(part, s.header(spill.RunFile, pegs-1, q, groups, p), false)
			return err
		})
		lo = hi
	}
	if err := g.Wait(); err != nil {
		return st, err
	}
	// The runs are synced together, before the manifest counts them.
	return st, s.Dir.Sync()
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
	for i, k := range l.Keys {
		var c exact.U128
		if l.M != nil {
			c = l.M[i]
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

// merge merges the runs from sources partitions into run group r of
// layer pegs, child, folding the counts of a position in several, and
// writes the group's partitions and their records in child.
func (s *Spilled) merge(pegs, r, sources int, child *spill.LayerState) error {
	d, mem := s.Dir, s.E.Mem
	parts := child.Partitions
	groups := runGroups(parts)
	per := parts / groups
	if err := mem.Take(int64(sources)*readerBytes, "merging a spilled partition"); err != nil {
		return err
	}
	defer mem.Give(int64(sources) * readerBytes)
	h := &runHeap{}
	defer func() {
		for _, r := range h.rs {
			r.Close()
		}
	}()
	for p := range sources {
		rd, err := d.Open(s.header(spill.RunFile, pegs, r, groups, p))
		if err != nil {
			return err
		}
		if !rd.Next() {
			rd.Close()
			if err := rd.Err(); err != nil {
				return err
			}
			continue
		}
		h.push(rd)
	}
	// advance steps the least run on, and lets it go at its end.
	advance := func() error {
		rd := h.rs[0]
		if rd.Next() {
			h.keys[0] = rd.Key()
			h.down()
			return nil
		}
		h.pop()
		rd.Close()
		return rd.Err()
	}
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
	for len(h.keys) > 0 {
		k, c := h.keys[0], h.rs[0].Count()
		if err := advance(); err != nil {
			return err
		}
		for len(h.keys) > 0 && h.keys[0] == k {
			var of bool
			if c, of = c.Add(h.rs[0].Count()); of {
				return ErrOverflow
			}
			if err := advance(); err != nil {
				return err
			}
		}
		if err := upTo(spill.PartitionOf(k, parts)); err != nil {
			return err
		}
		if err := w.Add(k, c); err != nil {
			return err
		}
	}
	return upTo((r + 1) * per)
}

// runHeap holds open runs, the one at the least key first: a binary heap
// on the runs' current keys, held beside them so that sifting reads no
// reader (container/heap's interface calls took a fifth of an English
// run's time).
type runHeap struct {
	keys []uint64
	rs   []*spill.Reader
}

func (h *runHeap) push(r *spill.Reader) {
	h.keys, h.rs = append(h.keys, r.Key()), append(h.rs, r)
	for i := len(h.keys) - 1; i > 0; {
		up := (i - 1) / 2
		if h.keys[up] <= h.keys[i] {
			break
		}
		h.swap(i, up)
		i = up
	}
}

func (h *runHeap) swap(i, j int) {
	h.keys[i], h.keys[j] = h.keys[j], h.keys[i]
	h.rs[i], h.rs[j] = h.rs[j], h.rs[i]
}

// down sifts the top down after its key changed.
func (h *runHeap) down() {
	n := len(h.keys)
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.keys[r] < h.keys[l] {
			m = r
		}
		if h.keys[i] <= h.keys[m] {
			return
		}
		h.swap(i, m)
		i = m
	}
}

// pop removes the top.
func (h *runHeap) pop() {
	n := len(h.keys) - 1
	h.swap(0, n)
	h.keys, h.rs = h.keys[:n], h.rs[:n]
	h.down()
}

// WalkBack finds the winnable positions of the layers in the directory,
// from one peg up to p0, a partition at a time, and writes them as
// winnable files, calling each with every layer's winnable count, fewest
// pegs first (layers done before a resume included). The winnable
// positions of the layer below are held in memory while a layer is
// walked back to.
func (s *Spilled) WalkBack(ctx context.Context, goal engine.Goal, p0 int, each func(pegs int, winnable int64) error) error {
	d, e := s.Dir, s.E
	mem := e.Mem
	var below []uint64
	var belowSet *key.Set
	release := func() {
		mem.Give(int64(len(below)) * 8)
		if belowSet != nil {
			mem.Give(key.SetBytes(len(below)))
		}
		below, belowSet = nil, nil
	}
	defer release()
	for pegs := 1; pegs <= p0; pegs++ {
		l := d.M.Layers[pegs]
		if l == nil || l.Positions() == 0 {
			release()
			continue
		}
		for q := range l.Partitions {
			if l.Won[q] {
				continue
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if s.Progress != nil {
				s.Progress("backward", pegs, 0, int(l.Positions()))
			}
			win, err := s.winnable(ctx, goal, pegs, q, l, belowSet)
			if err != nil {
				return err
			}
			n, err := s.writeRange(&Layer{Pegs: pegs, Keys: win}, s.header(spill.WinnableFile, pegs, q, l.Partitions, 0))
			mem.Give(int64(len(win)) * 8)
			if err != nil {
				return err
			}
			l.Won[q], l.Winnable[q] = true, n
			if err := d.Save(); err != nil {
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
		release()
		if pegs < p0 && n > 0 {
			var err error
			if below, err = s.Winnable(pegs, n); err != nil {
				return err
			}
			if err := mem.Take(key.SetBytes(len(below)), "the winnable positions of a spilled layer"); err != nil {
				mem.Give(n * 8)
				below = nil
				return err
			}
			belowSet = key.NewSet(below, e.Workers)
		}
	}
	return nil
}

// winnable returns the winnable positions of partition q of layer pegs,
// l, given those of the layer below (a set, nil if there are none),
// charged to the budget. A position is winnable when one of its children
// is in below: the partition's positions are expanded and their children
// looked up, which costs one expansion of the layer in all, where undoing
// jumps from below into tables closed on each partition (ParentsOf) cost
// an expansion of below for every partition.
func (s *Spilled) winnable(ctx context.Context, goal engine.Goal, pegs, q int, l *spill.LayerState, below *key.Set) ([]uint64, error) {
	e := s.E
	n := l.Records[q]
	if err := e.Mem.Take(n*8+n*16, "a partition of a spilled layer"); err != nil {
		return nil, err
	}
	keys, _, err := s.Dir.Read(s.header(spill.LayerFile, pegs, q, l.Partitions, 0))
	e.Mem.Give(n * 16)
	defer e.Mem.Give(n * 8)
	if err != nil {
		return nil, err
	}
	gen := e.Gen
	parts := make([][]uint64, pool.ChunkCount(len(keys), e.Workers))
	var stopped atomic.Bool
	pool.Chunks(len(keys), e.Workers, func(c, lo, hi int) {
		if ctx.Err() != nil {
			stopped.Store(true)
			return
		}
		par := gen.NewParent()
		var moves []int16
		for _, k := range keys[lo:hi] {
			if pegs == 1 {
				if wins(goal, gen.Group, k) {
					parts[c] = append(parts[c], k)
				}
				continue
			}
			if below == nil {
				continue
			}
			p := key.Unmix(k)
			par.Set(p)
			moves = gen.AppendMoves(moves[:0], p)
			for _, m := range moves {
				if below.Has(key.Mix(par.Child(m))) {
					parts[c] = append(parts[c], k)
					break
				}
			}
		}
	})
	if stopped.Load() {
		return nil, ctx.Err()
	}
	win := slices.Concat(parts...)
	return win, e.Mem.Take(int64(len(win))*8, "the winnable positions of a partition")
}

// Winnable reads the winnable positions of layer pegs, n of them, charged
// to the budget: sorted mixed keys, the partitions being ranges of them.
func (s *Spilled) Winnable(pegs int, n int64) ([]uint64, error) {
	l := s.Dir.M.Layers[pegs]
	if l == nil || !l.AllWon() {
		return nil, fmt.Errorf("spill: %s: the winnable positions of %d pegs are not complete", s.Dir.Path, pegs)
	}
	if err := s.E.Mem.Take(n*8, "the winnable positions of a spilled layer"); err != nil {
		return nil, err
	}
	out := make([]uint64, 0, n)
	for q := range l.Partitions {
		keys, _, err := s.Dir.Read(s.header(spill.WinnableFile, pegs, q, l.Partitions, 0))
		if err != nil {
			s.E.Mem.Give(n * 8)
			return nil, err
		}
		out = append(out, keys...)
	}
	return out, nil
}

// Load reads layer pegs whole, keys and counts, charged to the budget.
func (s *Spilled) Load(pegs int) (*Layer, error) {
	l := s.Dir.M.Layers[pegs]
	if l == nil || !l.Done() {
		return nil, fmt.Errorf("spill: %s: layer %d is not complete", s.Dir.Path, pegs)
	}
	out := &Layer{Pegs: pegs}
	for q := range l.Partitions {
		keys, counts, err := s.Dir.Read(s.header(spill.LayerFile, pegs, q, l.Partitions, 0))
		if err != nil {
			return nil, err
		}
		out.Keys = append(out.Keys, keys...)
		out.M = append(out.M, counts...)
	}
	return out, s.E.Mem.Take(out.Bytes(), "a spilled layer")
}

// wins reports whether the one-peg position of mixed key k meets goal
// (a goal hole counts up to group).
func wins(goal engine.Goal, group *engine.Group, k uint64) bool {
	p := key.Unmix(k)
	return goal.Reached(p) || goal.Kind == engine.OnePegAt && group.Canonical(p) == group.Canonical(1<<uint(goal.Hole))
}
