package generate

import (
	"context"
	"math"
	"testing"

	"pegs/engine"
	"pegs/search"
)

func TestScoreParts(t *testing.T) {
	b := engine.English()
	g, _ := b.ParseGoal("center")
	for _, pic := range []string{"....o...ooo.....o......o.........", "....o....o....ooooo....o....o...."} {
		p, _ := b.ParsePosition(pic)
		m, d, err := Grade(context.Background(), b, p, g, search.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sum := d.Attempts + d.Critical + d.UniqueFirst + d.Plenty
		if math.Abs(sum-d.Score) > 1e-12 || math.Abs(d.Attempts-math.Log10(m.J1)) > 1e-12 {
			t.Errorf("%s: parts %+v do not add up to the score", pic, d)
		}
	}
}
