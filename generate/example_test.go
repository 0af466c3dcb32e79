package generate_test

import (
	"context"
	"fmt"

	"pegs/engine"
	"pegs/generate"
)

// Generate a pack of three English levels of rising difficulty, each
// solvable to one peg in the centre.
func ExamplePack() {
	b := engine.English()
	goal, _ := b.ParseGoal("center")
	pack, err := generate.Pack(context.Background(), b, 3, generate.Options{Goal: goal, MinPegs: 6, MaxPegs: 10, Seed: 1, Workers: 2})
	if err != nil {
		panic(err)
	}
	for _, l := range pack {
		fmt.Printf("%s %2d pegs, score %.2f, grade %d, par %d\n  %s\n", l.Picture, l.Pegs, l.Score, l.Grade, l.Par, l.Explanation)
	}
	// Output:
	// ..........oo....ooo.....oo.......  7 pegs, score 2.32, grade 1, par 4
	//   a player who looks 5 jumps ahead wins 100% of tries; one who looks 4 ahead, 40%
	// ......oo.....oo......oo....oo.o..  9 pegs, score 2.70, grade 1, par 6
	//   a player who looks 5 jumps ahead wins 51% of tries; one who looks 4 ahead, 33%
	// ......ooo....oooo...ooo.......... 10 pegs, score 3.07, grade 1, par 6
	//   a player who looks 6 jumps ahead wins 56% of tries; one who looks 5 ahead, 28%
}
