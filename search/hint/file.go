package hint

import (
	"bufio"
	"bytes"
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

// Oracle files begin with this line; version 1 files, without the one-peg
// table, and version 2 files, without the fewest table, still load.
const (
	oracleMagic   = "PEGS-ORACLE 3"
	oracleMagicV2 = "PEGS-ORACLE 2"
	oracleMagicV1 = "PEGS-ORACLE 1"
)

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
	o := &Oracle{board: b, start: start, goal: goal, group: b.GameSymmetry(start, goal)}
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
	o.anyGroup = b.GameSymmetry(start, engine.Goal{Kind: engine.OnePeg})
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
