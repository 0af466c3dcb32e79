package layered

import (
	"context"
	"sync/atomic"

	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
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
	out := memory.Make[exact.U128](len(keys))
	if prev == nil {
		for i := range out {
			out[i] = exact.ProbOne
		}
		return out
	}
	if !AddChances(ctx, gen, keys, key.NewIndex(prev), vals, out, true, workers) {
		return nil
	}
	return out
}

// AddChances adds to sums[i], for each position keys[i], the chances of
// its children found in index (positions of one peg fewer, their chances
// vals), and with divide turns each sum into the position's chance: the
// sum over all its jumps, rounded down (see exact.DivFloor). It reports
// false when ctx is cancelled.
func AddChances(ctx context.Context, gen *movegen.Gen, keys []uint64, index *key.Index, vals, sums []exact.U128, divide bool, workers int) bool {
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
			for _, k := range moves {
				if j, ok := index.Find(key.Mix(par.Child(k))); ok {
					sums[i], _ = sums[i].Add(vals[j]) // at most 1023 ones: no overflow
				}
			}
			if divide {
				sums[i] = exact.DivFloor(sums[i], uint64(len(moves)))
			}
		}
	})
	return !stopped.Load()
}
