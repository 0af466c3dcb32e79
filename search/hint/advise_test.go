package hint

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/search"
)

// TestHintsOnRandomGames plays random games of the English centre game and

// checks every hint against the winnable set: the hinted jump is legal and

// keeps the game winnable whenever it was, and undo is the true minimum.

func TestHintsOnRandomGames(t *testing.T) {
	enginetest.Long(t, "builds the English oracle and hints through 20 games (about 40 s)")
	b := engine.English()
	g := enginetest.Goal(t, b, "center")
	prob := search.Problem{Board: b, Start: b.Start(), Goal: g}
	ws, anyWs := englishWinnable(t, "center"), englishWinnable(t, "any")
	oracle, err := NewOracle(context.Background(), prob, search.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	loaded, size := roundTrip(t, oracle)
	if loaded.Len() != 1679072 || size > 4<<20 {
		t.Errorf("oracle holds %d positions in %d bytes; want 1679072 in at most 4 MiB", loaded.Len(), size)
	}
	// The hints below use the oracle with its fewest table.
	if err := oracle.AddFewest(context.Background(), search.Budget{}); err != nil {
		t.Fatal(err)
	}
	loaded, _ = roundTrip(t, oracle)
	// One Advisor is given the oracle; the other has none, and builds the
	// level's oracle itself, for all the games' hints.
	withFile := NewAdvisor(Options{})
	defer withFile.Close()
	withFile.AddOracle(loaded)
	noFile := NewAdvisor(Options{})
	defer noFile.Close()
	fromTable := 0
	var slowest time.Duration
	games := rand.New(rand.NewPCG(7, 11))
	for game := range 20 {
		jumps := b.RandomGame(b.Start(), games)
		p := b.Start()
		for i := 0; ; i++ {
			played := jumps[:i]
			// With the oracle and the history, the oracle alone, and the
			// history alone (the level's oracle built by the Advisor).
			for c, a := range []*Advisor{withFile, withFile, noFile} {
				hist := &History{b.Start(), played}
				if c == 1 {
					hist = nil
				}
				t0 := time.Now()
				h, err := a.Hint(context.Background(), b, p, g, hist)
				if a == noFile {
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
				checkLost(t, b, p, h)
				if lost(h.Status) && c == 0 {
					floor := 2
					if p.Pegs() <= 16 {
						floor = 1
					}
					if _, ok := loaded.Fewest(p); ok {
						fromTable++
					}
					sol, err := fewestPegs(context.Background(), b, p, floor, 0)
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

// which turn from depth first to one layered search past dfs.LoneNodes,

// against the English centre game's winnable sets; it is lowered so that

// most refutations take the layered way. The positions are of the board's

// own game, so the first layered search starts the building of its level's

// tables, which the later hints race, then use.

func TestLoneHints(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the English winnable sets")
	}
	a, b, g, ws := centreLevel(t, Options{})
	a.setLoneBase(1 << 12)
	anyWs := englishWinnable(t, "any")
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
			h, err := a.Hint(context.Background(), b, p, g, nil)
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
			checkLost(t, b, p, h)
			if lost(h.Status) && p.Pegs() <= 16 {
				sol, err := fewestPegs(context.Background(), b, p, 1, 0)
				if err != nil || sol.Final.Pegs() != h.Fewest {
					t.Fatalf("game %d at %s: fewest %d, exhaustive search says %d (%v)", game, b.Line(p), h.Fewest, sol.Final.Pegs(), err)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no position checked")
	}
	if !a.levelStarted(b, b.Start(), g) {
		t.Error("lone hints of the board's own game did not build its level's tables")
	}
}

// TestLoneDeadEndFewest checks that a lone dead end of the board's own

// game whose two-peg finish depth first finds within dfs.LoneNodes gets its

// fewest pegs that way, not by listing everything it reaches: this 26-peg

// position's depth first needs 179,187 positions, past the budget the check

// for the board's own game leaves its first question (hint 1.0 s against

// 0.4 s).

func TestLoneDeadEndFewest(t *testing.T) {
	if testing.Short() {
		t.Skip("refutes a 26-peg position")
	}
	b := engine.English()
	g := enginetest.Goal(t, b, "center")
	p, err := b.ParsePosition("ooooooooooooooooooooooo...o...o.o")
	if err != nil {
		t.Fatal(err)
	}
	// No level tables: the hint searches, as a one-shot process does.
	a := NewAdvisor(Options{})
	defer a.Close()
	a.setTooBig(b, b.Start(), g, math.MaxInt64)
	listed := 0
	a.setListFewest(func(ctx context.Context, prob search.Problem, opt search.ExploreOptions) (*search.Analysis, error) {
		listed++
		return search.Explore(ctx, prob, opt)
	})
	h, err := a.Hint(context.Background(), b, p, g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if h.Status != FewestOnly || h.Fewest != 2 {
		t.Fatalf("hint %v, fewest %d; want one peg out of reach, fewest 2", h.Status, h.Fewest)
	}
	checkLost(t, b, p, h)
	if listed != 0 {
		t.Errorf("the fewest pegs listed everything the position reaches (%d times); want depth first's two-peg finish", listed)
	}
}

// TestStartReaches checks the test of a lone position's place in the

// board's own game: positions of random games from the English start are

// in it, those of games from a vacancy in another position class are not

// (play keeps the class), and so are not positions with too few pegs to

// be checked quickly.

// TestHintLevelRace checks hints with a history but no oracle when the

// level's tables cannot be built: a question that depth first does not

// answer within levelNodes races the tables' build, which passes half the

// memory budget here, so depth first answers alone. The positions are

// those of random games that need more than levelNodes, winnable or lost

// (a lost one's undo refutes, depth first, every position back to the

// last winnable one). Every answer must match the winnable set, and the

// level must be left unbuilt.

// TestHintUndoRaces checks that the jumps a dead end's hint takes back race

// the level's build like its other questions. The position has few pegs,

// so its own questions are answered at once; but the positions back to the

// last winnable one include some that depth first does not refute within

// levelNodes, so the build must start. (The questions of the jumps to take

// back once inherited the dead end's fewest search's lack of a limit, and

// took seconds each with the build never started.)

// centreLevel returns a new Advisor of options opt, the English board, the

// centre goal and its winnable set, for tests whose hints race the level's

// build: the Advisor knows nothing of the level yet, its builds will not

// go on to the fewest pegs, and it is closed (its build under way stopped)

// when t ends.

// TestHintMaxNodesUndo checks hints with a history and Options.MaxNodes for

// dead ends whose fewest pegs depth first does not find within the limit,

// so a layered search of what they reach answers it. That search cannot

// speak for the positions before them: the jumps to take back must still be

// the true minimum (they were 0 when it answered "lost" for all of them).

// TestLevelBuildFewest checks that a level's build in the background goes on

// to the fewest pegs of its dead ends, and that a dead end's hint then

// gives the fewest pegs an exhaustive search finds.

// TestOracleOutsideLevel checks that an oracle's tables, which hold its

// level's positions only, do not speak for a position its start cannot

// reach, and that an Advisor given it does not use it for a history from

// another start (which Advise once refused; the command now checks that).

func TestHintEdgeCases(t *testing.T) {
	b := engine.English()
	g := enginetest.Goal(t, b, "center")
	a := NewAdvisor(Options{})
	defer a.Close()
	h, err := a.Hint(context.Background(), b, b.Full(), g, nil)
	if err != nil || h.Status != DeadEnd || h.Fewest != 33 || len(h.Movable) != 0 {
		t.Errorf("full board: %+v, %v; want a dead end with 33 pegs and nothing movable", h, err)
	}
	if _, err := a.Hint(context.Background(), b, 0, g, nil); !errors.Is(err, search.ErrNoPegs) {
		t.Errorf("empty board: %v, want ErrNoPegs", err)
	}
	jumps, _ := b.ParseMoves("f4-d4 d6-d4")
	p := b.Start().Apply(jumps[0])
	if _, err := a.Hint(context.Background(), b, p, g, &History{b.Start(), jumps}); !errors.Is(err, ErrHistory) {
		t.Errorf("illegal history: %v, want ErrHistory", err)
	}
	won := engine.Position(1) << uint(g.Hole)
	if h, err := a.Hint(context.Background(), b, won, g, nil); err != nil || h.Status != Won {
		t.Errorf("one peg at d4: %+v %v, want won", h, err)
	}
	// Two pegs that cannot meet: one peg impossible, two remain.
	p, _ = b.ParsePosition("o.o..............................")
	h, err = a.Hint(context.Background(), b, p, g, nil)
	if err != nil || h.Status != DeadEnd || h.Fewest != 2 || h.OnePegPossible {
		t.Errorf("two apart: %+v %v", h, err)
	}
}

// TestHintFewestOnly checks the hint of a game where one peg is out of
// reach but jumps remain (the 15-hole triangle after 6-1, 13-6, 8-3,
// 15-13, 6-15, where pegs 1 and 12 can jump): a jump toward the fewest
// pegs still reachable, and the jumps to take back, whether the fewest
// come from a search or from the oracle's fewest table. The wanted figures
// come from exhaustive depth-first searches.
func TestHintFewestOnly(t *testing.T) {
	b := enginetest.Board(t, "triangle")
	g := enginetest.Goal(t, b, "any")
	start, _ := b.Vacate("1")
	jumps, err := b.ParseMoves("6-1 13-6 8-3 15-13 6-15")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := b.Replay(start, jumps)
	sol, err := fewestPegs(context.Background(), b, p, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	undo := 0
	for k := 1; k <= len(jumps) && undo == 0; k++ {
		q, _ := b.Replay(start, jumps[:len(jumps)-k])
		if res, err := fewestPegs(context.Background(), b, q, 1, 0); err == nil && res.Final.Pegs() == 1 {
			undo = k
		}
	}
	for _, tabled := range []bool{false, true} {
		a := NewAdvisor(Options{})
		if tabled {
			a.setFewestFrom(1)
			<-a.startLevel(b, start, g, a.memory()).full
		}
		h, err := a.Hint(context.Background(), b, p, g, &History{start, jumps})
		a.Close()
		if err != nil {
			t.Fatal(err)
		}
		if h.Status != FewestOnly || h.Fewest != sol.Final.Pegs() || h.Undo != undo || h.OnePegPossible {
			t.Errorf("tabled %v: %v, fewest %d, undo %d; want %v, fewest %d, undo %d", tabled, h.Status, h.Fewest, h.Undo, FewestOnly, sol.Final.Pegs(), undo)
		}
		var labels []string
		for _, m := range h.Movable {
			labels = append(labels, b.Label(m))
		}
		if got := strings.Join(labels, " "); got != "1 12" {
			t.Errorf("tabled %v: pegs that can jump %s, want 1 12", tabled, got)
		}
		checkLost(t, b, p, h)
	}
}

// TestOracleOnePeg checks an oracle for a goal hole, written and loaded

// again, against the depth-first solver on positions of random games: both

// for the goal and for one peg anywhere, whose table holds only what the

// goal's does not imply. Hole 10 is off the mirror that fixes the start, so

// the one-peg table (under the mirror) and the goal's (under no symmetry)

// are reduced by different groups.

// TestOracleFewest checks an oracle's fewest table, written and loaded

// again, against an exhaustive depth-first search for every position the

// start reaches, on the 15-hole triangle with the table lowered to hold

// every peg count: for goal any, and for a goal hole off the start's

// mirror (the one-peg positions then come from orbits of another group).

// roundTrip writes o and loads it again, and returns the copy and the

// bytes it took.

// FuzzLoadOracle feeds damaged oracle files to the loader: it must return

// an oracle or an error, never panic, and never trust a size it has not

// read.

// BenchmarkHint measures hints on the English board with and without an

// oracle.

// TestLoneWinnerSecondMeeting checks that a hint's winner for a lone

// position asks the second meeting (one peg anywhere) where the goal's

// meeting cannot answer for it: on the 7x7 square the centre's class also

// ends in corners, and a position of two pegs that ends in a corner cannot

// end at the centre (see layered.SameAsAny).

func TestLoneWinnerSecondMeeting(t *testing.T) {
	sq := enginetest.Square(t, 7)
	corner := enginetest.Position(t, sq, "a2", "a3") // a3-a1 ends in the corner
	centre := enginetest.Goal(t, sq, "center")
	w, err := loneWinner(context.Background(), sq, corner, centre, search.DefaultMemory)
	if err != nil {
		t.Fatal(err)
	}
	win, ok1 := w.Winnable(corner)
	one, ok2 := w.OnePeg(corner)
	end := enginetest.Position(t, sq, "a1")
	oneEnd, ok3 := w.OnePeg(end)
	if win || !one || !oneEnd || !ok1 || !ok2 || !ok3 {
		t.Errorf("7x7 square %s: centre %v (%v), one peg %v (%v), then %v (%v); want false, true, true", sq.Line(corner), win, ok1, one, ok2, oneEnd, ok3)
	}
}

// fewestPegs searches depth first, with every technique, for the fewest

// pegs p can reach, stopping at the first finish of floor pegs (1: an

// exhaustive search) or past maxNodes positions (0: no limit).

// square returns the full n×n square board.

// position returns the position with pegs in the holes labelled.
