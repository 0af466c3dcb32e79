package engine_test

import (
	"fmt"
	"strings"

	"pegs/engine"
)

// Read a board drawn as text: the pegs drawn are its start.
func ExampleParse() {
	b, err := engine.Parse("little", "ooo\no.o\nooo", engine.Square)
	if err != nil {
		panic(err)
	}
	fmt.Println(b.Holes(), "holes,", b.Start().Pegs(), "pegs")
	fmt.Print(b.LabelPicture())
	// Output:
	// 9 holes, 8 pegs
	// a1 b1 c1
	// a2 b2 c2
	// a3 b3 c3
}

// Read a position picture, one symbol per hole in reading order (white
// space is ignored), and write it back as a line and as the board looks.
func ExampleBoard_ParsePosition() {
	b := engine.English()
	p, err := b.ParsePosition("ooo ooo ooooooo ooo.ooo ooooooo ooo ooo")
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Pegs(), "pegs:", b.Line(p))
	fmt.Print(b.Picture(p))
	// Output:
	// 32 pegs: oooooooooooooooo.oooooooooooooooo
	//     o o o
	//     o o o
	// o o o o o o o
	// o o o . o o o
	// o o o o o o o
	//     o o o
	//     o o o
}

// Empty holes by their labels: columns a.. left to right, rows 1.. top to
// bottom on square boards, holes 1..N row by row on triangles.
func ExampleBoard_Vacate() {
	b := engine.English()
	p, err := b.Vacate("d4")
	if err != nil {
		panic(err)
	}
	fmt.Println(p == b.Start())
	tri, _ := engine.Lookup("triangle")
	q, err := tri.Vacate("1")
	if err != nil {
		panic(err)
	}
	fmt.Print(tri.Picture(q))
	// Output:
	// true
	//     .
	//    o o
	//   o o o
	//  o o o o
	// o o o o o
}

// Read moves, chains of jumps by one peg among them, and write them back:
// a peg's consecutive jumps join into one chain.
func ExampleBoard_ParseMoves() {
	b := engine.English()
	jumps, err := b.ParseMoves("f4-d4, d2-d4 c3-e3-e5")
	if err != nil {
		panic(err)
	}
	fmt.Println(len(jumps), "jumps:", b.FormatMoves(jumps))
	fmt.Println(b.FormatJump(jumps[0]))
	_, err = b.ParseMoves("d4-d6-d4-d1")
	fmt.Println(err)
	// Output:
	// 4 jumps: [f4-d4 d2-d4 c3-e3-e5]
	// f4-d4
	// move "d4-d6-d4-d1": d4-d1 is not a jump on board english
}

// Read goals and write them back the way ParseGoal reads them.
func ExampleBoard_ParseGoal() {
	b := engine.English()
	for _, s := range []string{"any", "centre", "fewest", "c1"} {
		g, err := b.ParseGoal(s)
		if err != nil {
			panic(err)
		}
		fmt.Println(s, "->", b.FormatGoal(g))
	}
	// Output:
	// any -> any
	// centre -> center
	// fewest -> fewest
	// c1 -> c1
}

// Read a geometry by name and write it back.
func ExampleParseGeometry() {
	g, err := engine.ParseGeometry("Triangular")
	if err != nil {
		panic(err)
	}
	fmt.Println(g)
	_, err = engine.ParseGeometry("hexagonal")
	fmt.Println(err)
	// Output:
	// triangular
	// unknown geometry "hexagonal" (want square, diagonal or triangular)
}

// Find a built-in board by name; triangle:N takes its number of rows.
func ExampleLookup() {
	for _, name := range []string{"French", "triangle:6", "hexagon"} {
		b, err := engine.Lookup(name)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(b.Name(), b.Holes(), "holes")
	}
	// Output:
	// french 37 holes
	// triangle:6 21 holes
	// unknown board "hexagon" (want english, french, triangle, triangle:N (N=4..10), diamond, wiegleb)
}

// Turn a hole's label into its number and back.
func ExampleBoard_Hole() {
	b := engine.English()
	h, err := b.Hole("D4")
	if err != nil {
		panic(err)
	}
	fmt.Println(h, b.Label(h))
	_, err = b.Hole("a1")
	fmt.Println(err)
	// Output:
	// 16 d4
	// unknown hole "a1" on board english
}

// Read a level file: one name and position picture a line, comments and
// blank lines skipped. Errors name the line.
func ExampleBoard_ReadLevels() {
	b, err := engine.Lookup("triangle")
	if err != nil {
		panic(err)
	}
	levels, err := b.ReadLevels(strings.NewReader("# two levels\nstart . oo ooo oooo ooooo\n\nfour oo.o.......o...\n"))
	if err != nil {
		panic(err)
	}
	for _, l := range levels {
		fmt.Println(l.Name, l.Position.Pegs(), "pegs:", b.Line(l.Position))
	}
	_, err = b.ReadLevels(strings.NewReader("short ooo\n"))
	fmt.Println(err)
	// Output:
	// start 14 pegs: .oooooooooooooo
	// four 4 pegs: oo.o.......o...
	// line 1: bad position picture: 3 symbols; board triangle has 15 holes
}

// Write a position as one line, a symbol per hole in reading order, and
// as a picture laid out like the board.
func ExampleBoard_Picture() {
	b, err := engine.Lookup("triangle")
	if err != nil {
		panic(err)
	}
	jumps, err := b.ParseMoves("4-1 6-4 1-6")
	if err != nil {
		panic(err)
	}
	p, err := b.Replay(b.Start(), jumps)
	if err != nil {
		panic(err)
	}
	fmt.Println(b.Line(p))
	fmt.Print(b.Picture(p))
	// Output:
	// ...o.oooooooooo
	//     .
	//    . .
	//   o . o
	//  o o o o
	// o o o o o
}

// Read a goal with a default: one peg in the centre where the board has
// one, else one peg anywhere.
func ExampleDefaultGoal() {
	for _, name := range []string{"english", "triangle"} {
		b, err := engine.Lookup(name)
		if err != nil {
			panic(err)
		}
		g, err := engine.DefaultGoal(b, "")
		if err != nil {
			panic(err)
		}
		fmt.Println(name, b.FormatGoal(g))
	}
	// Output:
	// english center
	// triangle any
}
