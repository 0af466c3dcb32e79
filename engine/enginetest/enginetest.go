// Package enginetest builds boards, goals and positions for tests of the
// packages that use engine, from the names and labels a test reads best
// in, failing the test when one is wrong; and sorts out the long runs
// (Long).
package enginetest

import (
	"fmt"
	"strings"
	"testing"

	"pegs/engine"
)

// Board returns the board of a name engine.Lookup knows.
func Board(t testing.TB, name string) *engine.Board {
	t.Helper()
	b, err := engine.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Square returns the full n×n square board.
func Square(t testing.TB, n int) *engine.Board {
	t.Helper()
	b, err := engine.Parse(fmt.Sprint("square", n), strings.Repeat(strings.Repeat("o", n)+"\n", n), engine.Square)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Vacate returns b's position with every hole full but those labelled
// (see engine.Board.Vacate).
func Vacate(t testing.TB, b *engine.Board, labels string) engine.Position {
	t.Helper()
	p, err := b.Vacate(labels)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Goal returns b's goal written s (see engine.Board.ParseGoal).
func Goal(t testing.TB, b *engine.Board, s string) engine.Goal {
	t.Helper()
	g, err := b.ParseGoal(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Position returns the position of b with pegs in the holes labelled and
// no others.
func Position(t testing.TB, b *engine.Board, labels ...string) engine.Position {
	t.Helper()
	var p engine.Position
	for _, l := range labels {
		h, err := b.Hole(l)
		if err != nil {
			t.Fatal(err)
		}
		p |= 1 << uint(h)
	}
	return p
}
