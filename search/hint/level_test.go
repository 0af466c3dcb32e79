package hint

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/search"
)

func TestHintLevelRace(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the English winnable set")
	}
	b := engine.English()
	g := enginetest.Goal(t, b, "center")
	ws := englishWinnable(t, "center")
	a := NewAdvisor(Options{Memory: 40 << 20}) // the tables need more than half (23-40 MiB)
	defer a.Close()
	won, lost := 0, 0
	games := rand.New(rand.NewPCG(3, 4))
	for game := range 10 {
		jumps := b.RandomGame(b.Start(), games)
		p := b.Start()
		for i := 0; i <= len(jumps) && (won < 2 || lost < 2); i++ {
			if i > 0 {
				p = p.Apply(jumps[i-1])
			}
			win := ws.Contains(p)
			if win && won == 2 || !win && (lost == 2 || p.Pegs() > 22) {
				continue
			}
			want := 0 // the jumps to take back
			for k := 1; !win && k <= i; k++ {
				if q, _ := b.Replay(b.Start(), jumps[:i-k]); ws.Contains(q) {
					want = k
					break
				}
			}
			// Each jump taken back but the last is a refutation depth first
			// makes alone here: a few keep the test short.
			if want > 2 {
				continue
			}
			if _, err := search.Solve(context.Background(), search.Problem{Board: b, Start: p, Goal: g}, search.SolveOptions{MaxNodes: levelNodes}); !errors.Is(err, search.ErrNodeLimit) {
				continue
			}
			if win {
				won++
			} else {
				lost++
			}
			h, err := a.Hint(context.Background(), b, p, g, &History{b.Start(), jumps[:i]})
			if err != nil {
				t.Fatalf("game %d at %s: %v", game, b.Line(p), err)
			}
			if h.GoalPossible != win {
				t.Fatalf("game %d at %s: goal possible %v, want %v", game, b.Line(p), h.GoalPossible, win)
			}
			if win && (h.Jump == nil || !b.Legal(p, *h.Jump) || !ws.Contains(p.Apply(*h.Jump))) {
				t.Fatalf("game %d at %s: hinted jump %v does not keep the game winnable", game, b.Line(p), h.Jump)
			}
			if h.Undo != want {
				t.Fatalf("game %d at %s: undo %d, want %d", game, b.Line(p), h.Undo, want)
			}
		}
	}
	if won < 2 || lost < 2 {
		t.Fatalf("found %d winnable and %d lost positions past levelNodes; want 2 of each", won, lost)
	}
	// A build the hints started ends (it passes its budget) before the
	// level is looked at.
	if l := a.building(b, b.Start(), g); l != nil {
		<-l.full
	}
	if a.built(b, b.Start(), g) != nil {
		t.Error("the level's tables were built within half of a budget they pass")
	}
}

func TestHintUndoRaces(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the English winnable set")
	}
	a, b, g, ws := centreLevel(t, Options{})
	games := rand.New(rand.NewPCG(7, 8))
	for game := range 10 {
		jumps := b.RandomGame(b.Start(), games)
		// The first position of 13 pegs, and the last winnable one.
		end, last := 32-13, 0
		for i := range end + 1 {
			if p, _ := b.Replay(b.Start(), jumps[:i]); ws.Contains(p) {
				last = i
			}
		}
		hard := false
		for i := last + 1; i < end && !hard; i++ {
			p, _ := b.Replay(b.Start(), jumps[:i])
			_, err := search.Solve(context.Background(), search.Problem{Board: b, Start: p, Goal: g}, search.SolveOptions{MaxNodes: levelNodes})
			hard = errors.Is(err, search.ErrNodeLimit)
		}
		if !hard {
			continue
		}
		p, _ := b.Replay(b.Start(), jumps[:end])
		h, err := a.Hint(context.Background(), b, p, g, &History{b.Start(), jumps[:end]})
		if err != nil {
			t.Fatal(err)
		}
		if !lost(h.Status) || h.Undo != end-last {
			t.Fatalf("game %d at %s: %v, undo %d; want one peg out of reach, undo %d", game, b.Line(p), h.Status, h.Undo, end-last)
		}
		if !a.levelStarted(b, b.Start(), g) {
			t.Fatalf("game %d at %s: the jumps taken back did not race the level's build", game, b.Line(p))
		}
		return
	}
	t.Fatal("no game has a dead end of 13 pegs with a hard position to take back")
}

func TestHintMaxNodesUndo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the English winnable set")
	}
	opt := Options{MaxNodes: 1 << 16}
	a, b, g, ws := centreLevel(t, opt)
	checked := 0
	games := rand.New(rand.NewPCG(3, 4))
	for game := range 30 {
		jumps := b.RandomGame(b.Start(), games)
		for i := range jumps {
			p, _ := b.Replay(b.Start(), jumps[:i])
			if ws.Contains(p) || p.Pegs() < 21 || p.Pegs() > 24 {
				continue
			}
			if _, err := fewestPegs(context.Background(), b, p, 2, opt.MaxNodes); !errors.Is(err, search.ErrNodeLimit) {
				continue
			}
			want := 0
			for k := 1; k <= i && want == 0; k++ {
				if q, _ := b.Replay(b.Start(), jumps[:i-k]); ws.Contains(q) {
					want = k
				}
			}
			h, err := a.Hint(context.Background(), b, p, g, &History{b.Start(), jumps[:i]})
			if err != nil {
				t.Fatal(err)
			}
			if !lost(h.Status) || h.Undo != want {
				t.Fatalf("game %d at %s: %v, undo %d; want one peg out of reach, undo %d", game, b.Line(p), h.Status, h.Undo, want)
			}
			checkLost(t, b, p, h)
			if checked++; checked == 2 {
				return
			}
		}
	}
	t.Fatalf("found %d dead ends whose fewest pegs passes MaxNodes; want 2", checked)
}

func TestLevelBuildFewest(t *testing.T) {
	a := NewAdvisor(Options{})
	defer a.Close()
	a.setFewestFrom(1)
	b := enginetest.Board(t, "triangle")
	start, _ := b.Vacate("1")
	g := enginetest.Goal(t, b, "any")
	l := a.startLevel(b, start, g, a.memory())
	<-l.full
	o := a.built(b, start, g)
	if l.ready() == nil || o == nil || o.fewest == nil {
		t.Fatalf("the level's build ended without its fewest table (error %v)", l.err)
	}
	if l.ready().fewest != nil {
		t.Error("the fewest table was added to the oracle hints already held")
	}
	checked := 0
	games := rand.New(rand.NewPCG(5, 6))
	for game := range 40 {
		jumps := b.RandomGame(start, games)
		for i := range jumps {
			p, _ := b.Replay(start, jumps[:i+1])
			if one, _ := o.OnePeg(p); one {
				continue
			}
			sol, err := fewestPegs(context.Background(), b, p, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := o.Fewest(p); !ok {
				t.Fatalf("game %d at %s: the level's fewest table does not know it", game, b.Line(p))
			}
			h, err := a.Hint(context.Background(), b, p, g, &History{start, jumps[:i+1]})
			if err != nil {
				t.Fatal(err)
			}
			if !lost(h.Status) || h.Fewest != sol.Final.Pegs() {
				t.Fatalf("game %d at %s: %v with fewest %d, want one peg out of reach with %d", game, b.Line(p), h.Status, h.Fewest, sol.Final.Pegs())
			}
			checkLost(t, b, p, h)
			if h.Fewest >= 3 {
				checked++
			}
		}
	}
	if checked == 0 {
		t.Error("no dead end of the games ends with three pegs at best; the table is not tested")
	}
}
