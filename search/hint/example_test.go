package hint_test

import (
	"context"
	"fmt"

	"pegs/engine"
	"pegs/search/hint"
)

// Ask for a hint in a game of the English centre game, five jumps in, one of them a mistake.
// An Advisor keeps what it learns of a level for the hints after it; a
// game server holds one for its life.
func ExampleAdvisor_Hint() {
	b := engine.English()
	goal, _ := b.ParseGoal("center")
	jumps, err := b.ParseMoves("d2-d4 b3-d3 d4-d2 b4-d4 e4-c4")
	if err != nil {
		panic(err)
	}
	p, err := b.Replay(b.Start(), jumps)
	if err != nil {
		panic(err)
	}
	adv := hint.NewAdvisor(hint.Options{})
	defer adv.Close()
	h, err := adv.Hint(context.Background(), b, p, goal, &hint.History{Start: b.Start(), Jumps: jumps})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: take back %d jump; at best %d pegs from here, after %s\n", h.Status, h.Undo, h.Fewest, b.FormatJump(*h.Jump))
	// Output:
	// one peg out of reach: take back 1 jump; at best 2 pegs from here, after c1-c3
}
