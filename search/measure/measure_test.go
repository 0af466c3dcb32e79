package measure_test

import (
	"context"
	"errors"
	"testing"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/search"
	"pegs/search/measure"
)

// TestMeasureAgreesWithExplore cross-checks the level walk with the layered
// search on the same problems.
func TestMeasureAgreesWithExplore(t *testing.T) {
	for _, c := range []struct{ board, start, goal string }{
		{"triangle", "1", "any"},
		{"triangle", "4", "4"},
		{"triangle:6", "1", "any"},
	} {
		b := enginetest.Board(t, c.board)
		start, _ := b.Vacate(c.start)
		g := enginetest.Goal(t, b, c.goal)
		m, err := measure.Level(context.Background(), b, start, g, search.DefaultMemory)
		if err != nil {
			t.Fatal(err)
		}
		a, err := search.Explore(context.Background(), search.Problem{Board: b, Start: start, Goal: g}, search.ExploreOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if m.Solutions.Cmp(a.Solutions) != 0 || m.Games.Cmp(a.Games) != 0 {
			t.Errorf("%v: Measure solutions %s games %s; Explore %s %s", c, m.Solutions, m.Games, a.Solutions, a.Games)
		}
		if d := m.P0 - a.RandomWin; d > 1e-9 || d < -1e-9 {
			t.Errorf("%v: P0 %g, Explore's random win %g", c, m.P0, a.RandomWin)
		}
		if m.P1 < m.P0 || m.P1 > 1 || m.J1 <= 0 || m.FewestMoves == 0 {
			t.Errorf("%v: P1 %g (P0 %g), J1 %g, par %d", c, m.P1, m.P0, m.J1, m.FewestMoves)
		}
	}
}

// TestLevelBudget checks that a level whose state space passes the budget
// stops with a *search.MemoryError.
func TestLevelBudget(t *testing.T) {
	b := engine.English()
	_, err := measure.Level(context.Background(), b, b.Start(), enginetest.Goal(t, b, "center"), 1<<20)
	var me *search.MemoryError
	if !errors.As(err, &me) || !errors.Is(err, search.ErrMemory) {
		t.Fatalf("the English centre game within 1 MiB: %v, want a *search.MemoryError", err)
	}
}

// TestLevelCancelled checks that a cancelled measure stops with the
// context's error.
func TestLevelCancelled(t *testing.T) {
	b := engine.English()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := measure.Level(ctx, b, b.Start(), enginetest.Goal(t, b, "center"), search.DefaultMemory)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the English centre game, cancelled: %v, want context.Canceled", err)
	}
}
