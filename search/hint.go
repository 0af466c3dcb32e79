package search

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"pegs/engine"
)

// HintStatus says where a game stands.
type HintStatus string

// The statuses a hint reports.
const (
	// GoalPossible: the goal (one peg at the goal hole, or anywhere) can
	// still be met.
	GoalPossible HintStatus = "goal still possible"
	// OnePegOnly: the goal hole is out of reach but one peg elsewhere is not.
	OnePegOnly HintStatus = "goal hole out of reach; one peg still possible"
	// DeadEnd: one peg is no longer possible.
	DeadEnd HintStatus = "dead end"
	// Won: the goal is met.
	Won HintStatus = "won"
)

// Hint is the advice for one position of a game.
type Hint struct {
	Status HintStatus
	// Jump keeps the best finish still possible; nil in a dead end or when
	// no jump is left.
	Jump *engine.Jump
	// GoalPossible reports whether the goal can still be met: for a centre
	// goal, whether the centre is still possible.
	GoalPossible bool
	// OnePegPossible reports whether one peg anywhere is still possible.
	OnePegPossible bool
	// Fewest is the fewest pegs still reachable.
	Fewest int
	// Undo is the fewest jumps of the history to take back to reach a
	// position from which the goal is possible again; 0 if it is possible
	// now or no history was given.
	Undo int
	// Movable lists the holes whose peg can jump now.
	Movable []int
}

// History is how a game reached its position: its start and the jumps
// played.
type History struct {
	Start engine.Position
	Jumps []engine.Jump
}

// ErrHistory reports a history that does not lead to the position.
var ErrHistory = errors.New("history does not lead to the position")

// Winner answers whether a position can still meet a goal, and whether it
// can still end with one peg anywhere. A *Oracle is one; without an oracle,
// the hint oracle solves.
type Winner interface {
	// Winnable reports whether p can meet the goal; ok is false when the
	// winner cannot tell (a position outside its level).
	Winnable(p engine.Position) (win, ok bool)
	// OnePeg is Winnable for one peg anywhere.
	OnePeg(p engine.Position) (win, ok bool)
}

// Advise returns the hint for position p toward goal: the goal is one peg
// at a hole or anywhere. hist may be nil. oracle, if not nil, answers
// "still winnable?" for the goal without searching.
func Advise(ctx context.Context, b *engine.Board, p engine.Position, goal engine.Goal, hist *History, oracle Winner, opt Options) (Hint, error) {
	if p == 0 {
		return Hint{}, ErrNoPegs
	}
	if p&^b.Full() != 0 {
		return Hint{}, fmt.Errorf("position has pegs outside board %s", b.Name())
	}
	if goal.Kind == engine.Fewest {
		return Hint{}, errors.New("a hint needs a one-peg goal (any, center or a hole)")
	}
	var positions []engine.Position // the history's positions, p last
	if hist != nil {
		q := hist.Start
		positions = append(positions, q)
		for i, j := range hist.Jumps {
			next, err := b.Replay(q, []engine.Jump{j})
			if err != nil {
				return Hint{}, fmt.Errorf("%w: jump %d (%s) is illegal", ErrHistory, i+1, b.FormatJump(j))
			}
			q = next
			positions = append(positions, q)
		}
		if q != p {
			return Hint{}, fmt.Errorf("%w: it ends in %s", ErrHistory, b.Line(q))
		}
	}
	var h Hint
	for _, j := range b.Moves(nil, p) {
		h.Movable = appendUnique(h.Movable, j.From)
	}
	if goal.Reached(p) {
		h.Status, h.GoalPossible, h.OnePegPossible, h.Fewest = Won, true, true, 1
		return h, nil
	}
	// With the level's start known, its winnable sets answer every
	// question about its positions; they are built once per process.
	if oracle == nil && hist != nil {
		o, err := levelOracle(ctx, b, hist.Start, goal, opt)
		if err != nil {
			return Hint{}, err
		}
		oracle = o
	}
	anyGoal := engine.Goal{Kind: engine.OnePeg}
	win := func(q engine.Position, g engine.Goal) (bool, *engine.Jump, error) {
		if oracle != nil {
			ask := oracle.Winnable
			if g != goal {
				ask = oracle.OnePeg
			}
			if w, ok := ask(q); ok {
				if !w {
					return false, nil, nil
				}
				for _, j := range b.Moves(nil, q) {
					if cw, ok := ask(q.Apply(j)); ok && cw {
						return true, &j, nil
					}
				}
				return true, nil, nil
			}
		}
		sol, err := Solve(ctx, b, q, g, opt)
		if err != nil || !sol.Solvable {
			return false, nil, err
		}
		if len(sol.Jumps) == 0 {
			return true, nil, nil
		}
		return true, &sol.Jumps[0], nil
	}
	ok, jump, err := win(p, goal)
	if err != nil {
		return h, err
	}
	h.GoalPossible = ok
	if ok {
		h.Status, h.Jump, h.OnePegPossible, h.Fewest = GoalPossible, jump, true, 1
		return h, nil
	}
	if goal.Kind == engine.OnePegAt {
		if ok, jump, err = win(p, anyGoal); err != nil {
			return h, err
		}
	}
	h.OnePegPossible = ok
	if ok {
		h.Status, h.Jump, h.Fewest = OnePegOnly, jump, 1
	} else {
		h.Status = DeadEnd
		// One peg is refuted, so two is the floor: the search stops at the
		// first two-peg finish it finds.
		sol, err := solve(ctx, b, p, engine.Goal{Kind: engine.Fewest}, opt, 2)
		if err != nil {
			return h, err
		}
		h.Fewest = sol.Final.Pegs()
	}
	// Take back jumps one at a time until the goal is possible again.
	for k := 1; k < len(positions); k++ {
		ok, _, err := win(positions[len(positions)-1-k], goal)
		if err != nil {
			return h, err
		}
		if ok {
			h.Undo = k
			return h, nil
		}
	}
	return h, nil
}

func appendUnique(s []int, x int) []int {
	for _, y := range s {
		if y == x {
			return s
		}
	}
	return append(s, x)
}

type levelKey struct {
	board *engine.Board
	start engine.Position
	goal  engine.Goal
}

var levelOracles sync.Map // levelKey -> *Oracle

// levelOracle returns the oracle of a level, building it on first use.
func levelOracle(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, opt Options) (*Oracle, error) {
	prob := Problem{Board: b, Start: start, Goal: goal}
	key := levelKey{b, prob.Group().Canonical(start), goal}
	if o, ok := levelOracles.Load(key); ok {
		return o.(*Oracle), nil
	}
	o, err := NewOracle(ctx, prob, ExploreOptions{Memory: opt.Memory})
	if err != nil {
		return nil, err
	}
	actual, _ := levelOracles.LoadOrStore(key, o)
	return actual.(*Oracle), nil
}
