package partition

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"time"

	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/spill"
)

// Extrapolate returns the positions of each layer of a forward pass from
// p0 pegs down to one, given the sizes of its first layers found exactly
// (sizes[0] the start's layer, of p0 pegs) on a board of holes holes
// reduced by a group of symmetries elements: the logarithm of a layer's
// growth falls by as much as it last fell, and no layer holds more
// positions than the board has positions of its peg count. A last exact
// size of zero ends the pass: the layers returned stop before it.
func Extrapolate(holes, symmetries, p0 int, sizes []int64) []int64 {
	out := slices.Clone(sizes)
	if len(out) == 0 {
		return nil
	}
	if out[len(out)-1] == 0 {
		return out[:len(out)-1]
	}
	// The growth's logarithm, and how much it last fell.
	var q, d float64
	if k := len(sizes); k >= 2 {
		q = math.Log(float64(sizes[k-1]) / float64(sizes[k-2]))
	}
	if k := len(sizes); k >= 3 {
		d = q - math.Log(float64(sizes[k-2])/float64(sizes[k-3]))
	}
	last := float64(sizes[len(sizes)-1])
	for pegs := p0 - len(sizes); pegs >= 1; pegs-- {
		q += d
		last *= math.Exp(q)
		last = max(1, min(last, mostPositions(holes, symmetries, pegs)))
		out = append(out, int64(last))
	}
	return out
}

// mostPositions bounds the positions of pegs pegs on a board of holes
// holes up to a group of symmetries elements: the board's positions of
// that many pegs over the group's size, and one for the rounding.
func mostPositions(holes, symmetries, pegs int) float64 {
	n, _ := new(big.Float).SetInt(new(big.Int).Binomial(int64(holes), int64(pegs))).Float64()
	return n/float64(symmetries) + 1
}

// DiskEstimate is what estimateDisk found: the bytes a spilled run needs
// on disk at its fullest, and what the estimate goes by.
type DiskEstimate struct {
	Need int64
	// Exact counts the layers run in memory to measure the growth, Layers
	// the layers of the whole pass (exact and extrapolated); Complete is
	// set when the sample ran the whole pass, so the sizes are exact.
	Exact, Layers int
	Complete      bool
	// PerPosition is the bytes a position takes in a layer's file with
	// its count, measured on the largest layer run.
	PerPosition float64
}

// estimateDisk estimates the most a spilled forward pass from first (one
// position with its count) holds on disk (see runBytes), at as many bytes
// a position as a file of the largest layer run takes. It runs the first layers in memory, within half of what the
// budget has left, for about within (at least three layers where there
// are), and extrapolates the rest (see Extrapolate); where fits is set,
// it ends the sample early once fits says yes to the estimate from the
// layers run so far (from the third on). The walk back's
// winnable files hold fewer positions than the forward files and no
// counts; they and the random player's chance files come on top.
func (s *Spilled) estimateDisk(ctx context.Context, first *layered.Layer, within time.Duration, fits func(need int64) bool) (DiskEstimate, error) {
	var est DiskEstimate
	e := s.steps.e
	g := e.Gen()
	room := (e.Mem().Limit() - e.Mem().Used()) / 2
	expander := func() (*layered.Expander, error) {
		return layered.NewExpander(layered.Paths, layered.Setup{Gen: g, Mem: memory.New(room), Workers: e.Workers()})
	}
	fit := false
	more := func(run int, elapsed time.Duration) bool { return run < 3 || elapsed < within && !fit }
	var visit func(e *layered.Expander, cur, next *layered.Layer) error
	if fits != nil {
		sizes, biggest := []int64{int64(first.Len())}, first
		visit = func(_ *layered.Expander, _, next *layered.Layer) error {
			sizes = append(sizes, int64(next.Len()))
			if next.Len() > biggest.Len() {
				biggest = next
			}
			if len(sizes) < 4 || next.Len() == 0 {
				return nil
			}
			per, err := FileBytes(biggest)
			if err != nil {
				return err
			}
			fit = fits(runBytes(per, Extrapolate(g.Board.Holes(), g.Group.Len(), first.Pegs(), sizes), s.Partitions))
			return nil
		}
	}
	sizes, biggest, err := SampleLayers(ctx, first, expander, more, visit)
	if err != nil {
		return est, err
	}
	est.Exact = len(sizes)
	est.Complete = first.Pegs()-len(sizes)+1 == 1 || sizes[len(sizes)-1] == 0
	if est.PerPosition, err = FileBytes(biggest); err != nil {
		return est, err
	}
	layers := Extrapolate(g.Board.Holes(), g.Group.Len(), first.Pegs(), sizes)
	est.Layers = len(layers)
	est.Need = runBytes(est.PerPosition, layers, s.Partitions)
	return est, nil
}

// CheckRunDisk refuses, with a *spill.NoSpaceError, a spilled run from
// first that would not fit the free space of its directory's file system:
// at once where even layers as large as the board allows would fit (32
// bytes a position, the most a key and its count take), else by the
// estimate of estimateDisk (its sample run for about within, or until
// its estimate is half the free space or less: a run with room to spare
// is not held up).
func (s *Spilled) CheckRunDisk(ctx context.Context, first *layered.Layer, within time.Duration) error {
	free := s.knobs.Free
	if free <= 0 {
		var err error
		if free, err = s.Dir.Free(); err != nil {
			return err
		}
	}
	g := s.steps.e.Gen()
	var most []int64
	for pegs := first.Pegs(); pegs >= 1; pegs-- {
		most = append(most, int64(min(mostPositions(g.Board.Holes(), g.Group.Len(), pegs), 1<<50)))
	}
	if runBytes(32, most, s.Partitions) <= free {
		return nil
	}
	est, err := s.estimateDisk(ctx, first, within, func(need int64) bool { return need <= free/2 })
	if err != nil {
		return err
	}
	what := "the run"
	if !est.Complete {
		what = fmt.Sprintf("the run (extrapolated from its first %d of %d layers)", est.Exact, est.Layers)
	}
	if est.Need > free {
		return &spill.NoSpaceError{Path: s.Dir.Path, Free: free, Need: est.Need, What: what, Bound: true}
	}
	return nil
}

// runBytes returns a bound on the most a spilled run holds on disk, its
// layers of sizes positions at perPosition bytes each, in files of which
// each takes whole blocks (partitions returning a layer's partition
// count): every layer's partitions, held until the walk back is done
// (to the end where the run keeps its files: DropLayers); the walk
// back's winnable and chance files, of no more positions than the layer
// and no more bytes a position; and the runs of the widest layer as it is
// merged, which hold each of its positions about once for every partition
// above that reaches it (twice the layer, as the per-layer check,
// checkDisk, reckons), and as much again in intermediate runs where the
// merge takes passes (see Spilled.merge). TestSpillDiskEstimate measures
// its margin over a run's peak.
func runBytes(perPosition float64, sizes []int64, partitions func(n int64) int) int64 {
	var total, widest, files, runFiles int64
	for i, n := range sizes {
		total += n
		parts := int64(partitions(n))
		files += 3 * parts
		if n > widest && i > 0 {
			widest = n
			runFiles = 2 * int64(partitions(sizes[i-1])) * int64(runGroups(int(parts)))
		}
	}
	return int64(perPosition*float64(3*total+4*widest)) + spillBlock*(files+runFiles)
}

// spillBlock is the block a file system gives a file: a small file takes
// a whole one.
const spillBlock = 4096

// SampleLayers runs the forward pass from first (with its counts) in
// memory, each layer by a fresh Expander from expander, while more says
// to go on, given the layers run so far and the time since the first; a
// layer past its Expander's budget ends the sample, as does an empty one.
// visit, if set, sees each expansion as it is done. It returns the sizes of
// the layers found (first's included) and the largest of them.
func SampleLayers(ctx context.Context, first *layered.Layer, expander func() (*layered.Expander, error), more func(run int, elapsed time.Duration) bool, visit func(e *layered.Expander, cur, next *layered.Layer) error) ([]int64, *layered.Layer, error) {
	cur, biggest := first, first
	sizes := []int64{int64(first.Len())}
	t0 := time.Now()
	for cur.Pegs() > 1 && more(len(sizes)-1, time.Since(t0)) {
		e, err := expander()
		if err != nil {
			return nil, nil, err
		}
		next, _, err := e.Next(ctx, cur)
		if errors.Is(err, memory.ErrExceeded) {
			break // the rest is extrapolated
		}
		if err != nil {
			return nil, nil, err
		}
		if visit != nil {
			if err := visit(e, cur, next); err != nil {
				return nil, nil, err
			}
		}
		sizes = append(sizes, int64(next.Len()))
		if next.Len() == 0 {
			break
		}
		if next.Len() > biggest.Len() {
			biggest = next
		}
		cur = next
	}
	return sizes, biggest, nil
}

// fileBytes returns the bytes a position with its count takes in a layer
// file, measured by writing l as one partition to nowhere.
func FileBytes(l *layered.Layer) (float64, error) {
	var n countWriter
	w, err := spill.NewWriter(&n, "(measure)", Header(spill.LayerFile, l.Pegs(), 0, 1, 0))
	if err != nil {
		return 0, err
	}
	for i, k := range l.Keys() {
		if err := w.Add(k, l.Count(i)); err != nil {
			return 0, err
		}
	}
	if err := w.Commit(); err != nil {
		return 0, err
	}
	return float64(n) / float64(max(1, l.Len())), nil
}

// countWriter counts the bytes written to it.
type countWriter int64

func (c *countWriter) Write(b []byte) (int, error) {
	*c += countWriter(len(b))
	return len(b), nil
}
