package search

import (
	"context"
	"errors"
	"fmt"

	"pegs/engine"
	"pegs/search/internal/dfs"
	"pegs/search/internal/layered"
)

// Solution is the answer to one problem.
type Solution struct {
	// Solvable reports whether the goal can be met. For a FewestPegs goal
	// it is always true and Jumps reach the fewest pegs.
	Solvable bool
	// Jumps lead from the start to the goal; they have been replayed.
	Jumps []engine.Jump
	// Final is the position the jumps reach (the start when unsolvable).
	Final engine.Position
	// Nodes counts the positions the search visited.
	Nodes int64
	// Refuted reports that the position class alone proved the goal
	// impossible, without a search.
	Refuted bool
	// Layered reports that the answer came from layered searches after
	// depth first (see Decide); Nodes then counts the positions both
	// visited.
	Layered bool
}

// Solve decides whether prob's start can meet its goal and returns a
// solution if so, depth first: see the package documentation, "Solving".
// For a FewestPegs goal it finds a finish with the fewest pegs the start
// can reach.
func Solve(ctx context.Context, prob Problem, opt SolveOptions) (Solution, error) {
	floor := 1
	if prob.Goal.Kind == engine.FewestPegs && !prob.Board.Feasible(prob.Start, engine.Goal{Kind: engine.OnePeg}) {
		floor = 2 // the position classes rule out one peg
	}
	return solve(ctx, prob, opt, floor)
}

// solve is Solve with a proven floor for a FewestPegs goal.
func solve(ctx context.Context, prob Problem, opt SolveOptions, floor int) (Solution, error) {
	r, err := dfs.Solve(ctx, prob.Board, prob.Start, prob.Goal, dfs.Config{
		Memory: opt.Bytes(), Techniques: opt.Strategy.techniques(), MaxNodes: opt.MaxNodes, Floor: floor, Tables: opt.dfsTables(),
	})
	return Solution{Solvable: r.Solvable, Jumps: r.Jumps, Final: r.Final, Nodes: r.Nodes, Refuted: r.Refuted}, err
}

// Decide solves or refutes prob like Solve, and turns to layered searches
// where depth first is slow: see the package documentation, "Deciding".
// The layered searches (a meeting in the middle; for a FewestPegs goal,
// Explore of the reachable positions) run within opt.Budget, its workers,
// memory and progress; if one would pass opt.Memory, depth first goes on
// without a limit. opt.MaxNodes is not used.
func Decide(ctx context.Context, prob Problem, opt SolveOptions) (Solution, error) {
	if err := prob.check(); err != nil {
		return Solution{}, err
	}
	unlimited := opt
	unlimited.MaxNodes = 0
	first := opt
	first.MaxNodes = dfs.LoneNodes(prob.Start, opt.knobs.loneBase)
	sol, err := Solve(ctx, prob, first)
	if !errors.Is(err, ErrNodeLimit) {
		return sol, err
	}
	dfsNodes := sol.Nodes
	if prob.Goal.Kind == engine.FewestPegs {
		return decideFewest(ctx, prob, opt, dfsNodes)
	}
	mt, err := layered.Meet(ctx, prob.Board, prob.Start, prob.Goal, opt.config(), opt.Bytes())
	if errors.Is(err, ErrMemory) {
		return Solve(ctx, prob, unlimited)
	}
	if err != nil {
		return Solution{}, err
	}
	return meetingSolution(mt, prob.Goal, dfsNodes)
}

// decideFewest is Decide for a FewestPegs goal once depth first has passed
// its budget (after dfsNodes positions): one peg anywhere if a meeting
// finds it; else two is the floor, which depth first mostly reaches at
// once; and past the budget again, the last layer of everything the start
// reaches is the fewest, and depth first stops at the first position of
// that many.
func decideFewest(ctx context.Context, prob Problem, opt SolveOptions, dfsNodes int64) (Solution, error) {
	unlimited := opt
	unlimited.MaxNodes = 0
	mt, err := layered.Meet(ctx, prob.Board, prob.Start, engine.Goal{Kind: engine.OnePeg}, opt.config(), opt.Bytes())
	if errors.Is(err, ErrMemory) {
		return Solve(ctx, prob, unlimited)
	}
	if err != nil {
		return Solution{}, err
	}
	if win, _ := mt.Winnable(prob.Start); win {
		return meetingSolution(mt, prob.Goal, dfsNodes)
	}
	nodes := dfsNodes + mt.Positions
	budgeted := opt
	budgeted.MaxNodes = dfs.LoneNodes(prob.Start, opt.knobs.loneBase)
	sol, err := solve(ctx, prob, budgeted, 2)
	if !errors.Is(err, ErrNodeLimit) {
		sol.Layered, sol.Nodes = true, nodes+sol.Nodes
		return sol, err
	}
	nodes += sol.Nodes
	reach := ExploreOptions{Budget: opt.Budget, ReachableOnly: true}
	a, err := Explore(ctx, Problem{Board: prob.Board, Start: prob.Start, Goal: engine.Goal{Kind: engine.OnePeg}}, reach)
	if errors.Is(err, ErrMemory) {
		return Solve(ctx, prob, unlimited)
	}
	if err != nil {
		return Solution{}, err
	}
	fewest := a.Fewest()
	sol, err = solve(ctx, prob, unlimited, fewest)
	sol.Layered, sol.Nodes = true, nodes+a.Reachable+sol.Nodes
	if err == nil && sol.Final.Pegs() != fewest {
		err = fmt.Errorf("search: depth first ended with %d pegs, the layered search with %d", sol.Final.Pegs(), fewest)
	}
	return sol, err
}

// meetingSolution returns a meeting's answer for its start as a layered
// Solution (goal is checked on replay; for a FewestPegs goal, any end): a
// solution through the winnable positions, replayed, or none. Nodes counts
// the positions both sides found and dfsNodes more.
func meetingSolution(mt *layered.Meeting, goal engine.Goal, dfsNodes int64) (Solution, error) {
	start := mt.Start()
	sol := Solution{Final: start, Layered: true, Nodes: dfsNodes + mt.Positions}
	if win, _ := mt.Winnable(start); !win {
		return sol, nil
	}
	var err error
	if sol.Jumps, err = mt.Path(start); err != nil {
		return sol, err
	}
	sol.Final, err = dfs.Replay(mt.Board(), start, goal, sol.Jumps)
	sol.Solvable = err == nil
	return sol, err
}
