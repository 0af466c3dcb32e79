package search

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"pegs/engine"
	"pegs/search/internal/key"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// WinSet is the set of positions of a problem that are reachable from its
// start and can still meet its goal, by peg count, up to the symmetries
// that keep the start and goal in place.
type WinSet struct {
	Layers    []LayerStats // Reachable is filled only for layers searched
	Winnable  int64
	PeakBytes int64
	Elapsed   time.Duration
	group     *engine.Group
	board     *engine.Board
	workers   int // the search's, for making the mirroring layers
	// keys holds the layers' sorted mixed canonical keys by peg count;
	// mirror, on a mirrored problem, the layers past the middle, made
	// from the complements of the layers they mirror only if asked for
	// (see layer): counted and searched, they need not be.
	keys   map[int][]uint64
	mirror map[int]*mirrorLayer
}

// NewWinSet returns the winnable positions of a problem on board b found
// by another search than Winnable (search/cluster's pipeline): win holds
// each layer's, by peg count, in canonical form under group, and layers
// each layer's counts (reachable and winnable); peak and elapsed are what
// the search took.
func NewWinSet(b *engine.Board, group *engine.Group, layers []LayerStats, win map[int][]engine.Position, peak int64, elapsed time.Duration) *WinSet {
	w := &WinSet{Layers: layers, PeakBytes: peak, Elapsed: elapsed, group: group, board: b, keys: map[int][]uint64{}, mirror: map[int]*mirrorLayer{}}
	for _, l := range layers {
		w.Winnable += l.Winnable
	}
	for pegs, ps := range win {
		keys := make([]uint64, len(ps))
		for i, p := range ps {
			keys[i] = key.Mix(p)
		}
		slices.Sort(keys)
		w.keys[pegs] = keys
	}
	return w
}

// ForwardPass returns what the search that made w counted on its way
// forward, the positions of each layer it went through and their totals,
// as an Analysis: all a search stopped before its end has to show.
func (w *WinSet) ForwardPass() *Analysis {
	a := &Analysis{Symmetries: w.group.Len(), Layers: w.Layers, Elapsed: w.Elapsed, PeakBytes: w.PeakBytes}
	a.SumLayers()
	return a
}

// mirrorLayer is a layer of a WinSet that is the canonical complements of
// another, of, made on first use.
type mirrorLayer struct {
	once sync.Once
	of   []uint64
	keys []uint64
}

// layer returns the keys of w's layer of pegs pegs, making it first if it
// mirrors another.
func (w *WinSet) layer(pegs int) []uint64 {
	if keys, ok := w.keys[pegs]; ok {
		return keys
	}
	m := w.mirror[pegs]
	if m == nil {
		return nil
	}
	m.once.Do(func() { m.keys = layered.ComplementKeys(m.of, w.board, w.group, key.Mixed(), w.workers) })
	return m.keys
}

// count returns how many positions w's layer of pegs pegs holds: a
// mirroring layer as many as the one it mirrors, complements of distinct
// orbits being distinct orbits.
func (w *WinSet) count(pegs int) int {
	if keys, ok := w.keys[pegs]; ok {
		return len(keys)
	}
	if m := w.mirror[pegs]; m != nil {
		return len(m.of)
	}
	return 0
}

// Contains reports whether p is reachable and winnable.
func (w *WinSet) Contains(p engine.Position) bool {
	return w.containsCanonical(w.group.Canonical(p))
}

// containsCanonical is Contains for a position already in canonical form.
// A position of a mirroring layer is looked for by its complement.
func (w *WinSet) containsCanonical(c engine.Position) bool {
	keys, ok := w.keys[c.Pegs()]
	if m := w.mirror[c.Pegs()]; !ok && m != nil {
		keys, c = m.of, w.group.Canonical(w.board.Complement(c))
	}
	_, ok = slices.BinarySearch(keys, key.Mix(c))
	return ok
}

// Group returns the symmetries the set is reduced by: its positions are
// canonical forms under it.
func (w *WinSet) Group() *engine.Group { return w.group }

// Positions returns the set's positions of pegs pegs, in canonical form
// (see Group), in no particular order.
func (w *WinSet) Positions(pegs int) []engine.Position {
	keys := w.layer(pegs)
	out := make([]engine.Position, len(keys))
	for i, k := range keys {
		out[i] = key.Unmix(k)
	}
	return out
}

// Winnable finds the winnable positions of a problem without counting
// paths: see the package documentation, "Winnable positions".
//
// Cancelled, it returns with ctx's error a WinSet that holds no winnable
// positions, whose Layers count the positions of the layers the forward
// search expanded (Reachable, ReachableRaw and DeadEnds, as ReachableOnly
// counts them).
func Winnable(ctx context.Context, prob Problem, opt Budget) (*WinSet, error) {
	sets, err := WinnableGoals(ctx, prob, []engine.Goal{prob.Goal}, opt)
	if sets == nil {
		return nil, err
	}
	return sets[0], err
}

// WinnableGoals is Winnable for several goals from prob's start, all
// reduced by prob.Group() (prob.Goal matters only there): one forward
// search serves them all. It searches forward only to the middle when the
// first goal's complement is the start and the others are one peg anywhere
// with the same winnable positions of two pegs or more (see sameAfterOne).
func WinnableGoals(ctx context.Context, prob Problem, goals []engine.Goal, opt Budget) ([]*WinSet, error) {
	if err := prob.checkOnePeg(); err != nil {
		return nil, err
	}
	ws, err := newWinSearch(prob, goals, opt)
	if err != nil {
		return nil, err
	}
	return ws.run(ctx)
}

// run is WinnableGoals for ws's problem and goals.
func (ws *winSearch) run(ctx context.Context) ([]*WinSet, error) {
	prob, goals := ws.prob, ws.goals
	some := false
	for _, g := range goals {
		if len(layered.BackwardSeeds(ws.b, prob.Start, g, ws.group)) > 0 {
			some = true
		}
	}
	if !some {
		return ws.done(), nil
	}
	if err := ws.mem.Take(ws.low.Bytes(), "the first layer"); err != nil {
		return nil, err
	}
	self := layered.Mirrored(ws.b, prob.Start, goals[0], ws.group)
	if self && len(goals) > 1 {
		if err := ws.forwardTo(ctx, ws.p0-1); err != nil {
			return ws.stopped(err)
		}
		for _, g := range goals[1:] {
			self = self && sameAfterOne(Problem{ws.b, prob.Start, g}, ws.group, ws.fwd[ws.p0-1], ws.start)
		}
	}
	var err error
	if self {
		err = ws.meetInTheMiddle(ctx)
	} else {
		err = ws.walkBack(ctx)
	}
	if err != nil {
		return ws.stopped(err)
	}
	return ws.done(), nil
}

// winSearch is the state of a search of WinnableGoals.
type winSearch struct {
	prob  Problem
	goals []engine.Goal
	opt   Budget
	t0    time.Time
	b     *engine.Board
	mem   *memory.Budget
	group *engine.Group
	gen   *movegen.Gen
	e     *layered.Expander
	start uint64 // the start's key
	p0    int    // the start's pegs
	sets  []*WinSet
	// fwd holds the forward layers found, by peg count (released as the
	// walk back of meetInTheMiddle reads them); low is the last; reached
	// holds their positions.
	fwd     map[int]*layered.Layer
	low     *layered.Layer
	reached map[int]int
	// pack packs each forward layer once the next is found (see
	// layered.Layer.Pack): meetInTheMiddle's walk back reads them only to
	// and them with the parents it marks. On the English board the layers
	// of 18 to 22 pegs then take a fifth of their bitsets' memory.
	pack bool
	// expanded counts the positions of the layers expanded, for a
	// cancelled search (see stopped).
	expanded []LayerStats
}

func newWinSearch(prob Problem, goals []engine.Goal, opt Budget) (*winSearch, error) {
	group := prob.Group()
	ws := &winSearch{prob: prob, goals: goals, opt: opt, t0: time.Now(), b: prob.Board, mem: memory.New(opt.Bytes()),
		group: group, gen: movegen.New(prob.Board, group), start: key.Mix(group.Canonical(prob.Start)), p0: prob.Start.Pegs()}
	// The forward layers are only scanned, or handed to functions that
	// sort them where they must, and those found in bitsets stay as them
	// (see layered.Scanned): no key is made for them, the next layer is
	// expanded from their bits, the meeting looks children up in them and
	// the walk back ands them with the parents it marks.
	var err error
	if ws.e, err = layered.NewExpander(layered.Scanned, layered.Setup{Gen: ws.gen, Mem: ws.mem, Workers: opt.Workers, Tuning: opt.knobs.layered}); err != nil {
		return nil, err
	}
	for range goals {
		ws.sets = append(ws.sets, &WinSet{group: group, board: prob.Board, workers: opt.Workers, keys: map[int][]uint64{}, mirror: map[int]*mirrorLayer{}})
	}
	ws.low = layered.NewLayer(ws.p0, []uint64{ws.start})
	ws.fwd = make(map[int]*layered.Layer)
	ws.fwd[ws.p0] = ws.low
	ws.reached = map[int]int{ws.p0: 1}
	return ws, nil
}

// forwardTo expands layers until the last has stop pegs or none is left.
func (ws *winSearch) forwardTo(ctx context.Context, stop int) error {
	progress := ws.opt.config().Progress
	for ws.low.Pegs() > stop {
		if progress != nil {
			pegs := ws.low.Pegs()
			ws.e.SetProgress(func(done, total int) { progress("forward", pegs, done, total) })
		}
		next, st, err := ws.e.Next(ctx, ws.low)
		if err != nil || next.Size() == 0 {
			return err
		}
		ws.expanded = append(ws.expanded, LayerStats{Pegs: ws.low.Pegs(), Reachable: st.Positions, ReachableRaw: st.Raw, DeadEnds: st.DeadEnds})
		ws.fwd[next.Pegs()] = next
		ws.reached[next.Pegs()] = next.Size()
		if ws.pack {
			// Only the walk back reads it again.
			ws.low.Pack(ws.opt.Workers, ws.mem)
		}
		ws.low = next
	}
	return nil
}

// walkBack finds each goal's winnable positions by expanding every layer
// and walking back up from the goal.
func (ws *winSearch) walkBack(ctx context.Context) error {
	if err := ws.forwardTo(ctx, 1); err != nil {
		return err
	}
	for i, g := range ws.goals {
		mirror := layered.Mirrored(ws.b, ws.prob.Start, g, ws.group)
		err := layered.WalkBack(ctx, g, ws.gen, ws.fwd, ws.p0, false, mirror, ws.opt.config(), ws.mem, func(pegs int, keys []uint64) error {
			ws.sets[i].keys[pegs] = keys
			return ws.mem.Take(int64(len(keys))*8, "the winnable positions")
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// meetInTheMiddle finds the first goal's winnable positions, the start
// being its goal's complement, from the forward layers down to the middle
// alone: a position is winnable when its complement is reachable too. The
// other goals share the first's layers of two pegs or more (see
// sameAfterOne).
func (ws *winSearch) meetInTheMiddle(ctx context.Context) error {
	n := ws.b.Holes()
	// Forward layers needed: down to the peg count m where every winnable
	// k has k >= m or n-k >= m; on a board of an odd number of holes, one
	// layer less (see layered.MeetingKeys).
	stop := n - n/2
	ws.pack = true
	if err := ws.forwardTo(ctx, stop); err != nil {
		return err
	}
	w := ws.sets[0]
	if f, ok := ws.fwd[stop]; ok {
		var keys []uint64
		var err error
		if n%2 == 1 {
			// A position of n-n/2 pegs can meet the goal when one of its
			// children's complements, of as many pegs, is reachable.
			keys, err = layered.SelfMeetingKeys(ctx, f, ws.gen, ws.opt.config(), ws.mem)
		} else {
			keys, err = layered.SelfJoin(ctx, f, ws.b, ws.group, ws.opt.Workers, ws.mem)
		}
		if err != nil {
			return err
		}
		if err := ws.mem.Take(int64(len(keys))*8, "the winnable positions"); err != nil {
			return err
		}
		w.keys[stop] = keys
		// The walk back reads the layers above only: the memory of each
		// layer it has read (bitsets, kept for reuse; see
		// layered.Layer.Release) then holds the parents it marks in the
		// next, rather than fresh memory.
		f.Release(ws.mem)
	}
	// Walk back up: a reachable position is winnable when one of its
	// children is.
	progress := ws.opt.config().Progress
	for pegs := stop + 1; pegs <= ws.p0; pegs++ {
		if progress != nil {
			progress("backward", pegs, 0, ws.fwd[pegs].Size())
		}
		keys, err := layered.ParentsOf(ctx, ws.fwd[pegs], w.keys[pegs-1], ws.gen, ws.opt.Workers, ws.mem, true)
		if err != nil {
			return err
		}
		if err := ws.mem.Take(int64(len(keys))*8, "the winnable positions"); err != nil {
			return err
		}
		w.keys[pegs] = keys
	}
	// Past the middle, the complements, made if asked for (see
	// WinSet.layer).
	for pegs := stop - 1; pegs >= 1; pegs-- {
		if of, ok := w.keys[n-pegs]; ok {
			w.mirror[pegs] = &mirrorLayer{of: of}
		}
	}
	for i, g := range ws.goals[1:] {
		ws.shareWith(ws.sets[1+i], g)
	}
	return nil
}

// shareWith gives other, the set of goal g, the first set's layers of two
// pegs or more; its last pegs are the two-peg winners' children that meet
// g.
func (ws *winSearch) shareWith(other *WinSet, g engine.Goal) {
	w := ws.sets[0]
	for pegs, keys := range w.keys {
		if pegs > 1 {
			other.keys[pegs] = keys
		}
	}
	for pegs, m := range w.mirror {
		if pegs > 1 {
			other.mirror[pegs] = m
		}
	}
	var last []uint64
	for _, k := range w.layer(2) {
		q := key.Unmix(k)
		for _, j := range ws.b.Moves(nil, q) {
			if c := q.Apply(j); g.Reached(c) {
				last = append(last, key.Mix(ws.group.Canonical(c)))
			}
		}
	}
	slices.Sort(last)
	other.keys[1] = slices.Compact(last)
}

// done counts the sets' layers and returns them.
func (ws *winSearch) done() []*WinSet {
	for _, w := range ws.sets {
		for pegs := ws.p0; pegs >= 1; pegs-- {
			ls := LayerStats{Pegs: pegs, Winnable: int64(w.count(pegs)), Reachable: int64(ws.reached[pegs])}
			w.Winnable += ls.Winnable
			w.Layers = append(w.Layers, ls)
		}
		w.PeakBytes = ws.mem.Peak()
		w.Elapsed = time.Since(ws.t0)
	}
	return ws.sets
}

// stopped returns what a search stopped by err keeps: if cancelled, the
// positions of the layers it expanded (as ReachableOnly counts them) and
// no winnable ones.
func (ws *winSearch) stopped(err error) ([]*WinSet, error) {
	if !errors.Is(err, context.Canceled) {
		return nil, err
	}
	for _, w := range ws.sets {
		w.Layers = slices.Clone(ws.expanded)
		w.keys, w.mirror = map[int][]uint64{}, map[int]*mirrorLayer{}
		w.PeakBytes = ws.mem.Peak()
		w.Elapsed = time.Since(ws.t0)
	}
	return ws.sets, err
}

// sameAfterOne reports whether prob, whose goal is one peg anywhere, has
// the same winnable positions of two pegs or more as the start's own
// centre-style goal (one peg where the start's vacancy is), given first,
// the canonical positions the start reaches in one jump. It does when every
// single-vacancy start that backward play needs (prob's backward seeds) is
// the start itself or reaches in one jump only positions in first: their
// searches are then the start's after its first jump, so a position of two
// pegs or more whose complement one of them reaches has its complement
// reached from the start. On the English board the centre game's last peg
// can end at d4 or d1 (up to symmetry), and vacating d1 or d4 leaves the
// same position after one jump.
func sameAfterOne(prob Problem, group *engine.Group, first *layered.Layer, start uint64) bool {
	if prob.Goal.Kind != engine.OnePeg || first == nil {
		return false
	}
	b := prob.Board
	first.Sort(1)
	for _, s := range layered.BackwardSeeds(prob.Board, prob.Start, prob.Goal, group) {
		if s == start {
			continue
		}
		q := key.Unmix(s)
		for _, j := range b.Moves(nil, q) {
			if _, ok := slices.BinarySearch(first.Keys(), key.Mix(group.Canonical(q.Apply(j)))); !ok {
				return false
			}
		}
	}
	return true
}
