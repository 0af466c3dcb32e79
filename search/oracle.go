package search

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"pegs/engine"
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
}

// Oracle files begin with this line; version 1 files, without the one-peg
// table, still load.
const (
	oracleMagic   = "PEGS-ORACLE 2"
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
			beyond[pegs] = without(keys, ws.keys[pegs])
		}
		o.extra = rankLayers(beyond, nil)
	case all != nil:
		o.extra = rankLayers(all.keys, func(p engine.Position) bool { return !o.orbitWins(p) })
	}
	return o, nil
}

// without returns the keys of a that are not in b; both are sorted.
func without(a, b []uint64) []uint64 {
	var out []uint64
	j := 0
	for _, k := range a {
		for j < len(b) && b[j] < k {
			j++
		}
		if j == len(b) || b[j] != k {
			out = append(out, k)
		}
	}
	return out
}

// rankLayers turns layers of mixed keys into sorted ranks, keeping the
// positions keep accepts (all if keep is nil).
func rankLayers(layers map[int][]uint64, keep func(engine.Position) bool) map[int][]uint64 {
	out := map[int][]uint64{}
	for pegs, keys := range layers {
		r := make([]uint64, 0, len(keys))
		for _, k := range keys {
			if p := unmix(k); keep == nil || keep(p) {
				r = append(r, rank(p))
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
		if _, found := slices.BinarySearch(o.ranks[p.Pegs()], rank(o.group.Canonical(o.anyGroup.Apply(s, p)))); found {
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
	_, found := slices.BinarySearch(o.extra[p.Pegs()], rank(o.anyGroup.Canonical(p)))
	return found, true
}

// inLevel reports whether p is shown to be reachable from the oracle's
// start. The tables hold only the level's positions, so "not winnable" is
// an answer only for those: a position the start cannot reach may well be
// winnable. A position in the tables is in the level; otherwise, when the
// start has one hole v, play on complements decides it (backward play is
// forward play with pegs and holes swapped): the start reaches p exactly
// when p's complement can end with one peg at v. That solve is quick when
// p has many pegs, as lost positions do; past opt.MaxNodes it gives up and
// p counts as outside.
func (o *Oracle) inLevel(ctx context.Context, p engine.Position, opt Options) (bool, error) {
	if w, ok := o.Winnable(p); !ok {
		return false, nil
	} else if w {
		return true, nil
	}
	if w, ok := o.OnePeg(p); ok && w {
		return true, nil
	}
	b := o.board
	hole := b.Complement(o.start)
	if p == o.start {
		return true, nil
	}
	if hole.Pegs() != 1 || p == b.Full() {
		return false, nil
	}
	sol, err := Solve(ctx, b, b.Complement(p), engine.Goal{Kind: engine.OnePegAt, Hole: holeOf(hole)}, opt)
	if errors.Is(err, ErrNodeLimit) {
		return false, nil
	}
	return sol.Solvable, err
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
	_, found := slices.BinarySearch(o.ranks[p.Pegs()], rank(o.group.Canonical(p)))
	return found, true
}

// rank returns the colex rank of p among positions with as many pegs:
// the sum of C(h, i+1) over its pegs h in increasing order.
func rank(p engine.Position) uint64 {
	var r uint64
	for i := 1; p != 0; i++ {
		h := bits.TrailingZeros64(uint64(p))
		p &= p - 1
		r += binom[h][i]
	}
	return r
}

var binom = func() (t [65][65]uint64) {
	for n := range 65 {
		t[n][0] = 1
		for k := 1; k <= n; k++ {
			t[n][k] = t[n-1][k-1] + t[n-1][k]
		}
	}
	return t
}()

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
	if hdr[0] != oracleMagic && hdr[0] != oracleMagicV1 {
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
			n, err := get()
			if err != nil || k > uint64(b.Holes()) || n > binom[b.Holes()][k] {
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
				if prev+d < prev || prev+d >= binom[b.Holes()][k] {
					return nil, fmt.Errorf("%w: rank out of range", ErrOracle)
				}
				prev += d
				r = append(r, prev)
			}
			t[int(k)] = r
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
	if hdr[0] == oracleMagic {
		if o.extra, err = table(); err != nil {
			return nil, err
		}
		o.hasAny = true
		if goal.Kind != engine.OnePegAt {
			o.extra = nil
		}
	}
	return o, nil
}

// Start returns the start of the oracle's level.
func (o *Oracle) Start() engine.Position { return o.start }

// Goal returns the goal the oracle answers for.
func (o *Oracle) Goal() engine.Goal { return o.goal }
