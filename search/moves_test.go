package search

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"pegs/engine"
	"pegs/engine/enginetest"
)

func TestFewestMovesTriangle(t *testing.T) {
	data, err := os.ReadFile("testdata/published.json")
	if err != nil {
		t.Fatal(err)
	}
	var pub struct {
		Cases [][3]any `json:"triangle15_fewest_moves"`
	}
	if err := json.Unmarshal(data, &pub); err != nil {
		t.Fatal(err)
	}
	b := enginetest.Board(t, "triangle")
	for _, c := range pub.Cases {
		from, to, want := c[0].(string), c[1].(string), int(c[2].(float64))
		start, err := b.Vacate(from)
		if err != nil {
			t.Fatal(err)
		}
		g := enginetest.Goal(t, b, to)
		sol, err := FewestMoves(context.Background(), Problem{b, start, g}, Budget{})
		if err != nil || !sol.Solvable {
			t.Fatalf("%s -> %s: solvable=%v err=%v", from, to, sol.Solvable, err)
		}
		checkSolution(t, b, start, g, Solution{Jumps: sol.Jumps})
		if sol.Moves != want {
			t.Errorf("%s -> %s: %d moves, want %d", from, to, sol.Moves, want)
		}
		if got := len(b.FormatMoves(sol.Jumps)); got != sol.Moves {
			t.Errorf("%s -> %s: jumps recount to %d moves, want %d", from, to, got, sol.Moves)
		}
	}
}

func TestFewestMovesEnglish(t *testing.T) {
	if testing.Short() {
		t.Skip("the winnable set and the proof take a few seconds")
	}
	b := engine.English()
	g := enginetest.Goal(t, b, "center")
	sol, err := FewestMoves(context.Background(), Problem{b, b.Start(), g}, Budget{})
	if err != nil || !sol.Solvable {
		t.Fatal(err)
	}
	checkSolution(t, b, b.Start(), g, Solution{Jumps: sol.Jumps})
	if sol.Moves != 18 || len(b.FormatMoves(sol.Jumps)) != 18 {
		t.Errorf("%d moves (%d recounted), want 18 (Bergholt 1912, Beasley 1964)", sol.Moves, len(b.FormatMoves(sol.Jumps)))
	}
}

// TestFewestMovesImpossible checks refutations: by class, and by search.
func TestFewestMovesImpossible(t *testing.T) {
	b := engine.English()
	sol, err := FewestMoves(context.Background(), Problem{b, b.Start(), enginetest.Goal(t, b, "c1")}, Budget{})
	if err != nil || sol.Solvable || !sol.Refuted {
		t.Errorf("centre start to c1: solvable=%v refuted=%v err=%v; want refuted by class", sol.Solvable, sol.Refuted, err)
	}
	tri := enginetest.Board(t, "triangle")
	start, _ := tri.Vacate("5")
	sol, err = FewestMoves(context.Background(), Problem{tri, start, enginetest.Goal(t, tri, "5")}, Budget{})
	if err != nil || sol.Solvable {
		t.Errorf("triangle 5 -> 5: solvable=%v err=%v; want no solution (Durango Bill: 0)", sol.Solvable, err)
	}
}

// TestWinnableAgreesWithExplore cross-checks the two ways of finding
// winnable positions on a problem whose goal complement is not its start.
func TestWinnableAgreesWithExplore(t *testing.T) {
	b := enginetest.Board(t, "triangle:6")
	start, _ := b.Vacate("1")
	prob := Problem{b, start, enginetest.Goal(t, b, "any")}
	a, err := Explore(context.Background(), prob, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Winnable(context.Background(), prob, Budget{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Winnable != w.Winnable || a.Winnable == 0 {
		t.Errorf("Explore finds %d winnable, Winnable %d", a.Winnable, w.Winnable)
	}
}

// TestFewestMovesWorkers checks that the search by moves gives the same
// solution, and counts the same positions, on one worker as on several.
func TestFewestMovesWorkers(t *testing.T) {
	b := engine.English()
	g := enginetest.Goal(t, b, "center")
	for _, c := range []struct{ name, pic string }{
		{"pyramid", "....o...ooo...ooooo.ooooooo......"},
		{"arrow", ".o.ooo.ooooo....o......o...oooooo"},
		{"plus", "....o....o....ooooo....o....o...."},
		// Levels of thousands of positions, tens of chunks, merged as
		// their chunks end while the others are expanded.
		{"upper", "oooooooooooooooo.ooooooo........."},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := b.ParsePosition(c.pic)
			if err != nil {
				t.Fatal(err)
			}
			var sols []MovesSolution
			for _, w := range []int{1, 2, 3} {
				sol, err := FewestMoves(context.Background(), Problem{b, p, g}, Budget{Workers: w})
				if err != nil || !sol.Solvable {
					t.Fatalf("%d workers: solvable=%v err=%v", w, sol.Solvable, err)
				}
				checkSolution(t, b, p, g, Solution{Jumps: sol.Jumps})
				sols = append(sols, sol)
			}
			for i, sol := range sols[1:] {
				if sol.Moves != sols[0].Moves || sol.Nodes != sols[0].Nodes || !slices.Equal(sol.Jumps, sols[0].Jumps) {
					t.Errorf("%d workers: %d moves, %d positions, %s; one worker: %d moves, %d positions, %s", i+2,
						sol.Moves, sol.Nodes, b.FormatMoves(sol.Jumps), sols[0].Moves, sols[0].Nodes, b.FormatMoves(sols[0].Jumps))
				}
			}
		})
	}
}
