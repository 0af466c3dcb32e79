package search

import (
	"context"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"slices"

	"pegs/engine"
	"pegs/search/internal/spill"
)

// StartResult is the analysis of one single-vacancy start class.
type StartResult struct {
	Hole  int   // the representative vacancy
	Class []int // every vacancy symmetric to it
	// Decided is false when the exhaustive search would pass its memory
	// budget; Pairs then decide each finish without counting.
	Decided   bool
	Reachable int64 // positions up to the board's symmetry
	Winnable  int64
	Solutions *big.Int
	// Finishes lists the finishing holes that can hold the last peg, in
	// groups whose solutions are counted together: a group has one hole
	// unless symmetry of the board (but not of the start) and the position
	// classes cannot tell its holes apart.
	Finishes []Finish
	// Pairs, when the exhaustive search was not possible, decide vacate
	// Hole, finish f for every hole f with the depth-first solver.
	Pairs []Pair
}

// Finish is a group of finishing holes and the solutions that end in them.
type Finish struct {
	Holes     []int
	Solutions *big.Int // solutions ending in each hole of Holes, when Each
	// Each reports that every hole in Holes has Solutions solutions;
	// otherwise Solutions is their total.
	Each bool
}

// Starts analyses every single-vacancy start of a board up to symmetry:
// reachable positions, which holes the last peg can finish in, and the
// solutions to each. It reduces each search by the board's whole group
// (ExploreOptions.WholeGroup). All starts are searched together where
// that fits the memory budget, else one at a time; with
// ExploreOptions.Spill, those have their layers on disk, each in a
// directory of Spill.Dir's of its own (start-HOLE) that Spill.Resume
// continues. A start whose exhaustive search passes the budget even so is
// not counted; instead each of its class-feasible finishes is solved depth
// first within the same memory (StartResult.Pairs), so that every pair is
// still decided unless that search passes the budget too. Nothing is
// guessed.
func Starts(ctx context.Context, b *engine.Board, opt ExploreOptions, each func(StartResult)) ([]StartResult, error) {
	reps, classes := startClasses(b)
	// Complete games are not reported: their pass over every reachable
	// position is left out.
	opt.NoGames = true
	var out []StartResult
	finish := func(r StartResult) {
		if each != nil {
			each(r)
		}
		out = append(out, r)
	}
	// All starts in one search if it fits; what it could not finish, one
	// start at a time (spilled, each in a directory of its own, with
	// ExploreOptions.Spill).
	together := opt
	together.Spill = Spill{}
	err := startsTogether(ctx, b, reps, together, func(i int, a *Analysis) error {
		r, err := decided(ctx, b, reps[i], classes[i], a, opt)
		if err == nil {
			finish(r)
		}
		return err
	})
	if err != nil && !errors.Is(err, ErrMemory) && !errors.Is(err, errTooManyStarts) {
		return out, err
	}
	for i := len(out); i < len(reps); i++ {
		h := reps[i]
		prob := Problem{Board: b, Start: b.Full() &^ (1 << uint(h)), Goal: engine.Goal{Kind: engine.OnePeg}}
		o := opt
		o.WholeGroup = true
		if opt.Spill.Dir != "" {
			o.Spill = startSpill(opt.Spill, b, h)
		}
		a, err := Explore(ctx, prob, o)
		r := StartResult{Hole: h, Class: classes[i], Solutions: new(big.Int)}
		switch {
		case errors.Is(err, ErrMemory):
			r.Pairs, err = startPairs(ctx, b, h, SolveOptions{Budget: Budget{Memory: opt.Memory}}, 0)
			if err != nil {
				return out, err
			}
		case err != nil:
			return out, err
		default:
			if r, err = decided(ctx, b, h, classes[i], a, opt); err != nil {
				return out, err
			}
		}
		finish(r)
	}
	return out, nil
}

// startSpill returns the spill of the start with hole h empty in a run
// of Starts with sp: a directory of sp.Dir's named for the hole; resumed
// where sp says so and that directory holds a run, else started.
func startSpill(sp Spill, b *engine.Board, h int) Spill {
	dir := filepath.Join(sp.Dir, "start-"+b.Label(h))
	if sp.Resume {
		if _, err := os.Stat(filepath.Join(dir, spill.ManifestName)); err != nil {
			sp.Resume = false
		}
	}
	sp.Dir = dir
	return sp
}

// startClasses returns the board's single-vacancy start classes under its
// symmetry: each class's first hole, and its holes in order.
func startClasses(b *engine.Board) (reps []int, classes [][]int) {
	all := make([]int, b.Holes())
	for h := range all {
		all[h] = h
	}
	classes = holeOrbits(b.Symmetry(), all)
	for _, c := range classes {
		reps = append(reps, c[0])
	}
	return reps, classes
}

// holeOrbits splits holes into their orbits under g, each sorted, in the
// order of their first hole in holes.
func holeOrbits(g *engine.Group, holes []int) [][]int {
	var out [][]int
	done := map[int]bool{}
	for _, h := range holes {
		if done[h] {
			continue
		}
		var orbit []int
		for s := range g.Len() {
			if x := g.Perm(s)[h]; !done[x] {
				done[x] = true
				orbit = append(orbit, x)
			}
		}
		slices.Sort(orbit)
		out = append(out, orbit)
	}
	return out
}

// decided is the result for the start vacating h, of class class, from its
// analysis up to the board's whole group.
func decided(ctx context.Context, b *engine.Board, h int, class []int, a *Analysis, opt ExploreOptions) (StartResult, error) {
	prob := Problem{Board: b, Start: b.Full() &^ (1 << uint(h)), Goal: engine.Goal{Kind: engine.OnePeg}}
	r := StartResult{Hole: h, Class: class, Decided: true, Reachable: a.Reachable, Winnable: a.Winnable, Solutions: a.Solutions}
	r.Finishes = splitFinishes(b, prob.Start, a)
	// Where symmetric holes share a count, search again with only the
	// start's own symmetries if that is small enough (in memory: the
	// limit keeps it small).
	stab := prob.Group().Len()
	if ambiguous(r.Finishes) && a.Reachable*int64(b.Symmetry().Len()/stab) <= exactLimit {
		o := opt
		o.Spill = Spill{}
		e, err := Explore(ctx, prob, o)
		if err != nil && !errors.Is(err, ErrMemory) {
			return r, err
		}
		if err == nil {
			r.Finishes = exactFinishes(e)
		}
	}
	return r, nil
}

// splitFinishes turns orbit totals into per-hole counts where the position
// classes and the start's own symmetry allow: holes outside the start's
// class get none, and holes that a symmetry fixing the start exchanges get
// equal shares.
func splitFinishes(b *engine.Board, start engine.Position, a *Analysis) []Finish {
	stab := b.Symmetry().Stabilizer(start)
	var out []Finish
	keys := make([]int, 0, len(a.Orbits))
	for k := range a.Orbits {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		total := a.SolutionsByOrbit[k]
		if total.Sign() == 0 {
			continue
		}
		var feasible []int
		for _, h := range a.Orbits[k] {
			if b.Class(1<<uint(h)) == b.Class(start) {
				feasible = append(feasible, h)
			}
		}
		// Split into orbits of the start's stabilizer.
		groups := holeOrbits(stab, feasible)
		if len(groups) == 1 {
			n := new(big.Int).Quo(total, big.NewInt(int64(len(groups[0]))))
			out = append(out, Finish{Holes: groups[0], Solutions: n, Each: true})
			continue
		}
		out = append(out, Finish{Holes: feasible, Solutions: total})
	}
	return out
}

// exactLimit bounds the positions of the second, exact search that splits
// finishes shared by symmetric holes.
const exactLimit = 20_000_000

func ambiguous(fs []Finish) bool {
	for _, f := range fs {
		if !f.Each {
			return true
		}
	}
	return false
}

// exactFinishes lists the finishes of a search whose group fixes the start.
func exactFinishes(a *Analysis) []Finish {
	holes := make([]int, 0, len(a.SolutionsByFinish))
	for h, n := range a.SolutionsByFinish {
		if n.Sign() > 0 {
			holes = append(holes, h)
		}
	}
	slices.Sort(holes)
	var out []Finish
	for _, h := range holes {
		out = append(out, Finish{Holes: []int{h}, Solutions: a.SolutionsByFinish[h], Each: true})
	}
	return out
}
