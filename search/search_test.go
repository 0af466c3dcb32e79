package search

import (
	"encoding/json"
	"errors"
	"os"
	"testing"

	"pegs/engine"
	"pegs/engine/enginetest"
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
	EnglishRandomWin        float64  `json:"english_random_win,string"`
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

// startOrPicture returns the problem on board from start, a hole to vacate
// or, on the English board, a picture of the position, toward goal.
func startOrPicture(t *testing.T, board, start, g string) Problem {
	t.Helper()
	b := enginetest.Board(t, board)
	p, err := b.Vacate(start)
	if board == "english" {
		p, err = b.ParsePosition(start)
	}
	if err != nil {
		t.Fatal(err)
	}
	return Problem{b, p, enginetest.Goal(t, b, g)}
}

func isMemory(err error) bool { return errors.Is(err, ErrMemory) }
