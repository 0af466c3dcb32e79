package search

import (
	"context"

	"pegs/search/internal/bfs"
	"pegs/search/internal/dfs"
)

// MovesSolution is a solution with the fewest moves, where a move is one or
// more consecutive jumps by the same peg. Its Nodes count the positions
// the breadth-first search expanded.
type MovesSolution struct {
	Solution
	Moves int
	// Winnable counts the positions the search was restricted to.
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
func FewestMoves(ctx context.Context, prob Problem, opt Options) (MovesSolution, error) {
	b, start, goal := prob.Board, prob.Start, prob.Goal
	if err := prob.checkOnePeg(); err != nil {
		return MovesSolution{}, err
	}
	if !b.Feasible(start, goal) {
		return MovesSolution{Solution: Solution{Refuted: true, Final: start}}, nil
	}
	ws, err := Winnable(ctx, prob, opt)
	if err != nil {
		return MovesSolution{}, err
	}
	r, err := bfs.FewestMoves(ctx, b, start, goal, ws.group, ws.containsCanonical)
	sol := MovesSolution{Solution: Solution{Jumps: r.Jumps, Final: start, Nodes: r.Nodes}, Moves: r.Moves, Winnable: ws.Winnable}
	if err == nil && r.Solvable {
		sol.Final, err = dfs.Replay(b, start, goal, r.Jumps)
		sol.Solvable = err == nil
	}
	return sol, err
}
