package hint

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"pegs/engine"
	"pegs/search"
	"pegs/search/internal/dfs"
)

func centreLevel(t *testing.T, opt Options) (*Advisor, *engine.Board, engine.Goal, *search.WinSet) {
	t.Helper()
	a := NewAdvisor(opt)
	a.setNoFewest()
	t.Cleanup(a.Close)
	b := engine.English()
	g := goal(t, b, "center")
	ws, err := search.Winnable(context.Background(), search.Problem{Board: b, Start: b.Start(), Goal: g}, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return a, b, g, ws
}

func fewestPegs(ctx context.Context, b *engine.Board, p engine.Position, floor int, maxNodes int64) (dfs.Result, error) {
	return dfs.Solve(ctx, b, p, engine.Goal{Kind: engine.FewestPegs}, dfs.Config{Memory: search.DefaultMemory, Techniques: dfs.All(), MaxNodes: maxNodes, Floor: floor})
}

func lookup(t *testing.T, name string) *engine.Board {
	t.Helper()
	b, err := engine.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func goal(t *testing.T, b *engine.Board, s string) engine.Goal {
	t.Helper()
	g, err := b.ParseGoal(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func square(t *testing.T, n int) *engine.Board {
	t.Helper()
	b, err := engine.Parse(fmt.Sprint("square", n), strings.Repeat(strings.Repeat("o", n)+"\n", n), engine.Square)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func position(t *testing.T, b *engine.Board, labels ...string) engine.Position {
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
