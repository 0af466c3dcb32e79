package dfs

import (
	"fmt"
	"math/bits"

	"pegs/engine"
	"pegs/search/internal/memory"
)

// PosSet is an open-addressing hash set of non-empty positions that grows
// within a memory budget: the solver's table of refuted positions, which
// searches for the same goal may share (Config.Dead), and a beam's set of
// children.
type PosSet struct {
	keys   []engine.Position
	n      int
	budget int64
	shift  uint
}

// NewPosSet returns an empty set that may take budget bytes.
func NewPosSet(budget int64) *PosSet {
	s := &PosSet{budget: budget}
	s.alloc(1 << 8)
	return s
}

// reset empties s.
func (s *PosSet) reset() {
	s.alloc(1 << 8)
	s.n = 0
}

// reserve makes room in an empty s for n positions without growing.
func (s *PosSet) reserve(n int) {
	if size := 1 << log2(2*n); s.n == 0 && len(s.keys) < size && int64(size)*8 <= s.budget {
		s.alloc(size)
	}
}

// clear empties s, keeping its table for the positions to come: a beam
// fills one set a layer, and layers of a beam are alike in size.
func (s *PosSet) clear() {
	clear(s.keys)
	s.n = 0
}

// alloc gives s an empty table of n slots, written once a page: a probe
// reads a slot before it writes one, and a fresh page read first faults
// twice, the second time with a flush of every core's TLB (see
// memory.Touched). Where the first solution's table grew in untouched
// pages, growing took a quarter of `pegs solve`'s own time on the English
// centre game (perf, 400 runs).
func (s *PosSet) alloc(n int) {
	s.keys = memory.Touched[engine.Position](n)
	s.shift = uint(64 - log2(n))
}

func log2(n int) int { return bits.Len(uint(n) - 1) }

func (s *PosSet) slot(p engine.Position) int {
	return int((uint64(p) * 0x9E3779B97F4A7C15) >> s.shift)
}

// Has reports whether p is in the set.
func (s *PosSet) Has(p engine.Position) bool {
	mask := len(s.keys) - 1
	for i := s.slot(p); ; i = (i + 1) & mask {
		switch s.keys[i] {
		case p:
			return true
		case 0:
			return false
		}
	}
}

// Add inserts p, growing the table, and reports whether p was new; it
// fails with a *memory.Error when the larger table would pass the budget.
func (s *PosSet) Add(p engine.Position) (bool, error) {
	if 2*(s.n+1) > len(s.keys) {
		if err := s.grow(); err != nil {
			return false, err
		}
	}
	mask := len(s.keys) - 1
	for i := s.slot(p); ; i = (i + 1) & mask {
		switch s.keys[i] {
		case p:
			return false, nil
		case 0:
			s.keys[i] = p
			s.n++
			return true, nil
		}
	}
}

func (s *PosSet) grow() error {
	next := int64(2*len(s.keys)) * 8
	if next+int64(len(s.keys))*8 > s.budget {
		return &memory.Error{What: fmt.Sprintf("a table of %d positions", s.n), Need: next, InUse: int64(len(s.keys)) * 8, Budget: s.budget}
	}
	old := s.keys
	s.alloc(2 * len(old))
	mask := len(s.keys) - 1
	for _, p := range old {
		if p == 0 {
			continue
		}
		i := s.slot(p)
		for s.keys[i] != 0 {
			i = (i + 1) & mask
		}
		s.keys[i] = p
	}
	return nil
}
