package search

import (
	"context"
	"fmt"
	"time"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// winning counts, from prob's start, the jump sequences that meet the
// goal and the probability that a player choosing uniformly among the
// legal jumps meets it (correctly rounded), over the winnable positions win
// (layers by peg count, keys or coded, under gen's group; a layer loaded
// from its code is let go again). finish is called with the one-peg
// winnable position where there is just one, a single orbit of finishes,
// so that the paths from the start are all paths to it.
//
// Both are found backward, layer by layer from one peg up, over the
// winnable positions alone (see layered.Win): the paths from a position
// are its winnable children's summed, and the chance P(p) of winning from
// p is the mean of its children's over all its jumps, winning or not, a
// child that cannot win having none. Each P is held in 128-bit fixed point
// (see exact.DivFloor): a division rounds down by less than a unit,
// 2^-118, and a mean of values each short by at most e units is short by
// at most e, so the start's is short by fewer units than it has pegs. If
// that interval holds a point where float64 rounding changes, which the
// checks in exact.ProbFloat64 find, the answer cannot be given exactly and
// winning says so.
func winning(ctx context.Context, prob Problem, gen *movegen.Gen, win map[int]*layered.Layer, opt ExploreOptions, mem *memory.Budget, finish func(engine.Position)) (exact.U128, float64, error) {
	p0 := prob.Start.Pegs()
	var below *layered.Winning
	defer func() {
		if below != nil {
			below.Free(mem)
		}
	}()
	for pegs := 1; pegs <= p0; pegs++ {
		l := win[pegs]
		if l == nil || l.Size() == 0 {
			return exact.U128{}, 0, nil // no winnable position of this many pegs: none above either
		}
		if l.Keys() == nil {
			if err := l.Load(opt.Workers, mem); err != nil {
				return exact.U128{}, 0, err
			}
		}
		if pegs == 1 && len(l.Keys()) == 1 {
			finish(key.Unmix(l.Keys()[0]))
		}
		w, err := layered.Win(ctx, gen, l.Keys(), below, opt.Workers, mem)
		if err != nil {
			return exact.U128{}, 0, err
		}
		if below != nil {
			below.Free(mem)
			win[pegs-1].Drop(mem) // a layer decoded here goes back to its code
		}
		below = w
	}
	p, err := chanceFloat64(below.Counts[0].Chance, p0) // the start alone
	return below.Counts[0].Paths, p, err
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

// RandomPlay is a problem's random-play chance alone, as RandomChance finds
// it.
type RandomPlay struct {
	// Win is the probability that a player choosing uniformly among the
	// legal jumps meets the goal, correctly rounded: Explore's
	// Analysis.RandomWin.
	Win float64
	// Winnable counts the winnable positions it was found over, up to
	// Symmetries symmetries (see Problem.Group).
	Winnable   int64
	Symmetries int
	PeakBytes  int64
	Elapsed    time.Duration
}

// RandomChance finds the random player's chance of meeting prob's goal,
// Explore's Analysis.RandomWin, and nothing else: the winnable positions
// as Winnable finds them (on a problem whose start is its goal's
// complement, forward to the middle only, no complete games, no paths),
// then the chance backward over them as Explore finds it (see winning),
// without the paths alongside.
func RandomChance(ctx context.Context, prob Problem, opt Budget) (*RandomPlay, error) {
	if err := prob.checkOnePeg(); err != nil {
		return nil, err
	}
	ws, err := newWinSearch(prob, []engine.Goal{prob.Goal}, opt)
	if err != nil {
		return nil, err
	}
	sets, err := ws.run(ctx)
	if err != nil {
		return nil, err
	}
	w := sets[0]
	p, err := ws.chance(ctx, w)
	if err != nil {
		return nil, err
	}
	return &RandomPlay{Win: p, Winnable: w.Winnable, Symmetries: ws.group.Len(), PeakBytes: ws.mem.Peak(), Elapsed: time.Since(ws.t0)}, nil
}

// chance returns the random player's chance over w's winnable positions,
// layer by layer from one peg up as winning finds it, letting each layer's
// keys go once its chances are found. A layer past the middle is made from
// the one it mirrors as it is reached.
func (ws *winSearch) chance(ctx context.Context, w *WinSet) (float64, error) {
	var below *layered.Winning
	defer func() {
		if below != nil {
			below.Free(ws.mem)
		}
	}()
	progress := ws.opt.config().Progress
	for pegs := 1; pegs <= ws.p0; pegs++ {
		keys, ok := w.keys[pegs]
		if m := w.mirror[pegs]; !ok && m != nil {
			keys = layered.ComplementKeys(m.of, ws.b, ws.group, key.Mixed(), ws.opt.Workers)
			if err := ws.mem.Take(int64(len(keys))*8, "the winnable positions"); err != nil {
				return 0, err
			}
		}
		if len(keys) == 0 {
			return 0, nil // no winnable position of this many pegs: none above either
		}
		if progress != nil {
			progress("chance", pegs, 0, len(keys))
		}
		l, err := layered.WinChances(ctx, ws.gen, keys, below, ws.opt.Workers, ws.mem)
		if err != nil {
			return 0, err
		}
		if below != nil {
			below.Free(ws.mem)
		}
		below = l
		delete(w.keys, pegs) // a layer it mirrors below is done with it
		ws.mem.Give(int64(len(keys)) * 8)
	}
	return chanceFloat64(below.Counts[0].Chance, ws.p0)
}
