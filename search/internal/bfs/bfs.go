// Package bfs finds solutions with the fewest moves, where a move is a
// chain of one or more jumps by one peg, by a breadth-first search over
// positions known to be winnable.
//
// Level k of the search holds the winnable positions, up to symmetry, first
// reached by k moves, and a move from a position is every chain of jumps by
// one of its pegs. The first level that holds a goal position gives the
// fewest moves; the levels before it, searched in full, are the proof. The
// path is rebuilt from parent links, turning each canonical step back into a
// real move on the board. Every position of a solution is winnable, so the
// restriction loses nothing (rather than iterative deepening with
// admissible bounds, Barker and Korf's BFIDA*), and the winnable set bounds
// the search's time and memory.
package bfs

import (
	"context"
	"errors"
	"fmt"

	"pegs/engine"
	"pegs/search/internal/movegen"
)

// Result is a solution with the fewest moves.
type Result struct {
	Solvable bool
	Jumps    []engine.Jump
	Moves    int
	// Nodes counts the positions the search expanded.
	Nodes int64
}

// FewestMoves finds a solution of start toward goal with the fewest moves
// (chains of jumps by one peg) by a breadth-first search over the positions
// that win reports winnable; group may be any group of symmetries that keep
// the goal in place, since the moves still needed from a position do not
// change under them. win reports whether a canonical position (under group)
// is winnable.
func FewestMoves(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, group *engine.Group, win func(engine.Position) bool) (Result, error) {
	var sol Result
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
				// Most moves lose: asking win first spares the map
				// those (measuring Diamond, the map's lookups took
				// half of the search's time).
				if !win(c) {
					return true
				}
				if _, seen := parent[c]; seen {
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
