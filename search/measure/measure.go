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
	"pegs/search/internal/bfs"
	"pegs/search/internal/exact"
	"pegs/search/internal/movegen"
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

// lenOne is 1 in the fixed point of a number of jumps: one of at most 63,
// summed over a position's children, stays below 2^128.
var lenOne = exact.U128{Hi: 1 << (110 - 64)}

// lenFixed returns an expected number of jumps in fixed point, short of the
// true one by at most units.
func lenFixed(v exact.U128, units uint64) exact.Fixed {
	return exact.Fixed{V: v, Err: units, Bits: 110}
}

// ErrRounding reports a figure whose fixed-point bounds straddle a float64
// rounding point, so that it cannot be given correctly rounded (as likely
// as a figure landing within 2^-110 of such a point).
var ErrRounding = errors.New("cannot be given correctly rounded")

// round sets m's probabilities and expectations from the root's
// fixed-point values and its foresight curve, each correctly rounded:
// each value is short of the true one by less than root.longest units.
func (m *Metrics) round(root *levelNode, curve []exact.U128) error {
	units := uint64(root.longest)
	var bad []string
	get := func(x exact.Fixed, what string) float64 {
		f, ok := x.Float64()
		if !ok {
			bad = append(bad, what)
		}
		return f
	}
	quo := func(x, y exact.Fixed, what string) float64 {
		f, ok := exact.QuoFloat64(x, y)
		if !ok {
			bad = append(bad, what)
		}
		return f
	}
	m.MeanAttempt = get(lenFixed(root.len, units), "the mean attempt")
	m.J1 = math.Inf(1)
	if root.win { // else no win counts, and P0 and P1 are exactly 0
		m.P0 = get(exact.Prob(root.p0, units), "P0")
		m.P1 = get(exact.Prob(root.p1, units), "P1")
		m.J1 = quo(lenFixed(root.len, units), exact.Prob(root.p1, units), "J1")
	}
	for k, w := range curve {
		m.Foresight = append(m.Foresight, get(exact.Prob(w, units), fmt.Sprintf("W_%d", k)))
		m.Attempts = append(m.Attempts, quo(exact.Prob(exact.ProbOne, 0), exact.Prob(w, units), fmt.Sprintf("1/W_%d", k)))
	}
	if bad != nil {
		return fmt.Errorf("measure: %s %w", strings.Join(bad, ", "), ErrRounding)
	}
	return nil
}

// nodeBytes is about what a position of a level's state space takes in
// memory: its node and its share of the table's slots. A winnable position
// takes a vector of foresight too (foresight.bytes).
const nodeBytes = 144

// levelNode is what the walk knows of a position once it has measured it.
type levelNode struct {
	win   bool
	stuck bool // no jump left and the goal not met
	// longest is the number of jumps of the longest game from here.
	longest uint8
	// fore locates the node's foresight vector (foresight.at), 0 if it has
	// none.
	fore uint32
	// p0 and p1 are the P0 and P1 players' chances of winning from here
	// (fixed point, exact.ProbOne is 1), len the P1 player's expected
	// jumps (fixed point, lenOne is 1); each is short of the true value by
	// less than longest units, one per division on the way down.
	p0, p1, len exact.U128
	sol, games  exact.U128
}

// Level computes the metrics of the level that starts at start on board b
// toward goal (one peg at a hole or anywhere) by a depth-first walk of its
// whole state space, memoized by canonical position, within a memory
// budget of budget bytes. It suits levels whose state space fits in memory
// comfortably (up to a few million positions).
func Level(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, budget int64) (Metrics, error) {
	m, _, err := LevelIf(ctx, b, start, goal, budget, nil)
	return m, err
}

// LevelIf is Level for callers that discard some levels on their other
// metrics: it computes the par (the fewest moves, a breadth-first search
// over move chains and about a quarter of the time) only if keep, when not
// nil, accepts the rest. kept reports keep's answer.
func LevelIf(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, budget int64, keep func(Metrics) bool) (m Metrics, kept bool, err error) {
	switch {
	case start == 0:
		return Metrics{}, false, search.ErrNoPegs
	case start&^b.Full() != 0:
		return Metrics{}, false, fmt.Errorf("position has pegs outside board %s", b.Name())
	case goal.Kind == engine.FewestPegs:
		return Metrics{}, false, errors.New("measuring a level needs a one-peg goal (any, center or a hole)")
	}
	w := newWalk(ctx, b, start, goal, budget)
	root := w.visit(start, 0)
	if w.err != nil {
		return Metrics{}, false, w.err
	}
	m = Metrics{Pegs: start.Pegs(), Reachable: int64(w.memo.n), Solutions: root.sol.Big(), Games: root.games.Big()}
	if err := m.round(root, w.fore.curve(root)); err != nil {
		return Metrics{}, false, err
	}
	if w.inner > 0 {
		m.Branching = float64(w.jumps) / float64(w.inner)
	}
	for i := range w.memo.n {
		if w.memo.node(uint32(i)).win {
			m.Winnable++
		}
	}
	m.UniqueFirst = w.winningChildren(start) == 1
	if root.win {
		m.Critical = w.critical(start)
	}
	if keep != nil && !keep(m) {
		return m, false, nil
	}
	if root.win {
		ms, err := bfs.FewestMoves(ctx, b, start, goal, w.group, func(c engine.Position) bool {
			n := w.memo.find(c)
			return n != nil && n.win
		})
		if err != nil {
			return m, true, err
		}
		m.FewestMoves = ms.Moves
	}
	return m, true, nil
}

// walk is a depth-first walk of a level's whole state space, memoized by
// canonical position.
type walk struct {
	ctx    context.Context
	goal   engine.Goal
	budget int64
	gen    *movegen.Gen
	group  *engine.Group
	memo   *nodeTable
	fore   foresight
	// imgs[d] holds the symmetric images of the position at depth d, each
	// child's images being its parent's XOR the jump's image masks; kids[d]
	// the nodes of its children, one per jump.
	imgs [][]engine.Position
	kids [][]*levelNode
	// inner counts the positions that have a jump, jumps their jumps.
	inner, jumps int64
	err          error
}

func newWalk(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, budget int64) *walk {
	gen := movegen.New(b, b.GoalSymmetry(goal))
	w := &walk{ctx: ctx, goal: goal, budget: budget, gen: gen, group: gen.Group, memo: newNodeTable()}
	w.imgs = make([][]engine.Position, start.Pegs()+1)
	w.kids = make([][]*levelNode, start.Pegs()+1)
	for d := range w.imgs {
		w.imgs[d] = make([]engine.Position, w.group.Len())
	}
	w.group.Images(start, w.imgs[0])
	return w
}

// visit returns the node of p, reached at depth, measuring it and every
// position it reaches on first sight.
func (w *walk) visit(p engine.Position, depth int) *levelNode {
	n, fresh := w.memo.get(movegen.Canonical(w.imgs[depth]))
	if !fresh {
		return n
	}
	if w.memo.n&0xfff == 0 && w.err == nil {
		w.err = w.ctx.Err()
		if held := int64(w.memo.n)*nodeBytes + w.fore.bytes(); held > w.budget {
			const chunk = 0x1000 * nodeBytes // held since the last look
			w.err = &search.MemoryError{What: fmt.Sprintf("the %d positions of a level", w.memo.n), Need: chunk, InUse: held - chunk, Budget: w.budget}
		}
	}
	moves := w.gen.AppendMoves(nil, p)
	if len(moves) == 0 || w.err != nil {
		n.win = w.goal.Reached(p)
		n.stuck = !n.win
		n.games = exact.U128{Lo: 1}
		if n.win {
			n.p0, n.p1, n.sol = exact.ProbOne, exact.ProbOne, exact.U128{Lo: 1}
		}
		return n
	}
	w.inner++
	w.jumps += int64(len(moves))
	kids := w.kids[depth][:0]
	var win bool
	var longest uint8
	var p0, p1, length, sol, games exact.U128
	allowed := 0
	for _, k := range moves {
		w.gen.ChildImages(w.imgs[depth+1], w.imgs[depth], k)
		c := w.visit(p^w.gen.Masks[k], depth+1)
		kids = append(kids, c)
		win = win || c.win
		longest = max(longest, c.longest)
		p0, _ = p0.Add(c.p0)
		sol, _ = sol.Add(c.sol)
		games, _ = games.Add(c.games)
		if !c.stuck {
			allowed++
			p1, _ = p1.Add(c.p1)
			length, _ = length.Add(c.len)
		}
	}
	w.kids[depth] = kids
	if allowed == 0 {
		// Every jump sticks: the player has no choice to make.
		for _, c := range kids {
			p1, _ = p1.Add(c.p1)
			length, _ = length.Add(c.len)
		}
		allowed = len(moves)
	}
	n.win, n.sol, n.games, n.longest = win, sol, games, longest+1
	// Sums of at most a few hundred children cannot overflow: see
	// exact.ProbOne and lenOne.
	n.p0 = exact.DivFloor(p0, uint64(len(moves)))
	n.p1 = exact.DivFloor(p1, uint64(allowed))
	n.len, _ = lenOne.Add(exact.DivFloor(length, uint64(allowed)))
	if win {
		n.fore = w.fore.measure(kids, int(n.longest))
	}
	return n
}

// child returns the node of p's child by jump k.
func (w *walk) child(p engine.Position, k int16) *levelNode {
	return w.memo.find(w.group.Canonical(p ^ w.gen.Masks[k]))
}

// winningChildren counts the jumps from p that keep the level winnable.
func (w *walk) winningChildren(p engine.Position) int {
	n := 0
	for _, k := range w.gen.AppendMoves(nil, p) {
		if w.child(p, k).win {
			n++
		}
	}
	return n
}

// critical counts the positions on the most likely winning line from p (a
// winnable position: from each, the winnable child the P1 player is
// likeliest to win from) at which some jump loses.
func (w *walk) critical(p engine.Position) int {
	critical := 0
	for {
		moves := w.gen.AppendMoves(nil, p)
		if len(moves) == 0 {
			return critical
		}
		var best engine.Position
		var bestP exact.U128
		found, losing := false, false
		for _, k := range moves {
			c := w.child(p, k)
			if !c.win {
				losing = true
				continue
			}
			if !found || bestP.Less(c.p1) {
				best, bestP, found = p^w.gen.Masks[k], c.p1, true
			}
		}
		if losing {
			critical++
		}
		p = best
	}
}
