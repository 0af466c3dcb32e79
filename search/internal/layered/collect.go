package layered

import (
	"context"

	"golang.org/x/sync/errgroup"

	"pegs/search/internal/exact"
	"pegs/search/internal/memory"
)

// collect turns the buckets' tables into a sorted layer; keyShift is how
// far up their keys are shifted (see Expander.keyShift).
func collect[R rec](ctx context.Context, e *Expander, tabs []bucketTable[R], pegs int, keyShift uint) (*Layer, error) {
	total := 0
	offs := make([]int, len(tabs)+1)
	for b := range tabs {
		total += tabs[b].n
		offs[b+1] = total
	}
	// Tables of packed words (see Expander.keyShift) are not coded here:
	// codeTables reads mixed keys.
	if keyTabs, ok := any(tabs).([]bucketTable[uint64]); ok && e.code != nil && keyShift == 0 {
		var tableBytes int64
		for b := range keyTabs {
			tableBytes += int64(len(keyTabs[b].slots)) * 8
		}
		if e.code(total, tableBytes) {
			s, err := codeTables(ctx, keyTabs, e.gen.Board.Holes(), e.workers, e.mem)
			if err != nil {
				return nil, err
			}
			return &Layer{pegs: pegs, stored: s}, nil
		}
	}
	// The budget is asked before the layer is made. Children that count
	// in 64 bits (paths) make a layer of narrow counts.
	_, narrow := any(tabs).([]bucketTable[paths])
	bytes := int64(total) * 8
	switch {
	case narrow:
		bytes += int64(total) * 8
	case e.counts:
		bytes += int64(total) * 16
	}
	if err := e.mem.Take(bytes, "a layer"); err != nil {
		return nil, err
	}
	l := &Layer{pegs: pegs, keys: memory.Make[uint64](total)}
	switch {
	case narrow:
		l.narrow = memory.Make[uint64](total)
	case e.counts:
		l.m = memory.Make[exact.U128](total)
	}
	var g errgroup.Group
	g.SetLimit(e.nworkers())
	for b := range tabs {
		g.Go(func() error {
			if tabs[b].slots == nil {
				return nil
			}
			base := offs[b]
			switch recs := any(tabs[b].sorted()).(type) {
			case []record:
				for j, r := range recs {
					l.keys[base+j], l.m[base+j] = r.key, r.m
				}
			case []paths:
				for j, r := range recs {
					l.keys[base+j], l.narrow[base+j] = r.key, r.m
				}
			case []uint64:
				copy(l.keys[base:], recs)
			case []packed:
				for j, r := range recs {
					l.keys[base+j] = uint64(r)
				}
			}
			tabs[b].free()
			return nil
		})
	}
	return l, g.Wait()
}

// Sorted is the children of a part of a layer left in their buckets'
// tables (see Expander.NextPartSorted), charged to the budget until
// taken: bucket b's children are those whose mixed keys have b as their
// top log2(Buckets) bits, so the buckets in order are the children in
// key order.
type Sorted struct {
	sizes []int // children by bucket
	each  func(b int, f func(key uint64, paths exact.U128) error) error
	free  func()
}

// sortedOf returns the children in tabs, which it takes.
func sortedOf[R rec](tabs []bucketTable[R]) *Sorted {
	s := &Sorted{sizes: make([]int, len(tabs))}
	for b := range tabs {
		s.sizes[b] = tabs[b].n
	}
	s.each = func(b int, f func(uint64, exact.U128) error) error {
		t := &tabs[b]
		if t.slots == nil {
			return nil
		}
		defer t.free()
		switch recs := any(t.sorted()).(type) {
		case []paths:
			for _, r := range recs {
				if err := f(r.key, exact.U128{Lo: r.m}); err != nil {
					return err
				}
			}
		case []record:
			for _, r := range recs {
				if err := f(r.key, r.m); err != nil {
					return err
				}
			}
		case []uint64:
			for _, k := range recs {
				if err := f(k, exact.U128{}); err != nil {
					return err
				}
			}
		case []packed:
			for _, r := range recs {
				if err := f(uint64(r), exact.U128{}); err != nil {
					return err
				}
			}
		}
		return nil
	}
	s.free = func() {
		for b := range tabs {
			if tabs[b].slots != nil {
				tabs[b].free()
			}
		}
	}
	return s
}

// Buckets returns the buckets s's children are in.
func (s *Sorted) Buckets() int { return len(s.sizes) }

// Len returns s's children.
func (s *Sorted) Len() int {
	n := 0
	for _, m := range s.sizes {
		n += m
	}
	return n
}

// Each calls f with each child of bucket b, in key order, with its
// paths, then lets b's table go, its bytes given back to the budget:
// a bucket is taken once. Buckets may be taken at once on several
// goroutines. It stops at f's first error and returns it.
func (s *Sorted) Each(b int, f func(key uint64, paths exact.U128) error) error {
	return s.each(b, f)
}

// Release lets go the tables not yet taken.
func (s *Sorted) Release() { s.free() }
