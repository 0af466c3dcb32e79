package search

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"pegs/engine"
	"pegs/search/internal/key"
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
	count int64
	// For a goal hole: the orbits, under anyGroup, of the positions that
	// can end with one peg anywhere although no position of the orbit can
	// meet the goal; hasAny is false when the oracle does not know them.
	anyGroup *engine.Group
	extra    map[int][]uint64
	hasAny   bool
	// fewest, if set, holds the fewest pegs of the level's positions of
	// fewestFrom pegs or more that cannot end with fewer than three (see
	// AddFewest).
	fewest     map[int]*fewestLayer
	fewestFrom int
}

// Oracle files begin with this line; version 1 files, without the one-peg
// table, and version 2 files, without the fewest table, still load.
const (
	oracleMagic   = "PEGS-ORACLE 3"
	oracleMagicV2 = "PEGS-ORACLE 2"
	oracleMagicV1 = "PEGS-ORACLE 1"
)

// NewOracle builds the oracle of a problem from its winnable positions. For
// a goal hole it also finds the positions that can end with one peg
// anywhere, so hints never search for that either.
func NewOracle(ctx context.Context, prob Problem, opt ExploreOptions) (*Oracle, error) {
	anyProb := Problem{Board: prob.Board, Start: prob.Start, Goal: engine.Goal{Kind: engine.OnePeg}}
	var ws, all *WinSet
	var err error
	switch {
	case prob.Goal.Kind != engine.OnePegAt:
		ws, err = Winnable(ctx, prob, opt)
	case anyProb.Group().Len() == prob.Group().Len():
		// The same group reduces both: one forward search serves both
		// goals (in the English centre game it only goes to the middle;
		// see sameAfterOne).
		var sets []*WinSet
		sets, err = winnable(ctx, prob, []engine.Goal{prob.Goal, anyProb.Goal}, opt, false)
		if err == nil {
			ws, all = sets[0], sets[1]
		}
	default:
		if ws, err = Winnable(ctx, prob, opt); err == nil {
			all, err = Winnable(ctx, anyProb, opt)
		}
	}
	if err != nil {
		return nil, err
	}
	o := &Oracle{board: prob.Board, start: prob.Start, goal: prob.Goal, group: ws.group, ranks: rankLayers(ws.keys, nil),
		anyGroup: anyProb.Group(), hasAny: true}
	for _, r := range o.ranks {
		o.count += int64(len(r))
	}
	switch {
	case all != nil && all.group.Len() == ws.group.Len():
		// One group: the orbits beyond the goal's are the keys that are
		// not the goal's.
		beyond := map[int][]uint64{}
		for pegs, keys := range all.keys {
			beyond[pegs] = key.Without(keys, ws.keys[pegs])
		}
		o.extra = rankLayers(beyond, nil)
	case all != nil:
		o.extra = rankLayers(all.keys, func(p engine.Position) bool { return !o.orbitWins(p) })
	}
	return o, nil
}

// rankLayers turns layers of mixed keys into sorted ranks, keeping the
// positions keep accepts (all if keep is nil).
func rankLayers(layers map[int][]uint64, keep func(engine.Position) bool) map[int][]uint64 {
	out := map[int][]uint64{}
	for pegs, keys := range layers {
		r := make([]uint64, 0, len(keys))
		for _, k := range keys {
			if p := key.Unmix(k); keep == nil || keep(p) {
				r = append(r, key.Rank(p))
			}
		}
		if len(r) > 0 {
			slices.Sort(r)
			out[pegs] = r
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
		if _, found := slices.BinarySearch(o.ranks[p.Pegs()], key.Rank(o.group.Canonical(o.anyGroup.Apply(s, p)))); found {
			return true
		}
	}
	return false
}

// OnePeg reports whether p can still end with one peg anywhere. ok is
// false for a position that cannot arise in the level, and when the oracle
// was loaded from a version 1 file, which lacks that table.
func (o *Oracle) OnePeg(p engine.Position) (win, ok bool) {
	if o.goal.Kind != engine.OnePegAt {
		return o.Winnable(p)
	}
	if !o.hasAny || o.board.Class(p) != o.board.Class(o.start) || p.Pegs() > o.start.Pegs() {
		return false, false
	}
	if o.orbitWins(p) {
		return true, true
	}
	_, found := slices.BinarySearch(o.extra[p.Pegs()], key.Rank(o.anyGroup.Canonical(p)))
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
// level; otherwise startReaches decides it, within opt.MaxNodes: past
// them, p counts as outside.
func (o *Oracle) inLevel(ctx context.Context, p engine.Position, opt Options) (bool, error) {
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
	return startReaches(ctx, o.board, o.start, p, opt)
}

// startReaches reports whether p is shown to be reachable from start, a
// position with one hole v: play on complements decides it (backward play
// is forward play with pegs and holes swapped), as start reaches p exactly
// when p's complement can end with one peg at v. That solve is quick when p
// has many pegs, its complement few; below levelCheckFrom pegs it does not
// try (searching p itself is quicker then), and past opt.MaxNodes it gives
// up: p counts as out of reach.
func startReaches(ctx context.Context, b *engine.Board, start, p engine.Position, opt Options) (bool, error) {
	hole := b.Complement(start)
	if p == start {
		return true, nil
	}
	if hole.Pegs() != 1 || p == b.Full() || p.Pegs() < levelCheckFrom || p.Pegs() >= start.Pegs() {
		return false, nil
	}
	sol, err := Solve(ctx, b, b.Complement(p), engine.Goal{Kind: engine.OnePegAt, Hole: holeOf(hole)}, opt)
	if errors.Is(err, ErrNodeLimit) {
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
// position of fewestFrom (14) pegs or more that the start reaches and that
// cannot end with one peg, by a search of the level's whole state space.
// Fewer pegs are left to a depth-first search, which is quick there. Call
// it before the oracle is shared: the other methods are safe for
// concurrent use, AddFewest is not.
func (o *Oracle) AddFewest(ctx context.Context, opt ExploreOptions) error {
	if !o.hasAny {
		return errors.New("the oracle lacks its one-peg table (a version 1 file)")
	}
	t, err := fewestTable(ctx, Problem{o.board, o.start, o.goal}, o.onePegKeys(), fewestFrom, opt)
	if err != nil {
		return err
	}
	o.fewest, o.fewestFrom = t, fewestFrom
	return nil
}

// onePegKeys returns the level's positions that can end with one peg, by
// peg count, as sorted mixed keys of their canonical forms under o.group.
func (o *Oracle) onePegKeys() map[int][]uint64 {
	out := map[int][]uint64{}
	for pegs, rs := range o.ranks {
		for _, r := range rs {
			out[pegs] = append(out[pegs], key.Mix(key.Unrank(r, pegs)))
		}
	}
	for pegs, rs := range o.extra {
		for _, r := range rs {
			p := key.Unrank(r, pegs)
			for s := range o.anyGroup.Len() {
				out[pegs] = append(out[pegs], key.Mix(o.group.Canonical(o.anyGroup.Apply(s, p))))
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
	_, found := slices.BinarySearch(o.ranks[p.Pegs()], key.Rank(o.group.Canonical(p)))
	return found, true
}

// Write stores the oracle: a short text header naming the board, start and
// goal, then per peg count the gaps between successive ranks as varints,
// first for the goal and then for the one-peg orbits beyond it.
func (o *Oracle) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s\n%s\n%d\n%s\n%s\n", oracleMagic, o.board.Name(), o.board.Holes(), o.board.Line(o.start), o.board.FormatGoal(o.goal))
	var buf [binary.MaxVarintLen64]byte
	put := func(x uint64) {
		n := binary.PutUvarint(buf[:], x)
		bw.Write(buf[:n])
	}
	for _, table := range []map[int][]uint64{o.ranks, o.extra} {
		pegs := make([]int, 0, len(table))
		for k := range table {
			pegs = append(pegs, k)
		}
		slices.Sort(pegs)
		put(uint64(len(pegs)))
		for _, k := range pegs {
			r := table[k]
			put(uint64(k))
			put(uint64(len(r)))
			prev := uint64(0)
			for _, x := range r {
				put(x - prev)
				prev = x
			}
		}
	}
	// The fewest table: the least peg count it holds (0: none), then per
	// peg count and per fewest, the gaps between ranks.
	put(uint64(o.fewestFrom))
	if o.fewest != nil {
		pegs := make([]int, 0, len(o.fewest))
		for k := range o.fewest {
			pegs = append(pegs, k)
		}
		slices.Sort(pegs)
		put(uint64(len(pegs)))
		for _, k := range pegs {
			l := o.fewest[k]
			put(uint64(k))
			put(uint64(len(l.lists)))
			for i, list := range l.lists {
				put(uint64(l.vals[i]))
				put(uint64(list.Len()))
				put(uint64(len(list.Code())))
				bw.Write(list.Code())
			}
		}
	}
	return bw.Flush()
}

// ErrOracle reports an oracle file that is not for the board or is damaged.
var ErrOracle = errors.New("bad oracle file")

// LoadOracle reads an oracle written by Write for board b.
func LoadOracle(r io.Reader, b *engine.Board) (*Oracle, error) {
	br := bufio.NewReader(r)
	line := func() (string, error) {
		s, err := br.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("%w: truncated header", ErrOracle)
		}
		return strings.TrimSuffix(s, "\n"), nil
	}
	var hdr [5]string
	for i := range hdr {
		s, err := line()
		if err != nil {
			return nil, err
		}
		hdr[i] = s
	}
	if hdr[0] != oracleMagic && hdr[0] != oracleMagicV2 && hdr[0] != oracleMagicV1 {
		return nil, fmt.Errorf("%w: not an oracle file", ErrOracle)
	}
	if holes, err := strconv.Atoi(hdr[2]); err != nil || holes != b.Holes() || hdr[1] != b.Name() {
		return nil, fmt.Errorf("%w: it is for board %s (%s holes), not %s", ErrOracle, hdr[1], hdr[2], b.Name())
	}
	start, err := b.ParsePosition(hdr[3])
	if err != nil {
		return nil, fmt.Errorf("%w: start: %v", ErrOracle, err)
	}
	goal, err := b.ParseGoal(hdr[4])
	if err != nil {
		return nil, fmt.Errorf("%w: goal: %v", ErrOracle, err)
	}
	o := &Oracle{board: b, start: start, goal: goal, group: Problem{b, start, goal}.Group()}
	get := func() (uint64, error) {
		x, err := binary.ReadUvarint(br)
		if err != nil {
			return 0, fmt.Errorf("%w: truncated table", ErrOracle)
		}
		return x, nil
	}
	// ranks reads n gap-coded ranks of positions of k pegs.
	ranks := func(k uint64) ([]uint64, error) {
		n, err := get()
		if err != nil || k > uint64(b.Holes()) || n > key.Ranks(b.Holes(), int(k)) {
			return nil, fmt.Errorf("%w: layer size", ErrOracle)
		}
		// Grow with the data read, not with the size the file claims.
		r := make([]uint64, 0, min(n, 1<<16))
		prev := uint64(0)
		for range n {
			d, err := get()
			if err != nil {
				return nil, err
			}
			if prev+d < prev || prev+d >= key.Ranks(b.Holes(), int(k)) || d == 0 && len(r) > 0 {
				return nil, fmt.Errorf("%w: rank out of range", ErrOracle)
			}
			prev += d
			r = append(r, prev)
		}
		return r, nil
	}
	table := func() (map[int][]uint64, error) {
		t := map[int][]uint64{}
		nl, err := get()
		if err != nil || nl > 65 {
			return nil, fmt.Errorf("%w: layer count", ErrOracle)
		}
		for range nl {
			k, err := get()
			if err != nil {
				return nil, err
			}
			if t[int(k)], err = ranks(k); err != nil {
				return nil, err
			}
		}
		return t, nil
	}
	if o.ranks, err = table(); err != nil {
		return nil, err
	}
	for _, r := range o.ranks {
		o.count += int64(len(r))
	}
	o.anyGroup = Problem{b, start, engine.Goal{Kind: engine.OnePeg}}.Group()
	if hdr[0] == oracleMagicV1 {
		return o, nil
	}
	if o.extra, err = table(); err != nil {
		return nil, err
	}
	o.hasAny = true
	if goal.Kind != engine.OnePegAt {
		o.extra = nil
	}
	if hdr[0] == oracleMagicV2 {
		return o, nil
	}
	if err := o.readFewest(br, get); err != nil {
		return nil, err
	}
	return o, nil
}

// readFewest reads the fewest table Write stores.
func (o *Oracle) readFewest(r io.Reader, get func() (uint64, error)) error {
	from, err := get()
	if err != nil || from > uint64(o.board.Holes()) {
		return fmt.Errorf("%w: fewest table", ErrOracle)
	}
	if from == 0 {
		return nil
	}
	o.fewest, o.fewestFrom = map[int]*fewestLayer{}, int(from)
	nl, err := get()
	if err != nil || nl > 65 {
		return fmt.Errorf("%w: fewest layer count", ErrOracle)
	}
	for range nl {
		k, err := get()
		if err != nil || k < from || k > uint64(o.board.Holes()) || o.fewest[int(k)] != nil {
			return fmt.Errorf("%w: fewest layer", ErrOracle)
		}
		nv, err := get()
		if err != nil || nv > k {
			return fmt.Errorf("%w: fewest values", ErrOracle)
		}
		l := &fewestLayer{}
		for range nv {
			v, err := get()
			if err != nil || v < 3 || v > k || len(l.vals) > 0 && v <= uint64(l.vals[len(l.vals)-1]) {
				return fmt.Errorf("%w: fewest value", ErrOracle)
			}
			n, err := get()
			if err != nil || n > key.Ranks(o.board.Holes(), int(k)) {
				return fmt.Errorf("%w: fewest list size", ErrOracle)
			}
			size, err := get()
			if err != nil || size < n || size/10 > n {
				return fmt.Errorf("%w: fewest list size", ErrOracle)
			}
			// Grow with the data read, not with the size the file claims.
			var data bytes.Buffer
			if m, err := io.CopyN(&data, r, int64(size)); err != nil || m != int64(size) {
				return fmt.Errorf("%w: truncated fewest table", ErrOracle)
			}
			list, err := key.DecodeRankList(int(n), key.Ranks(o.board.Holes(), int(k)), data.Bytes())
			if err != nil {
				return fmt.Errorf("%w: fewest %d of %d pegs: %v", ErrOracle, v, k, err)
			}
			l.vals = append(l.vals, uint8(v))
			l.lists = append(l.lists, list)
		}
		o.fewest[int(k)] = l
	}
	return nil
}

// Start returns the start of the oracle's level.
func (o *Oracle) Start() engine.Position { return o.start }

// Goal returns the goal the oracle answers for.
func (o *Oracle) Goal() engine.Goal { return o.goal }
