package search

import (
	"context"
	"errors"
	"math"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// TestExploreEnglishCentre checks the English centre game's full analysis
// against the published figures (testdata/published.json names their
// sources), and its winnable and reachable layers against the searches
// that find those alone.
func TestExploreEnglishCentre(t *testing.T) {
	if testing.Short() {
		t.Skip("the full English analysis takes about 15 s")
	}
	pub := loadPublished(t)
	b := engine.English()
	a, err := Explore(context.Background(), Problem{b, b.Start(), enginetest.Goal(t, b, "center")}, ExploreOptions{})
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
	// The peer computes it in floating point: 14 digits must agree.
	if d := math.Abs(a.RandomWin-pub.EnglishRandomWin) / pub.EnglishRandomWin; d > 1e-14 {
		t.Errorf("random-play win probability %.17g, the peer's %.17g: relative difference %.2g, want at most 1e-14", a.RandomWin, pub.EnglishRandomWin, d)
	}
	// The winnable-only search agrees layer by layer.
	w, err := Winnable(context.Background(), Problem{b, b.Start(), enginetest.Goal(t, b, "center")}, Budget{})
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
	r, err := Explore(context.Background(), Problem{b, b.Start(), enginetest.Goal(t, b, "center")}, ExploreOptions{ReachableOnly: true})
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
	b := enginetest.Board(t, "triangle:6")
	start, _ := b.Vacate("1")
	prob := Problem{b, start, enginetest.Goal(t, b, "any")}
	all, err := Explore(context.Background(), prob, ExploreOptions{ReachableOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := start.Pegs() - 10
	part, err := Explore(ctx, prob, ExploreOptions{ReachableOnly: true, Budget: Budget{Progress: func(p Progress) {
		if p.Pegs == stop {
			cancel()
		}
	}}})
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

// TestReversal checks that backward play is forward play with pegs and
// holes swapped: vacate s, finish f has as many solutions as vacate f,
// finish s.
func TestReversal(t *testing.T) {
	for _, name := range []string{"triangle"} {
		b := enginetest.Board(t, name)
		n := b.Holes()
		count := make([][]*big.Int, n)
		for s := range n {
			count[s] = make([]*big.Int, n)
			a, err := Explore(context.Background(), Problem{b, b.Full() &^ (1 << uint(s)), engine.Goal{Kind: engine.OnePeg}}, ExploreOptions{})
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
		b := enginetest.Board(t, c.board)
		start, _ := b.Vacate(c.start)
		prob := Problem{b, start, enginetest.Goal(t, b, c.goal)}
		red, err := Explore(context.Background(), prob, ExploreOptions{})
		if err != nil {
			t.Fatal(err)
		}
		raw, err := Explore(context.Background(), prob, ExploreOptions{NoSymmetry: true})
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
		if red.RandomWin != raw.RandomWin {
			t.Errorf("%s: random win %g reduced, %g raw", c.board, red.RandomWin, raw.RandomWin)
		}
	}
}

func TestExploreMemoryBudget(t *testing.T) {
	b := engine.English()
	_, err := Explore(context.Background(), Problem{b, b.Start(), enginetest.Goal(t, b, "center")}, ExploreOptions{Budget: Budget{Memory: 1 << 20}})
	if !isMemory(err) {
		t.Errorf("English with 1 MiB: err = %v, want ErrMemory", err)
	}
}

// TestWorkersAgree checks that results do not depend on the worker count.
func TestWorkersAgree(t *testing.T) {
	b := enginetest.Board(t, "triangle:6")
	prob := Problem{b, b.Start(), engine.Goal{Kind: engine.OnePeg}}
	var prev *Analysis
	for _, w := range []int{1, 2, 3} {
		a, err := Explore(context.Background(), prob, ExploreOptions{Budget: Budget{Workers: w}})
		if err != nil {
			t.Fatal(err)
		}
		if prev != nil && (a.Solutions.Cmp(prev.Solutions) != 0 || a.RandomWin != prev.RandomWin || !slices.Equal(a.Layers, prev.Layers)) {
			t.Errorf("workers=%d differs from fewer workers", w)
		}
		prev = a
	}
}

// TestNoGamesAgrees checks that an analysis without complete games gives
// the full analysis's every other figure.
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
		full, err := Explore(context.Background(), prob, ExploreOptions{WholeGroup: c.whole})
		if err != nil {
			t.Fatal(err)
		}
		part, err := Explore(context.Background(), prob, ExploreOptions{WholeGroup: c.whole, NoGames: true})
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
		held, err := Explore(context.Background(), prob, ExploreOptions{NoGames: c.noGames})
		if err != nil {
			t.Fatal(err)
		}
		stored, err := Explore(context.Background(), prob, ExploreOptions{Budget: storingEvery(Budget{}), NoGames: c.noGames})
		if err != nil {
			t.Fatal(err)
		}
		// Every layer expanded is stored.
		e, err := layered.NewExpander(layered.Positions, layered.Setup{Gen: movegen.New(b, prob.Group()), Mem: memory.New(1 << 30), Tuning: storeEveryTuning, Store: true})
		if err != nil {
			t.Fatal(err)
		}
		fwd, err := layered.Forward(context.Background(), e, layered.First(prob.Group(), start, false), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range fwd {
			if !l.Coded() {
				t.Errorf("%s %s: layer of %d pegs not stored", c.board, c.start, l.Pegs())
			}
		}
		held.PeakBytes, held.Elapsed = 0, 0
		stored.PeakBytes, stored.Elapsed = 0, 0
		if diff := cmp.Diff(held, stored, cmp.Comparer(func(x, y *big.Int) bool { return x.Cmp(y) == 0 })); diff != "" {
			t.Errorf("%s vacate %s: stored layers differ (-held +stored):\n%s", c.board, c.start, diff)
		}
		// A reachable-only search that codes its layers as it finds them
		// (where they would not fit as keys) counts the same.
		heldOnly, err := Explore(context.Background(), prob, ExploreOptions{ReachableOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		mem := memory.New(1 << 30)
		first := layered.First(prob.Group(), start, false)
		ec, err := layered.NewExpander(layered.Positions, layered.Setup{Gen: movegen.New(b, prob.Group()), Mem: mem, Tuning: layered.Tuning{CodeEvery: true}})
		if err != nil {
			t.Fatal(err)
		}
		storedOnly, err := reachable(context.Background(), &Analysis{}, first, ec, nil, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if used := inUse(mem); used != 0 {
			t.Errorf("%s vacate %s: reachable only, coded layers: %d bytes still charged at the end", c.board, c.start, used)
		}
		if diff := cmp.Diff(heldOnly.Layers, storedOnly.Layers); diff != "" {
			t.Errorf("%s vacate %s: reachable only, coded layers differ (-held +coded):\n%s", c.board, c.start, diff)
		}
	}
}

// TestExploreCancelled checks what a cancelled analysis (or winnable
// search) keeps: the layers its forward pass finished, with the positions
// the whole analysis counts for them, and no winnable positions or paths
// (which need the rest).
func TestExploreCancelled(t *testing.T) {
	b := enginetest.Board(t, "triangle:6")
	prob := Problem{b, b.Complement(1), enginetest.Goal(t, b, "any")}
	whole, err := Explore(context.Background(), prob, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, noGames := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		stopAt := prob.Start.Pegs() - 8
		a, err := Explore(ctx, prob, ExploreOptions{NoGames: noGames, Budget: Budget{Progress: func(p Progress) {
			if p.Phase == "forward" && p.Pegs == stopAt {
				cancel()
			}
		}}})
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
	ws, err := Winnable(ctx, prob, Budget{Progress: func(p Progress) {
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

// inUse returns the bytes mem holds for a search's work: those it has
// taken less the spare arrays it keeps for reuse (see
// memory.Budget.Spare).
func inUse(mem *memory.Budget) int64 { return mem.Used() - mem.Spared() }
