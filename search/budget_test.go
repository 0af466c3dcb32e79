package search

import (
	"context"
	"errors"
	"testing"

	"pegs/engine/enginetest"
)

// TestWideRecords checks that a search carrying counts in 128-bit records
// finds exactly what the narrow 64-bit records find.
func TestWideRecords(t *testing.T) {
	t.Parallel()
	prob := cornerAny(t)
	narrowed, err := Explore(context.Background(), prob, ExploreOptions{Budget: Budget{Workers: 2}})
	if err != nil {
		t.Fatal(err)
	}
	wider, err := Explore(context.Background(), prob, ExploreOptions{Budget: wide(Budget{Workers: 2})})
	if err != nil {
		t.Fatal(err)
	}
	if narrowed.Solutions.Cmp(wider.Solutions) != 0 || narrowed.Games.Cmp(wider.Games) != 0 || narrowed.RandomWin != wider.RandomWin || narrowed.Reachable != wider.Reachable {
		t.Errorf("wide records: %v solutions, %v games, %v random win, %d reachable; narrow: %v, %v, %v, %d",
			wider.Solutions, wider.Games, wider.RandomWin, wider.Reachable, narrowed.Solutions, narrowed.Games, narrowed.RandomWin, narrowed.Reachable)
	}
}

// TestWinnableBudget checks that a search for the winnable positions
// charges what it holds to the budget. One byte under its peak it either
// stops with ErrMemory or, its layers coded past a share of the smaller
// budget, finishes within it with the same positions; far under, it stops.
func TestWinnableBudget(t *testing.T) {
	prob := cornerAny(t)
	ws, err := Winnable(context.Background(), prob, Budget{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	budget := ws.PeakBytes - 1
	tight, err := Winnable(context.Background(), prob, Budget{Workers: 2, Memory: budget})
	switch {
	case errors.Is(err, ErrMemory):
	case err != nil:
		t.Errorf("budget one byte under the peak of %d: err = %v, want ErrMemory or none", ws.PeakBytes, err)
	case tight.PeakBytes > budget:
		t.Errorf("budget one byte under the peak of %d: finished with a peak of %d", ws.PeakBytes, tight.PeakBytes)
	case tight.Winnable != ws.Winnable:
		t.Errorf("budget one byte under the peak of %d: %d winnable positions, want %d", ws.PeakBytes, tight.Winnable, ws.Winnable)
	}
	if _, err := Winnable(context.Background(), prob, Budget{Workers: 2, Memory: ws.PeakBytes / 8}); !errors.Is(err, ErrMemory) {
		t.Errorf("budget an eighth of the peak of %d: err = %v, want ErrMemory", ws.PeakBytes, err)
	}
}

// TestRandomChanceBudget checks that RandomChance charges what it holds,
// the chance pass's counts too: one byte under its peak it stops with
// ErrMemory or finishes within the budget with the same chance.
func TestRandomChanceBudget(t *testing.T) {
	prob := cornerAny(t)
	r, err := RandomChance(context.Background(), prob, Budget{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int64{r.PeakBytes - 1, r.PeakBytes / 8} {
		tight, err := RandomChance(context.Background(), prob, Budget{Workers: 2, Memory: budget})
		switch {
		case errors.Is(err, ErrMemory):
		case err != nil:
			t.Errorf("budget %d under the peak of %d: err = %v, want ErrMemory or none", budget, r.PeakBytes, err)
		case tight.PeakBytes > budget || tight.Win != r.Win:
			t.Errorf("budget %d under the peak of %d: chance %v, peak %d; want %v within the budget", budget, r.PeakBytes, tight.Win, tight.PeakBytes, r.Win)
		}
	}
}

// cornerAny is the 21-hole triangle with its top corner vacated, to end with
// one peg anywhere: a whole state space searched in a fraction of a second.
func cornerAny(t *testing.T) Problem {
	b := enginetest.Board(t, "triangle:6")
	start, err := b.Vacate("1")
	if err != nil {
		t.Fatal(err)
	}
	return Problem{b, start, enginetest.Goal(t, b, "any")}
}
