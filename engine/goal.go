package engine

import (
	"errors"
	"fmt"
	"strings"
)

// GoalKind says what a goal asks for.
type GoalKind int

const (
	// OnePeg asks for one peg anywhere.
	OnePeg GoalKind = iota
	// OnePegAt asks for one peg in a given hole.
	OnePegAt
	// FewestPegs asks for the fewest pegs reachable (not to be confused
	// with the fewest moves, a measure of solutions).
	FewestPegs
)

// Goal is what a game is played for.
type Goal struct {
	Kind GoalKind
	Hole int // for OnePegAt
}

// ErrNoCentre reports a centre goal on a board without a central hole.
var ErrNoCentre = errors.New("board has no centre hole")

// ParseGoal reads a goal: "any" (one peg anywhere), "center" or "centre"
// (one peg in the centre), "fewest" (the fewest pegs reachable) or a hole
// label (one peg there).
func (b *Board) ParseGoal(s string) (Goal, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "any":
		return Goal{Kind: OnePeg}, nil
	case "center", "centre":
		c, ok := b.Centre()
		if !ok {
			return Goal{}, fmt.Errorf("goal %q: %w %s", s, ErrNoCentre, b.name)
		}
		return Goal{Kind: OnePegAt, Hole: c}, nil
	case "fewest":
		return Goal{Kind: FewestPegs}, nil
	}
	h, err := b.Hole(s)
	if err != nil {
		return Goal{}, fmt.Errorf("goal %q: want any, center, fewest or a hole: %w", s, err)
	}
	return Goal{Kind: OnePegAt, Hole: h}, nil
}

// FormatGoal writes a goal the way ParseGoal reads it.
func (b *Board) FormatGoal(g Goal) string {
	switch g.Kind {
	case OnePeg:
		return "any"
	case FewestPegs:
		return "fewest"
	}
	if c, ok := b.Centre(); ok && c == g.Hole {
		return "center"
	}
	return b.labels[g.Hole]
}

// Reached reports whether p meets a one-peg goal. A FewestPegs goal is met only
// by a search, never by a position alone.
func (g Goal) Reached(p Position) bool {
	switch g.Kind {
	case OnePeg:
		return p.Pegs() == 1
	case OnePegAt:
		return p == 1<<uint(g.Hole)
	}
	return false
}

// Targets returns the one-peg positions that meet g, or nil for FewestPegs.
func (b *Board) Targets(g Goal) []Position {
	switch g.Kind {
	case OnePeg:
		out := make([]Position, len(b.holes))
		for h := range out {
			out[h] = 1 << uint(h)
		}
		return out
	case OnePegAt:
		return []Position{1 << uint(g.Hole)}
	}
	return nil
}

// Feasible reports whether the position class of p allows it to meet g. It
// is a proof of impossibility when false, never of possibility when true.
func (b *Board) Feasible(p Position, g Goal) bool {
	if g.Kind == FewestPegs {
		return p != 0
	}
	if p.Pegs() == 0 {
		return false
	}
	c := b.Class(p)
	for _, t := range b.Targets(g) {
		if b.Class(t) == c {
			return true
		}
	}
	return false
}

// GoalSymmetry returns the symmetries of b that keep goal in place: every
// symmetry, unless the goal is one peg at a hole.
func (b *Board) GoalSymmetry(goal Goal) *Group {
	if goal.Kind == OnePegAt {
		return b.group.Stabilizer(1 << uint(goal.Hole))
	}
	return b.group
}

// GameSymmetry returns the symmetries of b that keep both start and goal
// in place: the group a search of that game reduces positions by.
func (b *Board) GameSymmetry(start Position, goal Goal) *Group {
	g := b.group.Stabilizer(start)
	if goal.Kind == OnePegAt {
		g = g.Stabilizer(1 << uint(goal.Hole))
	}
	return g
}
