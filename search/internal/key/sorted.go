package key

import (
	"math/bits"

	"pegs/engine"
)

// Sorted indexes positions held in ascending order: a position's place is
// found from its high bits, which say where the run of the positions that
// share them starts, then among the few of that run. It keeps the
// positions and a word of 4 bytes for each run, one run for each position
// or two: 12 to 16 bytes a position, where an Index takes 24 to 48, and
// a lookup reads a word of its runs and a line of its positions, tables
// small enough to stay in the shared cache more often than an Index's
// slots do (an Index holds its keys' places, not the keys in order).
type Sorted struct {
	ps []engine.Position
	// start[h] is the place of the first position whose bits above
	// shift are h; start[len(start)-1] is len(ps).
	start []uint32
	shift uint
}

// SortedBytes returns the memory a Sorted of n positions takes.
func SortedBytes(n int) int64 { return int64(n)*8 + (int64(runs(n))+1)*4 }

// runs returns the number of runs a Sorted of n positions has: a power of
// two, n or more.
func runs(n int) int { return 1 << bits.Len(uint(n)) }

// NewSorted returns the index of ps, which it keeps, and true, or false if
// ps are not in strictly ascending order or number 2^32 or more.
func NewSorted(ps []engine.Position) (*Sorted, bool) {
	if uint64(len(ps)) >= 1<<32 {
		return nil, false
	}
	for k := 1; k < len(ps); k++ {
		if ps[k] <= ps[k-1] {
			return nil, false
		}
	}
	n := runs(len(ps))
	s := &Sorted{ps: ps, start: make([]uint32, n+1)}
	if len(ps) > 0 {
		s.shift = uint(max(0, bits.Len64(uint64(ps[len(ps)-1]))-bits.Len(uint(n-1))))
	}
	h := 0
	for k, p := range ps {
		for ; h <= int(uint64(p)>>s.shift); h++ {
			s.start[h] = uint32(k)
		}
	}
	for ; h <= n; h++ {
		s.start[h] = uint32(len(ps))
	}
	return s, true
}

// Len returns the number of positions s indexes.
func (s *Sorted) Len() int { return len(s.ps) }

// Find returns the place of p among s's positions, or false if it is not
// among them.
func (s *Sorted) Find(p engine.Position) (int, bool) {
	h := uint64(p) >> s.shift
	if h >= uint64(len(s.start)-1) {
		return 0, false
	}
	for k, end := s.start[h], s.start[h+1]; k < end; k++ {
		if q := s.ps[k]; q >= p {
			return int(k), q == p
		}
	}
	return 0, false
}
