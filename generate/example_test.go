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
	// ....o....o....ooooo....o....o....  9 pegs, score 2.68, grade 1, par 6
	//   a player who looks 5 jumps ahead wins 100% of tries; one who looks 4 ahead, 33%
	// ....o....oo...oooo....oo.........  9 pegs, score 3.10, grade 1, par 4
	//   a player who looks 4 jumps ahead wins 51% of tries; one who looks 3 ahead, 33%
	// oooooo...ooo....o................ 10 pegs, score 3.97, grade 2, par 5
	//   a player who looks 7 jumps ahead wins 60% of tries; one who looks 6 ahead, 45%
}
