// Package generate grades peg solitaire levels by difficulty.
//
// The difficulty score combines exact metrics of a level's whole state
// space (measure.Level):
//
//	D = log10(J1) + 0.15·critical + 0.3·uniqueFirst − 0.2·log10(1 + solutions/(pegs − 1))
//
// where J1 is the expected number of jumps a player who avoids stuck losing
// positions needs to win with restarts, critical counts the positions on
// the most likely winning line where some jump loses, uniqueFirst is 1 when
// only one first jump can win, and the last term rewards levels with many
// solutions per jump. The parts are reported with the total.
package generate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"

	"pegs/engine"
	"pegs/search"
	"pegs/search/measure"
)

// Difficulty is a level's score and its parts.
type Difficulty struct {
	Score       float64 `json:"score"`
	Attempts    float64 `json:"log10_j1"`
	Critical    float64 `json:"critical_part"`
	UniqueFirst float64 `json:"unique_first_part"`
	Plenty      float64 `json:"solutions_part"`
}

// Score computes the difficulty of measured metrics.
func Score(m measure.Metrics) Difficulty {
	var d Difficulty
	d.Attempts = math.Log10(m.J1)
	d.Critical = 0.15 * float64(m.Critical)
	if m.UniqueFirst {
		d.UniqueFirst = 0.3
	}
	if m.Pegs > 1 {
		sol, _ := new(big.Float).SetInt(m.Solutions).Float64()
		d.Plenty = -0.2 * math.Log10(1+sol/float64(m.Pegs-1))
	}
	d.Score = d.Attempts + d.Critical + d.UniqueFirst + d.Plenty
	return d
}

// ErrUnsolvable reports a level that cannot meet its goal.
var ErrUnsolvable = errors.New("no line of jumps reaches it")

// Grade measures the level that starts at start on board b (its metrics
// on its whole state space), scores its difficulty, and solves it and
// replays the solution, as Generate does for the levels it makes. opt's
// Memory bounds the measuring and the solving. A level that cannot meet
// goal is an ErrUnsolvable error.
func Grade(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, opt search.Options) (Level, error) {
	if !b.Feasible(start, goal) {
		return Level{}, fmt.Errorf("%w: the position class rules it out", ErrUnsolvable)
	}
	m, err := measure.Level(ctx, b, start, goal, memory(opt.Memory))
	if err != nil {
		return Level{}, err
	}
	if m.Solutions.Sign() == 0 {
		return Level{}, ErrUnsolvable
	}
	return newLevel(ctx, b, start, goal, m, Score(m), opt)
}

// acceptable reports whether measured metrics make a level: solvable, and
// not won by a random player more than half the time.
func acceptable(m measure.Metrics) bool {
	return m.Solutions.Sign() > 0 && m.P0 <= maxP0
}
