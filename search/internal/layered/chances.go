package layered

import (
	"context"
	"sync/atomic"

	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"
)

// Chances returns the random player's chance of winning from each winnable
// position keys (of one peg count, sorted mixed keys under gen's group),
// given those of the winnable positions of one peg fewer, prev (sorted)
// with vals; with prev nil (one peg, every winnable position won), one
// each. A position's chance is the sum of its winnable children's over
// all its jumps, rounded down (see exact.DivFloor). It returns nil when
// ctx is cancelled.
func Chances(ctx context.Context, gen *movegen.Gen, keys, prev []uint64, vals []exact.U128, workers int) []exact.U128 {
	out := make([]exact.U128, len(keys))
	if prev == nil {
		for i := range out {
			out[i] = exact.ProbOne
		}
		return out
	}
	index := key.NewIndex(prev)
	var stopped atomic.Bool
	pool.Chunks(len(keys), workers, func(_, lo, hi int) {
		if ctx.Err() != nil {
			stopped.Store(true)
			return
		}
		par := gen.NewParent()
		var moves []int16
		for i := lo; i < hi; i++ {
			p := key.Unmix(keys[i])
			par.Set(p)
			moves = gen.AppendMoves(moves[:0], p)
			var sum exact.U128
			for _, k := range moves {
				if j, ok := index.Find(key.Mix(par.Child(k))); ok {
					sum, _ = sum.Add(vals[j]) // at most 1023 ones: no overflow
				}
			}
			out[i] = exact.DivFloor(sum, uint64(len(moves)))
		}
	})
	if stopped.Load() {
		return nil
	}
	return out
}
