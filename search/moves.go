package search

import (
	"context"
	"errors"
	"fmt"

	"pegs/engine"
	"pegs/search/internal/movegen"
)

// MovesSolution is a solution with the fewest moves, where a move is one or
// more consecutive jumps by the same peg.
type MovesSolution struct {
	Solvable bool
	Refuted  bool // by position class, without a search
	Jumps    []engine.Jump
	Moves    int
	// Nodes counts the positions the breadth-first search expanded;
	// Winnable the positions it was restricted to.
	Nodes    int64
	Winnable int64
}

// FewestMoves finds a solution with the fewest moves and proves that none
// is shorter.
//
// It first finds every winnable position (Winnable), since every position of
// a solution is winnable, then searches breadth first by moves: level k
// holds the winnable positions, up to symmetry, first reached by k moves,
// and a move from a position is every chain of jumps by one of its pegs.
// The first level that holds a goal position gives the fewest moves; the
// levels before it, searched in full, are the proof. The path is rebuilt
// from parent links, turning each canonical step back into a real move on
// the board.
func FewestMoves(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, opt ExploreOptions) (MovesSolution, error) {
	prob := Problem{Board: b, Start: start, Goal: goal}
	if err := prob.check(); err != nil {
		return MovesSolution{}, err
	}
	if !b.Feasible(start, goal) {
		return MovesSolution{Refuted: true}, nil
	}
	ws, err := Winnable(ctx, prob, opt)
	if err != nil {
		return MovesSolution{}, err
	}
	sol, err := fewestMoves(ctx, b, start, goal, ws.group, ws.containsCanonical)
	sol.Winnable = ws.Winnable
	return sol, err
}

// fewestMoves is the breadth-first search of FewestMoves over the positions
// that win reports winnable; group may be any group of symmetries that keep
// the goal in place, since the moves still needed from a position do not
// change under them. win reports whether a canonical position (under group)
// is winnable.
func fewestMoves(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, group *engine.Group, win func(engine.Position) bool) (MovesSolution, error) {
	var sol MovesSolution
	if !win(group.Canonical(start)) {
		return sol, nil
	}
	gen := movegen.New(b, group)
	byFrom := gen.FromHoles()
	root := group.Canonical(start)
	parent := map[engine.Position]engine.Position{root: 0}
	level := []engine.Position{root}
	var found engine.Position
	for len(level) > 0 && found == 0 {
		var next []engine.Position
		for i, x := range level {
			if i&1023 == 0 {
				if err := ctx.Err(); err != nil {
					return sol, err
				}
			}
			sol.Nodes++
			gen.Chains(x, byFrom, func(q engine.Position, _ []engine.Jump) bool {
				c := group.Canonical(q)
				if _, seen := parent[c]; seen || !win(c) {
					return true
				}
				parent[c] = x
				next = append(next, c)
				if goal.Reached(q) {
					found = c
					return false
				}
				return true
			})
			if found != 0 {
				break
			}
		}
		level = next
	}
	if found == 0 {
		return sol, errors.New("search: winnable start but no goal found; this is a bug")
	}
	var steps []engine.Position
	for c := found; c != root; c = parent[c] {
		steps = append(steps, c)
	}
	p := start
	for i := len(steps) - 1; i >= 0; i-- {
		var move []engine.Jump
		gen.Chains(p, byFrom, func(q engine.Position, jumps []engine.Jump) bool {
			if group.Canonical(q) == steps[i] {
				move = append(move, jumps...)
				p = q
				return false
			}
			return true
		})
		if move == nil {
			return sol, fmt.Errorf("search: cannot rebuild move %d", len(steps)-i)
		}
		sol.Jumps = append(sol.Jumps, move...)
	}
	sol.Solvable = true
	sol.Moves = len(steps)
	final, err := b.Replay(start, sol.Jumps)
	if err != nil || !goal.Reached(final) {
		return sol, fmt.Errorf("search: fewest-moves solution does not replay to the goal: %v", err)
	}
	if n := len(b.FormatMoves(sol.Jumps)); n != sol.Moves {
		return sol, fmt.Errorf("search: solution recounts to %d moves, not %d", n, sol.Moves)
	}
	return sol, nil
}
