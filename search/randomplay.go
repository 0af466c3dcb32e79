package search

import (
	"context"
	"fmt"

	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// randomWin returns the probability that a player choosing uniformly among
// the legal jumps meets prob's goal from its start, correctly rounded, from
// the winnable positions win (layers by peg count, keys or coded, under
// gen's group; a layer loaded from its code is let go again).
//
// The chance P(p) of winning from p is the mean of its children's over
// all its jumps, winning or not, and a child that cannot win has none; so
// it is found layer by layer from one peg up over the winnable positions
// alone. Each P is held in 128-bit fixed point (see exact.DivFloor): a
// division rounds down by less than a unit, 2^-118, and a mean of values
// each short by at most e units is short by at most e, so the start's is
// short by fewer units than it has pegs. If that interval holds a point
// where float64 rounding changes, which the checks in exact.ProbFloat64
// find, the answer cannot be given exactly and randomWin says so.
func randomWin(ctx context.Context, prob Problem, gen *movegen.Gen, win map[int]*layered.Layer, opt Options, mem *memory.Budget) (float64, error) {
	return randomWinBy(ctx, prob, gen, opt, mem, func(pegs int) ([]uint64, func(), error) {
		l := win[pegs]
		if l == nil || l.Size() == 0 {
			return nil, func() {}, nil
		}
		if l.Keys == nil {
			if err := l.Load(opt.Workers, mem); err != nil {
				return nil, nil, err
			}
		}
		return l.Keys, func() { l.Drop(mem) }, nil // a layer decoded here goes back to its code
	})
}

// randomWinBy is randomWin with the winnable positions of each peg count
// from winnable: sorted mixed keys (none if there are none), and a func
// to call once they have been used.
func randomWinBy(ctx context.Context, prob Problem, gen *movegen.Gen, opt Options, mem *memory.Budget, winnable func(pegs int) ([]uint64, func(), error)) (float64, error) {
	p0 := prob.Start.Pegs()
	var prev []uint64     // the winnable keys of the layer below, sorted
	var vals []exact.U128 // their chances
	var held int64
	defer func() { mem.Give(held) }()
	for pegs := 1; pegs <= p0; pegs++ {
		keys, done, err := winnable(pegs)
		if err != nil {
			return 0, err
		}
		if len(keys) == 0 {
			done()
			return 0, nil // no winnable position of this many pegs: none above either
		}
		next, bytes, err := chances(ctx, gen, keys, prev, vals, opt, mem)
		done()
		if err != nil {
			return 0, err
		}
		mem.Give(held)
		prev, vals, held = keys, next, bytes
	}
	return chanceFloat64(vals[0], p0)
}

// chanceFloat64 returns the random player's chance v of winning from a
// start of p0 pegs (fixed point, short of the true one by less than p0
// units) correctly rounded.
func chanceFloat64(v exact.U128, p0 int) (float64, error) {
	p, ok := exact.ProbFloat64(v, uint64(p0))
	if !ok {
		return 0, fmt.Errorf("search: the random player's chance, %g, lies within %d units of 2^-118 of where float64 rounding changes: it cannot be given correctly rounded", p, p0)
	}
	return p, nil
}

// chances returns the chance of winning from each winnable position keys
// (of one peg count, sorted), given those of the layer below, prev with
// vals (none for one peg: every winnable position of one peg is won), and
// the bytes it holds, charged to mem.
func chances(ctx context.Context, gen *movegen.Gen, keys, prev []uint64, vals []exact.U128, opt Options, mem *memory.Budget) ([]exact.U128, int64, error) {
	bytes := int64(len(keys)) * 16
	if err := mem.Take(bytes, "the random player's chances"); err != nil {
		return nil, 0, err
	}
	if prev == nil {
		return layered.Chances(ctx, gen, keys, nil, nil, opt.Workers), bytes, nil
	}
	ib := key.IndexBytes(len(prev))
	if err := mem.Take(ib, "the random player's chances"); err != nil {
		mem.Give(bytes)
		return nil, 0, err
	}
	defer mem.Give(ib)
	out := layered.Chances(ctx, gen, keys, prev, vals, opt.Workers)
	if out == nil {
		mem.Give(bytes)
		return nil, 0, ctx.Err()
	}
	return out, bytes, nil
}
