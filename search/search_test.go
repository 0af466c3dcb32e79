package search

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"pegs/engine"
	"pegs/search/internal/key"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// published holds figures from testdata/published.json, which names their
// sources.
type published struct {
	EnglishReachableByJumps []int64  `json:"english_reachable_by_jumps"`
	EnglishReachable        int64    `json:"english_reachable"`
	EnglishWinnableByJumps  []int64  `json:"english_winnable_by_jumps"`
	EnglishWinnable         int64    `json:"english_winnable"`
	EnglishSolutions        string   `json:"english_solutions"`
	EnglishGames            string   `json:"english_games"`
	FrenchOnePeg            []string `json:"french_one_peg_vacancies"`
	Triangle15Starts        []struct {
		Holes     []int `json:"holes"`
		Solutions int64 `json:"solutions"`
		OwnHole   int64 `json:"own_hole"`
	} `json:"triangle15_starts"`
}

func loadPublished(t *testing.T) published {
	t.Helper()
	data, err := os.ReadFile("testdata/published.json")
	if err != nil {
		t.Fatal(err)
	}
	var p published
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	return p
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

// checkSolution replays a solution and checks it meets the goal.
func checkSolution(t *testing.T, b *engine.Board, start engine.Position, g engine.Goal, sol Solution) {
	t.Helper()
	final, err := b.Replay(start, sol.Jumps)
	if err != nil {
		t.Fatalf("solution does not replay: %v", err)
	}
	if g.Kind != engine.FewestPegs && !g.Reached(final) {
		t.Fatalf("solution ends in %s, missing the goal", b.Line(final))
	}
}

func TestSolveClassicLevels(t *testing.T) {
	b := engine.English()
	g := goal(t, b, "center")
	levels := []struct{ name, pic string }{
		{"centre", b.Line(b.Start())},
		{"Cross", "....o...ooo.....o......o........."},
		{"Plus", "....o....o....ooooo....o....o...."},
		{"Fireplace", "oooooo..ooo....o.o..............."},
		{"Pyramid", "....o...ooo...ooooo.ooooooo......"},
		{"Arrow", ".o.ooo.ooooo....o......o...oooooo"},
		{"Diamond", ".o.ooo.ooooo.ooo.ooo.ooooo.ooo.o."},
		{"Full", "oooooooooooooooo.oooooooooooooooo"},
	}
	for _, lv := range levels {
		p, err := b.ParsePosition(lv.pic)
		if err != nil {
			t.Fatalf("%s: %v", lv.name, err)
		}
		sol, err := Solve(context.Background(), Problem{b, p, g}, Options{})
		if err != nil || !sol.Solvable {
			t.Fatalf("%s: solvable=%v err=%v, want a solution to d4", lv.name, sol.Solvable, err)
		}
		checkSolution(t, b, p, g, sol)
		if got, want := len(sol.Jumps), p.Pegs()-1; got != want {
			t.Errorf("%s: %d jumps, want %d", lv.name, got, want)
		}
	}
}

func TestSolveTriangleStarts(t *testing.T) {
	b := lookup(t, "triangle")
	g := goal(t, b, "any")
	for h := range b.Holes() {
		start := b.Full() &^ (1 << uint(h))
		sol, err := Solve(context.Background(), Problem{b, start, g}, Options{})
		if err != nil || !sol.Solvable {
			t.Fatalf("vacate %s: solvable=%v err=%v", b.Label(h), sol.Solvable, err)
		}
		checkSolution(t, b, start, g, sol)
	}
}

func TestSolveFrench(t *testing.T) {
	b := engine.French()
	g := goal(t, b, "any")
	sol, err := Solve(context.Background(), Problem{b, b.Start(), g}, Options{})
	if err != nil || sol.Solvable || !sol.Refuted || sol.Nodes != 0 {
		t.Errorf("French centre: solvable=%v refuted=%v nodes=%d err=%v; want refuted by class at once", sol.Solvable, sol.Refuted, sol.Nodes, err)
	}
	if testing.Short() {
		t.Skip("French solves take about a minute")
	}
	for _, s := range []string{"c1", "d2", "d3"} {
		start, err := b.Vacate(s)
		if err != nil {
			t.Fatal(err)
		}
		sol, err := Solve(context.Background(), Problem{b, start, g}, Options{})
		if err != nil || !sol.Solvable {
			t.Fatalf("French vacate %s: solvable=%v err=%v", s, sol.Solvable, err)
		}
		checkSolution(t, b, start, g, sol)
	}
}

// TestFrenchOnePegVacancies checks that exactly the published 16 single
// vacancies can be reduced to one peg: the others are refuted by class, and
// each of the 16 falls in one of three symmetry classes, one of which
// TestSolveFrench solves.
func TestFrenchOnePegVacancies(t *testing.T) {
	want := loadPublished(t).FrenchOnePeg
	b := engine.French()
	g := goal(t, b, "any")
	var feasible []string
	for h := range b.Holes() {
		if b.Feasible(b.Full()&^(1<<uint(h)), g) {
			feasible = append(feasible, b.Label(h))
		}
	}
	slices.Sort(feasible)
	slices.Sort(want)
	if diff := cmp.Diff(want, feasible); diff != "" {
		t.Errorf("class-feasible single vacancies (-published +got):\n%s", diff)
	}
	reps := map[engine.Position]bool{}
	for _, l := range feasible {
		p, _ := b.Vacate(l)
		reps[b.Symmetry().Canonical(p)] = true
	}
	for _, l := range []string{"c1", "d2", "d3"} {
		p, _ := b.Vacate(l)
		delete(reps, b.Symmetry().Canonical(p))
	}
	if len(reps) != 0 {
		t.Errorf("%d feasible vacancies lie outside the classes of c1, d2, d3", len(reps))
	}
}

func TestSolveFewest(t *testing.T) {
	b := engine.English()
	// Two pegs apart cannot jump: the fewest is two.
	p, _ := b.ParsePosition("o.o..............................")
	sol, err := Solve(context.Background(), Problem{b, p, engine.Goal{Kind: engine.FewestPegs}}, Options{})
	if err != nil || sol.Final.Pegs() != 2 {
		t.Errorf("fewest from two apart: %d pegs, %v", sol.Final.Pegs(), err)
	}
	sol, err = Solve(context.Background(), Problem{b, b.Start(), engine.Goal{Kind: engine.FewestPegs}}, Options{})
	if err != nil || sol.Final.Pegs() != 1 {
		t.Errorf("fewest from the centre start: %d pegs, %v", sol.Final.Pegs(), err)
	}
	checkSolution(t, b, b.Start(), engine.Goal{Kind: engine.FewestPegs}, sol)
}

// TestSolveMemoryBudget refutes a lost English position of 27 pegs, which
// takes millions of positions, within 64 KiB.
func TestSolveMemoryBudget(t *testing.T) {
	b := engine.English()
	start, _ := b.ParsePosition("ooo..ooo.oooooo..oooooo.ooooooooo")
	_, err := Solve(context.Background(), Problem{b, start, goal(t, b, "center")}, Options{Memory: 64 << 10})
	if err == nil {
		t.Fatal("a 64 KiB budget sufficed; want ErrMemory")
	}
	if !isMemory(err) {
		t.Errorf("err = %v, want ErrMemory", err)
	}
}

func TestSolveCancel(t *testing.T) {
	b := engine.French()
	start, _ := b.Vacate("d3")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Solve(ctx, Problem{b, start, goal(t, b, "any")}, Options{}); err == nil {
		t.Error("cancelled search returned no error")
	}
}

// TestSolveMaxNodes checks that a search past Options.MaxNodes stops with
// ErrNodeLimit, having visited about that many positions: a lost English
// position of 27 pegs that takes millions to refute.
func TestSolveMaxNodes(t *testing.T) {
	b := engine.English()
	p, err := b.ParsePosition("ooo..ooo.oooooo..oooooo.ooooooooo")
	if err != nil {
		t.Fatal(err)
	}
	sol, err := Solve(context.Background(), Problem{b, p, goal(t, b, "center")}, Options{MaxNodes: 1 << 16})
	if !errors.Is(err, ErrNodeLimit) || sol.Nodes > 1<<17 {
		t.Errorf("MaxNodes 2^16: err = %v after %d positions, want ErrNodeLimit after about 2^16", err, sol.Nodes)
	}
}

func TestExploreEnglishCentre(t *testing.T) {
	if testing.Short() {
		t.Skip("the full English analysis takes about 15 s")
	}
	pub := loadPublished(t)
	b := engine.English()
	a, err := Explore(context.Background(), Problem{b, b.Start(), goal(t, b, "center")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var reach, win []int64
	for _, l := range a.Layers {
		reach = append(reach, l.Reachable)
		win = append(win, l.Winnable)
	}
	if diff := cmp.Diff(pub.EnglishReachableByJumps, reach); diff != "" {
		t.Errorf("reachable by jumps (-A112737 +got):\n%s", diff)
	}
	if diff := cmp.Diff(pub.EnglishWinnableByJumps, win); diff != "" {
		t.Errorf("winnable by jumps (-A112738 +got):\n%s", diff)
	}
	if a.Reachable != pub.EnglishReachable || a.Winnable != pub.EnglishWinnable {
		t.Errorf("reachable %d, winnable %d; want %d, %d", a.Reachable, a.Winnable, pub.EnglishReachable, pub.EnglishWinnable)
	}
	if got := a.Solutions.String(); got != pub.EnglishSolutions {
		t.Errorf("solutions %s, want %s", got, pub.EnglishSolutions)
	}
	if got := a.Games.String(); got != pub.EnglishGames {
		t.Errorf("complete games %s, want %s", got, pub.EnglishGames)
	}
	if a.RandomWin <= 0 || a.RandomWin >= 1e-3 {
		t.Errorf("random-play win probability %g, want a small positive number", a.RandomWin)
	}
	// The winnable-only search agrees layer by layer.
	w, err := Winnable(context.Background(), Problem{b, b.Start(), goal(t, b, "center")}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var win2 []int64
	for _, l := range w.Layers {
		win2 = append(win2, l.Winnable)
	}
	if diff := cmp.Diff(pub.EnglishWinnableByJumps, win2); diff != "" {
		t.Errorf("Winnable by jumps (-A112738 +got):\n%s", diff)
	}
	// So does the count of reachable positions alone.
	r, err := Explore(context.Background(), Problem{b, b.Start(), goal(t, b, "center")}, Options{ReachableOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Layers {
		a.Layers[i].Winnable = 0
	}
	if diff := cmp.Diff(a.Layers, r.Layers); diff != "" {
		t.Errorf("reachable-only layers (-full analysis +reachable only):\n%s", diff)
	}
	if r.Reachable != a.Reachable || r.ReachableRaw != a.ReachableRaw || r.DeadEnds != a.DeadEnds || r.Solutions != nil || r.Games != nil {
		t.Errorf("reachable only: %d, %d raw, %d dead ends, solutions %v, games %v; want %d, %d, %d and no counts",
			r.Reachable, r.ReachableRaw, r.DeadEnds, r.Solutions, r.Games, a.Reachable, a.ReachableRaw, a.DeadEnds)
	}
}

// TestReachableOnlyCancel checks that a reachable-only search stopped
// midway returns the layers it finished.
func TestReachableOnlyCancel(t *testing.T) {
	b := lookup(t, "triangle:6")
	start, _ := b.Vacate("1")
	prob := Problem{b, start, goal(t, b, "any")}
	all, err := Explore(context.Background(), prob, Options{ReachableOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := start.Pegs() - 10
	part, err := Explore(ctx, prob, Options{ReachableOnly: true, Progress: func(p Progress) {
		if p.Pegs == stop {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || part == nil {
		t.Fatalf("cancelled at %d pegs: %v, %v; want the layers so far and context.Canceled", stop, part, err)
	}
	if n := len(part.Layers); n < 10 || n >= len(all.Layers) {
		t.Fatalf("cancelled at %d pegs: %d layers of %d", stop, n, len(all.Layers))
	}
	if diff := cmp.Diff(all.Layers[:len(part.Layers)], part.Layers); diff != "" {
		t.Errorf("layers before the stop (-whole search +stopped):\n%s", diff)
	}
}

func TestTriangleStarts(t *testing.T) {
	pub := loadPublished(t)
	b := lookup(t, "triangle")
	results, err := Starts(context.Background(), b, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != len(pub.Triangle15Starts) {
		t.Fatalf("%d start classes, want %d", len(results), len(pub.Triangle15Starts))
	}
	ownFinish := 0
	for i, r := range results {
		want := pub.Triangle15Starts[i]
		var class []int
		for _, h := range r.Class {
			class = append(class, h+1)
		}
		if diff := cmp.Diff(want.Holes, class); diff != "" {
			t.Errorf("class %d (-want +got):\n%s", i, diff)
		}
		if got := r.Solutions.Int64(); got != want.Solutions {
			t.Errorf("vacate %d: %d solutions, want %d", r.Hole+1, got, want.Solutions)
		}
		own := int64(0)
		for _, f := range r.Finishes {
			if !f.Each {
				t.Errorf("vacate %d: finishes %v not split", r.Hole+1, f.Holes)
			}
			if slices.Contains(f.Holes, r.Hole) {
				own = f.Solutions.Int64()
			}
		}
		if own != want.OwnHole {
			t.Errorf("vacate %d: %d solutions finishing in the start hole, want %d", r.Hole+1, own, want.OwnHole)
		}
		if own > 0 {
			ownFinish += len(r.Class)
		}
	}
	if ownFinish != 12 {
		t.Errorf("%d start holes can finish where they started, want 12", ownFinish)
	}
}

// TestReversal checks that backward play is forward play with pegs and
// holes swapped: vacate s, finish f has as many solutions as vacate f,
// finish s.
func TestReversal(t *testing.T) {
	for _, name := range []string{"triangle"} {
		b := lookup(t, name)
		n := b.Holes()
		count := make([][]*big.Int, n)
		for s := range n {
			count[s] = make([]*big.Int, n)
			a, err := Explore(context.Background(), Problem{b, b.Full() &^ (1 << uint(s)), engine.Goal{Kind: engine.OnePeg}}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for f := range n {
				count[s][f] = new(big.Int)
				if c, ok := a.SolutionsByFinish[f]; ok {
					count[s][f] = c
				}
			}
		}
		for s := range n {
			for f := range n {
				if count[s][f].Cmp(count[f][s]) != 0 {
					t.Errorf("%s: vacate %d finish %d has %s solutions, vacate %d finish %d has %s", name, s+1, f+1, count[s][f], f+1, s+1, count[f][s])
				}
			}
		}
	}
}

// TestSymmetryReductionAgrees checks the reduced search against a raw one.
func TestSymmetryReductionAgrees(t *testing.T) {
	for _, c := range []struct{ board, start, goal string }{
		{"triangle", "1", "any"},
		{"triangle:6", "1", "any"},
		{"triangle:4", "5", "5"},
	} {
		b := lookup(t, c.board)
		start, _ := b.Vacate(c.start)
		prob := Problem{b, start, goal(t, b, c.goal)}
		red, err := Explore(context.Background(), prob, Options{})
		if err != nil {
			t.Fatal(err)
		}
		raw, err := Explore(context.Background(), prob, Options{NoSymmetry: true})
		if err != nil {
			t.Fatal(err)
		}
		for i := range red.Layers {
			if red.Layers[i].ReachableRaw != raw.Layers[i].Reachable {
				t.Errorf("%s %d pegs: reduced search counts %d raw positions, raw search %d", c.board, red.Layers[i].Pegs, red.Layers[i].ReachableRaw, raw.Layers[i].Reachable)
			}
		}
		if red.Solutions.Cmp(raw.Solutions) != 0 || red.Games.Cmp(raw.Games) != 0 {
			t.Errorf("%s: reduced solutions %s games %s, raw %s %s", c.board, red.Solutions, red.Games, raw.Solutions, raw.Games)
		}
		if d := red.RandomWin - raw.RandomWin; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: random win %g reduced, %g raw", c.board, red.RandomWin, raw.RandomWin)
		}
	}
}

func TestExploreMemoryBudget(t *testing.T) {
	b := engine.English()
	_, err := Explore(context.Background(), Problem{b, b.Start(), goal(t, b, "center")}, Options{Memory: 1 << 20})
	if !isMemory(err) {
		t.Errorf("English with 1 MiB: err = %v, want ErrMemory", err)
	}
}

// TestWorkersAgree checks that results do not depend on the worker count.
func TestWorkersAgree(t *testing.T) {
	b := lookup(t, "triangle:6")
	prob := Problem{b, b.Start(), engine.Goal{Kind: engine.OnePeg}}
	var prev *Analysis
	for _, w := range []int{1, 2, 3} {
		a, err := Explore(context.Background(), prob, Options{Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if prev != nil && (a.Solutions.Cmp(prev.Solutions) != 0 || a.RandomWin != prev.RandomWin || !slices.Equal(a.Layers, prev.Layers)) {
			t.Errorf("workers=%d differs from fewer workers", w)
		}
		prev = a
	}
}

// startOrPicture returns the problem on board from start, a hole to vacate
// or, on the English board, a picture of the position, toward goal.
func startOrPicture(t *testing.T, board, start, g string) Problem {
	t.Helper()
	b := lookup(t, board)
	p, err := b.Vacate(start)
	if board == "english" {
		p, err = b.ParsePosition(start)
	}
	if err != nil {
		t.Fatal(err)
	}
	return Problem{b, p, goal(t, b, g)}
}

func isMemory(err error) bool { return errors.Is(err, ErrMemory) }

// TestNoGamesAgrees checks that counting on the winnable positions alone
// gives the full analysis's every figure but complete games.
func TestNoGamesAgrees(t *testing.T) {
	for _, c := range []struct {
		board, start, goal string
		whole              bool
	}{
		{"triangle", "1", "any", false},
		{"triangle", "4", "any", true},
		{"triangle:6", "5", "any", false},
		{"triangle:6", "1", "1", false},
		{"triangle:4", "1", "1", false}, // no solution
		// The top half full but the centre, and d5.
		{"english", "ooo ooo ooooooo ooo.ooo ...o... ... ...", "center", false},
	} {
		prob := startOrPicture(t, c.board, c.start, c.goal)
		full, err := Explore(context.Background(), prob, Options{WholeGroup: c.whole})
		if err != nil {
			t.Fatal(err)
		}
		part, err := Explore(context.Background(), prob, Options{WholeGroup: c.whole, NoGames: true})
		if err != nil {
			t.Fatal(err)
		}
		if part.Games != nil {
			t.Errorf("%s %s: NoGames counted games %s", c.board, c.start, part.Games)
		}
		full.Games, full.PeakBytes, full.Elapsed = nil, 0, 0
		part.PeakBytes, part.Elapsed = 0, 0
		if diff := cmp.Diff(full, part, cmp.Comparer(func(x, y *big.Int) bool { return x.Cmp(y) == 0 })); diff != "" {
			t.Errorf("%s vacate %s goal %s: NoGames differs (-full +NoGames):\n%s", c.board, c.start, c.goal, diff)
		}
	}
}

// TestStoredLayersAgree checks that an analysis whose forward pass codes
// the layers it has expanded (storedKeys, here from the first) gives the
// figures of one that holds them as keys.
func TestStoredLayersAgree(t *testing.T) {
	for _, c := range []struct {
		board, start, goal string
		noGames            bool
	}{
		{"triangle:6", "5", "any", false},
		{"triangle:6", "5", "any", true},
		{"english", "ooo ooo ooooooo ooo.ooo ...o... ... ...", "center", false},
	} {
		prob := startOrPicture(t, c.board, c.start, c.goal)
		b, start := prob.Board, prob.Start
		held, err := Explore(context.Background(), prob, Options{NoGames: c.noGames})
		if err != nil {
			t.Fatal(err)
		}
		stored, err := Explore(context.Background(), prob, storingEvery(Options{NoGames: c.noGames}))
		if err != nil {
			t.Fatal(err)
		}
		// Every layer expanded is stored.
		e := &layered.Expander{Gen: movegen.New(b, prob.Group()), Store: true, Mem: memory.New(1 << 30), Tuning: storeEveryTuning}
		fwd, err := layered.Forward(context.Background(), e, []*layered.Layer{{Pegs: start.Pegs(), Keys: []uint64{key.Mix(prob.Group().Canonical(start))}}}, "forward", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range fwd {
			if l.Stored == nil || l.Keys != nil {
				t.Errorf("%s %s: layer of %d pegs not stored", c.board, c.start, l.Pegs)
			}
		}
		held.PeakBytes, held.Elapsed = 0, 0
		stored.PeakBytes, stored.Elapsed = 0, 0
		if diff := cmp.Diff(held, stored, cmp.Comparer(func(x, y *big.Int) bool { return x.Cmp(y) == 0 })); diff != "" {
			t.Errorf("%s vacate %s: stored layers differ (-held +stored):\n%s", c.board, c.start, diff)
		}
		// A reachable-only search that codes its layers as it finds them
		// (where they would not fit as keys) counts the same.
		heldOnly, err := Explore(context.Background(), prob, Options{ReachableOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		mem := memory.New(1 << 30)
		always := func(int, int64) bool { return true }
		first := &layered.Layer{Pegs: start.Pegs(), Keys: []uint64{key.Mix(prob.Group().Canonical(start))}}
		storedOnly, err := (&Analysis{}).reachable(context.Background(), first, &layered.Expander{Gen: movegen.New(b, prob.Group()), Mem: mem, Code: always}, nil, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if used := mem.Used(); used != 0 {
			t.Errorf("%s vacate %s: reachable only, coded layers: %d bytes still charged at the end", c.board, c.start, used)
		}
		if diff := cmp.Diff(heldOnly.Layers, storedOnly.Layers); diff != "" {
			t.Errorf("%s vacate %s: reachable only, coded layers differ (-held +coded):\n%s", c.board, c.start, diff)
		}
	}
}

// TestWalkBackMirror checks the walk back that stops at the middle and
// complements the layers past it (games whose start is the complement of
// their goal) against the walk back through every layer, and the winnable
// positions that Winnable finds by meeting in the middle against both.
func TestWalkBackMirror(t *testing.T) {
	// The 4x6 rectangle has an even number of holes (24), so its middle
	// layer's complements have as many pegs; the others an odd number.
	rect, err := engine.Parse("rect", strings.Repeat("oooooo\n", 4), engine.Square)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][3]string{{"triangle", "1", "1"}, {"triangle:6", "5", "5"}, {"rect", "a1", "a1"}, {"english", "d4", "center"}} {
		if c[0] == "english" && testing.Short() {
			continue
		}
		b := rect
		if c[0] != "rect" {
			b = lookup(t, c[0])
		}
		start, err := b.Vacate(c[1])
		if err != nil {
			t.Fatal(err)
		}
		prob := Problem{b, start, goal(t, b, c[2])}
		gen := movegen.New(b, prob.Group())
		if !layered.Mirrored(prob.Board, prob.Start, prob.Goal, gen.Group) {
			t.Fatalf("%s, vacate %s, goal %s: not mirrored", c[0], c[1], c[2])
		}
		mem := memory.New(1 << 30)
		e := &layered.Expander{Gen: gen, Mem: mem}
		fwd, err := layered.Forward(context.Background(), e, []*layered.Layer{{Pegs: prob.Start.Pegs(), Keys: []uint64{key.Mix(gen.Group.Canonical(prob.Start))}}}, "forward", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		byPegs := map[int]*layered.Layer{}
		for _, l := range fwd {
			byPegs[l.Pegs] = l
		}
		walk := func(mirror bool) map[int][]uint64 {
			win := map[int][]uint64{}
			before := mem.Used()
			err := layered.WalkBack(context.Background(), prob.Goal, gen, byPegs, prob.Start.Pegs(), false, mirror, layered.Config{}, mem, func(pegs int, keys []uint64) error {
				win[pegs] = keys
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if after := mem.Used(); after != before {
				t.Errorf("%s: budget in use %d after the walk back, %d before", c[0], after, before)
			}
			return win
		}
		want, got := walk(false), walk(true)
		if len(want) < 3 {
			t.Fatalf("%s: %d layers of winnable positions", c[0], len(want))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: winnable positions mirrored past the middle differ (-walked +mirrored):\n%s", c[0], diff)
		}
		// Winnable meets in the middle from the forward layers alone.
		ws, err := Winnable(context.Background(), prob, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, ws.keys); diff != "" {
			t.Errorf("%s: winnable positions met in the middle differ (-walked +met):\n%s", c[0], diff)
		}
	}
}

// TestWinnableGoalsTogether checks the winnable positions of a goal and
// of one peg anywhere found in one search (as oracles do) against each
// found alone. In the English centre game the second rides on the first's
// meeting in the middle (sameAfterOne); on the triangles it does not.
func TestWinnableGoalsTogether(t *testing.T) {
	cases := []struct{ board, start, goal string }{
		{"triangle", "1", "1"},
		{"triangle:6", "5", "5"},
		{"english", "d4", "center"},
	}
	for _, c := range cases {
		if c.board == "english" && testing.Short() {
			continue
		}
		b := lookup(t, c.board)
		start, err := b.Vacate(c.start)
		if err != nil {
			t.Fatal(err)
		}
		prob := Problem{b, start, goal(t, b, c.goal)}
		anyProb := Problem{b, start, engine.Goal{Kind: engine.OnePeg}}
		sets, err := WinnableGoals(context.Background(), prob, []engine.Goal{prob.Goal, anyProb.Goal}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range []Problem{prob, anyProb} {
			alone, err := Winnable(context.Background(), p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for pegs := 1; pegs <= start.Pegs(); pegs++ {
				if got, want := sets[i].keys[pegs], alone.keys[pegs]; !slices.Equal(got, want) {
					t.Errorf("%s vacate %s, goal %v, %d pegs: %d winnable together, %d alone", c.board, c.start, p.Goal, pegs, len(got), len(want))
				}
			}
		}
	}
}

// TestStartsTogetherAgrees checks the search from every start at once
// against a search from each start alone: every layer's counts, solutions
// and finishes (random-play odds, which it does not count, aside); and
// once with wide (128-bit) records.
func TestStartsTogetherAgrees(t *testing.T) {
	// A board no symmetry maps to itself: 18 start classes, 18 tags.
	odd, err := engine.Parse("odd", "ooo\nooooo\nooooo\n ooo\n  oo", engine.Square)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"triangle", "triangle:4", "triangle:6", "odd", "triangle/wide"} {
		b := odd
		if name != "odd" {
			b = lookup(t, strings.TrimSuffix(name, "/wide"))
		}
		opt := Options{}
		if strings.HasSuffix(name, "/wide") {
			opt = wide(opt)
		}
		reps, _ := startClasses(b)
		got := map[int]*Analysis{}
		err := startsTogether(context.Background(), b, reps, opt, func(i int, a *Analysis) error {
			got[reps[i]] = a
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(reps) {
			t.Fatalf("%s: %d starts analysed, want %d", name, len(got), len(reps))
		}
		for _, h := range reps {
			prob := Problem{b, b.Full() &^ (1 << uint(h)), engine.Goal{Kind: engine.OnePeg}}
			want, err := Explore(context.Background(), prob, Options{WholeGroup: true, NoGames: true})
			if err != nil {
				t.Fatal(err)
			}
			a := got[h]
			want.PeakBytes, want.Elapsed, a.PeakBytes, a.Elapsed = 0, 0, 0, 0
			want.RandomWin = 0
			if diff := cmp.Diff(want, a, cmp.Comparer(func(x, y *big.Int) bool { return x.Cmp(y) == 0 })); diff != "" {
				t.Errorf("%s vacate %s: together differs from alone (-alone +together):\n%s", name, b.Label(h), diff)
			}
		}
	}
}

// TestStartsFallback checks that Starts gives the same results one start at
// a time when the union of the starts' state spaces passes the budget: a
// start that fits is counted the same, one that does not is decided pair by
// pair. (Since the union keeps only the layers not yet paired, and packs
// tags into keys, it takes less than the largest start alone: with three
// quarters of its bytes most starts here are decided pair by pair.) (Whether finishes that only the board's symmetry tells apart are
// split depends on the budget too, so they are compared by their totals.)
func TestStartsFallback(t *testing.T) {
	b := lookup(t, "triangle:6")
	reps, _ := startClasses(b)
	var union int64
	err := startsTogether(context.Background(), b, reps, Options{}, func(_ int, a *Analysis) error {
		union = max(union, a.PeakBytes)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	budget := union * 3 / 4
	if err := startsTogether(context.Background(), b, reps, Options{Memory: budget}, func(int, *Analysis) error { return nil }); !isMemory(err) {
		t.Fatalf("union with %d bytes: err = %v, want ErrMemory", budget, err)
	}
	want, err := Starts(context.Background(), b, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Starts(context.Background(), b, Options{Memory: budget}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d starts with %d bytes, %d without a limit", len(got), budget, len(want))
	}
	counted := 0
	for i, w := range want {
		g := got[i]
		perHole := map[int]*big.Int{}
		for _, f := range w.Finishes {
			if !f.Each {
				t.Fatalf("vacate %s: finishes %v not split without a limit", b.Label(w.Hole), f.Holes)
			}
			for _, h := range f.Holes {
				perHole[h] = f.Solutions
			}
		}
		if g.Hole != w.Hole {
			t.Fatalf("start %d: vacate %s, want %s", i, b.Label(g.Hole), b.Label(w.Hole))
		}
		if !g.Decided {
			for _, p := range g.Pairs {
				_, solvable := perHole[p.Finish]
				if !p.Decided || p.Solvable != solvable {
					t.Errorf("vacate %s, finish %s: pair decided %v, solvable %v; want solvable %v", b.Label(w.Hole), b.Label(p.Finish), p.Decided, p.Solvable, solvable)
				}
			}
			continue
		}
		counted++
		if g.Reachable != w.Reachable || g.Winnable != w.Winnable || g.Solutions.Cmp(w.Solutions) != 0 {
			t.Errorf("vacate %s: one at a time %+v, together %+v", b.Label(w.Hole), g, w)
			continue
		}
		for _, f := range g.Finishes {
			sum := new(big.Int)
			for _, h := range f.Holes {
				if n, ok := perHole[h]; ok {
					sum.Add(sum, n)
				}
			}
			n := f.Solutions
			if f.Each {
				n = new(big.Int).Mul(f.Solutions, big.NewInt(int64(len(f.Holes))))
			}
			if sum.Cmp(n) != 0 {
				t.Errorf("vacate %s, finish %v: %s solutions one at a time, %s together", b.Label(w.Hole), f.Holes, n, sum)
			}
		}
	}
	t.Logf("with %d bytes: %d of %d starts counted one at a time, the rest pair by pair", budget, counted, len(want))
}

// TestDecide checks Decide against the English centre game's winnable set
// on positions of random games, with its depth-first budget lowered so that
// lost positions take the layered way (depth first looks at its budget
// every 65,536 positions, so winnable ones mostly do not), and the fewest
// pegs against depth first alone. A budget too small for the layered
// search leaves depth first to answer alone.
func TestDecide(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the English winnable set")
	}
	opt := withLoneBase(Options{}, 1<<6)
	b := engine.English()
	g := goal(t, b, "center")
	ws, err := Winnable(context.Background(), Problem{b, b.Start(), g}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	layered, layeredFewest := 0, 0
	games := rand.New(rand.NewPCG(7, 8))
	for game := range 3 {
		jumps := b.RandomGame(b.Start(), games)
		p := b.Start()
		for _, j := range jumps {
			if p = p.Apply(j); p.Pegs() > 22 {
				continue
			}
			sol, err := Decide(context.Background(), Problem{b, p, g}, opt)
			if err != nil {
				t.Fatalf("game %d at %s: %v", game, b.Line(p), err)
			}
			if want := ws.Contains(p); sol.Solvable != want {
				t.Fatalf("game %d at %s: solvable %v, want %v", game, b.Line(p), sol.Solvable, want)
			}
			if sol.Layered {
				layered++
			}
			if p.Pegs() > 20 {
				continue
			}
			// The fewest pegs: the last layer of a layered count, then depth
			// first to that many, against depth first alone.
			fewest := engine.Goal{Kind: engine.FewestPegs}
			sol, err = Decide(context.Background(), Problem{b, p, fewest}, opt)
			want, err2 := Solve(context.Background(), Problem{b, p, fewest}, Options{})
			if err != nil || err2 != nil || sol.Final.Pegs() != want.Final.Pegs() {
				t.Fatalf("game %d at %s: fewest %d (%v), depth first alone %d (%v)", game, b.Line(p), sol.Final.Pegs(), err, want.Final.Pegs(), err2)
			}
			if sol.Layered {
				layeredFewest++
			}
		}
	}
	if layered == 0 || layeredFewest == 0 {
		t.Errorf("%d positions decided layer by layer, %d fewest pegs counted so: want some of each", layered, layeredFewest)
	}
	// A lost position of 23 pegs: its layered search passes 8 MiB, its
	// depth-first refutation does not (at 16 MiB the layered search fits).
	p, err := b.ParsePosition("oo...oo....ooo.o..ooooooooooooooo")
	if err != nil || ws.Contains(p) {
		t.Fatalf("%s: %v; want a lost position", b.Line(p), err)
	}
	sol, err := Decide(context.Background(), Problem{b, p, g}, withLoneBase(Options{Memory: 8 << 20}, 1<<6))
	if err != nil || sol.Solvable || sol.Layered {
		t.Errorf("lost %s within 8 MiB: solvable %v, layered %v, %v; want refuted depth first", b.Line(p), sol.Solvable, sol.Layered, err)
	}
}

// TestExploreCancelled checks what a cancelled analysis (or winnable
// search) keeps: the layers its forward pass finished, with the positions
// the whole analysis counts for them, and no winnable positions or paths
// (which need the rest).
func TestExploreCancelled(t *testing.T) {
	b := lookup(t, "triangle:6")
	prob := Problem{b, b.Complement(1), goal(t, b, "any")}
	whole, err := Explore(context.Background(), prob, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, noGames := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		stopAt := prob.Start.Pegs() - 8
		a, err := Explore(ctx, prob, Options{NoGames: noGames, Progress: func(p Progress) {
			if p.Phase == "forward" && p.Pegs == stopAt {
				cancel()
			}
		}})
		cancel()
		if !errors.Is(err, context.Canceled) || a == nil {
			t.Fatalf("no games %v: cancelled analysis %v, %v; want the layers finished and context.Canceled", noGames, a, err)
		}
		if len(a.Layers) == 0 || len(a.Layers) >= len(whole.Layers) || a.Solutions != nil || a.Games != nil {
			t.Fatalf("no games %v: %d layers of %d, solutions %v, games %v: want some layers, no paths", noGames, len(a.Layers), len(whole.Layers), a.Solutions, a.Games)
		}
		var sum int64
		for i, l := range a.Layers {
			want := whole.Layers[i]
			want.Winnable = 0
			if l != want {
				t.Errorf("no games %v: layer %d is %+v, want %+v", noGames, i, l, want)
			}
			sum += l.Reachable
		}
		if a.Reachable != sum {
			t.Errorf("no games %v: reachable %d, layers sum to %d", noGames, a.Reachable, sum)
		}
	}
	// Winnable, cancelled, keeps the same: the layers its forward search
	// expanded, and no winnable positions.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopAt := prob.Start.Pegs() - 8
	ws, err := Winnable(ctx, prob, Options{Progress: func(p Progress) {
		if p.Phase == "forward" && p.Pegs == stopAt {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || ws == nil || len(ws.Layers) == 0 || ws.Winnable != 0 || ws.Contains(prob.Start) {
		t.Fatalf("cancelled winnable search: %+v, %v; want the layers expanded, none winnable, and context.Canceled", ws, err)
	}
	for i, l := range ws.Layers {
		want := whole.Layers[i]
		want.Winnable = 0
		if l != want {
			t.Errorf("winnable search: layer %d is %+v, want %+v", i, l, want)
		}
	}
}
