package partition

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/spill"
)

// Spilled runs the forward pass, the walk back and the random player's
// chances on layers held in a spill directory (see package spill) rather
// than in memory, a partition at a time by the steps of a Steps over the
// directory (Local), so that memory bounds only the largest partition's
// work and a killed run resumes from the last partition it completed: the
// directory's manifest says which partitions are done.
type Spilled struct {
	Dir      *spill.Dir
	Progress layered.Progress
	// Expanded counts the partitions this process expanded.
	Expanded atomic.Int64
	// Chunked counts the partitions this process expanded in more than
	// one chunk; Passes is the most passes the walk back made over a
	// layer (see WalkBack).
	Chunked atomic.Int64
	Passes  int
	// Intermediate counts the runs the merges wrote between passes.
	Intermediate atomic.Int64
	// Held counts the layers this process expanded held whole in memory
	// (see expandHeld).
	Held  int64
	steps *Steps
	knobs Knobs
	// held is the layer last found in one part by expandHeld, or in
	// parts where the expander kept its children whole (TakeFolded),
	// kept in memory (charged to the budget) for the next layer's
	// expansion, which then reads no file; nil when none is.
	held *layered.Layer
	// tooMany is the fewest positions of a layer whose expansion in
	// parts passed the budget (zero before one did): larger layers are
	// expanded a partition at a time without trying.
	tooMany int64
}

// NewSpilled returns the run in d with e, an expander of purpose
// layered.Paths (the files carry path counts), moved off its defaults by
// k.
func NewSpilled(d *spill.Dir, e *layered.Expander, k Knobs) *Spilled {
	return &Spilled{Dir: d, steps: NewSteps(Local{Dir: d}, e, k), knobs: k}
}

// Forward writes first (of the start's pegs, with its counts if any) as
// the first layer, unless the directory has it, then expands layers a
// partition at a time until one is empty, calling visit with each
// expanded layer's stats (from the manifest for layers expanded before a
// resume).
func (s *Spilled) Forward(ctx context.Context, first *layered.Layer, visit func(pegs int, st layered.Stats)) error {
	d := s.Dir
	p0 := first.Pegs()
	if l, ok := d.M.Layers[p0]; !ok || !l.Done() {
		l := d.NewLayer(p0, 1)
		n, err := s.steps.write(ctx, first, Header(spill.LayerFile, p0, 0, 1, 0))
		if err != nil {
			return err
		}
		l.Complete[0], l.Records[0] = true, n
		if err := d.Save(); err != nil {
			return err
		}
	}
	defer s.release()
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
		var st layered.Stats
		for _, ps := range l.Expanded {
			if err := Add(&st, layered.Stats{Positions: ps.Positions, Raw: ps.Raw, DeadEnds: ps.DeadEnds, Games: ps.Games}); err != nil {
				return err
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
// half the budget (see layered.ExpansionBytes).
func (s *Spilled) Partitions(n int64) int {
	need := s.steps.pieces(n)
	p := 1
	for float64(p) < need && p < maxPartitions {
		p *= 2
	}
	return p
}

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
			if st, err := os.Stat(s.Dir.File(Header(spill.LayerFile, pegs, q, l.Partitions, 0))); err == nil {
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
		if err := d.SaveLater(); err != nil {
			return err
		}
	}
	if !child.Done() {
		if err := s.checkDisk(pegs, l); err != nil {
			return err
		}
	}
	if !slices.ContainsFunc(l.Expanded, func(st *spill.Stats) bool { return st != nil }) && !child.Done() {
		held, err := s.expandHeld(ctx, pegs, l, child)
		if held || err != nil {
			return err
		}
	}
	s.release()
	total, done := int(l.Positions()), 0
	s.steps.chunk = 0 // learned anew for each layer
	groups := runGroups(child.Partitions)
	for p := range l.Partitions {
		if l.Expanded[p] != nil {
			done += int(l.Records[p])
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		st, chunks, err := s.expandPartition(ctx, pegs, p, l, groups, done, total)
		if err != nil {
			return err
		}
		done += int(l.Records[p])
		l.Expanded[p] = &spill.Stats{Positions: st.Positions, Raw: st.Raw, DeadEnds: st.DeadEnds, Games: st.Games, Chunks: chunks}
		s.Expanded.Add(1)
		// Once the partition's runs are synced, while the next partition
		// is expanded; the merge's Save waits for it.
		if err := d.SaveLater(); err != nil {
			return err
		}
	}
	// Merge the runs into the next layer's partitions, a group of them
	// at a time, groups in parallel as far as the budget holds their
	// readers.
	per := child.Partitions / groups
	sources := runSources(l)
	par, fanIn, err := s.steps.MergePlan(len(sources), groups, s.knobs.MaxFanIn)
	if err != nil {
		return err
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(par)
	merged := make(chan int, groups)
	records := make([][]int64, groups)
	for r := range groups {
		if !slices.Contains(child.Complete[r*per:(r+1)*per], false) {
			continue
		}
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			n, inter, err := s.steps.Merge(gctx, pegs-1, r, groups, child.Partitions, sources, fanIn)
			s.Intermediate.Add(inter)
			if err != nil {
				return err
			}
			records[r] = n
			merged <- r
			return nil
		})
	}
	err = g.Wait()
	close(merged)
	for r := range merged {
		for i, q := 0, r*per; q < (r+1)*per; i, q = i+1, q+1 {
			child.Complete[q], child.Records[q] = true, records[r][i]
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
		for _, src := range sources {
			if err := d.Remove(Header(spill.RunFile, pegs-1, r, groups, src)); err != nil {
				return err
			}
		}
	}
	return nil
}

// expandHeld expands layer pegs, l, held whole in memory, and writes its
// children as the partitions of the layer below, child, directly: no
// runs and no merge, each file written once. Where the children do not
// fit the budget beside the layer, it expands the layer again for each
// part of them (a range of child's partitions, written from the
// expansion's tables; see layered.Expander.NextPartSorted), in as few
// parts as fit (see parts), parts half as large after one passed the
// budget, at most maxParts. It reports false where even that does not
// fit: the partitions of child written so far are counted, and the rest
// come from runs. The layer is the one held from the last expansion, or
// read whole; children found in one part are held in turn for the next,
// where they fit beside their tables. Partitions of child already
// complete (a resumed run's) are not made again.
func (s *Spilled) expandHeld(ctx context.Context, pegs int, l, child *spill.LayerState) (bool, error) {
	mem := s.steps.e.Mem()
	n := l.Positions()
	if s.tooMany > 0 && n >= s.tooMany || s.knobs.Parts == 0 && s.knobs.MaxPartition > 0 && n > int64(s.knobs.MaxPartition) ||
		s.knobs.MaxChunk > 0 && n > int64(s.knobs.MaxChunk) {
		return false, nil
	}
	cur := s.held
	s.held = nil
	// What the expander keeps of cur for its next part goes with it.
	defer s.steps.e.DropParts()
	if cur == nil || cur.Pegs() != pegs {
		if cur != nil {
			mem.Give(cur.Bytes())
		}
		var err error
		if cur, err = s.readLayer(ctx, pegs, l); cur == nil || err != nil {
			return false, err
		}
	}
	per, hold := s.parts(pegs, cur.Bytes(), child)
	if per > 0 && s.knobs.Parts > 0 {
		per, hold = max(1, min(per, child.Partitions/s.knobs.Parts)), hold && s.knobs.Parts <= 1
	}
	if per == 0 {
		mem.Give(cur.Bytes())
		return false, nil
	}
	var st layered.Stats
	for q := 0; q < child.Partitions; {
		end := min(q+per, child.Partitions) // the part: child's partitions q to end-1
		if !slices.Contains(child.Complete[q:end], false) {
			q = end
			continue
		}
		if s.Progress != nil {
			s.steps.e.SetProgress(func(done, _ int) { s.Progress("forward", pegs, done, int(n)) })
		}
		last := !slices.Contains(child.Complete[end:], false)
		var next *layered.Layer
		var kids *layered.Sorted
		var pst layered.Stats
		var err error
		if hold {
			next, pst, err = s.steps.e.NextPart(ctx, cur, 0, 1, last)
		} else {
			// Written from the tables, not held: no layer collected.
			kids, pst, err = s.steps.e.NextPartSorted(ctx, cur, q, end, child.Partitions, last)
		}
		if errors.Is(err, memory.ErrExceeded) && (hold || per > 1 && (child.Partitions+per/2-1)/(per/2) <= maxParts) {
			if hold {
				hold = false
			} else {
				per /= 2
			}
			if cur.Size() == 0 { // let go by its last part
				if cur, err = s.readLayer(ctx, pegs, l); cur == nil || err != nil {
					return false, err
				}
			}
			continue
		}
		if errors.Is(err, memory.ErrExceeded) {
			mem.Give(cur.Bytes())
			s.tooMany = n
			return false, nil
		}
		if err != nil {
			mem.Give(cur.Bytes())
			return false, err
		}
		h := func(q int) spill.Header { return Header(spill.LayerFile, pegs-1, q, child.Partitions, 0) }
		var records []int64
		if kids != nil {
			records, err = s.steps.writeSorted(ctx, Local{Dir: s.Dir, Later: true}, kids, q, end-q, child.Partitions, h)
			kids.Release()
			// The part's tables, let go a bucket at a time, go back to
			// the system before the next part's are made or the next
			// layer is read (see memory.Budget.Trim): French d3 within
			// --mem 6GiB, its parts written so without this, peaked at
			// 6.76 GiB of RSS, 5.55 GiB charged; with it, 5.93 GiB
			// (one run each, quiet machine).
			mem.Trim()
		} else {
			records, err = s.steps.split(ctx, Local{Dir: s.Dir, Later: true}, next, q, end-q, child.Partitions, h)
		}
		if err == nil {
			for i, r := range records {
				child.Complete[q+i], child.Records[q+i] = true, r
			}
			err = s.Dir.SaveLater() // once the part's files are synced, while the run goes on
		}
		keep := next
		if f := s.steps.e.TakeFolded(); f != nil {
			// The children of all parts, numbered, held in place of
			// the part's keys (see layered.Expander.TakeFolded).
			if next != nil {
				mem.Give(next.Bytes())
			}
			keep = f
		}
		switch {
		case keep == nil:
		case err != nil:
			mem.Give(keep.Bytes())
		default:
			s.held = keep
		}
		if err != nil {
			mem.Give(cur.Bytes())
			return false, err
		}
		st, q = pst, end
	}
	mem.Give(cur.Bytes())
	// The manifest counts the layer's expansion on its first partition,
	// the others' stats zero: each part's expansion found the stats of
	// all of the layer's positions.
	for p := range l.Partitions {
		l.Expanded[p] = &spill.Stats{}
	}
	l.Expanded[0] = &spill.Stats{Positions: st.Positions, Raw: st.Raw, DeadEnds: st.DeadEnds, Games: st.Games}
	s.Held++
	s.Expanded.Add(int64(l.Partitions))
	return true, s.Dir.SaveLater()
}

// maxParts bounds the parts that expandHeld expands a layer in: each part
// expands the whole layer again.
const maxParts = 16

// parts returns the partitions of child that a part of the expansion of
// layer pegs, held (cur bytes), writes, where each part's children fit
// at once in what the budget has left beside the lists of a round, at
// the bytes layered reckons a child takes in its bucket's table: as few
// parts as that allows, at most maxParts, not a power of two, about as
// large each (French d3's layer of 18 pegs within 5.85 GiB, its
// children's tables reckoned at 6.8 GB with 2.9 GB left beside the layer
// held: three parts of 11, 11 and 10 of its 32 partitions, where halves
// pass the budget and quarters make four); zero where not even maxParts
// would. With hold, one part that also collects the children into a
// layer, held for the next (the layer held goes before they are
// collected).
func (s *Spilled) parts(pegs int, cur int64, child *spill.LayerState) (per int, hold bool) {
	mem := s.steps.e.Mem()
	room := float64(mem.Limit() - mem.Used() - max(0, layered.HeldListBytes-s.steps.e.KeptLists())) // the lists kept are charged
	c := float64(s.expect(pegs))
	if max(layered.HeldTableBytes*c, (layered.HeldTableBytes+layered.HeldLayerBytes)*c-float64(cur)) <= room {
		return child.Partitions, true
	}
	p := child.Partitions
	fit := int(room / (layered.HeldTableBytes * c) * float64(p)) // the most partitions a part may take
	if fit < 1 || (p+fit-1)/fit > maxParts {
		return 0, false
	}
	parts := (p + fit - 1) / fit
	return (p + parts - 1) / parts, false
}

// readLayer reads layer pegs, l, whole, keys and counts (in 64 bits where
// they all fit: layered.NewNarrow), charged to the budget; nil where it
// does not fit.
func (s *Spilled) readLayer(ctx context.Context, pegs int, l *spill.LayerState) (*layered.Layer, error) {
	mem := s.steps.e.Mem()
	n := l.Positions()
	if mem.Take(n*24, "a spilled layer") != nil {
		return nil, nil
	}
	keys, narrow := make([]uint64, 0, n), make([]uint64, 0, n)
	var wide []exact.U128
	for q := range l.Partitions {
		r, err := s.steps.st.Open(ctx, Header(spill.LayerFile, pegs, q, l.Partitions, 0))
		if err != nil {
			mem.Give(n * 24)
			return nil, err
		}
		for r.Next() {
			keys = append(keys, r.Key())
			c := r.Count()
			if c.Hi != 0 && wide == nil {
				wide = make([]exact.U128, len(narrow), n)
				for i, m := range narrow {
					wide[i] = exact.U128{Lo: m}
				}
				narrow = nil
			}
			if wide != nil {
				wide = append(wide, c)
			} else {
				narrow = append(narrow, c.Lo)
			}
		}
		r.Close()
		if err := r.Err(); err != nil {
			mem.Give(n * 24)
			return nil, err
		}
	}
	if wide != nil {
		return layered.NewCounted(pegs, keys, wide), nil
	}
	mem.Give(n * 8)
	return layered.NewNarrow(pegs, keys, narrow), nil
}

// release lets the layer held go.
func (s *Spilled) release() {
	if s.held != nil {
		s.steps.e.Mem().Give(s.held.Bytes())
		s.held = nil
	}
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

// runSources returns the sources of the runs that the partitions of
// parent, a layer, wrote into each group of the layer below.
func runSources(parent *spill.LayerState) []int {
	var sources []int
	for p := range parent.Partitions {
		for c := range parent.Expanded[p].Pieces() {
			sources = append(sources, RunSource(p, c, parent.Partitions))
		}
	}
	return sources
}

// expandPartition expands partition p of layer pegs, l, into runs for
// the groups of the next layer (see Steps.Expand), the partition read
// whole and charged to the budget; the runs are left unsynced, for the
// save of the manifest that counts them to sync together (Dir.SaveLater).
func (s *Spilled) expandPartition(ctx context.Context, pegs, p int, l *spill.LayerState, groups, done, total int) (layered.Stats, int, error) {
	mem := s.steps.e.Mem()
	n := l.Records[p]
	if err := mem.Take(n*8+n*16, "a partition of a spilled layer"); err != nil {
		return layered.Stats{}, 0, err
	}
	defer mem.Give(n*8 + n*16)
	keys, counts, err := s.Dir.Read(Header(spill.LayerFile, pegs, p, l.Partitions, 0))
	if err != nil {
		return layered.Stats{}, 0, err
	}
	var progress func(int)
	if s.Progress != nil {
		progress = func(n int) { s.Progress("forward", pegs, done+n, total) }
	}
	st, chunks, err := s.steps.Expand(ctx, layered.NewCounted(pegs, keys, counts), p, l.Partitions, groups, progress)
	if err != nil {
		return st, 0, err
	}
	if chunks > 1 {
		s.Chunked.Add(1)
	}
	return st, chunks, nil
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
			held, err := s.walkHeld(ctx, pegs, l)
			if err == nil && !held {
				err = s.walkLayer(ctx, goal, pegs, l)
			}
			if err != nil {
				return err
			}
		}
		if err := each(pegs, total(l.Winnable)); err != nil {
			return err
		}
	}
	return nil
}

// walkHeld finds the winnable positions of layer pegs, l, from its keys
// and the winnable positions of the layer below held in memory: tables
// closed on l's keys keep the positions found by undoing every jump into
// those below (layered.ParentsOf), which touches a fraction of what
// expanding l would, as the walk back in memory does. It reports false,
// having written nothing the manifest counts, where they do not fit the
// budget, or at one peg, whose winnable positions meet the goal.
func (s *Spilled) walkHeld(ctx context.Context, pegs int, l *spill.LayerState) (bool, error) {
	below := s.Dir.M.Layers[pegs-1]
	if pegs == 1 || below == nil || !below.AllWon() || s.knobs.WalkRoom > 0 {
		return false, nil
	}
	mem := s.steps.e.Mem()
	next, err := s.readKeys(ctx, spill.WinnableFile, pegs-1, below.Winnable)
	if next == nil || err != nil {
		return false, err
	}
	defer mem.Give(int64(len(next)) * 8)
	keys, err := s.readKeys(ctx, spill.LayerFile, pegs, l.Records)
	if keys == nil || err != nil {
		return false, err
	}
	if s.Progress != nil {
		s.Progress("backward", pegs, 0, int(l.Positions()))
	}
	cur := layered.NewLayer(pegs, keys)
	win, err := layered.ParentsOf(ctx, cur, next, s.steps.e.Gen(), s.steps.e.Workers(), mem, true)
	if cur.Keys() != nil {
		cur.Release(mem) // not yet let go into the tables
	}
	if errors.Is(err, memory.ErrExceeded) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if mem.Take(int64(len(win))*8, "the winnable positions of a spilled layer") != nil {
		return false, nil
	}
	defer mem.Give(int64(len(win)) * 8)
	records, err := s.steps.split(ctx, Local{Dir: s.Dir, Later: true}, layered.NewLayer(pegs, win), 0, l.Partitions, l.Partitions, func(q int) spill.Header {
		return Header(spill.WinnableFile, pegs, q, l.Partitions, 0)
	})
	if err != nil {
		return false, err
	}
	for q, r := range records {
		l.Won[q], l.Winnable[q] = true, r
	}
	return true, s.Dir.SaveLater() // once the files are synced, while the walk goes on
}

// readKeys reads the keys of the files of kind of the partitions of
// layer pegs, sizes[q] records in partition q, charged to the budget; nil
// where they do not fit.
func (s *Spilled) readKeys(ctx context.Context, kind spill.Kind, pegs int, sizes []int64) ([]uint64, error) {
	mem := s.steps.e.Mem()
	n := total(sizes)
	if mem.Take(n*8, "the keys of a spilled layer") != nil {
		return nil, nil
	}
	keys := make([]uint64, n)
	if err := s.steps.readParts(ctx, func(q int) spill.Header { return Header(kind, pegs, q, len(sizes), 0) }, sizes, 0, len(sizes), keys, nil); err != nil {
		mem.Give(n * 8)
		return nil, err
	}
	return keys, nil
}

// walkLayer finds and writes the winnable positions of the partitions of
// layer pegs, l, not yet written.
func (s *Spilled) walkLayer(ctx context.Context, goal engine.Goal, pegs int, l *spill.LayerState) error {
	mem := s.steps.e.Mem()
	ranges := [][2]int{{0, 0}} // one pass, nothing below to look up
	below := s.Dir.M.Layers[pegs-1]
	if pegs > 1 && below != nil && below.AllWon() {
		ranges = s.ranges(below.Winnable, func(n int64) int64 { return n*8 + key.SetBytes(int(n)) })
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
		var sizes []int64
		if below != nil {
			sizes = below.Winnable
		}
		set, held, err := s.steps.WinSet(ctx, pegs-1, len(sizes), r, sizes)
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
			w, err := s.steps.Walk(ctx, goal, pegs, q, l.Partitions, l.Records[q], set, marks[q], last)
			if err == nil && last {
				l.Won[q], l.Winnable[q] = true, w
				err = s.Dir.Save()
			}
			if err != nil {
				mem.Give(held)
				return err
			}
		}
		mem.Give(held)
	}
	return nil
}

// ranges cuts partitions of sizes[q] positions into ranges whose
// positions take at most half of what the budget has left (bytes tells
// what n of them take), a range of one partition where even that does
// not; one range of them all where they fit, none where there are none.
func (s *Spilled) ranges(sizes []int64, bytes func(n int64) int64) [][2]int {
	mem := s.steps.e.Mem()
	room := (mem.Limit() - mem.Used()) / 2
	if s.knobs.WalkRoom > 0 {
		room = min(room, s.knobs.WalkRoom)
	}
	n := total(sizes)
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

// DropLayers removes the partition files of layers 2 to p0 whose
// winnable positions are all written, on a goroutine of the directory's
// once the manifest's saves queued before are done (spill.Dir.RemoveLater),
// and returns at once: past the walk back a run reads them no more, nor
// does its resume, which reads the winnable and chance files and layer
// 1's (for the finishes). For a run that clears its directory at its
// end, so that their removal overlaps the chances.
func (s *Spilled) DropLayers(p0 int) error {
	var hs []spill.Header
	for pegs := 2; pegs <= p0; pegs++ {
		if l := s.Dir.M.Layers[pegs]; l != nil && l.AllWon() {
			for q := range l.Partitions {
				hs = append(hs, Header(spill.LayerFile, pegs, q, l.Partitions, 0))
			}
		}
	}
	return s.Dir.RemoveLater(hs)
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
	mem := s.steps.e.Mem()
	for pegs := 1; pegs <= p0; pegs++ {
		l := d.M.Layers[pegs]
		if l == nil || !l.AllWon() || total(l.Winnable) == 0 {
			return exact.U128{}, false, nil // none winnable here: none above either
		}
		ranges := [][2]int{{0, 0}}
		below := d.M.Layers[pegs-1]
		var sizes []int64
		if pegs > 1 {
			sizes = below.Winnable
			ranges = s.ranges(sizes, func(n int64) int64 { return n*24 + key.IndexBytes(int(n)) })
		}
		s.Passes = max(s.Passes, len(ranges))
		if s.Progress != nil {
			s.Progress("chance", pegs, 0, int(total(l.Winnable)))
		}
		for i, r := range ranges {
			prev, vals, held, err := s.steps.ChanceSet(ctx, pegs-1, len(sizes), r, sizes)
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
				if err = s.steps.Chance(ctx, pegs, q, l.Partitions, l.Winnable[q], index, vals, i == 0, i == len(ranges)-1); err != nil {
					break
				}
			}
			mem.Give(held)
			if err != nil {
				return exact.U128{}, false, err
			}
		}
		if below != nil {
			for q := range below.Partitions {
				if err := d.Remove(Header(spill.ChanceFile, pegs-1, q, below.Partitions, 0)); err != nil {
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
		_, vals, err := d.Read(Header(spill.ChanceFile, p0, q, l.Partitions, 0))
		if err != nil {
			return exact.U128{}, false, err
		}
		return vals[0], true, nil
	}
	return exact.U128{}, false, nil
}

// Load reads layer pegs whole, keys and counts, charged to the budget.
func (s *Spilled) Load(pegs int) (*layered.Layer, error) {
	l := s.Dir.M.Layers[pegs]
	if l == nil || !l.Done() {
		return nil, fmt.Errorf("spill: %s: layer %d is not complete", s.Dir.Path, pegs)
	}
	var keys []uint64
	var counts []exact.U128
	for q := range l.Partitions {
		k, c, err := s.Dir.Read(Header(spill.LayerFile, pegs, q, l.Partitions, 0))
		if err != nil {
			return nil, err
		}
		keys, counts = append(keys, k...), append(counts, c...)
	}
	out := layered.NewCounted(pegs, keys, counts)
	return out, s.steps.e.Mem().Take(out.Bytes(), "a spilled layer")
}
