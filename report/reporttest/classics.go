package reporttest

import (
	"context"
	"testing"

	"pegs/engine"
	"pegs/generate"
	"pegs/search"
)

// Classics returns the classic English levels Cross, Plus and Fireplace,
// named and graded toward the centre, with their board and goal.
func Classics(t testing.TB) (*engine.Board, engine.Goal, []generate.Level) {
	t.Helper()
	b := engine.English()
	goal, _ := b.ParseGoal("center")
	var levels []generate.Level
	for _, c := range []struct{ name, pic string }{
		{"Cross", "....o...ooo.....o......o........."},
		{"Plus", "....o....o....ooooo....o....o...."},
		{"Fireplace", "oooooo..ooo....o.o..............."},
	} {
		p, err := b.ParsePosition(c.pic)
		if err != nil {
			t.Fatal(err)
		}
		l, err := generate.Grade(context.Background(), b, p, goal, search.SolveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		l.Name = c.name
		levels = append(levels, l)
	}
	return b, goal, levels
}
