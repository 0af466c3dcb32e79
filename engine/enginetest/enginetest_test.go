package enginetest_test

import (
	"testing"

	"pegs/engine/enginetest"
)

func TestHelpers(t *testing.T) {
	b := enginetest.Board(t, "english")
	if got := b.Holes(); got != 33 {
		t.Errorf("english: %d holes, want 33", got)
	}
	if got := enginetest.Square(t, 5).Holes(); got != 25 {
		t.Errorf("Square(5): %d holes, want 25", got)
	}
	p := enginetest.Position(t, b, "d4", "d5")
	if got := b.Line(p); got != "................o......o........." {
		t.Errorf("Position(d4, d5) = %q", got)
	}
	g := enginetest.Goal(t, b, "center")
	if got := b.FormatGoal(g); got != "center" {
		t.Errorf("Goal(center) formats as %q", got)
	}
}
