package generate

import (
	"context"
	"os"
	"testing"

	"pegs/engine"
	"pegs/search"
)

// TestClassicOrder grades the seven classic English levels, Full (32 pegs,
// 23.5 million positions) included, and checks that the scores put them
// in the order their designer gives, or within two swaps of it: Kendall's
// tau at least 0.8. The constants are those of every board. Grading Full
// takes about 12 s of CPU and 260-280 MiB (BenchmarkGrade level=Full, on
// a shared 2-core machine), so -short skips the test.
func TestClassicOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("grading Full takes about 15 s of CPU; run without -short")
	}
	b := engine.English()
	goal, _ := b.ParseGoal("center")
	fh, err := os.Open("testdata/classic.levels")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	levels, err := b.ReadLevels(fh)
	if err != nil {
		t.Fatal(err)
	}
	scores := make([]float64, len(levels))
	for i, l := range levels {
		g, err := Grade(context.Background(), b, l.Position, goal, search.SolveOptions{})
		if err != nil {
			t.Fatalf("%s: %v", l.Name, err)
		}
		scores[i] = g.Score
		t.Logf("%-9s %2d pegs  foresight %5.2f  branching %.2f  score %5.2f  grade %d  %s",
			l.Name, g.Pegs, g.Metrics.ForesightNeeded, g.Metrics.Branching, g.Score, g.Grade, g.Explanation)
	}
	if tau := kendallTau(scores); tau < 0.8 {
		t.Errorf("Kendall's tau %.3f against the designer's order, want at least 0.8 (two swaps)", tau)
	} else {
		t.Logf("Kendall's tau %.3f", tau)
	}
}

// kendallTau compares the order of xs with their index order: +1 if they
// rise throughout, −1 if they fall; ties count for neither.
func kendallTau(xs []float64) float64 {
	n, score := len(xs), 0
	for i := range n {
		for j := i + 1; j < n; j++ {
			switch {
			case xs[j] > xs[i]:
				score++
			case xs[j] < xs[i]:
				score--
			}
		}
	}
	return float64(score) / float64(n*(n-1)/2)
}

func TestKendallTau(t *testing.T) {
	for _, c := range []struct {
		name string
		xs   []float64
		want float64
	}{
		{"rising", []float64{1, 2, 3, 4}, 1},
		{"falling", []float64{4, 3, 2, 1}, -1},
		{"one swap of seven", []float64{1, 2, 4, 3, 5, 6, 7}, 19.0 / 21},
		{"two swaps of seven", []float64{2, 1, 3, 5, 4, 6, 7}, 17.0 / 21},
		{"a tie", []float64{1, 1, 2}, 2.0 / 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := kendallTau(c.xs); got != c.want {
				t.Errorf("kendallTau(%v) = %g, want %g", c.xs, got, c.want)
			}
		})
	}
}
