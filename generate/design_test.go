package generate

import (
	"testing"

	"pegs/engine"
)

func TestDesignOf(t *testing.T) {
	hexagon, err := engine.Parse("hexagon", "  o o o\n o o o o\no o o o o\n o o o o\n  o o o", engine.Triangular)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, board, picture string
		b                    *engine.Board
		want                 Design
	}{
		{"Plus is one group of full symmetry", "english", "....o....o....ooooo....o....o....", nil, Design{1, "full", 8.0 / 18}},
		{"Cross has a mirror", "english", "....o...ooo.....o......o.........", nil, Design{1, "mirror", 10.0 / 24}},
		{"two pegs apart", "english", "o.o..............................", nil, Design{2, "mirror", 0}},
		{"a corner keeps nothing", "english", "oo...............................", nil, Design{1, "none", 2.0 / 5}},
		{"a bar of three has two mirrors", "english", "...............ooo...............", nil, Design{1, "two mirrors", 4.0 / 12}},
		// c3 d3 and e5 d5: one half turn about d4, no mirror.
		{"a half turn", "english", "........oo.............oo........", nil, Design{2, "half turn", 4.0 / 16}},
		// d4 and the pinwheel e2 f5 c6 b3.
		{"a quarter turn", "english", ".....o.o........o........o.o.....", nil, Design{5, "quarter turn", 0}},
		{"the triangle's corner", "triangle", "o..............", nil, Design{1, "mirror", 0}},
		{"the triangle's centre", "triangle", "....o..oo......", nil, Design{1, "full", 6.0 / 18}},
		{"two corners of the hexagon", "", "o.o................", hexagon, Design{2, "mirror", 0}},
		{"three corners of the hexagon", "", "o..........o....o..", hexagon, Design{3, "three mirrors", 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := c.b
			if b == nil {
				var err error
				if b, err = engine.Lookup(c.board); err != nil {
					t.Fatal(err)
				}
			}
			p, err := b.ParsePosition(c.picture)
			if err != nil {
				t.Fatal(err)
			}
			got := DesignOf(b, p)
			t.Logf("%s\n%s: %+v", b.Picture(p), c.name, got)
			if got != c.want {
				t.Errorf("DesignOf = %+v, want %+v", got, c.want)
			}
		})
	}
}
