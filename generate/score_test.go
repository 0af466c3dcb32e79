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
		l, err := Grade(context.Background(), b, p, g, search.Options{})
		if err != nil {
			t.Fatal(err)
		}
		d := l.Difficulty
		sum := d.Attempts + d.Critical + d.UniqueFirst + d.Plenty
		if math.Abs(sum-d.Score) > 1e-12 || math.Abs(d.Attempts-math.Log10(l.Metrics.J1)) > 1e-12 || d.Score != l.Score {
			t.Errorf("%s: parts %+v do not add up to the score", pic, d)
		}
	}
}
