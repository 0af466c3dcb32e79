package search

import (
	"context"
	"errors"
	"math/big"
	"time"

	"pegs/engine"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// Explore searches the whole state space of a problem layer by layer,
// sharded over a worker pool, and counts everything in Analysis exactly.
//
// Forward, each layer's positions alone are found, wide layers held as
// bitsets. Complete games are then counted backward over them from the
// last (see layered.Games): the games from a position are its children's
// summed. Winnable positions are found walking back up from the goal
// positions reached: the parents of a winnable position are found by
// undoing jumps, and those that are reachable are winnable. Last, the
// solutions and the random player's chance are counted backward over the
// winnable positions alone (see winning); where the goal has several
// orbits of finishes, the solutions by finish are counted forward through
// the winnable positions (see countWinning). The package documentation
// says more.
//
// Cancelled, it returns with ctx's error the layers the forward pass
// finished, counted as with ReachableOnly (no winnable positions or path
// counts), as ReachableOnly itself does.
func Explore(ctx context.Context, prob Problem, opt ExploreOptions) (*Analysis, error) {
	t0 := time.Now()
	if err := prob.checkOnePeg(); err != nil {
		return nil, err
	}
	b := prob.Board
	mem := memory.New(opt.Bytes())
	group := ExploreGroup(prob, opt)
	gen := movegen.New(b, group)
	a := NewAnalysis(group, opt)
	if opt.ReachableOnly {
		e, err := layered.NewExpander(layered.Scanned, layered.Setup{Gen: gen, Mem: mem, Workers: opt.Workers, Tuning: opt.knobs.layered})
		if err != nil {
			return nil, err
		}
		return reachable(ctx, a, layered.First(group, prob.Start, false), e, opt.config().Progress, t0)
	}
	// Stopped by cancellation, the analysis keeps what the forward pass
	// finished: its layers' positions, as ReachableOnly reports them.
	stopped := func(err error) (*Analysis, error) {
		if !errors.Is(err, context.Canceled) {
			return nil, err
		}
		a.KeepReachable()
		a.total(mem, t0)
		return a, err
	}
	if opt.Spill.Dir != "" {
		a.Games = new(big.Int) // counted on the way, left out at the end with NoGames
		if err := exploreSpilled(ctx, a, prob, gen, opt, mem); err != nil {
			return stopped(err)
		}
		a.total(mem, t0)
		return a, nil
	}
	// The forward layers, keys or bitsets, go to the games count and the
	// walk back, which sorts what it must. Where no layer can be held as
	// bitsets (a board past key.MaxDenseHoles), the games are counted
	// forward instead, the paths into each position carried through
	// tables: looked up by key, a child cost more than its record in a
	// table (on a board of 42 holes, 8.5 s against 3.7 s).
	forward := !opt.NoGames && gen.Ranker() == nil
	purpose := layered.Scanned
	if forward {
		purpose = layered.Paths
	}
	e, err := layered.NewExpander(purpose, layered.Setup{Gen: gen, Mem: mem, Workers: opt.Workers, Tuning: opt.knobs.layered, Store: true})
	if err != nil {
		return nil, err
	}
	first := layered.First(group, prob.Start, forward)
	finished := false // the solutions by finish counted forward
	fwd, err := layered.Forward(ctx, e, first, opt.config().Progress, func(l *layered.Layer, st layered.Stats) {
		a.Layers = append(a.Layers, LayerStats{Pegs: l.Pegs(), Reachable: st.Positions, ReachableRaw: st.Raw, DeadEnds: st.DeadEnds})
		if forward {
			a.Games.Add(a.Games, st.Games.Big())
			if l.Pegs() == 1 {
				a.countFinishes(prob, group, l)
				finished = true
			}
		}
	})
	if err != nil {
		return stopped(err)
	}
	// Counted beside the walk back and the chances, on goroutines of
	// their own (the walk back following Games up the layers), the games
	// took longer: 7.4-7.8 s against 5.7-6.2 s for BenchmarkExplore's
	// English full analysis under a runtime trace (three runs each,
	// alternated, the machine loaded), the cores' idle time the same and
	// the peak charge 168-182 MiB against 126.
	if !opt.NoGames && !forward {
		games, err := layered.Games(ctx, gen, fwd, opt.config(), opt.knobs.layered, mem)
		if err != nil {
			return stopped(err)
		}
		a.Games = games.Big()
	}
	win, err := findWinnable(ctx, a, prob, gen, opt, mem, fwd)
	if err != nil {
		return stopped(err)
	}
	for _, l := range fwd {
		l.Release(mem)
	}
	// One finishing orbit: the paths from the start to the goal are all
	// paths to it, counted backward with the chances. Otherwise the
	// solutions by finish are counted forward again.
	var finish *engine.Position
	paths, chance, err := winning(ctx, prob, gen, win, opt, mem, func(p engine.Position) { finish = &p })
	if err != nil {
		return stopped(err)
	}
	a.RandomWin = chance
	switch {
	case finished:
	case finish != nil:
		a.CountFinish(prob, group, *finish, paths.Big())
	default:
		if err := countWinning(ctx, a, prob, gen, opt, mem, win); err != nil {
			return stopped(err)
		}
	}
	for _, l := range win {
		mem.Give(l.Bytes())
	}
	a.total(mem, t0)
	return a, nil
}

// ExploreGroup returns the symmetry group Explore counts positions up to
// for prob with opt: the problem's group (see Problem.Group), the board's
// with WholeGroup and a goal of one peg anywhere, the trivial one with
// NoSymmetry.
func ExploreGroup(prob Problem, opt ExploreOptions) *engine.Group {
	group := prob.Group()
	if opt.WholeGroup && prob.Goal.Kind == engine.OnePeg {
		group = prob.Board.Symmetry()
	}
	if opt.NoSymmetry {
		group = group.Trivial()
	}
	return group
}

// reachable is Explore with ReachableOnly, from layer first, with e (of
// purpose Positions or Scanned): each layer is dropped once the next is
// found (see layered.Reach). Stopped early (cancelled, or past the
// budget), it returns the layers finished with the error.
func reachable(ctx context.Context, a *Analysis, first *layered.Layer, e *layered.Expander, progress layered.Progress, t0 time.Time) (*Analysis, error) {
	a.KeepReachable()
	err := layered.Reach(ctx, e, first, progress, func(pegs int, st layered.Stats) {
		a.Layers = append(a.Layers, LayerStats{Pegs: pegs, Reachable: st.Positions, ReachableRaw: st.Raw, DeadEnds: st.DeadEnds})
	})
	a.total(e.Mem(), t0)
	return a, err
}

// countWinning counts paths and random play forward again, from the start
// through the winnable positions win (layers by peg count, keys or coded)
// only, with gen's moves and group: every path to the goal stays among
// them, and a position's share of random play divides by all its jumps,
// winning or not, so solutions and the random-play win probability come
// out exact.
func countWinning(ctx context.Context, a *Analysis, prob Problem, gen *movegen.Gen, opt ExploreOptions, mem *memory.Budget, win map[int]*layered.Layer) error {
	p0 := prob.Start.Pegs()
	if win[p0] == nil || win[p0].Size() == 0 {
		return nil
	}
	e, err := layered.NewExpander(layered.Paths, layered.Setup{Gen: gen, Mem: mem, Workers: opt.Workers, Tuning: opt.knobs.layered})
	if err != nil {
		return err
	}
	progress := opt.config().Progress
	cur := layered.First(gen.Group, prob.Start, true) // win[p0] holds the start alone
	for cur.Pegs() > 1 {
		if progress != nil {
			pegs := cur.Pegs()
			e.SetProgress(func(done, total int) { progress("count", pegs, done, total) })
		}
		// Children outside the winnable positions are dropped as they
		// come; coded ones seed the tables from their code.
		var next *layered.Layer
		var err error
		if w := win[cur.Pegs()-1]; w != nil && w.Size() > 0 {
			next, _, err = e.NextWithin(ctx, cur, w)
		} else {
			next = layered.NewLayer(cur.Pegs()-1, nil)
		}
		if err != nil {
			return err
		}
		if cur.Pegs() != p0 {
			mem.Give(cur.Bytes())
		}
		cur = next
		if cur.Len() == 0 {
			return nil
		}
	}
	a.countFinishes(prob, gen.Group, cur)
	mem.Give(cur.Bytes())
	return nil
}

// findWinnable marks the positions of the forward layers that can reach the
// goal (see layered.WalkBack), letting each layer go once done with it,
// and returns them by peg count, held in mem: as keys, or coded (see
// layered.Stored) once their keys pass a share of the budget, as the
// forward layers are (on the French c1 run about 1 GB less at the walk
// back's widest layer, where a 6 GiB budget stopped it).
func findWinnable(ctx context.Context, a *Analysis, prob Problem, gen *movegen.Gen, opt ExploreOptions, mem *memory.Budget, fwd []*layered.Layer) (map[int]*layered.Layer, error) {
	if len(layered.BackwardSeeds(prob.Board, prob.Start, prob.Goal, gen.Group)) == 0 {
		return nil, nil
	}
	byPegs := make(map[int]*layered.Layer)
	index := map[int]int{}
	for i, l := range fwd {
		byPegs[l.Pegs()] = l
		index[l.Pegs()] = i
	}
	win := make(map[int]*layered.Layer)
	var held int64 // the bytes of the winnable keys found
	code := func() {
		if held > mem.Limit()/opt.knobs.layered.Share() {
			for _, l := range win {
				if l.Keys() != nil { // Store leaves coded ones be
					l.Store(gen.Board.Holes(), opt.Workers, mem)
				}
			}
		}
	}
	err := layered.WalkBack(ctx, prob.Goal, gen, byPegs, fwd[0].Pegs(), true, layered.Mirrored(prob.Board, prob.Start, prob.Goal, gen.Group), opt.config(), mem, func(pegs int, keys []uint64) error {
		a.Layers[index[pegs]].Winnable = int64(len(keys))
		// The walk back is done with the layer below, which storing
		// overwrites, but not yet with this one.
		code()
		win[pegs] = layered.NewLayer(pegs, keys)
		held += int64(len(keys)) * 8
		return mem.Take(int64(len(keys))*8, "the winnable positions")
	})
	if err == nil {
		code()
	}
	return win, err
}
