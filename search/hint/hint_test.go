package hint

import (
	"context"
	"sync"
	"testing"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/search"
	"pegs/search/internal/kernel"
)

func centreLevel(t *testing.T, opt Options) (*Advisor, *engine.Board, engine.Goal, *search.WinSet) {
	t.Helper()
	a := NewAdvisor(opt)
	a.setNoFewest()
	t.Cleanup(a.Close)
	b := engine.English()
	g := enginetest.Goal(t, b, "center")
	return a, b, g, englishWinnable(t, "center")
}

// englishWinnable returns the winnable positions of the English centre
// game to goal ("center" or "any"), built once for all the tests that
// read them: a WinSet does not change once built.
func englishWinnable(t *testing.T, goal string) *search.WinSet {
	t.Helper()
	ws, err := englishWinSets[goal]()
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

var englishWinSets = map[string]func() (*search.WinSet, error){
	"center": sync.OnceValues(func() (*search.WinSet, error) { return englishWinSet("center") }),
	"any":    sync.OnceValues(func() (*search.WinSet, error) { return englishWinSet("any") }),
}

func englishWinSet(goal string) (*search.WinSet, error) {
	b := engine.English()
	g, err := b.ParseGoal(goal)
	if err != nil {
		return nil, err
	}
	return search.Winnable(context.Background(), search.Problem{Board: b, Start: b.Start(), Goal: g}, search.Budget{})
}

func fewestPegs(ctx context.Context, b *engine.Board, p engine.Position, floor int, maxNodes int64) (kernel.SolveResult, error) {
	return kernel.Solve(ctx, b, p, engine.Goal{Kind: engine.FewestPegs}, kernel.SolveConfig{Memory: search.DefaultMemory, Techniques: kernel.All(), MaxNodes: maxNodes, Floor: floor})
}

// lost reports whether a hint's status says one peg is out of reach.
func lost(s Status) bool { return s == FewestOnly || s == DeadEnd }

// checkLost checks the hint of a position p where one peg is out of reach:
// a dead end has no jump left and its pegs as its fewest; otherwise the
// hint's jump is legal and its child can still end with the fewest pegs
// (depth first finds such a finish, stopping there: none can have fewer).
func checkLost(t *testing.T, b *engine.Board, p engine.Position, h Hint) {
	t.Helper()
	moves := b.Moves(nil, p)
	switch h.Status {
	case DeadEnd:
		if len(moves) != 0 || h.Jump != nil || h.Fewest != p.Pegs() {
			t.Fatalf("at %s: a dead end with %d jumps left, jump %v, fewest %d", b.Line(p), len(moves), h.Jump, h.Fewest)
		}
	case FewestOnly:
		if len(moves) == 0 || h.Jump == nil || !b.Legal(p, *h.Jump) {
			t.Fatalf("at %s: one peg out of reach with %d jumps left, hinted jump %v", b.Line(p), len(moves), h.Jump)
		}
		sol, err := fewestPegs(context.Background(), b, p.Apply(*h.Jump), h.Fewest, 0)
		if err != nil || sol.Final.Pegs() != h.Fewest {
			t.Fatalf("at %s: after the hinted jump %s, %d pegs at best, want %d (%v)", b.Line(p), b.FormatJump(*h.Jump), sol.Final.Pegs(), h.Fewest, err)
		}
	}
}
