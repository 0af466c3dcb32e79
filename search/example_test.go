package search_test

import (
	"context"
	"fmt"

	"pegs/engine"
	"pegs/search"
)

// Solve a level: the classic Cross, six pegs to one in the centre of the
// English board.
func ExampleSolve() {
	b := engine.English()
	start, err := b.ParsePosition("....o...ooo.....o......o.........")
	if err != nil {
		panic(err)
	}
	goal, _ := b.ParseGoal("center")
	sol, err := search.Solve(context.Background(), search.Problem{Board: b, Start: start, Goal: goal}, search.SolveOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(sol.Solvable, b.FormatMoves(sol.Jumps))
	fmt.Print(b.Picture(sol.Final))
	// Output:
	// true [d3-f3 d5-d3 c3-e3 f3-d3 d2-d4]
	//     . . .
	//     . . .
	// . . . . . . .
	// . . . o . . .
	// . . . . . . .
	//     . . .
	//     . . .
}

// Analyse a board: the whole state space of the 15-hole triangle with its
// top hole empty, to end with one peg anywhere.
func ExampleExplore() {
	b, err := engine.Lookup("triangle")
	if err != nil {
		panic(err)
	}
	start, _ := b.Vacate("1")
	a, err := search.Explore(context.Background(), search.Problem{Board: b, Start: start, Goal: engine.Goal{Kind: engine.OnePeg}}, search.ExploreOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("reachable:", a.Reachable, "winnable:", a.Winnable, "dead ends:", a.DeadEnds)
	fmt.Println("solutions:", a.Solutions, "complete games:", a.Games)
	fmt.Printf("a random player wins %.4f of games\n", a.RandomWin)
	// Output:
	// reachable: 1544 winnable: 390 dead ends: 72
	// solutions: 29760 complete games: 568630
	// a random player wins 0.0069 of games
}

// Find the random player's chance alone, the figure Explore gives above,
// for the same triangle: without games, paths or dead ends counted.
func ExampleRandomChance() {
	b, err := engine.Lookup("triangle")
	if err != nil {
		panic(err)
	}
	start, _ := b.Vacate("1")
	r, err := search.RandomChance(context.Background(), search.Problem{Board: b, Start: start, Goal: engine.Goal{Kind: engine.OnePeg}}, search.Budget{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("a random player wins %.4f of games (%v), over %d winnable positions\n", r.Win, r.Win, r.Winnable)
	// Output:
	// a random player wins 0.0069 of games (0.006861755887681316), over 390 winnable positions
}

// Solve with the fewest moves, a chain of jumps by one peg counting as
// one, within a budget: two workers and 64 MiB.
func ExampleFewestMoves() {
	b, err := engine.Lookup("triangle")
	if err != nil {
		panic(err)
	}
	start, _ := b.Vacate("1")
	prob := search.Problem{Board: b, Start: start, Goal: engine.Goal{Kind: engine.OnePeg}}
	sol, err := search.FewestMoves(context.Background(), prob, search.Budget{Workers: 2, Memory: 64 << 20})
	if err != nil {
		panic(err)
	}
	fmt.Println(sol.Moves, "moves,", len(sol.Jumps), "jumps:", b.FormatMoves(sol.Jumps))
	// Output:
	// 10 moves, 13 jumps: [4-1 6-4 1-6 7-2 10-3 12-5 14-12 11-13-6 3-10 15-6-4-1]
}
