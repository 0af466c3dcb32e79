package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"pegs/search/internal/kernel"
)

func init() {
	register.DoFn3x1[context.Context, string, func(int, int), error](&expandFn{})
	register.DoFn4x1[context.Context, int, func(*int) bool, func(string), error](&mergeFn{})
	register.DoFn3x1[context.Context, string, func(string), error](&goalFn{})
	register.DoFn3x1[context.Context, string, func(int, int), error](&parentsFn{})
	register.DoFn4x1[context.Context, int, func(*int) bool, func(string), error](&winMergeFn{})
	register.DoFn4x1[context.Context, string, func(*string) bool, func(string), error](&chanceFn{})
	register.Emitter1[string]()
	register.Emitter2[int, int]()
	register.Iter1[string]()
	register.Iter1[int]()
}

// The steps below run the steps of package partition (through kernel) on
// one partition each, over the run's store; the pipeline's elements are
// the paths of partitions, and between a layer's expansion and its merge,
// the sources of the runs written for each partition.

// expandFn expands a forward partition of Pegs pegs, with its path counts,
// into runs of children, one for each partition of the next layer (that
// partition's group), and emits every partition of the next layer with
// the source of each run written for it; it writes the partition's stats.
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

func (f *expandFn) ProcessElement(ctx context.Context, ref string, emit func(int, int)) error {
	if err := f.S.failOnce(f.Pegs); err != nil {
		return err
	}
	p, err := partOf(ref)
	if err != nil {
		return err
	}
	parts := f.S.parts()
	keys, counts, err := kernel.ReadPartition(ctx, f.st.store, kernel.PartitionHeader(kernel.LayerFile, f.Pegs, p, parts, 0))
	if err != nil {
		return err
	}
	steps, err := f.S.steps(f.st)
	if err != nil {
		return err
	}
	groups := parts
	if f.Pegs == 1 {
		groups = 0 // no children: the stats alone
	}
	stats, chunks, err := steps.Expand(ctx, kernel.NewCounted(f.Pegs, keys, counts), p, parts, groups, nil)
	if err != nil {
		return fmt.Errorf("expanding %s: %w", ref, err)
	}
	data, err := json.Marshal(layerStats{Positions: stats.Positions, Raw: stats.Raw, DeadEnds: stats.DeadEnds, Games: stats.Games, Peak: steps.Mem().Peak()})
	if err != nil {
		return err
	}
	if err := f.st.store.WriteFile(ctx, f.S.statsPath(f.Pegs, p), data); err != nil {
		return err
	}
	for t := range groups {
		for c := range chunks {
			emit(t, kernel.RunSource(p, c, parts))
		}
	}
	return nil
}

// mergeFn merges the runs of children for one partition of Pegs pegs
// into the partition, summing the path counts of a position found in
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

func (f *mergeFn) ProcessElement(ctx context.Context, t int, srcs func(*int) bool, emit func(string)) error {
	sources := sorted(srcs)
	steps, err := f.S.steps(f.st)
	if err != nil {
		return err
	}
	parts := f.S.parts()
	_, fanIn, err := steps.MergePlan(len(sources), 1, 0)
	if err != nil {
		return err
	}
	if _, _, err := steps.Merge(ctx, f.Pegs, t, parts, parts, sources, fanIn); err != nil {
		return fmt.Errorf("partition %d of %d pegs: %w", t, f.Pegs, err)
	}
	emit(f.st.store.Path(kernel.PartitionHeader(kernel.LayerFile, f.Pegs, t, parts, 0)))
	return nil
}

// goalFn keeps the positions of a forward partition of one peg that meet
// the goal (Walk at one peg), the winnable positions of one peg, and
// emits the path of the partition's winnable file.
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
	steps, err := f.S.steps(f.st)
	if err != nil {
		return err
	}
	if _, err := steps.Walk(ctx, f.st.prob.Goal, 1, t, f.S.parts(), -1, nil, nil, true); err != nil {
		return fmt.Errorf("the goal positions of %s: %w", ref, err)
	}
	emit(f.st.store.Path(kernel.PartitionHeader(kernel.WinnableFile, 1, t, f.S.parts(), 0)))
	return nil
}

// parentsFn undoes every jump into the winnable positions of a partition
// of Pegs pegs (Parents) and writes the parents found (of Pegs+1 pegs) as
// runs, one for each partition of the layer above; it emits every
// partition of the layer above with the source of its run, this
// partition.
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

func (f *parentsFn) ProcessElement(ctx context.Context, ref string, emit func(int, int)) error {
	src, err := partOf(ref)
	if err != nil {
		return err
	}
	parts := f.S.parts()
	win, _, err := kernel.ReadPartition(ctx, f.st.store, kernel.PartitionHeader(kernel.WinnableFile, f.Pegs, src, parts, 0))
	if err != nil {
		return err
	}
	steps, err := f.S.steps(f.st)
	if err != nil {
		return err
	}
	if err := steps.Parents(ctx, win, f.Pegs, src, parts); err != nil {
		return fmt.Errorf("undoing jumps into %s: %w", ref, err)
	}
	for t := range parts {
		emit(t, src)
	}
	return nil
}

// winMergeFn merges the runs of parents for one partition of Pegs pegs
// and keeps those that are reachable (Winnable): the partition's winnable
// positions; it emits the path of its winnable file.
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

func (f *winMergeFn) ProcessElement(ctx context.Context, t int, srcs func(*int) bool, emit func(string)) error {
	sources := sorted(srcs)
	steps, err := f.S.steps(f.st)
	if err != nil {
		return err
	}
	if _, err := steps.Winnable(ctx, f.Pegs, t, f.S.parts(), sources); err != nil {
		return fmt.Errorf("partition %d of %d pegs: %w", t, f.Pegs, err)
	}
	emit(f.st.store.Path(kernel.PartitionHeader(kernel.WinnableFile, f.Pegs, t, f.S.parts(), 0)))
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

func (f *chanceFn) ProcessElement(ctx context.Context, ref string, _ func(*string) bool, emit func(string)) error {
	t, err := partOf(ref)
	if err != nil {
		return err
	}
	steps, err := f.S.steps(f.st)
	if err != nil {
		return err
	}
	parts := f.S.parts()
	below := [2]int{0, parts}
	if f.Pegs == 1 {
		below = [2]int{0, 0}
	}
	prev, vals, held, err := steps.ChanceSet(ctx, f.Pegs-1, parts, below, nil)
	if err != nil {
		return err
	}
	defer steps.Mem().Give(held)
	var index *kernel.Index
	if f.Pegs > 1 {
		index = kernel.NewIndex(prev)
	}
	if err := steps.Chance(ctx, f.Pegs, t, parts, -1, index, vals, true, true); err != nil {
		return err
	}
	emit(f.st.store.Path(kernel.PartitionHeader(kernel.ChanceFile, f.Pegs, t, parts, 0)))
	return nil
}

// sorted returns the sources of a partition's runs grouped for it (a
// GroupByKey's values), in order.
func sorted(srcs func(*int) bool) []int {
	var sources []int
	var src int
	for srcs(&src) {
		sources = append(sources, src)
	}
	slices.Sort(sources)
	return sources
}
