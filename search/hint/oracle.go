package hint

import (
	"context"
	"errors"
	"math/bits"
	"slices"

	"pegs/engine"
	"pegs/search"
	"pegs/search/internal/kernel"
)

// Oracle answers "can this position of the level still meet its goal?"
// and "can it still end with one peg anywhere?" from tables of the level's
// winnable positions, without searching. It holds, per peg count, the
// combinatorial ranks of the canonical winnable positions, sorted.
type Oracle struct {
	board *engine.Board
	start engine.Position
	goal  engine.Goal
	group *engine.Group
	ranks map[int][]uint64
	dirs  map[int]kernel.Dir // ranks'
	count int64
	// For a goal hole: the orbits, under anyGroup, of the positions that
	// can end with one peg anywhere although no position of the orbit can
	// meet the goal.
	anyGroup *engine.Group
	extra    map[int][]uint64
	// fewest, if set, holds the fewest pegs of the level's positions of
	// fewestFrom pegs or more that cannot end with fewer than three (see
	// AddFewest).
	fewest     map[int]*fewestLayer
	fewestFrom int
	// fewestMin, if positive, is the fewestFrom that AddFewest uses: a
	// test knob (see export_test.go).
	fewestMin int
}

// NewOracle builds the oracle of a level (prob: a start and a goal of one
// peg) from its winnable positions. For a goal hole it also finds the
// positions that can end with one peg anywhere, so hints never search for
// that either.
func NewOracle(ctx context.Context, prob search.Problem, opt search.Budget) (*Oracle, error) {
	anyProb := search.Problem{Board: prob.Board, Start: prob.Start, Goal: engine.Goal{Kind: engine.OnePeg}}
	var ws, all *search.WinSet
	var err error
	switch {
	case prob.Goal.Kind != engine.OnePegAt:
		ws, err = search.Winnable(ctx, prob, opt)
	case anyProb.Group().Len() == prob.Group().Len():
		// The same group reduces both: one forward search serves both
		// goals (in the English centre game it only goes to the middle).
		var sets []*search.WinSet
		sets, err = search.WinnableGoals(ctx, prob, []engine.Goal{prob.Goal, anyProb.Goal}, opt)
		if err == nil {
			ws, all = sets[0], sets[1]
		}
	default:
		if ws, err = search.Winnable(ctx, prob, opt); err == nil {
			all, err = search.Winnable(ctx, anyProb, opt)
		}
	}
	if err != nil {
		return nil, err
	}
	o := &Oracle{board: prob.Board, start: prob.Start, goal: prob.Goal, group: ws.Group(), ranks: rankLayers(ws, nil),
		anyGroup: anyProb.Group()}
	o.direct()
	switch {
	case all != nil && all.Group().Len() == ws.Group().Len():
		// One group: the orbits beyond the goal's are the positions that
		// are not the goal's.
		o.extra = map[int][]uint64{}
		for pegs, ranks := range rankLayers(all, nil) {
			if beyond := kernel.Without(ranks, o.ranks[pegs]); len(beyond) > 0 {
				o.extra[pegs] = beyond
			}
		}
	case all != nil:
		o.extra = rankLayers(all, func(p engine.Position) bool { return !o.orbitWins(p) })
	}
	return o, nil
}

// direct counts o's ranks and makes their directories.
func (o *Oracle) direct() {
	o.count, o.dirs = 0, map[int]kernel.Dir{}
	for pegs, r := range o.ranks {
		o.count += int64(len(r))
		o.dirs[pegs] = kernel.NewDir(r)
	}
}

// rankLayers returns the ranks of the positions of ws by peg count,
// sorted, keeping those keep accepts (all if keep is nil).
func rankLayers(ws *search.WinSet, keep func(engine.Position) bool) map[int][]uint64 {
	out := map[int][]uint64{}
	for _, l := range ws.Layers {
		var r []uint64
		for _, p := range ws.Positions(l.Pegs) {
			if keep == nil || keep(p) {
				r = append(r, kernel.Rank(p))
			}
		}
		if len(r) > 0 {
			slices.Sort(r)
			out[l.Pegs] = r
		}
	}
	return out
}

// orbitWins reports whether some image of p under anyGroup meets the goal.
func (o *Oracle) orbitWins(p engine.Position) bool {
	if o.anyGroup.Len() == o.group.Len() {
		win, _ := o.Winnable(p)
		return win
	}
	for s := range o.anyGroup.Len() {
		if _, found := slices.BinarySearch(o.ranks[p.Pegs()], kernel.Rank(o.group.Canonical(o.anyGroup.Apply(s, p)))); found {
			return true
		}
	}
	return false
}

// OnePeg reports whether p can still end with one peg anywhere. ok is
// false for a position that cannot arise in the level.
func (o *Oracle) OnePeg(p engine.Position) (win, ok bool) {
	if o.goal.Kind != engine.OnePegAt {
		return o.Winnable(p)
	}
	if o.board.Class(p) != o.board.Class(o.start) || p.Pegs() > o.start.Pegs() {
		return false, false
	}
	if o.orbitWins(p) {
		return true, true
	}
	_, found := slices.BinarySearch(o.extra[p.Pegs()], kernel.Rank(o.anyGroup.Canonical(p)))
	return found, true
}

// levelCheckFrom is the fewest pegs of a position whose place in an
// oracle's level inLevel checks by solving its complement. On the English
// board the complement then has 19 pegs or fewer: over 733 positions of
// random games, with 13, 14 or 15 here a hint took at most 0.9-1.4 ms
// (with the fewest table); with 11 or 12, up to 20-23 ms.
const levelCheckFrom = 14

// inLevel reports whether p is shown to be reachable from the oracle's
// start. The tables hold only the level's positions, so "not winnable" is
// an answer only for those: a position the start cannot reach may well be
// winnable. A position in the tables (the fewest table too) is in the
// level; otherwise startReaches decides it, within cfg.MaxNodes: past
// them, p counts as outside.
func (o *Oracle) inLevel(ctx context.Context, p engine.Position, cfg kernel.SolveConfig) (bool, error) {
	if w, ok := o.Winnable(p); !ok {
		return false, nil
	} else if w {
		return true, nil
	}
	if w, ok := o.OnePeg(p); ok && w {
		return true, nil
	}
	if o.tabled(p) {
		return true, nil
	}
	// A parent in the level has its children in it. Most of the level's
	// positions have a parent or grandparent in a table, found in tens of
	// microseconds; the solve startReaches may do takes up to a
	// millisecond.
	if p.Pegs() >= levelCheckFrom && p.Pegs() < o.start.Pegs() && o.tabledAncestor(p, 2) {
		return true, nil
	}
	return startReaches(ctx, o.board, o.start, p, cfg)
}

// startReaches reports whether p is shown to be reachable from start, a
// position with one hole v: play on complements decides it (backward play
// is forward play with pegs and holes swapped), as start reaches p exactly
// when p's complement can end with one peg at v. That solve is quick when p
// has many pegs, its complement few; below levelCheckFrom pegs it does not
// try (searching p itself is quicker then), and past cfg.MaxNodes it gives
// up: p counts as out of reach.
func startReaches(ctx context.Context, b *engine.Board, start, p engine.Position, cfg kernel.SolveConfig) (bool, error) {
	hole := b.Complement(start)
	if p == start {
		return true, nil
	}
	if hole.Pegs() != 1 || p == b.Full() || p.Pegs() < levelCheckFrom || p.Pegs() >= start.Pegs() {
		return false, nil
	}
	cfg.Dead = nil // a search of another goal
	sol, err := kernel.Solve(ctx, b, b.Complement(p), engine.Goal{Kind: engine.OnePegAt, Hole: bits.TrailingZeros64(uint64(hole))}, cfg)
	if errors.Is(err, kernel.ErrNodeLimit) {
		return false, nil
	}
	return sol.Solvable, err
}

// tabled reports whether one of the oracle's tables holds p, which puts p
// in the level: the winnable, one-peg and fewest tables hold only the
// level's positions. (Winnable and OnePeg's "no" is no proof.)
func (o *Oracle) tabled(p engine.Position) bool {
	if w, ok := o.Winnable(p); ok && w {
		return true
	}
	if w, ok := o.OnePeg(p); ok && w {
		return true
	}
	l := o.fewest[p.Pegs()]
	return l != nil && l.fewest(o.group.Canonical(p)) != 2
}

// tabledAncestor reports whether a position up to depth jumps before p
// (p with jumps undone) is tabled. The jumps p can undo are the jumps
// legal in its complement, and undoing one flips the same three holes.
func (o *Oracle) tabledAncestor(p engine.Position, depth int) bool {
	b := o.board
	for _, j := range b.Moves(nil, b.Complement(p)) {
		q := p.Apply(j)
		if o.tabled(q) || depth > 1 && q.Pegs() < o.start.Pegs() && o.tabledAncestor(q, depth-1) {
			return true
		}
	}
	return false
}

// AddFewest adds the fewest pegs that the level's dead ends of many pegs
// can reach, so that a hint never searches for that either: for every
// position of 4 pegs or more (see fewestFrom) that the start reaches and
// that cannot end with one peg, by a search of the level's whole state
// space.
// Fewer pegs are left to a depth-first search, which is quick there. Call
// it before the oracle is shared: the other methods are safe for
// concurrent use, AddFewest is not.
func (o *Oracle) AddFewest(ctx context.Context, opt search.Budget) error {
	from := o.fewestFromOr()
	t, err := fewestTable(ctx, o.board, o.start, o.goal, o.onePegKeys(), from, opt)
	if err != nil {
		return err
	}
	o.fewest, o.fewestFrom = t, from
	return nil
}

// defaultFewestFrom is the fewest pegs of the positions an oracle's fewest
// table holds: all but the smallest, where a depth-first search that
// stops at two pegs answers at once. Tabling the dead ends of 4 to 13
// pegs too costs the English centre level's table 60% more positions
// (13.4 M against 8.4 M; 21.7 MB on disk against 14.8 MB) and no build
// time, since the build counts them anyway, and saves the served hints
// the searches that took a tenth of their CPU time (over random games at
// 13 pegs such a search took 21 us on average and 0.58 ms at most).
const defaultFewestFrom = 4

// fewestFromOr returns the fewest pegs AddFewest tables: a test's
// fewestMin, or defaultFewestFrom.
func (o *Oracle) fewestFromOr() int {
	if o.fewestMin > 0 {
		return o.fewestMin
	}
	return defaultFewestFrom
}

// onePegKeys returns the level's positions that can end with one peg, by
// peg count, as sorted mixed keys of their canonical forms under o.group.
func (o *Oracle) onePegKeys() map[int][]uint64 {
	out := map[int][]uint64{}
	for pegs, rs := range o.ranks {
		for _, r := range rs {
			out[pegs] = append(out[pegs], kernel.Mix(kernel.Unrank(r, pegs)))
		}
	}
	for pegs, rs := range o.extra {
		for _, r := range rs {
			p := kernel.Unrank(r, pegs)
			for s := range o.anyGroup.Len() {
				out[pegs] = append(out[pegs], kernel.Mix(o.group.Canonical(o.anyGroup.Apply(s, p))))
			}
		}
	}
	for pegs, keys := range out {
		slices.Sort(keys)
		out[pegs] = slices.Compact(keys)
	}
	return out
}

// Fewest returns the fewest pegs position p of the level can still reach.
// ok is false when the oracle has no fewest table (see AddFewest), p has
// fewer pegs than the table holds, or p cannot arise in the level.
func (o *Oracle) Fewest(p engine.Position) (n int, ok bool) {
	if o.fewest == nil || p.Pegs() < o.fewestFrom {
		return 0, false
	}
	if one, ok := o.OnePeg(p); !ok {
		return 0, false
	} else if one {
		return 1, true
	}
	l, has := o.fewest[p.Pegs()]
	if !has {
		return 2, true
	}
	return l.fewest(o.group.Canonical(p)), true
}

// FewestLen returns the number of positions in the fewest table.
func (o *Oracle) FewestLen() int64 {
	var n int64
	for _, l := range o.fewest {
		n += int64(l.len())
	}
	return n
}

// Len returns the number of winnable positions (up to symmetry).
func (o *Oracle) Len() int64 { return o.count }

// Winnable reports whether p can still meet the level's goal. ok is false
// for a position that cannot arise in the level (another position class);
// the oracle knows only positions reachable from the level's start.
func (o *Oracle) Winnable(p engine.Position) (win, ok bool) {
	if o.board.Class(p) != o.board.Class(o.start) || p.Pegs() > o.start.Pegs() {
		return false, false
	}
	return o.dirs[p.Pegs()].Has(o.ranks[p.Pegs()], kernel.Rank(o.group.Canonical(p))), true
}

// Start returns the start of the oracle's level.
func (o *Oracle) Start() engine.Position { return o.start }

// Goal returns the goal the oracle answers for.
func (o *Oracle) Goal() engine.Goal { return o.goal }
