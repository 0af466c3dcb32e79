package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"pegs/engine"
	"pegs/search/cluster/internal/part"
	"pegs/search/internal/kernel"
)

func init() {
	register.DoFn3x1[context.Context, string, func(int, string), error](&expandFn{})
	register.DoFn4x1[context.Context, int, func(*string) bool, func(string), error](&mergeFn{})
	register.DoFn3x1[context.Context, string, func(string), error](&goalFn{})
	register.DoFn3x1[context.Context, string, func(int, string), error](&parentsFn{})
	register.DoFn4x1[context.Context, int, func(*string) bool, func(string), error](&winMergeFn{})
	register.DoFn4x1[context.Context, string, func(*string) bool, func(string), error](&chanceFn{})
	register.Emitter1[string]()
	register.Emitter2[int, string]()
	register.Iter1[string]()
}

// expandFn expands a forward partition of Pegs pegs, with its path counts,
// into buckets of children by the partition that owns them; it emits
// every partition of the next layer with its bucket from this one ("" for
// none) and writes the partition's stats.
type expandFn struct {
	S    Spec
	Pegs int
	st   *step
}

func (f *expandFn) Setup(ctx context.Context) (err error) {
	f.st, err = f.S.setup(ctx)
	return err
}

func (f *expandFn) Teardown() { f.st.close() }

func (f *expandFn) ProcessElement(ctx context.Context, ref string, emit func(int, string)) error {
	if err := f.S.failOnce(f.Pegs); err != nil {
		return err
	}
	src, err := partOf(ref)
	if err != nil {
		return err
	}
	p, err := part.Read(ctx, f.st.fs, ref, f.S.header(kindFwd, f.Pegs, src))
	if err != nil {
		return err
	}
	e, err := f.S.expander(f.st.gen, kernel.Paths)
	if err != nil {
		return err
	}
	next, stats, err := e.Next(ctx, kernel.NewCounted(f.Pegs, p.Keys, p.Vals))
	if err != nil {
		return fmt.Errorf("expanding %s: %w", ref, err)
	}
	data, err := json.Marshal(layerStats{Positions: stats.Positions, Raw: stats.Raw, DeadEnds: stats.DeadEnds, Games: stats.Games, Peak: e.Mem().Peak()})
	if err != nil {
		return err
	}
	if err := part.WriteFile(ctx, f.st.fs, f.S.statsPath(f.Pegs, src), data); err != nil {
		return err
	}
	if f.Pegs == 1 {
		return nil // no children
	}
	return f.S.emitBuckets(ctx, f.st, kindFwd, f.Pegs-1, src, part.Part{Keys: next.Keys(), Vals: next.Wide()}, emit)
}

// emitBuckets writes the positions of p (sorted) by the partition of pegs
// pegs that owns them, as buckets from partition src, and emits each
// partition with its bucket, or "" where it has none.
func (s Spec) emitBuckets(ctx context.Context, st *step, kind string, pegs, src int, p part.Part, emit func(int, string)) error {
	bounds := part.Split(p.Keys, uint(s.Bits))
	for t := range 1 << s.Bits {
		lo, hi := bounds[t], bounds[t+1]
		if lo == hi {
			emit(t, "")
			continue
		}
		b := part.Part{Keys: p.Keys[lo:hi]}
		if p.Vals != nil {
			b.Vals = p.Vals[lo:hi]
		}
		path := s.bucket(kind, pegs, t, src)
		h, err := s.bucketHeader(kind, pegs, path)
		if err != nil {
			return err
		}
		if err := part.Write(ctx, st.fs, path, h, b); err != nil {
			return err
		}
		emit(t, path)
	}
	return nil
}

// mergeFn merges the buckets of children for one partition of Pegs pegs
// into the partition, summing the path counts of a position found from
// several, and emits the partition's path.
type mergeFn struct {
	S    Spec
	Pegs int
	st   *step
}

func (f *mergeFn) Setup(ctx context.Context) (err error) {
	f.st, err = f.S.setup(ctx)
	return err
}

func (f *mergeFn) Teardown() { f.st.close() }

func (f *mergeFn) ProcessElement(ctx context.Context, t int, refs func(*string) bool, emit func(string)) error {
	m, err := f.S.buckets(ctx, f.st, kindFwd, f.Pegs, refs)
	if err != nil {
		return err
	}
	defer m.Close()
	path := f.S.path(kindFwd, f.Pegs, t)
	err = part.WriteFunc(ctx, f.st.fs, path, f.S.header(kindFwd, f.Pegs, t), func(w *kernel.SpillWriter) error {
		for m.Next() {
			if err := w.Add(m.Key(), m.Val()); err != nil {
				return err
			}
		}
		return m.Err()
	})
	if err != nil {
		return fmt.Errorf("partition %d of %d pegs: %w", t, f.Pegs, err)
	}
	emit(path)
	return nil
}

// buckets opens the buckets refs (of kind, for a partition of pegs pegs;
// "" for none) as one sorted stream.
func (s Spec) buckets(ctx context.Context, st *step, kind string, pegs int, refs func(*string) bool) (*part.Merger, error) {
	var paths []string
	var headers []kernel.SpillHeader
	var ref string
	for refs(&ref) {
		if ref == "" {
			continue
		}
		h, err := s.bucketHeader(kind, pegs, ref)
		if err != nil {
			return nil, err
		}
		paths, headers = append(paths, ref), append(headers, h)
	}
	return part.NewMerger(ctx, st.fs, paths, headers)
}

// goalFn keeps the positions of a forward partition of one peg that meet
// the goal: the winnable positions of one peg.
type goalFn struct {
	S  Spec
	st *step
}

func (f *goalFn) Setup(ctx context.Context) (err error) {
	f.st, err = f.S.setup(ctx)
	return err
}

func (f *goalFn) Teardown() { f.st.close() }

func (f *goalFn) ProcessElement(ctx context.Context, ref string, emit func(string)) error {
	t, err := partOf(ref)
	if err != nil {
		return err
	}
	p, err := part.Read(ctx, f.st.fs, ref, f.S.header(kindFwd, 1, t))
	if err != nil {
		return err
	}
	goal, group := f.st.prob.Goal, f.st.gen.Group
	var keys []uint64
	for _, k := range p.Keys {
		// As layered.WalkBack takes the goal positions.
		if goal.Reached(kernel.Unmix(k)) || goal.Kind == engine.OnePegAt && group.Canonical(kernel.Unmix(k)) == group.Canonical(1<<uint(goal.Hole)) {
			keys = append(keys, k)
		}
	}
	path := f.S.path(kindWin, 1, t)
	if err := part.Write(ctx, f.st.fs, path, f.S.header(kindWin, 1, t), part.Part{Keys: keys}); err != nil {
		return err
	}
	emit(path)
	return nil
}

// parentsFn undoes every jump into the winnable positions of a partition
// of Pegs pegs, and writes the parents found (of Pegs+1 pegs) as buckets
// by the partition that owns them; it emits every partition of the layer
// above with its bucket from this one ("" for none).
type parentsFn struct {
	S    Spec
	Pegs int
	st   *step
}

func (f *parentsFn) Setup(ctx context.Context) (err error) {
	f.st, err = f.S.setup(ctx)
	return err
}

func (f *parentsFn) Teardown() { f.st.close() }

func (f *parentsFn) ProcessElement(ctx context.Context, ref string, emit func(int, string)) error {
	src, err := partOf(ref)
	if err != nil {
		return err
	}
	p, err := part.Read(ctx, f.st.fs, ref, f.S.header(kindWin, f.Pegs, src))
	if err != nil {
		return err
	}
	var parents []uint64
	if len(p.Keys) > 0 {
		// As layered.ParentsOf undoes jumps, without the tables closed on
		// the reachable layer: the merge keeps the reachable parents.
		e, err := f.S.expander(f.st.gen, kernel.Parents)
		if err != nil {
			return err
		}
		found, _, err := e.Grow(ctx, kernel.NewLayer(f.Pegs+2, p.Keys))
		if err != nil {
			return fmt.Errorf("undoing jumps into %s: %w", ref, err)
		}
		parents = found.Keys()
	}
	return f.S.emitBuckets(ctx, f.st, kindWin, f.Pegs+1, src, part.Part{Keys: parents}, emit)
}

// winMergeFn merges the buckets of parents for one partition of Pegs pegs
// and keeps those that are reachable: the partition's winnable positions.
type winMergeFn struct {
	S    Spec
	Pegs int
	st   *step
}

func (f *winMergeFn) Setup(ctx context.Context) (err error) {
	f.st, err = f.S.setup(ctx)
	return err
}

func (f *winMergeFn) Teardown() { f.st.close() }

func (f *winMergeFn) ProcessElement(ctx context.Context, t int, refs func(*string) bool, emit func(string)) error {
	m, err := f.S.buckets(ctx, f.st, kindWin, f.Pegs, refs)
	if err != nil {
		return err
	}
	defer m.Close()
	var win []uint64
	if m.Next() {
		// The parents found that are reachable, as key.Intersect, the
		// reachable partition read a block at a time.
		path := f.S.path(kindFwd, f.Pegs, t)
		reach, err := part.NewMerger(ctx, f.st.fs, []string{path}, []kernel.SpillHeader{f.S.header(kindFwd, f.Pegs, t)})
		if err != nil {
			return err
		}
		defer reach.Close()
		more := reach.Next()
		for ok := true; ok && more; ok = m.Next() {
			k := m.Key()
			for more && reach.Key() < k {
				more = reach.Next()
			}
			if more && reach.Key() == k {
				win = append(win, k)
			}
		}
		if err := reach.Err(); err != nil {
			return err
		}
	}
	if err := m.Err(); err != nil {
		return err
	}
	path := f.S.path(kindWin, f.Pegs, t)
	if err := part.Write(ctx, f.st.fs, path, f.S.header(kindWin, f.Pegs, t), part.Part{Keys: win}); err != nil {
		return err
	}
	emit(path)
	return nil
}

// chanceFn finds the random player's chance of winning from each winnable
// position of a partition of Pegs pegs, from those of the whole layer
// below (prev: every partition's path; read from storage).
type chanceFn struct {
	S    Spec
	Pegs int
	st   *step
}

func (f *chanceFn) Setup(ctx context.Context) (err error) {
	f.st, err = f.S.setup(ctx)
	return err
}

func (f *chanceFn) Teardown() { f.st.close() }

func (f *chanceFn) ProcessElement(ctx context.Context, ref string, prev func(*string) bool, emit func(string)) error {
	t, err := partOf(ref)
	if err != nil {
		return err
	}
	p, err := part.Read(ctx, f.st.fs, ref, f.S.header(kindWin, f.Pegs, t))
	if err != nil {
		return err
	}
	var below []uint64
	var vals []kernel.U128
	if f.Pegs > 1 {
		var refs []string
		var r string
		for prev(&r) {
			refs = append(refs, r)
		}
		slices.Sort(refs) // partition order: key order
		below = []uint64{}
		for _, r := range refs {
			u, err := partOf(r)
			if err != nil {
				return err
			}
			b, err := part.Read(ctx, f.st.fs, r, f.S.header(kindChance, f.Pegs-1, u))
			if err != nil {
				return err
			}
			below = append(below, b.Keys...)
			vals = append(vals, b.Vals...)
		}
	}
	out := part.Part{Keys: p.Keys, Vals: []kernel.U128{}}
	if len(p.Keys) > 0 {
		if out.Vals = kernel.Chances(ctx, f.st.gen, p.Keys, below, vals, f.S.Workers); out.Vals == nil {
			return ctx.Err()
		}
	}
	path := f.S.path(kindChance, f.Pegs, t)
	if err := part.Write(ctx, f.st.fs, path, f.S.header(kindChance, f.Pegs, t), out); err != nil {
		return err
	}
	emit(path)
	return nil
}
