package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"pegs/search"
	"pegs/search/cluster/internal/part"
	"pegs/search/internal/kernel"
)

// PlanLayer is a plan's estimate for the positions of one peg count.
type PlanLayer struct {
	Pegs      int
	Positions int64
	Exact     bool  // found by running the layer, not extrapolated
	Disk      int64 // bytes of the layer's partitions (keys with path counts)
	Shuffle   int64 // bytes of the buckets of children that make the layer
	Step      int64 // memory of expanding the layer above into it, all partitions together
	Workers   int   // workers of the plan's memory that expand it in one wave
}

// Plan estimates a run before it starts: per layer the positions, the
// bytes on disk and through the shuffle, and the memory of its steps; and
// the partitions and workers of a given memory the run needs.
type Plan struct {
	Layers    []PlanLayer
	Sampled   int   // layers expanded exactly
	WorkerMem int64 // the memory of a worker
	Parts     int   // partitions a layer needs for its widest step to fit a worker
	Workers   int   // workers to expand the widest layer in one wave
	Disk      int64 // the forward partitions of every layer, the most a run holds at once
	// What the extrapolation goes by, measured on the sample.
	RecordBytes  float64 // bytes of a position with its count in a partition file
	ShuffleRatio float64 // bucket records over the next layer's positions
	StepBytes    float64 // step memory per position found
}

// stepShare is the share of a worker's memory a step may plan to take.
const stepShare = 0.5

// NewPlan runs the first layers of prob's forward pass exactly (sample of
// them, or, with sample zero, as many as run within a few seconds, at
// least three where there are), and extrapolates the rest: the logarithm
// of a layer's growth falls by as much as it last fell, and no layer
// holds more positions than the board has positions of its peg count.
func NewPlan(ctx context.Context, prob search.Problem, opt Options, workerMem int64, sample int) (*Plan, error) {
	if workerMem <= 0 {
		return nil, errors.New("a plan needs a worker's memory")
	}
	group := search.ExploreGroup(prob, opt.ExploreOptions)
	gen := kernel.NewGen(prob.Board, group)
	p0 := prob.Start.Pegs()
	pl := &Plan{WorkerMem: workerMem}
	first := kernel.First(group, prob.Start, true)
	var steps []int64    // the step memory of each expansion sampled
	var bucketRecs int64 // bucket records of the expansions sampled
	var found int64      // positions they found
	expander := func() (*kernel.Expander, error) {
		return kernel.NewExpander(kernel.Paths, kernel.Setup{Gen: gen, Mem: kernel.NewBudget(opt.stepMemory()), Workers: opt.Workers})
	}
	more := func(run int, elapsed time.Duration) bool {
		if sample > 0 {
			return run < sample
		}
		return run < 3 || elapsed < 3*time.Second
	}
	sizes, biggest, err := kernel.SampleLayers(ctx, first, expander, more, func(e *kernel.Expander, cur, next *kernel.Layer) error {
		steps = append(steps, e.Mem().Peak())
		// The pipeline's buckets: each partition's distinct children.
		for _, r := range splitLayer(cur, 16) {
			pe, err := expander()
			if err != nil {
				return err
			}
			pn, _, err := pe.Next(ctx, r)
			if err != nil {
				return err
			}
			bucketRecs += int64(pn.Len())
		}
		found += int64(next.Len())
		return nil
	})
	if err != nil {
		return nil, err
	}
	pl.Sampled = len(sizes) - 1
	if found > 0 {
		pl.ShuffleRatio = float64(bucketRecs) / float64(found)
		pl.StepBytes = float64(steps[len(steps)-1]) / float64(sizes[len(sizes)-1])
	}
	if pl.RecordBytes, err = recordBytes(biggest); err != nil {
		return nil, err
	}
	pl.extrapolate(prob, group.Len(), p0, sizes)
	var widest int64
	for i := range pl.Layers {
		l := &pl.Layers[i]
		l.Disk = int64(float64(l.Positions) * pl.RecordBytes)
		if i > 0 {
			l.Shuffle = int64(float64(l.Positions) * pl.ShuffleRatio * pl.RecordBytes)
			l.Step = int64(float64(l.Positions) * pl.StepBytes)
		}
		l.Workers = int(math.Ceil(float64(l.Step) / (float64(workerMem) * stepShare)))
		pl.Workers = max(pl.Workers, l.Workers)
		widest = max(widest, l.Step)
		pl.Disk += l.Disk
	}
	pl.Parts = 1
	for float64(widest)/float64(pl.Parts) > float64(workerMem)*stepShare && pl.Parts < 1<<16 {
		pl.Parts *= 2
	}
	return pl, nil
}

// extrapolate fills the plan's layers from the sizes found exactly (from
// p0 pegs down; see partition.Extrapolate).
func (pl *Plan) extrapolate(prob search.Problem, symmetries, p0 int, sizes []int64) {
	for i, n := range kernel.Extrapolate(prob.Board.Holes(), symmetries, p0, sizes) {
		pl.Layers = append(pl.Layers, PlanLayer{Pegs: p0 - i, Positions: n, Exact: i < len(sizes)})
	}
}

// splitLayer returns l split into its partitions of parts.
func splitLayer(l *kernel.Layer, parts int) []*kernel.Layer {
	bits := uint(math.Log2(float64(parts)))
	b := part.Split(l.Keys(), bits)
	var out []*kernel.Layer
	m := l.Wide()
	for t := range parts {
		if b[t] < b[t+1] {
			out = append(out, kernel.NewCounted(l.Pegs(), l.Keys()[b[t]:b[t+1]], m[b[t]:b[t+1]]))
		}
	}
	return out
}

// recordBytes measures the bytes a position with its count takes in a
// partition file, on layer l written as one partition.
func recordBytes(l *kernel.Layer) (float64, error) {
	if l.Len() == 0 {
		return 0, fmt.Errorf("plan: no positions to measure")
	}
	return kernel.FileBytes(l)
}

// Totals returns the plan's positions over all layers, those of its widest
// layer and the bytes through the shuffle over all layers.
func (pl *Plan) Totals() (positions, widest, shuffle int64) {
	for _, l := range pl.Layers {
		positions += l.Positions
		widest = max(widest, l.Positions)
		shuffle += l.Shuffle
	}
	return positions, widest, shuffle
}
