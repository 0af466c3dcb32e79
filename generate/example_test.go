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
		fmt.Printf("%s %2d pegs, score %.2f, grade %d, par %d\n", l.Picture, l.Pegs, l.Score, l.Grade, l.Par)
	}
	// Output:
	// ..o.oo..o.....o.o.o..o..o........  9 pegs, score 1.97, grade 1, par 3
	// ...o..o......oo.oo...o...........  7 pegs, score 2.53, grade 1, par 4
	// ....o...o.o...oo.oo..ooo......... 10 pegs, score 3.05, grade 2, par 5
}
