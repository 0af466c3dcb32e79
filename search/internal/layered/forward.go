package layered

import (
	"context"
	"fmt"
)

// Forward expands layers from first until none is left, calling visit
// with each layer and its stats, and returns them (first the first); it
// keeps each layer's keys and drops its counts once the next layer has
// them.
func Forward(ctx context.Context, e *Expander, first *Layer, progress Progress, visit func(*Layer, Stats)) ([]*Layer, error) {
	layers := []*Layer{first}
	if err := e.mem.Take(layers[len(layers)-1].Bytes(), "the first layer"); err != nil {
		return nil, err
	}
	var held int64 // the bytes of the keys of the layers expanded
	for {
		cur := layers[len(layers)-1]
		if progress != nil {
			pegs := cur.pegs
			e.progress = func(done, total int) { progress("forward", pegs, done, total) }
		}
		// Past a share of the budget, the layers wait for the walk back
		// coded, those before included, and a layer without counts is
		// coded as it is found: it is never held whole as keys beside its
		// own tables or its children's, but expanded as it is decoded (on
		// the French board 1.2 GB less at the widest layer, and 2 GB
		// less as it is found).
		coded := func(more int) bool {
			return e.store && held+int64(more)*8 > e.mem.Limit()/e.tuning.Share()
		}
		e.code = func(n int, _ int64) bool { return coded(cur.Size() + n) }
		next, st, err := e.Next(ctx, cur)
		e.code = nil
		if err != nil {
			return layers, err
		}
		if visit != nil {
			visit(cur, st)
		}
		// Counts are needed only to make the next layer's.
		cur.DropCounts(e.mem)
		last := next.Size() == 0
		if last {
			e.mem.Give(next.Bytes())
		} else {
			layers = append(layers, next)
		}
		if held += st.Positions * 8; coded(next.Size()) {
			for _, l := range layers {
				if l.stored == nil && !l.Counted() {
					l.Store(e.gen.Board.Holes(), e.workers, e.mem)
				}
			}
		}
		if last {
			return layers, nil
		}
	}
}

// Reach expands layers from first until none is left, as Forward does,
// but lets each go once expanded, before its children are collected, and
// calls visit with its peg count and stats; e is of purpose Positions or
// Scanned. Stopped early (cancelled, or past the budget), it returns the
// error once visit has had the layers finished.
//
// A layer found in bitsets stays as them (Scanned), a bit a number. One
// found in tables whose keys would not leave room for its children's
// tables and lists (as many as the layers before lead to expect) is coded
// as it is collected instead (see Stored), and expanded as it is decoded
// (every one where Tuning.CodeEvery says so). Only then: coding every
// large layer took the French d3 count from 6.9 to 4.7 GB peak RSS, but
// from 419 to 526 s (before its layers went into bitsets).
func Reach(ctx context.Context, e *Expander, first *Layer, progress Progress, visit func(pegs int, st Stats)) error {
	if e.purpose != Positions && e.purpose != Scanned {
		return fmt.Errorf("%w: %v expander reaching", ErrSetup, e.purpose)
	}
	if err := e.mem.Take(first.Bytes(), "the first layer"); err != nil {
		return err
	}
	e.spent = func(l *Layer) { l.Release(e.mem) }
	e.code = func(n int, tableBytes int64) bool {
		if e.tuning.CodeEvery {
			return true
		}
		children := int64(slotsFor(e.expect(n), tableFill)) * 8
		lists := int64(roundSize(n, 8, e.mem.Limit())) * 8 * 5 / 4
		return e.mem.Used()-tableBytes+int64(n)*8+children+lists > e.mem.Limit()
	}
	defer func() { e.spent, e.code = nil, nil }()
	cur := first
	for cur.Size() > 0 {
		if progress != nil {
			pegs := cur.pegs
			e.progress = func(done, total int) { progress("forward", pegs, done, total) }
		}
		next, st, err := e.Next(ctx, cur)
		if err != nil {
			return err
		}
		visit(cur.pegs, st)
		e.mem.Give(cur.Bytes())
		cur = next
	}
	e.mem.Give(cur.Bytes())
	return nil
}
