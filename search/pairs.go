package search

import (
	"context"
	"errors"
	"time"

	"pegs/engine"
)

// Pair is one single-vacancy problem of a board: vacate Start, finish with
// one peg in Finish.
type Pair struct {
	Start, Finish int
	// Feasible reports that the position classes allow the pair; a pair
	// that is not feasible is unsolvable without a search.
	Feasible bool
	// Decided is false when the search passed its memory budget or time.
	Decided  bool
	Solvable bool
	Nodes    int64 // positions the search visited
}

// StartPairs decides every (vacancy, finish) pair of a board's
// single-vacancy starts, up to the board's symmetry, by solving each
// class-feasible pair depth first. It finds which pairs are solvable but
// counts nothing; Starts counts. Pairs are listed for each start class's
// representative (its least hole) and every finishing hole. perPair, if
// positive, limits the time given to one pair; a pair that passes it is
// reported undecided. A nil error with a partial list never happens: on
// cancellation it returns the pairs decided so far with ctx's error.
func StartPairs(ctx context.Context, b *engine.Board, opt SolveOptions, perPair time.Duration) ([]Pair, error) {
	g := b.Symmetry()
	var out []Pair
	seenStart := make([]bool, b.Holes())
	for s := range b.Holes() {
		if seenStart[s] {
			continue
		}
		for k := range g.Len() {
			seenStart[g.Perm(k)[s]] = true
		}
		pairs, err := startPairs(ctx, b, s, opt, perPair)
		out = append(out, pairs...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// startPairs decides vacate s, finish f for every hole f, solving one
// finish of each orbit of s's stabilizer.
func startPairs(ctx context.Context, b *engine.Board, s int, opt SolveOptions, perPair time.Duration) ([]Pair, error) {
	n := b.Holes()
	start := b.Full() &^ (1 << uint(s))
	stab := b.Symmetry().Stabilizer(1 << uint(s))
	// Finishes symmetric under the start's stabilizer share an answer.
	rep := make([]int, n)
	for f := range n {
		rep[f] = f
		for k := range stab.Len() {
			rep[f] = min(rep[f], stab.Perm(k)[f])
		}
	}
	var out []Pair
	byRep := map[int]Pair{}
	for f := range n {
		if r, ok := byRep[rep[f]]; ok {
			r.Finish = f
			out = append(out, r)
			continue
		}
		goal := engine.Goal{Kind: engine.OnePegAt, Hole: f}
		p := Pair{Start: s, Finish: f, Feasible: b.Feasible(start, goal)}
		if p.Feasible {
			pctx, cancel := ctx, context.CancelFunc(func() {})
			if perPair > 0 {
				pctx, cancel = context.WithTimeout(ctx, perPair)
			}
			sol, err := Solve(pctx, Problem{Board: b, Start: start, Goal: goal}, opt)
			cancel()
			switch {
			case ctx.Err() != nil:
				return out, ctx.Err()
			case errors.Is(err, context.DeadlineExceeded), errors.Is(err, ErrMemory):
			case err != nil:
				return out, err
			default:
				p.Decided, p.Solvable, p.Nodes = true, sol.Solvable, sol.Nodes
			}
		} else {
			p.Decided = true
		}
		byRep[rep[f]] = p
		out = append(out, p)
	}
	return out, nil
}
