package layered

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"
)

// Purpose is what an Expander's layers are for: it fixes what a layer
// carries and how it is held (see the package documentation, "Purposes").
type Purpose int

const (
	// Positions: each layer's positions alone, as sorted keys.
	Positions Purpose = iota
	// Scanned: the positions alone, for a caller that only scans the
	// layers or hands them to this package's functions (Games, ParentsOf,
	// SelfMeetingKeys, Layer.Store, Reach), which sort or read what they
	// must. A layer found in bitsets stays as them, the workers' merged
	// (see bitLayer), and is expanded from its bits where its children are
	// found in bitsets too; where they are not, it is turned into keys in
	// the order of their numbers (see Layer.Sort). The English winnable
	// set so ran in 725 ms for 841 ms sorted, and holds its layer of 17
	// pegs in 9 MB of bits for 21 MB of keys; the French d3 count, whole
	// group, saves making, sorting and coding each layer's keys and holds
	// a layer in a third of their bytes (see BenchmarkExplore).
	Scanned
	// Paths: the positions with the number of paths to each from the
	// first layer's (Layer.Count).
	Paths
	// Tagged: packed words of positions and the starts that reach them,
	// in a search from several starts (Setup.Packing; see key.Packing).
	Tagged
	// Parents: a layer's parents (of one peg more) rather than its
	// children, found by undoing jumps: the jumps that can be undone in a
	// position are those legal in its complement, and undoing one flips
	// the same three holes as making it. Its stats speak of the
	// complements.
	Parents
)

var purposeNames = [...]string{Positions: "positions", Scanned: "scanned", Paths: "paths", Tagged: "tagged", Parents: "parents"}

func (p Purpose) String() string {
	if p < 0 || int(p) >= len(purposeNames) {
		return fmt.Sprintf("Purpose(%d)", int(p))
	}
	return purposeNames[p]
}

// Setup is what NewExpander builds an Expander from besides its purpose.
type Setup struct {
	Gen     *movegen.Gen   // the board's moves and symmetries; required
	Mem     *memory.Budget // the budget the layers are charged to; required
	Workers int            // the pool's size; zero means GOMAXPROCS
	Tuning  Tuning         // thresholds tests move; the zero value is the default
	// Packing is how a Tagged expander packs positions with the starts
	// that reach them: required there, and for no other purpose.
	Packing *key.Packing
	// Store makes Forward code the layers it has expanded once the keys
	// it holds pass a share of the budget (Tuning.Share; see Stored): they
	// wait for the walk back in about a quarter of the memory. For
	// Positions, Scanned and Paths.
	Store bool
}

// ErrSetup reports an Expander asked for with a setup its purpose does not
// take.
var ErrSetup = errors.New("an expander's setup does not fit its purpose")

// NewExpander returns an Expander for purpose p with setup s, or an error
// wrapping ErrSetup where s does not fit p.
func NewExpander(p Purpose, s Setup) (*Expander, error) {
	bad := func(why string) (*Expander, error) {
		return nil, fmt.Errorf("%w: %v expander %s", ErrSetup, p, why)
	}
	switch {
	case p < Positions || p > Parents:
		return bad("of no purpose")
	case s.Gen == nil || s.Mem == nil:
		return bad("without a move generator or a memory budget")
	case (s.Packing != nil) != (p == Tagged):
		return bad("packing (only a tagged one packs, and it must)")
	case s.Store && (p == Tagged || p == Parents):
		return bad("storing its layers")
	}
	return &Expander{purpose: p, gen: s.Gen, mem: s.Mem, workers: s.Workers, tuning: s.Tuning, pack: s.Packing, store: s.Store,
		counts: p == Paths, undo: p == Parents, unsortedKeys: p == Scanned, bitsets: p == Scanned}, nil
}

// Expander grows layers by one jump, for one Purpose. Its mode is fixed
// when it is built (NewExpander); between layers a caller sets only what
// it hears of progress (SetProgress) and, where it counts paths through
// known positions, the layer it keeps to (NextWithin).
type Expander struct {
	purpose Purpose
	gen     *movegen.Gen
	workers int
	counts  bool // carry path counts (Paths)
	// pack, if set, is how positions and the starts that reach them are
	// packed in a search from several starts (Tagged; see key.Packing).
	pack *key.Packing
	// within, if set, holds the keys (sorted) that the next layer keeps:
	// children with other keys are dropped as they come, before they take
	// room in a table. A search that counts only through known positions
	// (the winnable ones) sets it (NextWithin), as the walk back does.
	within []uint64
	// withinCode, if set, is within for a stored layer: the tables are
	// seeded from its code, never decoded whole. Without counts or tags,
	// the tables are then keyed by the layer's packed words (the mixed key
	// shifted up; see packing), the order its code decodes in, so that
	// each table fills in order (see seedCoded); the layer found is turned
	// back into mixed keys.
	withinCode *Stored
	// slices (a power of two; 0 or 1 for all), if set, cuts the mixed
	// keys into ranges by their top log2(slices) bits, and the next layer
	// keeps the children of slices lo to hi-1 alone, a part of it: the
	// others are dropped as they are found (NextPart, NextPartSorted).
	// An expansion's buckets are then whole slices.
	slices, lo, hi int
	// sorted, if set, takes the tables in place of the layer collected
	// from them (NextPartSorted).
	sorted **Sorted
	// seeded, if set, is called once the tables are seeded from within
	// or withinCode, which expand does not read after that: the caller
	// may let them go.
	seeded func()
	// spent, if set, is called with a layer once its positions are
	// expanded, before its children are collected into the next layer,
	// which they are not needed for: a reachable-only search lets them go
	// there, before the layer's largest moment.
	spent func(cur *Layer)
	// undo makes the expander find parents instead of children (Parents).
	undo bool
	// code, if set, reports whether a layer of n bare keys, collected
	// from tables of tableBytes, is to be coded as it is collected (see
	// codeTables) rather than held as keys. Forward and Reach set it.
	code func(n int, tableBytes int64) bool
	// store is Setup.Store.
	store bool
	mem   *memory.Budget
	// unsortedKeys lets a layer found in a bitset (see expandDense) keep
	// the order of its numbers, marked unsorted, rather than be sorted by
	// key; bitsets keeps it as those bitsets rather than as keys (see
	// bitLayer). Both are Scanned's. Expanded in the order of their
	// numbers, the next layer's children come in runs that share cache
	// lines, and the sort is saved.
	unsortedKeys bool
	bitsets      bool
	tuning       Tuning
	// progress, if set, is called with the number of parents done so far.
	progress func(done, total int)
	states   []*workerState
	// keptLists is the workers' lists that states keep from the last
	// expansion for the next, charged to mem and kept there (see
	// expansion.free), nil when none are: they are the process's memory
	// all the same (up to a sixteenth of the budget, 64 MiB at least,
	// held uncharged between expansions, took a spilled run's memory that
	// far past its budget), and mem lets them go where it is short.
	keptLists *memory.Kept
	// ratios holds, for each layer expanded forward, its distinct
	// children over its parents (see expect).
	ratios []float64
	// partsOf is the layer being expanded in parts (NextPart), nil when
	// none is; partKids is the children its parts found so far, and
	// partShare the share of its children those parts were (a part of
	// parts is 1/parts). They size the tables of its next part, and give
	// its ratio once its last part is done (see expectChildren).
	partsOf   *Layer
	partKids  int
	partShare float64
	// perParent is the children a parent had in the last round of 1024
	// parents or more (see jumpsPerParent); zero before one.
	perParent float64
	// noDense turns off the layers expanded into bitsets (see
	// expandDense): the board or the symmetries do not allow them, or a
	// layer was of two classes.
	noDense bool
	// fold, if set, holds the children of a layer expanded in parts,
	// their paths summed by number, for its next part (see
	// expandFolded).
	fold *folded
	// keepFold keeps fold past the last part, for TakeFolded.
	keepFold bool
	// kept, while a fold marks its children (see foldPaths), takes the
	// numbers the mark pass makes, chunk by chunk, for the fold to read.
	kept *keptRanks
	// scatterAt, if set, is the bytes of bitsets past which they are set
	// by scatter instead of scatterBytes (for tests).
	scatterAt int64
}

// KeptLists returns the bytes of the workers' lists that e keeps from its
// last expansion for its next, charged to its budget (part of its Used
// and of its Spared, let go where it is short).
func (e *Expander) KeptLists() int64 {
	if e.keptLists == nil {
		return 0
	}
	return e.mem.KeptBytes(e.keptLists)
}

// SetProgress makes e call f, until set again, with the number of parents
// of the layer being expanded done so far and their total; nil for none.
func (e *Expander) SetProgress(f func(done, total int)) { e.progress = f }

// Mem returns the budget e charges its layers to.
func (e *Expander) Mem() *memory.Budget { return e.mem }

// Gen returns e's move generator.
func (e *Expander) Gen() *movegen.Gen { return e.gen }

// Workers returns the workers e was set up with (zero for one per CPU).
func (e *Expander) Workers() int { return e.workers }

// ExpansionBytes returns about the most bytes the expansion of n parents
// with their path counts holds: the parents (24 bytes with a count), the
// workers' lists of their children (up to ten of 24 bytes, a quarter
// spare), the tables of the distinct children (1.5 a parent, at
// tableFill) and the sorted children collected from them.
func ExpansionBytes(n int64) float64 {
	ratio := 1.5
	perParent := 24 + 10*24*5/4 + ratio*24*10/tableFill + ratio*24
	return float64(n) * perParent
}

// Held bytes: about what a child counted in 64 bits takes in an
// expansion that keeps it (NextPart, a spilled layer held whole) in its
// bucket's table (at tableFill, a quarter spare), and in the layer
// collected from the tables; and what the workers' lists of a round may
// keep beside them where the budget is tight (minKeptLists).
const (
	HeldTableBytes = 16 * 10 / tableFill * 5 / 4
	HeldLayerBytes = 16
	HeldListBytes  = minKeptLists
)

// jumpsPerParent returns the children a parent is expected to have in the
// next round: as many as in the last round (rounded up), and at least ten.
// Fewer would make a round of more parents, too many for its lists where
// the last round was of another kind (a walk back undoes fewer jumps).
func (e *Expander) jumpsPerParent() int {
	return max(10, int(math.Ceil(e.perParent)))
}

func (e *Expander) nworkers() int { return pool.Size(e.workers) }

// keyShift returns how far up the tables' keys are shifted from the
// children's mixed keys: to their packed words where bare keys fill tables
// seeded from code (see withinCode), else not at all.
func (e *Expander) keyShift() uint {
	if e.withinCode == nil || e.counts || e.pack != nil {
		return 0
	}
	return e.withinCode.pk.Shift
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

// tightRoundRecords is the fewest children a round holds where the budget
// leaves less room for its lists than roundRecords take (a spilled run's
// layer expanded whole within a small budget).
const tightRoundRecords = 1 << 20

// roundSize returns the children a round of a layer of n parents holds:
// roundRecords, or an eighth of the layer's children (about ten a parent)
// when that is more, so a layer pauses between expanding and tabling about
// eight times at most; but the round's children may take at most an
// eighth of the memory budget. (Rounds of a fixed 4M or 2M children held
// less but ran up to 15% slower.)
func roundSize(n int, recordBytes, budget int64) int {
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
	doing(err, fmt.Sprintf("finding the positions of %d pegs", cur.pegs-1))
	return next, st, err
}

// NextWithin is Next keeping only the children that are positions of
// within: children with other keys are dropped as they come, before they
// take room in a table. Where within is coded (see Layer.Store), the
// tables are seeded from its code, never decoded whole. For Paths and
// Parents.
func (e *Expander) NextWithin(ctx context.Context, cur, within *Layer) (*Layer, Stats, error) {
	if e.purpose != Paths && e.purpose != Parents {
		return nil, Stats{}, fmt.Errorf("%w: %v expander keeping to a layer", ErrSetup, e.purpose)
	}
	e.within, e.withinCode = within.keys, nil
	if within.keys == nil {
		e.withinCode = within.stored
	}
	defer func() { e.within, e.withinCode = nil, nil }()
	return e.Next(ctx, cur)
}

// NextPart is Next keeping only the children in part of parts (a power
// of two): those whose mixed keys have part as their top log2(parts)
// bits, a range of the expansion's buckets, the others dropped as they
// are found, before they take room in a list or a table. Its stats are
// Next's, of all of cur's positions. The children of cur's parts done
// so far size the tables of its next (see expectChildren), and once its
// last part is done the expander learns cur's ratio of children to
// parents from them, as from a layer expanded whole. A spilled layer
// too large to expand whole is expanded in parts, the parent layer held
// once. With last, the caller's last use of cur, cur is let go
// (Layer.Release) once its positions are expanded, before the children
// are collected, and the children of all parts may be had whole after
// it (TakeFolded).
func (e *Expander) NextPart(ctx context.Context, cur *Layer, part, parts int, last bool) (*Layer, Stats, error) {
	if parts < 1 || parts&(parts-1) != 0 || part < 0 || part >= parts {
		return nil, Stats{}, fmt.Errorf("%w: part %d of %d", ErrSetup, part, parts)
	}
	return e.nextRange(ctx, cur, part, part+1, parts, last)
}

// nextRange is NextPart keeping the children of slices lo to hi-1 of
// slices.
func (e *Expander) nextRange(ctx context.Context, cur *Layer, lo, hi, slices int, last bool) (*Layer, Stats, error) {
	e.slices, e.lo, e.hi, e.keepFold = slices, lo, hi, last
	if last {
		e.spent = func(l *Layer) { l.Release(e.mem) }
	}
	defer func() { e.slices, e.lo, e.hi, e.spent, e.keepFold = 0, 0, 0, nil, false }()
	if e.partsOf != cur {
		e.partsOf, e.partKids, e.partShare = cur, 0, 0
	}
	n := cur.Size() // before a last part lets cur go
	next, st, err := e.Next(ctx, cur)
	if err != nil {
		return next, st, err
	}
	found := 0
	if next != nil {
		found = next.Size()
	} else if e.sorted != nil && *e.sorted != nil {
		found = (*e.sorted).Len()
	}
	e.partKids += found
	e.partShare += float64(hi-lo) / float64(slices)
	if last {
		if slices > 1 && n > 0 && !e.closed() { // a whole layer's is learned as it is collected
			e.ratios = append(e.ratios, float64(e.partKids)/e.partShare/float64(n))
		}
		e.partsOf = nil
	}
	return next, st, nil
}

// NextPartSorted is NextPart for a caller that writes a part's children
// out rather than holding them: those whose mixed keys' top
// log2(slices) bits (slices a power of two) are lo to hi-1, any range,
// left in the buckets' tables, whole slices each, for the caller to take
// a bucket at a time in key order (Sorted.Each), each table let go once
// taken, where NextPart collects them all into a layer first, which
// takes as many bytes again as the tables hold at the widest moment (16
// bytes a child beside about 27). A spilled run so writes a part's
// children as a range of its partitions of the layer below (see package
// partition), in as many parts as its budget needs, not a power of two.
// Not for a layer kept to (NextWithin).
func (e *Expander) NextPartSorted(ctx context.Context, cur *Layer, lo, hi, slices int, last bool) (*Sorted, Stats, error) {
	if slices < 1 || slices&(slices-1) != 0 || lo < 0 || hi <= lo || hi > slices || e.closed() {
		return nil, Stats{}, fmt.Errorf("%w: slices %d to %d of %d", ErrSetup, lo, hi-1, slices)
	}
	var out *Sorted
	e.sorted = &out
	defer func() { e.sorted = nil }()
	next, st, err := e.nextRange(ctx, cur, lo, hi, slices, last)
	if next != nil { // not found by the tables (a layer's bitsets)
		next.Release(e.mem)
		err = errors.Join(err, fmt.Errorf("%w: sorted part found as a layer", ErrSetup))
	}
	if err != nil {
		if out != nil {
			out.Release()
		}
		return nil, st, err
	}
	return out, st, nil
}

// partRange returns how far down a child's mixed key is shifted to leave
// its slice (see slices), the first slice kept and how many: 64, 0 and 1
// where the layer is expanded whole (a shift by 64 leaves 0 of every
// key), so that a child is kept where its slice less the first, unsigned,
// is below their count.
func (e *Expander) partRange() (shift uint, lo, span uint64) {
	if e.slices <= 1 {
		return 64, 0, 1
	}
	return 64 - uint(bits.TrailingZeros(uint(e.slices))), uint64(e.lo), uint64(e.hi - e.lo)
}

// closed reports whether the next layer keeps to a layer given (see
// NextWithin): its ratio of children to parents says nothing of the
// next.
func (e *Expander) closed() bool { return e.within != nil || e.withinCode != nil }

// expectChildren returns how many distinct children the n parents of cur
// are expected to have, for sizing the tables: for a part of a layer
// expanded in parts, from the children of its parts done so far (French
// d3's layer of 18 pegs, sized from the last ratio of a whole layer at
// 1.48 times its children, passed the budget in its first of four parts
// and went on in eight); else as expect reckons.
func (e *Expander) expectChildren(cur *Layer, n int) int {
	if e.slices > 1 && e.partsOf == cur && e.partShare > 0 {
		return int(float64(e.partKids) / e.partShare)
	}
	return e.expect(n)
}

// doing notes on a memory error what the search was doing.
func doing(err error, what string) {
	if me, ok := errors.AsType[*memory.Error](err); ok && me.Doing == "" {
		me.Doing = what
	}
}

// Grow is Next without the note on a memory error.
func (e *Expander) Grow(ctx context.Context, cur *Layer) (*Layer, Stats, error) {
	if e.fold != nil && e.fold.cur != cur {
		e.dropFold() // of a layer given up
	}
	if e.counts && narrowEnough(cur, e.tuning.narrowBelow()) {
		if num := e.foldFor(cur); num != nil {
			if next, st, ok, err := e.expandFolded(ctx, cur, num); ok {
				return next, st, err
			}
		}
	}
	if e.counts {
		// A layer held as a bitset with its counts in that order (see
		// TakeFolded) is expanded from keys in that order.
		if err := cur.Keyed(ctx, e.workers, e.mem); err != nil {
			return nil, Stats{}, err
		}
	}
	if e.counts && narrowEnough(cur, e.tuning.narrowBelow()) {
		return expand(ctx, e, cur, func(w *workerState) *[][]paths { return &w.paths })
	}
	if e.counts {
		return expand(ctx, e, cur, func(w *workerState) *[][]record { return &w.recs })
	}
	if e.pack != nil {
		return expand(ctx, e, cur, func(w *workerState) *[][]packed { return &w.packs })
	}
	if d := e.denseFor(cur); d != nil {
		if next, st, ok, err := e.expandDense(ctx, cur, d); ok {
			return next, st, err
		}
	}
	if err := cur.Keyed(ctx, e.workers, e.mem); err != nil {
		return nil, Stats{}, err
	}
	return expand(ctx, e, cur, func(w *workerState) *[][]uint64 { return &w.keys })
}

// expect returns how many distinct children n parents are expected to have,
// for sizing the tables: the last layer's ratio of children to parents,
// times that ratio's last change where it fell (the ratio falls layer by
// layer past the first few), or 1.5 a parent before two layers are known.
// Too low an estimate costs only time, the tables that pass maxLoad
// doubling.
func (e *Expander) expect(n int) int {
	r := e.ratios
	if len(r) < 2 {
		return 3 * n / 2
	}
	a, b := r[len(r)-1], r[len(r)-2]
	return int(float64(n) * a * min(1, a/b))
}
