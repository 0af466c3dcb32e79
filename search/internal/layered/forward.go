package layered

import "context"

// Forward expands layers from the last of start until none is left, calling
// visit with each layer and its stats; it keeps each layer's keys and drops
// its counts once the next layer has them.
func Forward(ctx context.Context, e *Expander, start []*Layer, phase string, progress Progress, visit func(*Layer, Stats)) ([]*Layer, error) {
	layers := start
	if err := e.Mem.Take(layers[len(layers)-1].Bytes(), "the first layer"); err != nil {
		return nil, err
	}
	var held int64 // the bytes of the keys of the layers expanded
	for {
		cur := layers[len(layers)-1]
		if progress != nil {
			pegs := cur.Pegs
			e.Progress = func(done, total int) { progress(phase, pegs, done, total) }
		}
		// Past a share of the budget, the layers wait for the walk back
		// coded, those before included, and a layer without counts is
		// coded as it is found: it is never held whole as keys beside its
		// own tables or its children's, but expanded as it is decoded (on
		// the French board 1.2 GB less at the widest layer, and 2 GB
		// less as it is found).
		coded := func(more int) bool {
			return e.Store && held+int64(more)*8 > e.Mem.Limit()/e.Tuning.Share()
		}
		e.Code = func(n int, _ int64) bool { return coded(cur.Size() + n) }
		next, st, err := e.Next(ctx, cur)
		e.Code = nil
		if err != nil {
			return layers, err
		}
		if visit != nil {
			visit(cur, st)
		}
		// Counts are needed only to make the next layer's.
		cur.DropCounts(e.Mem)
		last := next.Size() == 0
		if last {
			e.Mem.Give(next.Bytes())
		} else {
			layers = append(layers, next)
		}
		if held += st.Positions * 8; coded(next.Size()) {
			for _, l := range layers {
				if l.Stored == nil && !l.Counted() {
					l.Store(e.Gen.Board.Holes(), e.Workers, e.Mem)
				}
			}
		}
		if last {
			return layers, nil
		}
	}
}
