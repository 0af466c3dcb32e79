package search

import (
	"fmt"

	"pegs/engine"
	"pegs/internal/bytesize"
	"pegs/search/internal/memory"
)

// ErrMemory reports a search that would pass its memory budget.
var ErrMemory = memory.ErrExceeded

// posSet is an open-addressing hash set of non-empty positions that grows
// within a memory budget.
type posSet struct {
	keys   []engine.Position
	n      int
	budget int64
	shift  uint
}

func newPosSet(budget int64) *posSet {
	s := &posSet{budget: budget}
	s.alloc(1 << 8)
	return s
}

// reset empties s.
func (s *posSet) reset() {
	s.alloc(1 << 8)
	s.n = 0
}

func (s *posSet) alloc(n int) {
	s.keys = make([]engine.Position, n)
	s.shift = uint(64 - log2(n))
}

func log2(n int) int {
	k := 0
	for 1<<uint(k) < n {
		k++
	}
	return k
}

func (s *posSet) slot(p engine.Position) int {
	return int((uint64(p) * 0x9E3779B97F4A7C15) >> s.shift)
}

// has reports whether p is in the set.
func (s *posSet) has(p engine.Position) bool {
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

// add inserts p, growing the table, and reports whether p was new; it
// fails with ErrMemory when the larger table would pass the budget.
func (s *posSet) add(p engine.Position) (bool, error) {
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

func (s *posSet) grow() error {
	next := int64(2*len(s.keys)) * 8
	if next+int64(len(s.keys))*8 > s.budget {
		return fmt.Errorf("%w: a table of %d positions needs %s (budget %s)", ErrMemory, s.n, bytesize.Format(next), bytesize.Format(s.budget))
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
