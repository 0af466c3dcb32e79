package hint

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"pegs/engine"
)

// TestHintsOnRandomGames plays random games of the English centre game and
// checks every hint against the winnable set: the hinted jump is legal and
// keeps the game winnable whenever it was, and undo is the true minimum.
func TestHintsOnRandomGames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the English winnable set (about 5 s)")
	}
	b := engine.English()
	g := goal(t, b, "center")
	prob := Problem{b, b.Start(), g}
	ws, err := Winnable(context.Background(), prob, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	anyWs, err := Winnable(context.Background(), Problem{b, b.Start(), goal(t, b, "any")}, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	oracle, err := NewOracle(context.Background(), prob, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	loaded, size := roundTrip(t, oracle)
	if loaded.Len() != 1679072 || size > 4<<20 {
		t.Errorf("oracle holds %d positions in %d bytes; want 1679072 in at most 4 MiB", loaded.Len(), size)
	}
	// The hints below use the oracle with its fewest table.
	if err := oracle.AddFewest(context.Background(), ExploreOptions{}); err != nil {
		t.Fatal(err)
	}
	loaded, _ = roundTrip(t, oracle)
	fromTable := 0
	var slowest time.Duration
	games := rand.New(rand.NewPCG(7, 11))
	for game := range 20 {
		jumps := b.RandomGame(b.Start(), games)
		p := b.Start()
		for i := 0; ; i++ {
			played := jumps[:i]
			// With the oracle and the history, the oracle alone, and the
			// history alone (the level's oracle built in the process).
			for c, o := range []Winner{loaded, loaded, nil} {
				hist := &History{b.Start(), played}
				if c == 1 {
					hist = nil
				}
				t0 := time.Now()
				h, err := Advise(context.Background(), b, p, g, hist, o, Options{})
				if o == nil {
					slowest = max(slowest, time.Since(t0))
				}
				if err != nil {
					t.Fatalf("game %d: %v", game, err)
				}
				win := ws.Contains(p)
				if h.GoalPossible != win {
					t.Fatalf("game %d at %s: hint says goal possible=%v, winnable set says %v", game, b.Line(p), h.GoalPossible, win)
				}
				if one := anyWs.Contains(p); h.OnePegPossible != one && h.Status != Won {
					t.Fatalf("game %d at %s: hint says one peg possible=%v, winnable set says %v", game, b.Line(p), h.OnePegPossible, one)
				}
				if win && p.Pegs() > 1 {
					if h.Jump == nil || !b.Legal(p, *h.Jump) || !ws.Contains(p.Apply(*h.Jump)) {
						t.Fatalf("game %d at %s: hinted jump %v does not keep the game winnable", game, b.Line(p), h.Jump)
					}
				}
				want := 0
				if !win && hist != nil {
					q := b.Start()
					prefix := []engine.Position{q}
					for _, j := range played {
						q = q.Apply(j)
						prefix = append(prefix, q)
					}
					for k := 1; k < len(prefix); k++ {
						if ws.Contains(prefix[len(prefix)-1-k]) {
							want = k
							break
						}
					}
				}
				if h.Undo != want {
					t.Fatalf("game %d at %s: undo %d, want %d", game, b.Line(p), h.Undo, want)
				}
				// A dead end's fewest pegs, from the oracle's table or a
				// search that stops at two, must match a depth-first
				// search's: exhaustive up to 16 pegs, and past that stopping
				// at two too (one peg is refuted by the winnable set).
				if h.Status == DeadEnd && c == 0 {
					floor := 2
					if p.Pegs() <= 16 {
						floor = 1
					}
					if _, ok := loaded.Fewest(p); ok {
						fromTable++
					}
					sol, err := solve(context.Background(), b, p, engine.Goal{Kind: engine.FewestPegs}, Options{}, floor)
					if err != nil || sol.Final.Pegs() != h.Fewest {
						t.Fatalf("game %d at %s: fewest %d, depth-first search says %d (%v)", game, b.Line(p), h.Fewest, sol.Final.Pegs(), err)
					}
				}
			}
			if i == len(jumps) {
				break
			}
			p = p.Apply(jumps[i])
		}
	}
	if fromTable == 0 {
		t.Error("no dead end's fewest came from the oracle's table")
	}
	t.Logf("slowest hint without an oracle file: %v; %d dead ends from the fewest table", slowest, fromTable)
}

// TestLoneHints checks hints for lone positions (no oracle, no history),
// which turn from depth first to one layered search past loneNodes, against
// the English centre game's winnable sets; loneNodes is lowered so that
// most refutations take the layered way. The positions are of the board's
// own game, so the first layered search starts the building of its level's
// tables, which the later hints race, then use.
func TestLoneHints(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the English winnable sets")
	}
	defer func(n int64) { loneBase = n }(loneBase)
	loneBase = 1 << 12
	b, g, key, ws := centreLevel(t)
	anyWs, err := Winnable(context.Background(), Problem{b, b.Start(), goal(t, b, "any")}, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	games := rand.New(rand.NewPCG(5, 6))
	for game := range 4 {
		jumps := b.RandomGame(b.Start(), games)
		p := b.Start()
		for i := 0; i <= len(jumps); i++ {
			if i > 0 {
				p = p.Apply(jumps[i-1])
			}
			if p.Pegs() > 24 {
				continue
			}
			h, err := Advise(context.Background(), b, p, g, nil, nil, Options{})
			if err != nil {
				t.Fatalf("game %d at %s: %v", game, b.Line(p), err)
			}
			checked++
			win, one := ws.Contains(p), anyWs.Contains(p)
			if h.GoalPossible != win || h.OnePegPossible != one && h.Status != Won {
				t.Fatalf("game %d at %s: goal possible %v, one peg %v; want %v, %v", game, b.Line(p), h.GoalPossible, h.OnePegPossible, win, one)
			}
			if win && p.Pegs() > 1 && (h.Jump == nil || !b.Legal(p, *h.Jump) || !ws.Contains(p.Apply(*h.Jump))) {
				t.Fatalf("game %d at %s: hinted jump %v does not keep the game winnable", game, b.Line(p), h.Jump)
			}
			if h.Status == DeadEnd && p.Pegs() <= 16 {
				sol, err := solve(context.Background(), b, p, engine.Goal{Kind: engine.FewestPegs}, Options{}, 1)
				if err != nil || sol.Final.Pegs() != h.Fewest {
					t.Fatalf("game %d at %s: fewest %d, exhaustive search says %d (%v)", game, b.Line(p), h.Fewest, sol.Final.Pegs(), err)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no position checked")
	}
	if _, started := levelBuilds.Load(key); !started && builtLevel(b, b.Start(), g) == nil {
		t.Error("lone hints of the board's own game did not build its level's tables")
	}
}

// TestLoneDeadEndFewest checks that a lone dead end of the board's own
// game whose two-peg finish depth first finds within loneNodes gets its
// fewest pegs that way, not by listing everything it reaches: this 26-peg
// position's depth first needs 179,187 positions, past the budget the check
// for the board's own game leaves its first question (hint 1.0 s against
// 0.4 s).
func TestLoneDeadEndFewest(t *testing.T) {
	if testing.Short() {
		t.Skip("refutes a 26-peg position")
	}
	b := engine.English()
	g := goal(t, b, "center")
	p, err := b.ParsePosition("ooooooooooooooooooooooo...o...o.o")
	if err != nil {
		t.Fatal(err)
	}
	// No level tables: the hint searches, as a one-shot process does.
	key := keyOfLevel(b, b.Start(), g)
	if o, ok := levelOracles.LoadAndDelete(key); ok {
		defer levelOracles.Store(key, o)
	}
	if old, ok := levelsTooBig.Load(key); ok {
		defer levelsTooBig.Store(key, old)
	} else {
		defer levelsTooBig.Delete(key)
	}
	levelsTooBig.Store(key, int64(math.MaxInt64))
	listed := 0
	defer func(f func(context.Context, Problem, ExploreOptions) (int, int64, error)) { listFewest = f }(listFewest)
	listFewest = func(ctx context.Context, prob Problem, opt ExploreOptions) (int, int64, error) {
		listed++
		return fewestReached(ctx, prob, opt)
	}
	h, err := Advise(context.Background(), b, p, g, nil, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h.Status != DeadEnd || h.Fewest != 2 {
		t.Fatalf("hint %v, fewest %d; want a dead end, fewest 2", h.Status, h.Fewest)
	}
	if listed != 0 {
		t.Errorf("the fewest pegs listed everything the position reaches (%d times); want depth first's two-peg finish", listed)
	}
}

// TestStartReaches checks the test of a lone position's place in the
// board's own game: positions of random games from the English start are
// in it, those of games from a vacancy in another position class are not
// (play keeps the class), and so are not positions with too few pegs to
// be checked quickly.
func TestStartReaches(t *testing.T) {
	b := engine.English()
	other, _ := b.Hole("d3")
	if b.Class(b.Complement(1<<uint(other))) == b.Class(b.Start()) {
		t.Fatal("d3's start is in the class of the centre's")
	}
	for _, c := range []struct {
		start engine.Position
		want  bool
	}{{b.Start(), true}, {b.Complement(1 << uint(other)), false}} {
		games := rand.New(rand.NewPCG(9, 10))
		for range 5 {
			jumps := b.RandomGame(c.start, games)
			p := c.start
			for i := 0; i <= len(jumps); i++ {
				if i > 0 {
					p = p.Apply(jumps[i-1])
				}
				want := c.want && p.Pegs() >= levelCheckFrom
				got, err := startReaches(context.Background(), b, b.Start(), p, Options{})
				if err != nil || got != want {
					t.Fatalf("start %s reaches %s: %v (%v); want %v", b.Line(b.Start()), b.Line(p), got, err, want)
				}
			}
		}
	}
}

// TestHintLevelRace checks hints with a history but no oracle when the
// level's tables cannot be built: a question that depth first does not
// answer within levelNodes races the tables' build, which passes half the
// memory budget here, so depth first answers alone. The positions are
// those of random games that need more than levelNodes, winnable or lost
// (a lost one's undo refutes, depth first, every position back to the
// last winnable one). Every answer must match the winnable set, and the
// level must be left unbuilt.
func TestHintLevelRace(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the English winnable set")
	}
	b := engine.English()
	g := goal(t, b, "center")
	freshLevel(t, b, b.Start(), g)
	ws, err := Winnable(context.Background(), Problem{b, b.Start(), g}, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Memory: 256 << 20} // the tables need more than half
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
			if _, err := Solve(context.Background(), b, p, g, Options{MaxNodes: levelNodes}); !errors.Is(err, ErrNodeLimit) {
				continue
			}
			if win {
				won++
			} else {
				lost++
			}
			h, err := Advise(context.Background(), b, p, g, &History{b.Start(), jumps[:i]}, nil, opt)
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
	if builtLevel(b, b.Start(), g) != nil {
		t.Error("the level's tables were built within half of a budget they pass")
	}
}

// TestHintUndoRaces checks that the jumps a dead end's hint takes back race
// the level's build like its other questions. The position has few pegs,
// so its own questions are answered at once; but the positions back to the
// last winnable one include some that depth first does not refute within
// levelNodes, so the build must start. (The questions of the jumps to take
// back once inherited the dead end's fewest search's lack of a limit, and
// took seconds each with the build never started.)
func TestHintUndoRaces(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the English winnable set")
	}
	b, g, key, ws := centreLevel(t)
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
			_, err := Solve(context.Background(), b, p, g, Options{MaxNodes: levelNodes})
			hard = errors.Is(err, ErrNodeLimit)
		}
		if !hard {
			continue
		}
		p, _ := b.Replay(b.Start(), jumps[:end])
		h, err := Advise(context.Background(), b, p, g, &History{b.Start(), jumps[:end]}, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if h.Status != DeadEnd || h.Undo != end-last {
			t.Fatalf("game %d at %s: %v, undo %d; want a dead end, undo %d", game, b.Line(p), h.Status, h.Undo, end-last)
		}
		_, started := levelBuilds.Load(key)
		if !started && builtLevel(b, b.Start(), g) == nil {
			t.Fatalf("game %d at %s: the jumps taken back did not race the level's build", game, b.Line(p))
		}
		return
	}
	t.Fatal("no game has a dead end of 13 pegs with a hard position to take back")
}

// centreLevel returns the English board, the centre goal, its level's key
// and its winnable set, for tests whose hints race the level's build: what
// the process knew of the level is cleared, and its build will not go on to
// the fewest pegs (see freshLevel).
func centreLevel(t *testing.T) (*engine.Board, engine.Goal, levelKey, *WinSet) {
	t.Helper()
	// Restored after freshLevel's cleanup has waited for the build.
	on := levelFewestStage
	t.Cleanup(func() { levelFewestStage = on })
	levelFewestStage = false
	b := engine.English()
	g := goal(t, b, "center")
	key := freshLevel(t, b, b.Start(), g)
	ws, err := Winnable(context.Background(), Problem{b, b.Start(), g}, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return b, g, key, ws
}

// TestHintMaxNodesUndo checks hints with a history and Options.MaxNodes for
// dead ends whose fewest pegs depth first does not find within the limit,
// so a layered search of what they reach answers it. That search cannot
// speak for the positions before them: the jumps to take back must still be
// the true minimum (they were 0 when it answered "lost" for all of them).
func TestHintMaxNodesUndo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the English winnable set")
	}
	b, g, _, ws := centreLevel(t)
	opt := Options{MaxNodes: 1 << 16}
	checked := 0
	games := rand.New(rand.NewPCG(3, 4))
	for game := range 30 {
		jumps := b.RandomGame(b.Start(), games)
		for i := range jumps {
			p, _ := b.Replay(b.Start(), jumps[:i])
			if ws.Contains(p) || p.Pegs() < 21 || p.Pegs() > 24 {
				continue
			}
			if _, err := solve(context.Background(), b, p, engine.Goal{Kind: engine.FewestPegs}, opt, 2); !errors.Is(err, ErrNodeLimit) {
				continue
			}
			want := 0
			for k := 1; k <= i && want == 0; k++ {
				if q, _ := b.Replay(b.Start(), jumps[:i-k]); ws.Contains(q) {
					want = k
				}
			}
			h, err := Advise(context.Background(), b, p, g, &History{b.Start(), jumps[:i]}, nil, opt)
			if err != nil {
				t.Fatal(err)
			}
			if h.Status != DeadEnd || h.Undo != want {
				t.Fatalf("game %d at %s: %v, undo %d; want a dead end, undo %d", game, b.Line(p), h.Status, h.Undo, want)
			}
			if checked++; checked == 2 {
				return
			}
		}
	}
	t.Fatalf("found %d dead ends whose fewest pegs passes MaxNodes; want 2", checked)
}

// TestLevelBuildFewest checks that a level's build in the background goes on
// to the fewest pegs of its dead ends, and that a dead end's hint then
// gives the fewest pegs an exhaustive search finds.
func TestLevelBuildFewest(t *testing.T) {
	defer func(n int) { fewestFrom = n }(fewestFrom)
	fewestFrom = 1
	b := lookup(t, "triangle")
	start, _ := b.Vacate("1")
	g := goal(t, b, "any")
	freshLevel(t, b, start, g)
	l := startLevel(b, start, g, Options{})
	<-l.full
	o, _ := builtLevel(b, start, g).(*Oracle)
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
			sol, err := solve(context.Background(), b, p, engine.Goal{Kind: engine.FewestPegs}, Options{}, 1)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := o.Fewest(p); !ok {
				t.Fatalf("game %d at %s: the level's fewest table does not know it", game, b.Line(p))
			}
			h, err := Advise(context.Background(), b, p, g, &History{start, jumps[:i+1]}, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if h.Status != DeadEnd || h.Fewest != sol.Final.Pegs() {
				t.Fatalf("game %d at %s: %v with fewest %d, want a dead end with %d", game, b.Line(p), h.Status, h.Fewest, sol.Final.Pegs())
			}
			if h.Fewest >= 3 {
				checked++
			}
		}
	}
	if checked == 0 {
		t.Error("no dead end of the games ends with three pegs at best; the table is not tested")
	}
}

// freshLevel clears what the process knows of a level's tables (other
// tests may have built them, or be building them), now and when t ends,
// and returns the level's key.
func freshLevel(t *testing.T, b *engine.Board, start engine.Position, g engine.Goal) levelKey {
	key := keyOfLevel(b, start, g)
	settle := func() {
		if l, ok := levelBuilds.Load(key); ok {
			<-l.(*levelBuild).full
		}
		levelOracles.Delete(key)
		levelsTooBig.Delete(key)
	}
	settle()
	t.Cleanup(settle)
	return key
}

// TestOracleOutsideLevel checks that an oracle's tables, which hold its
// level's positions only, do not speak for a position its start cannot
// reach, and that a history from another start is refused.
func TestOracleOutsideLevel(t *testing.T) {
	b := engine.English()
	g := goal(t, b, "center")
	o, err := NewOracle(context.Background(), Problem{b, b.Start(), g}, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A position of 31 pegs that can end at the centre although the
	// centre game never reaches it: its two holes, as pegs, cannot come
	// back to one peg at d4.
	var outside engine.Position
	for x := 0; x < b.Holes() && outside == 0; x++ {
		for y := x + 1; y < b.Holes(); y++ {
			q := b.Full() &^ (1<<uint(x) | 1<<uint(y))
			win, err1 := Solve(context.Background(), b, q, g, Options{})
			back, err2 := Solve(context.Background(), b, b.Complement(q), g, Options{})
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if win.Solvable && !back.Solvable {
				outside = q
				break
			}
		}
	}
	if outside == 0 {
		t.Fatal("no winnable position outside the centre game found")
	}
	if w, _ := o.Winnable(outside); w {
		t.Fatalf("the oracle holds %s, which its start does not reach", b.Line(outside))
	}
	h, err := Advise(context.Background(), b, outside, g, nil, o, Options{})
	if err != nil || h.Status != GoalPossible || h.Jump == nil {
		t.Errorf("hint for %s with the oracle: %+v, %v; want the goal possible", b.Line(outside), h, err)
	}
	other := b.Full() &^ 1
	if _, err := Advise(context.Background(), b, other, g, &History{Start: other}, o, Options{}); err == nil {
		t.Errorf("a history from another start was taken with the centre game's oracle")
	}
}

func TestHintEdgeCases(t *testing.T) {
	b := engine.English()
	g := goal(t, b, "center")
	h, err := Advise(context.Background(), b, b.Full(), g, nil, nil, Options{})
	if err != nil || h.Status != DeadEnd || h.Fewest != 33 || len(h.Movable) != 0 {
		t.Errorf("full board: %+v, %v; want a dead end with 33 pegs and nothing movable", h, err)
	}
	if _, err := Advise(context.Background(), b, 0, g, nil, nil, Options{}); !errors.Is(err, ErrNoPegs) {
		t.Errorf("empty board: %v, want ErrNoPegs", err)
	}
	jumps, _ := b.ParseMoves("f4-d4 d6-d4")
	p := b.Start().Apply(jumps[0])
	if _, err := Advise(context.Background(), b, p, g, &History{b.Start(), jumps}, nil, Options{}); !errors.Is(err, ErrHistory) {
		t.Errorf("illegal history: %v, want ErrHistory", err)
	}
	won := engine.Position(1) << uint(g.Hole)
	if h, err := Advise(context.Background(), b, won, g, nil, nil, Options{}); err != nil || h.Status != Won {
		t.Errorf("one peg at d4: %+v %v, want won", h, err)
	}
	// Two pegs that cannot meet: one peg impossible, two remain.
	p, _ = b.ParsePosition("o.o..............................")
	h, err = Advise(context.Background(), b, p, g, nil, nil, Options{})
	if err != nil || h.Status != DeadEnd || h.Fewest != 2 || h.OnePegPossible {
		t.Errorf("two apart: %+v %v", h, err)
	}
}

// TestOracleOnePeg checks an oracle for a goal hole, written and loaded
// again, against the depth-first solver on positions of random games: both
// for the goal and for one peg anywhere, whose table holds only what the
// goal's does not imply. Hole 10 is off the mirror that fixes the start, so
// the one-peg table (under the mirror) and the goal's (under no symmetry)
// are reduced by different groups.
func TestOracleOnePeg(t *testing.T) {
	b := lookup(t, "triangle")
	start, _ := b.Vacate("1")
	g := goal(t, b, "10")
	o, err := NewOracle(context.Background(), Problem{b, start, g}, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	loaded, _ := roundTrip(t, o)
	extra := 0
	games := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		jumps := b.RandomGame(start, games)
		p := start
		for i := 0; ; i++ {
			for _, c := range []struct {
				g   engine.Goal
				ask func(engine.Position) (bool, bool)
			}{{g, loaded.Winnable}, {goal(t, b, "any"), loaded.OnePeg}} {
				got, ok := c.ask(p)
				sol, err := Solve(context.Background(), b, p, c.g, Options{})
				if err != nil || !ok || got != sol.Solvable {
					t.Fatalf("%s toward %s: oracle says %v (ok %v), solver %v (%v)", b.Line(p), b.FormatGoal(c.g), got, ok, sol.Solvable, err)
				}
			}
			if w, _ := loaded.Winnable(p); !w {
				if one, _ := loaded.OnePeg(p); one {
					extra++
				}
			}
			if i == len(jumps) {
				break
			}
			p = p.Apply(jumps[i])
		}
	}
	if extra == 0 {
		t.Error("no game met a position that can end with one peg but not at the goal; the test checks nothing of the one-peg table")
	}
	// A version 1 file has no one-peg table: the oracle says it cannot tell.
	var v3 bytes.Buffer
	anyOracle, err := NewOracle(context.Background(), Problem{b, start, goal(t, b, "any")}, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	anyOracle.Write(&v3)
	// Less the empty fewest table (one byte), then the empty one-peg table.
	v2 := bytes.Replace(v3.Bytes()[:v3.Len()-1], []byte(oracleMagic), []byte(oracleMagicV2), 1)
	if o2, err := LoadOracle(bytes.NewReader(v2), b); err != nil {
		t.Fatalf("version 2 file: %v", err)
	} else if win, ok := o2.OnePeg(start); !ok || !win {
		t.Errorf("version 2 file for goal any: OnePeg(start) = %v, %v; want true, true", win, ok)
	}
	v1 := bytes.Replace(v3.Bytes()[:v3.Len()-2], []byte(oracleMagic), []byte(oracleMagicV1), 1)
	old, err := LoadOracle(bytes.NewReader(v1), b)
	if err != nil {
		t.Fatalf("version 1 file: %v", err)
	}
	if win, ok := old.OnePeg(start); !ok || !win {
		t.Errorf("version 1 file for goal any: OnePeg(start) = %v, %v; want true, true", win, ok)
	}
	o.hasAny = false
	if _, ok := o.OnePeg(start); ok {
		t.Error("an oracle without the one-peg table claims to know")
	}
}

// TestOracleFewest checks an oracle's fewest table, written and loaded
// again, against an exhaustive depth-first search for every position the
// start reaches, on the 15-hole triangle with the table lowered to hold
// every peg count: for goal any, and for a goal hole off the start's
// mirror (the one-peg positions then come from orbits of another group).
func TestOracleFewest(t *testing.T) {
	defer func(n int) { fewestFrom = n }(fewestFrom)
	fewestFrom = 1
	b := lookup(t, "triangle")
	start, _ := b.Vacate("1")
	for _, name := range []string{"any", "10"} {
		g := goal(t, b, name)
		o, err := NewOracle(context.Background(), Problem{b, start, g}, ExploreOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := o.Fewest(start); ok {
			t.Fatalf("goal %s: an oracle without the fewest table claims to know", name)
		}
		if err := o.AddFewest(context.Background(), ExploreOptions{}); err != nil {
			t.Fatal(err)
		}
		loaded, _ := roundTrip(t, o)
		if loaded.FewestLen() != o.FewestLen() || o.FewestLen() == 0 {
			t.Fatalf("goal %s: fewest table of %d positions, %d after loading", name, o.FewestLen(), loaded.FewestLen())
		}
		seen := map[engine.Position]bool{}
		var byFewest [16]int
		var walk func(p engine.Position)
		walk = func(p engine.Position) {
			if seen[p] {
				return
			}
			seen[p] = true
			sol, err := solve(context.Background(), b, p, engine.Goal{Kind: engine.FewestPegs}, Options{}, 1)
			if err != nil {
				t.Fatal(err)
			}
			want := sol.Final.Pegs()
			byFewest[want]++
			if got, ok := loaded.Fewest(p); !ok || got != want {
				t.Fatalf("goal %s, %s: fewest %d (ok %v), exhaustive search %d", name, b.Line(p), got, ok, want)
			}
			for _, j := range b.Moves(nil, p) {
				walk(p.Apply(j))
			}
		}
		walk(start)
		if byFewest[3] == 0 {
			t.Errorf("goal %s: no position ends with three pegs at best; the table is not tested", name)
		}
	}
}

// roundTrip writes o and loads it again, and returns the copy and the
// bytes it took.
func roundTrip(t testing.TB, o *Oracle) (*Oracle, int) {
	t.Helper()
	var buf bytes.Buffer
	if err := o.Write(&buf); err != nil {
		t.Fatal(err)
	}
	size := buf.Len()
	loaded, err := LoadOracle(&buf, o.board)
	if err != nil {
		t.Fatal(err)
	}
	return loaded, size
}

func TestOracleRejects(t *testing.T) {
	if _, err := LoadOracle(bytes.NewBufferString("not an oracle\n\n\n\n\n"), engine.English()); !errors.Is(err, ErrOracle) {
		t.Errorf("garbage: %v, want ErrOracle", err)
	}
	tri := lookup(t, "triangle")
	o, err := NewOracle(context.Background(), Problem{tri, tri.Start(), goal(t, tri, "any")}, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	o.Write(&buf)
	if _, err := LoadOracle(bytes.NewReader(buf.Bytes()), engine.English()); !errors.Is(err, ErrOracle) {
		t.Errorf("triangle oracle loaded for English: %v", err)
	}
	trunc := buf.Bytes()[:buf.Len()-3]
	if _, err := LoadOracle(bytes.NewReader(trunc), tri); !errors.Is(err, ErrOracle) {
		t.Errorf("truncated oracle: %v", err)
	}
}

// FuzzLoadOracle feeds damaged oracle files to the loader: it must return
// an oracle or an error, never panic, and never trust a size it has not
// read.
func FuzzLoadOracle(f *testing.F) {
	b, err := engine.Lookup("triangle")
	if err != nil {
		f.Fatal(err)
	}
	start, _ := b.Vacate("1")
	for _, g := range []string{"any", "10"} {
		gl, _ := b.ParseGoal(g)
		o, err := NewOracle(context.Background(), Problem{b, start, gl}, ExploreOptions{Workers: 1})
		if err != nil {
			f.Fatal(err)
		}
		var buf bytes.Buffer
		o.Write(&buf)
		f.Add(buf.Bytes())
		f.Add(bytes.Replace(buf.Bytes(), []byte(oracleMagic), []byte(oracleMagicV1), 1))
		// With a fewest table of every peg count.
		from := fewestFrom
		fewestFrom = 1
		err = o.AddFewest(context.Background(), ExploreOptions{Workers: 1})
		fewestFrom = from
		if err != nil {
			f.Fatal(err)
		}
		buf.Reset()
		o.Write(&buf)
		f.Add(buf.Bytes())
	}
	f.Add([]byte(oracleMagic + "\ntriangle\n15\n.oooooooooooooo\nany\n\x01\x0e\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := LoadOracle(bytes.NewReader(data), b)
		if err != nil {
			if !errors.Is(err, ErrOracle) {
				t.Fatalf("error without ErrOracle: %v", err)
			}
			return
		}
		o.Winnable(start)
		o.OnePeg(start)
		o.Fewest(start)
	})
}

// BenchmarkHint measures hints on the English board with and without an
// oracle.
func BenchmarkHint(b *testing.B) {
	eng := engine.English()
	g, _ := eng.ParseGoal("center")
	prob := Problem{eng, eng.Start(), g}
	o, err := NewOracle(context.Background(), prob, ExploreOptions{})
	if err != nil {
		b.Fatal(err)
	}
	jumps, _ := eng.ParseMoves("f4-d4 e6-e4 e3-e5 c4-e4")
	p, _ := eng.Replay(eng.Start(), jumps)
	hist := &History{eng.Start(), jumps}
	for _, c := range []struct {
		name string
		w    Winner
	}{{"oracle=none", nil}, {"oracle=file", o}} {
		b.Run(c.name, func(b *testing.B) {
			// Without a file, the first hint of a level builds its winnable
			// sets; b.Loop times the hints after it.
			Advise(context.Background(), eng, p, g, hist, c.w, Options{})
			for b.Loop() {
				if _, err := Advise(context.Background(), eng, p, g, hist, c.w, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("query=winnable", func(b *testing.B) {
		for b.Loop() {
			o.Winnable(p)
		}
	})
	// Every position of 30 random games, dead ends included: one op hints
	// them all; ns/hint is the mean, p99-ms and max-ms the tail a game sees.
	type step struct {
		p    engine.Position
		hist *History
	}
	var steps []step
	lone := 0 // the positions of the first 10 games
	games := rand.New(rand.NewPCG(3, 4))
	for game := range 30 {
		jumps := eng.RandomGame(eng.Start(), games)
		if game == 10 {
			lone = len(steps)
		}
		p := eng.Start()
		for i := 0; ; i++ {
			steps = append(steps, step{p, &History{eng.Start(), jumps[:i]}})
			if i == len(jumps) {
				break
			}
			p = p.Apply(jumps[i])
		}
	}
	// With the oracle file, every position of the 30 games; a lone
	// position (no file, no history: depth first, then layered), those of
	// the first 10 (about 250 hints, half a minute).
	// With the file but no history, a lost position is first shown to be
	// in the level (see Oracle.inLevel).
	// With the fewest table too (built on first use, about 15 s), a dead
	// end's fewest pegs is a lookup from 14 pegs up.
	// With no file but the history (oracle=level), the level's tables
	// built in the process answer, as a game server sees them once built:
	// first the winnable tables alone, then (level+fewest, about 20 s
	// later on one core) with the fewest pegs of dead ends too. Without the
	// history too, the same tables answer once the lone position is shown
	// to be of the board's own game.
	// Lone positions with no file and no tables (oracle=none) are timed as
	// a one-shot process sees them, which does not build the level: it is
	// marked as too big to build.
	var fewest, levelWithFewest *Oracle
	withFewest := func(b *testing.B) Winner {
		if fewest == nil {
			f, _ := roundTrip(b, o)
			if err := f.AddFewest(context.Background(), ExploreOptions{}); err != nil {
				b.Fatal(err)
			}
			fewest = f
		}
		return fewest
	}
	for _, c := range []struct {
		name   string
		steps  []step
		w      func(*testing.B) Winner
		noHist bool
	}{
		{"positions=random-games/oracle=file", steps, func(*testing.B) Winner { return o }, false},
		{"positions=random-games/oracle=file+fewest", steps, withFewest, false},
		{"positions=random-games/oracle=file/history=none", steps, func(*testing.B) Winner { return o }, true},
		{"positions=random-games/oracle=file+fewest/history=none", steps, withFewest, true},
		{"positions=random-games/oracle=level", steps, func(*testing.B) Winner { return nil }, false},
		{"positions=random-games/oracle=level+fewest", steps, func(*testing.B) Winner { return nil }, false},
		{"positions=random-games/oracle=level/history=none", steps, func(*testing.B) Winner { return nil }, true},
		{"positions=random-games/oracle=level+fewest/history=none", steps, func(*testing.B) Winner { return nil }, true},
		{"positions=random-games/oracle=none", steps[:lone], func(*testing.B) Winner { return nil }, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			w := c.w(b)
			// The first depth-first search of a goal builds its endgame
			// table (tens of ms, once a process): build them first, so that
			// each sub-benchmark times the hints alone, run alone or not.
			last := c.steps[len(c.steps)-1].p
			for _, goal := range []engine.Goal{g, {Kind: engine.OnePeg}} {
				if _, err := Solve(context.Background(), eng, last, goal, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			// Without a file but with a history, the level's tables are
			// built by the first hint that depth first does not answer
			// soon (about 1.5 s, once a process): build them first, so that
			// the hints are timed as a game server sees them after that.
			key := keyOfLevel(eng, eng.Start(), g)
			if strings.HasSuffix(c.name, "oracle=none") {
				levelOracles.Delete(key)
				levelsTooBig.Store(key, int64(math.MaxInt64))
				defer levelsTooBig.Delete(key)
			} else if w == nil {
				lo, err := levelOracle(context.Background(), eng, eng.Start(), g, ExploreOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if strings.Contains(c.name, "+fewest") {
					if levelWithFewest == nil {
						if levelWithFewest, err = levelFewest(context.Background(), lo, ExploreOptions{}); err != nil {
							b.Fatal(err)
						}
					}
					levelOracles.Store(key, levelWithFewest)
				} else {
					plain := *lo
					plain.fewest, plain.fewestFrom = nil, 0
					levelOracles.Store(key, &plain)
				}
			}
			var times []time.Duration
			for b.Loop() {
				for _, s := range c.steps {
					hist := s.hist
					if c.noHist {
						hist = nil
					}
					t0 := time.Now()
					if _, err := Advise(context.Background(), eng, s.p, g, hist, w, Options{}); err != nil {
						b.Fatal(err)
					}
					times = append(times, time.Since(t0))
				}
			}
			var total time.Duration
			for _, t := range times {
				total += t
			}
			slices.Sort(times)
			b.ReportMetric(float64(total)/float64(len(times)), "ns/hint")
			b.ReportMetric(float64(times[len(times)/2])/1e6, "median-ms")
			b.ReportMetric(float64(times[len(times)*9/10])/1e6, "p90-ms")
			b.ReportMetric(float64(times[len(times)*99/100])/1e6, "p99-ms")
			b.ReportMetric(float64(times[len(times)-1])/1e6, "max-ms")
		})
	}
}
