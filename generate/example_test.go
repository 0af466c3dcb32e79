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
	// ..o.oo..o.....o.o.o..o..o........  9 pegs, score 1.55, grade 1, par 3
	//   a player who looks 2 jumps ahead wins 51% of tries; one who looks 1 ahead, 45%
	// .o..oo..o.....ooo.o..............  8 pegs, score 2.49, grade 1, par 5
	//   a player who looks 5 jumps ahead wins 100% of tries; one who looks 4 ahead, 40%
	// ...oo.o..oo...o..oo..o..o........ 10 pegs, score 3.42, grade 2, par 6
	//   a player who looks 6 jumps ahead wins 70% of tries; one who looks 5 ahead, 46%
}
