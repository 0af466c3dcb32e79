package search

import (
	"context"

	"pegs/engine"
	"pegs/search/internal/bfs"
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
func FewestMoves(ctx context.Context, prob Problem, opt Options) (MovesSolution, error) {
	b, start, goal := prob.Board, prob.Start, prob.Goal
	if err := prob.checkOnePeg(); err != nil {
		return MovesSolution{}, err
	}
	if !b.Feasible(start, goal) {
		return MovesSolution{Refuted: true}, nil
	}
	ws, err := Winnable(ctx, prob, opt)
	if err != nil {
		return MovesSolution{}, err
	}
	r, err := bfs.FewestMoves(ctx, b, start, goal, ws.group, ws.containsCanonical)
	return MovesSolution{Solvable: r.Solvable, Jumps: r.Jumps, Moves: r.Moves, Nodes: r.Nodes, Winnable: ws.Winnable}, err
}
