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
// from a table of the level's winnable positions, without searching. It
// holds, per peg count, the combinatorial ranks of the canonical winnable
// positions, sorted.
type Oracle struct {
	board *engine.Board
	start engine.Position
	goal  engine.Goal
	group *engine.Group
	ranks map[int][]uint64
	count int64
}

const oracleMagic = "PEGS-ORACLE 1"

// NewOracle builds the oracle of a problem from its winnable positions.
func NewOracle(ctx context.Context, prob Problem, opt ExploreOptions) (*Oracle, error) {
	ws, err := Winnable(ctx, prob, opt)
	if err != nil {
		return nil, err
	}
	o := &Oracle{board: prob.Board, start: prob.Start, goal: prob.Goal, group: ws.group, ranks: map[int][]uint64{}}
	for pegs, keys := range ws.keys {
		r := make([]uint64, len(keys))
		for i, k := range keys {
			r[i] = rank(unmix(k))
		}
		slices.Sort(r)
		o.ranks[pegs] = r
		o.count += int64(len(r))
	}
	return o, nil
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
// goal, then per peg count the gaps between successive ranks as varints.
func (o *Oracle) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s\n%s\n%d\n%s\n%s\n", oracleMagic, o.board.Name(), o.board.Holes(), o.board.Line(o.start), o.board.FormatGoal(o.goal))
	var buf [binary.MaxVarintLen64]byte
	put := func(x uint64) {
		n := binary.PutUvarint(buf[:], x)
		bw.Write(buf[:n])
	}
	pegs := make([]int, 0, len(o.ranks))
	for k := range o.ranks {
		pegs = append(pegs, k)
	}
	slices.Sort(pegs)
	put(uint64(len(pegs)))
	for _, k := range pegs {
		r := o.ranks[k]
		put(uint64(k))
		put(uint64(len(r)))
		prev := uint64(0)
		for _, x := range r {
			put(x - prev)
			prev = x
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
	if hdr[0] != oracleMagic {
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
	o := &Oracle{board: b, start: start, goal: goal, group: Problem{b, start, goal}.Group(), ranks: map[int][]uint64{}}
	get := func() (uint64, error) {
		x, err := binary.ReadUvarint(br)
		if err != nil {
			return 0, fmt.Errorf("%w: truncated table", ErrOracle)
		}
		return x, nil
	}
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
		if err != nil || k > 64 || n > binom[b.Holes()][k] {
			return nil, fmt.Errorf("%w: layer size", ErrOracle)
		}
		r := make([]uint64, n)
		prev := uint64(0)
		for i := range r {
			d, err := get()
			if err != nil {
				return nil, err
			}
			prev += d
			r[i] = prev
		}
		o.ranks[int(k)] = r
		o.count += int64(n)
	}
	return o, nil
}

// Goal returns the goal the oracle answers for.
func (o *Oracle) Goal() engine.Goal { return o.goal }
