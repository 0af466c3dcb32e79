package generate

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/dustin/go-humanize"

	"pegs/engine"
	"pegs/search"
	"pegs/search/measure"
)

// Difficulty is a level's score and its parts (see the package doc):
// Score = LengthPart + ForesightPart, the decimal logarithm of the lines a
// player who looks just far enough ahead to win half of its attempts
// weighs over a game.
type Difficulty struct {
	Score float64 `json:"score"`
	// LengthPart is log10 of the jumps of a solution, pegs − 1.
	LengthPart float64 `json:"length_part"`
	// ForesightPart is the foresight needed times log10 of the board's
	// branching (Branching).
	ForesightPart float64 `json:"foresight_part"`
}

// Branching is the branching of board b that a score counts lines with:
// its jumps over the holes a jump starts from, the mean number of jumps
// from such a hole (76/33 on the English board). It depends on the board
// alone, so that among levels of one size the score rises with the
// foresight needed (see the package doc).
func Branching(b *engine.Board) float64 {
	var from engine.Position
	for _, j := range b.Jumps() {
		from |= 1 << uint(j.From)
	}
	if from == 0 {
		return 1
	}
	return float64(len(b.Jumps())) / float64(from.Pegs())
}

// Score computes the difficulty of a winnable level of board b from its
// metrics.
func Score(b *engine.Board, m measure.Metrics) Difficulty {
	var d Difficulty
	d.LengthPart = math.Log10(float64(max(1, m.Pegs-1)))
	if f := m.ForesightNeeded(); f > 0 {
		d.ForesightPart = f * math.Log10(Branching(b))
	}
	d.Score = d.LengthPart + d.ForesightPart
	return d
}

// Explain says in one line what a level's foresight curve means for a
// player: how often the player who looks just far enough ahead to win
// half the time wins, and how often the one who looks a jump less far
// does ("a player who looks 3 jumps ahead wins 62% of tries; one who looks
// 2 ahead, 38%").
func Explain(m measure.Metrics) string {
	w := m.Foresight
	k := 0
	for k < len(w) && w[k] < 0.5 {
		k++
	}
	switch {
	case k == len(w):
		return "no player wins"
	case k == 0:
		return fmt.Sprintf("a player who jumps at random wins %s of tries", chance(w[0]))
	case k == 1:
		return fmt.Sprintf("a player who looks 1 jump ahead wins %s of tries; one who jumps at random, %s", chance(w[1]), chance(w[0]))
	}
	return fmt.Sprintf("a player who looks %d jumps ahead wins %s of tries; one who looks %d ahead, %s", k, chance(w[k]), k-1, chance(w[k-1]))
}

// chance writes a probability as a whole percentage, or as "1 in N" below
// 1%; it writes 100% only for certainty.
func chance(p float64) string {
	switch {
	case p >= 1:
		return "100%"
	case p >= 0.995:
		return "99%"
	case p >= 0.01:
		return fmt.Sprintf("%.0f%%", 100*p)
	case p <= 0:
		return "none"
	}
	return fmt.Sprintf("1 in %s", roundCount(1/p))
}

// roundCount writes x rounded to two significant digits, its digits
// grouped: 74, 740, 7,400, 74,000,000.
func roundCount(x float64) string {
	e := math.Pow(10, math.Floor(math.Log10(x))-1)
	return humanize.Comma(int64(math.Round(math.Round(x/e) * e)))
}

// ErrUnsolvable reports a level that cannot meet its goal.
var ErrUnsolvable = errors.New("no line of jumps reaches it")

// Grade measures the level that starts at start on board b (its metrics
// on its whole state space), scores its difficulty, and solves it and
// replays the solution, as Generate does for the levels it makes. opt's
// Memory bounds the measuring and the solving. A level that cannot meet
// goal is an ErrUnsolvable error.
func Grade(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, opt search.SolveOptions) (Level, error) {
	if !b.Feasible(start, goal) {
		return Level{}, fmt.Errorf("%w: the position class rules it out", ErrUnsolvable)
	}
	// The level is solved (depth first, on a goroutine of its own) once
	// its measures but the par are known, while the par is searched,
	// rather than after: the par leaves a core waiting now and then, the
	// solve one (see the package doc, "Grading a level").
	type solved struct {
		sol search.Solution
		err error
	}
	var done chan solved
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	m, _, err := measure.LevelIf(ctx, b, start, goal, memory(opt.Memory), func(m measure.Metrics) bool {
		if m.Solutions.Sign() > 0 {
			done = make(chan solved, 1)
			go func() {
				sol, err := search.Solve(sctx, search.Problem{Board: b, Start: start, Goal: goal}, opt)
				done <- solved{sol, err}
			}()
		}
		return true
	})
	if err != nil {
		if done != nil {
			stop()
			<-done
		}
		return Level{}, err
	}
	if m.Solutions.Sign() == 0 {
		return Level{}, ErrUnsolvable
	}
	s := <-done
	if s.err != nil {
		return Level{}, s.err
	}
	return newLevel(b, start, goal, m, Score(b, m), s.sol)
}

// acceptable reports whether measured metrics make a level: solvable, and
// not won by a random player more than half the time.
func acceptable(m measure.Metrics) bool {
	return m.Solutions.Sign() > 0 && m.P0 <= maxP0
}
