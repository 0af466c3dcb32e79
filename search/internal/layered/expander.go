package layered

import (
	"context"
	"errors"
	"fmt"
	"math"

	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"
)

// Expander grows layers by one jump.
type Expander struct {
	Gen     *movegen.Gen
	Workers int
	Counts  bool // carry path counts
	// Pack, if set, is how positions and the starts that reach them are
	// packed in a search from several starts (see key.Packing).
	Pack *key.Packing
	// Within, if set, holds the keys (sorted) that the next layer keeps:
	// children with other keys are dropped as they come, before they take
	// room in a table. A search that counts only through known positions
	// (the winnable ones) sets it.
	Within []uint64
	// WithinCode, if set, is within for a stored layer: the tables are
	// seeded from its code, never decoded whole. Without counts or tags,
	// the tables are then keyed by the layer's packed words (the mixed key
	// shifted up; see packing), the order its code decodes in, so that
	// each table fills in order (see seedCoded); the layer found is turned
	// back into mixed keys.
	WithinCode *Stored
	// Seeded, if set, is called once the tables are Seeded from within
	// or withinCode, which expand does not read after that: the caller
	// may let them go.
	Seeded func()
	// Spent, if set, is called with a layer once its positions are
	// expanded, before its children are collected into the next layer,
	// which they are not needed for: a reachable-only search lets them go
	// there, before the layer's largest moment.
	Spent func(cur *Layer)
	// Undo makes the expander find parents instead of children: the jumps
	// that can be undone in a position are those legal in its complement,
	// and undoing one flips the same three holes as making it. (Its layer
	// stats then speak of the complements.)
	Undo bool
	// Code, if set, reports whether a layer of n bare keys, collected
	// from tables of tableBytes, is to be coded as it is collected (see
	// codeTables) rather than held as keys.
	Code func(n int, tableBytes int64) bool
	// Store is whether forward codes the layers it has expanded once the
	// keys it holds pass a share of the budget (Tuning.Share; see
	// Stored): they wait for the walk back in about a quarter of the
	// memory.
	Store bool
	Mem   *memory.Budget
	// Unsorted lets a layer found in a bitset (see expandDense) keep the
	// order of its numbers, marked Unsorted, rather than be sorted by key:
	// for a caller that only scans the layers it is given, or passes them
	// to functions of this package that sort what they must (ParentsOf,
	// SelfMeetingKeys, KeepFound, Layer.Store). Expanded in the order of their numbers, the
	// next layer's children come in runs that share cache lines, and the
	// sort is saved: the English winnable set ran in 725 ms for 841 ms
	// (see BenchmarkExplore).
	Unsorted bool
	// Bitsets keeps a layer found in bitsets as those bitsets, the
	// workers' merged, rather than as keys (see bitLayer): for a caller
	// that expands the layers, counts them and hands them to
	// SelfMeetingKeys and ParentsOf, which read the bitsets (the winnable
	// set: the English layer of 17 pegs is 9 MB of bits, 21 MB of keys).
	// Such a layer is expanded from its bits where its children are found
	// in bitsets too, and turned into unsorted keys where they are not. The French d3
	// count, whole group, so saves making, sorting and coding the keys of
	// each layer, and holds a layer in a third of their bytes.
	Bitsets bool
	// Tuning moves thresholds for tests; the zero value is the default.
	Tuning Tuning
	// Progress, if set, is called with the number of parents done so far.
	Progress func(done, total int)
	states   []*workerState
	// ratios holds, for each layer expanded forward, its distinct
	// children over its parents (see expect).
	ratios []float64
	// perParent is the children a parent had in the last round of 1024
	// parents or more (see jumpsPerParent); zero before one.
	perParent float64
	// noDense turns off the layers expanded into bitsets (see
	// expandDense): the board or the symmetries do not allow them, or a
	// layer was of two classes.
	noDense bool
	// scatterAt, if set, is the bytes of bitsets past which they are set
	// by scatter instead of scatterBytes (for tests).
	scatterAt int64
}

// jumpsPerParent returns the children a parent is expected to have in the
// next round: as many as in the last round (rounded up), and at least ten.
// Fewer would make a round of more parents, too many for its lists where
// the last round was of another kind (a walk back undoes fewer jumps).
func (e *Expander) jumpsPerParent() int {
	return max(10, int(math.Ceil(e.perParent)))
}

func (e *Expander) nworkers() int { return pool.Size(e.Workers) }

// keyShift returns how far up the tables' keys are shifted from the
// children's mixed keys: to their packed words where bare keys fill tables
// seeded from code (see withinCode), else not at all.
func (e *Expander) keyShift() uint {
	if e.WithinCode == nil || e.Counts || e.Pack != nil {
		return 0
	}
	return e.WithinCode.pk.Shift
}

// maxKeptLists is the most bytes of children's lists that workers keep
// for the next layer, and a sixteenth of the budget where that is less
// (but never under minKeptLists): larger ones are let go before a layer is
// collected, where the French board's widest layers would hold 2 GiB of
// them beside the tables and the layer collected from them (French d3
// within 6 GiB stopped there).
const (
	maxKeptLists = 1 << 30
	minKeptLists = 64 << 20
)

// roundRecords is the fewest children a round holds before they go into
// the buckets' tables: rounds grow with the layer (see roundSize).
const roundRecords = 1 << 23

// RoundSize returns the children a round of a layer of n parents holds:
// roundRecords, or an eighth of the layer's children (about ten a parent)
// when that is more, so a layer pauses between expanding and tabling about
// eight times at most; but the round's children may take at most an
// eighth of the memory budget. (Rounds of a fixed 4M or 2M children held
// less but ran up to 15% slower.)
func RoundSize(n int, recordBytes, budget int64) int {
	size := max(roundRecords, 10*n/8)
	return int(max(roundRecords, min(int64(size), budget/8/recordBytes)))
}

// Next expands cur into the layer with one peg fewer, and returns the stats
// of cur's positions.
//
// Parents are expanded in rounds. In a round, workers expand chunks of
// parents and append each child to a per-worker list for its bucket (the top
// bits of its mixed key); then each bucket's children go into its table of
// distinct children (bucketTable), buckets in parallel, so both phases
// touch memory in cache-sized pieces and no locks are taken.
func (e *Expander) Next(ctx context.Context, cur *Layer) (*Layer, Stats, error) {
	next, st, err := e.Grow(ctx, cur)
	// Say how far the search came.
	doing(err, fmt.Sprintf("finding the positions of %d pegs", cur.Pegs-1))
	return next, st, err
}

// doing notes on a memory error what the search was doing.
func doing(err error, what string) {
	if me, ok := errors.AsType[*memory.Error](err); ok && me.Doing == "" {
		me.Doing = what
	}
}

// Grow is Next without the note on a memory error.
func (e *Expander) Grow(ctx context.Context, cur *Layer) (*Layer, Stats, error) {
	if e.Counts && narrowEnough(cur, e.Tuning.narrowBelow()) {
		return expand(ctx, e, cur, func(w *workerState) *[][]paths { return &w.paths })
	}
	if e.Counts {
		return expand(ctx, e, cur, func(w *workerState) *[][]record { return &w.recs })
	}
	if e.Pack != nil {
		return expand(ctx, e, cur, func(w *workerState) *[][]packed { return &w.packs })
	}
	if d := e.denseFor(cur); d != nil {
		if next, st, ok, err := e.expandDense(ctx, cur, d); ok {
			return next, st, err
		}
	}
	if err := cur.Keyed(ctx, e.Workers, e.Mem); err != nil {
		return nil, Stats{}, err
	}
	return expand(ctx, e, cur, func(w *workerState) *[][]uint64 { return &w.keys })
}

// Expect returns how many distinct children n parents are expected to have,
// for sizing the tables: the last layer's ratio of children to parents,
// times that ratio's last change where it fell (the ratio falls layer by
// layer past the first few), or 1.5 a parent before two layers are known.
// Too low an estimate costs only time, the tables that pass maxLoad
// doubling.
func (e *Expander) Expect(n int) int {
	r := e.ratios
	if len(r) < 2 {
		return 3 * n / 2
	}
	a, b := r[len(r)-1], r[len(r)-2]
	return int(float64(n) * a * min(1, a/b))
}
