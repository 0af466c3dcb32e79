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
