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
	if keyTabs, ok := any(tabs).([]bucketTable[uint64]); ok && e.Code != nil && keyShift == 0 {
		var tableBytes int64
		for b := range keyTabs {
			tableBytes += int64(len(keyTabs[b].slots)) * 8
		}
		if e.Code(total, tableBytes) {
			s, err := codeTables(ctx, keyTabs, e.Gen.Board.Holes(), e.Workers, e.Mem)
			if err != nil {
				return nil, err
			}
			return &Layer{Pegs: pegs, Stored: s}, nil
		}
	}
	// The budget is asked before the layer is made. Children that count
	// in 64 bits (paths) make a layer of narrow counts.
	_, narrow := any(tabs).([]bucketTable[paths])
	bytes := int64(total) * 8
	switch {
	case narrow:
		bytes += int64(total) * 8
	case e.Counts:
		bytes += int64(total) * 16
	}
	if err := e.Mem.Take(bytes, "a layer"); err != nil {
		return nil, err
	}
	l := &Layer{Pegs: pegs, Keys: memory.Make[uint64](total)}
	switch {
	case narrow:
		l.Narrow = memory.Make[uint64](total)
	case e.Counts:
		l.M = memory.Make[exact.U128](total)
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
					l.Keys[base+j], l.M[base+j] = r.key, r.m
				}
			case []paths:
				for j, r := range recs {
					l.Keys[base+j], l.Narrow[base+j] = r.key, r.m
				}
			case []uint64:
				copy(l.Keys[base:], recs)
			case []packed:
				for j, r := range recs {
					l.Keys[base+j] = uint64(r)
				}
			}
			tabs[b].free()
			return nil
		})
	}
	return l, g.Wait()
}
