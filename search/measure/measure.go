package measure

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"

	"pegs/engine"
	"pegs/search"
	"pegs/search/internal/kernel"
)

// Metrics describe how hard a level is, measured on its whole state space.
// Its probabilities and expectations (P0, P1, MeanAttempt, J1, Foresight,
// Attempts) are the exact values correctly rounded to float64: they are
// computed in 128-bit fixed point rounding down, and each is given only
// once its error bound shows which float64 is nearest.
type Metrics struct {
	Pegs      int
	Reachable int64 // positions up to the goal's symmetry
	Winnable  int64
	Solutions *big.Int // jump sequences that meet the goal
	Games     *big.Int // jump sequences until no jump is left
	// P0 is the probability that a player choosing uniformly among the
	// legal jumps wins; P1 the same for a player who never jumps into a
	// stuck losing position when another jump exists.
	P0, P1 float64
	// MeanAttempt is the expected number of jumps in one attempt of the P1
	// player; J1 = MeanAttempt / P1 is the expected number of jumps to a
	// win with restarts.
	MeanAttempt, J1 float64
	// Critical counts the positions on the most likely winning line (the
	// P1 player's likeliest winning choices) at which some jump loses.
	Critical int
	// UniqueFirst reports that exactly one first jump keeps the level
	// winnable.
	UniqueFirst bool
	// FewestMoves is the par: the fewest moves (chains of jumps by one peg)
	// of a solution; 0 if unsolvable.
	FewestMoves int
	// ParSolution is a solution of FewestMoves moves, as its jumps; nil
	// if the level cannot be won. It is the same whatever the workers.
	ParSolution []engine.Jump
	// Foresight[k] is W_k, the probability that the player who looks k
	// jumps ahead wins one attempt (see the package doc), for k from 0 to
	// the first look-ahead that always wins, at most Pegs − 1: Foresight[0]
	// is P0 and Foresight[1] is P1. It is empty if the level cannot be won.
	Foresight []float64
	// Attempts[k] is 1/W_k, the expected attempts of the player who looks
	// k jumps ahead to win once.
	Attempts []float64
	// Branching is the mean number of jumps at the reachable positions
	// (up to symmetry) that have one.
	Branching float64
}

// WinShare is the fraction of reachable positions that can still win.
func (m Metrics) WinShare() float64 {
	if m.Reachable == 0 {
		return 0
	}
	return float64(m.Winnable) / float64(m.Reachable)
}

// lenBits are the fraction bits of the fixed point of a number of jumps,
// and lenOne is 1 in it: one of at most 63 fits in 88 bits (a layer holds
// them so, see len88), and a sum over a position's children in 128.
const lenBits = 82

var lenOne = kernel.U128{Hi: 1 << (lenBits - 64)}

// lenFixed returns an expected number of jumps in fixed point, short of the
// true one by at most units.
func lenFixed(v kernel.U128, units uint64) kernel.Fixed {
	return kernel.Fixed{V: v, Err: units, Bits: lenBits}
}

// ErrRounding reports a figure whose fixed-point bounds straddle a float64
// rounding point, so that it cannot be given correctly rounded (as likely
// as a figure landing within 2^-77 of such a point).
var ErrRounding = errors.New("cannot be given correctly rounded")

// round sets m's probabilities and expectations from the root's
// fixed-point values (position i of v) and its foresight curve, each
// correctly rounded: each value is short of the true one by less than
// the root's longest units.
func (m *Metrics) round(v *values, i int, curve []kernel.U128) error {
	nw, length := v.winVals(i), v.cells[i].len.get()
	units := uint64(v.longest(i))
	var bad []string
	get := func(x kernel.Fixed, what string) float64 {
		f, ok := x.Float64()
		if !ok {
			bad = append(bad, what)
		}
		return f
	}
	quo := func(x, y kernel.Fixed, what string) float64 {
		f, ok := kernel.QuoFloat64(x, y)
		if !ok {
			bad = append(bad, what)
		}
		return f
	}
	m.MeanAttempt = get(lenFixed(length, units), "the mean attempt")
	m.J1 = math.Inf(1)
	if v.win(i) { // else no win counts, and P0 and P1 are exactly 0
		m.P0 = get(kernel.Prob(nw.p0, units), "P0")
		m.P1 = get(kernel.Prob(nw.p1, units), "P1")
		m.J1 = quo(lenFixed(length, units), kernel.Prob(nw.p1, units), "J1")
	}
	for k, w := range curve {
		m.Foresight = append(m.Foresight, get(kernel.Prob(w, units), fmt.Sprintf("W_%d", k)))
		m.Attempts = append(m.Attempts, quo(kernel.Prob(kernel.ProbOne, 0), kernel.Prob(w, units), fmt.Sprintf("1/W_%d", k)))
	}
	if bad != nil {
		return fmt.Errorf("measure: %s %w", strings.Join(bad, ", "), ErrRounding)
	}
	return nil
}

// trimFrom is the least peak of a level's measures past which the memory
// they let go of is handed back before the par's search (a collection
// and a scavenge of the heap, a few milliseconds): the levels that
// package generate measures by the thousand take far less.
const trimFrom = 64 << 20

// Level computes the metrics of the level that starts at start on board b
// toward goal (one peg at a hole or anywhere) on its whole state space,
// measured layer by layer (see the package doc), within a memory budget of
// budget bytes. It suits levels whose state space fits in memory (the
// English board's 23.5 million positions take about 260 MiB of it).
func Level(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, budget int64) (Metrics, error) {
	m, _, err := LevelIf(ctx, b, start, goal, budget, nil)
	return m, err
}

// LevelIf is Level for callers that discard some levels on their other
// metrics: it computes the par (the fewest moves, a search by move chains
// from both ends) only if keep, when not nil, accepts the rest. kept
// reports keep's answer.
func LevelIf(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, budget int64, keep func(Metrics) bool) (m Metrics, kept bool, err error) {
	switch {
	case start == 0:
		return Metrics{}, false, search.ErrNoPegs
	case start&^b.Full() != 0:
		return Metrics{}, false, fmt.Errorf("position has pegs outside board %s", b.Name())
	case goal.Kind == engine.FewestPegs:
		return Metrics{}, false, errors.New("measuring a level needs a one-peg goal (any, center or a hole)")
	}
	ls, err := measureLayers(ctx, b, start, goal, budget)
	if err != nil {
		return Metrics{}, false, err
	}
	root := ls.root
	m = Metrics{Pegs: start.Pegs(), Reachable: ls.reachable, Winnable: ls.winnable, Solutions: root.winVals(0).sol.Big(), Games: root.gamesAt(0).Big()}
	if err := m.round(root, 0, curve(root, 0)); err != nil {
		return Metrics{}, false, err
	}
	if ls.inner > 0 {
		m.Branching = float64(ls.jumps) / float64(ls.inner)
	}
	m.UniqueFirst = ls.winningChildren(start) == 1
	if root.win(0) {
		m.Critical = ls.critical(start)
	}
	if keep != nil && !keep(m) {
		return m, false, nil
	}
	if root.win(0) {
		moves, jumps, err := ls.par(ctx, b, start, goal)
		if err != nil {
			return m, true, err
		}
		m.FewestMoves, m.ParSolution = moves, jumps
	}
	return m, true, nil
}

// par returns the fewest moves from start, a winnable position of ls, to
// the goal and a solution of that many, found by a search by moves over
// ls's winnable positions.
func (ls *layers) par(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal) (int, []engine.Jump, error) {
	// The par's search numbers the winnable positions by their keys: their
	// P1s go, and on a large level the memory the layers let go of returns
	// to the system before it runs (see kernel.Budget.Trim).
	ls.dropP1()
	if ls.mem.Peak() >= trimFrom {
		ls.mem.Trim()
	}
	ms, err := kernel.FewestMoves(ctx, b, start, goal, ls.group, newWinNumbers(ls.win), ls.workers)
	return ms.Moves, ms.Jumps, err
}
