package search

import (
	"errors"
	"fmt"

	"pegs/engine"
)

// Problem is a start position and a goal on a board.
type Problem struct {
	Board *engine.Board
	Start engine.Position
	Goal  engine.Goal
}

// Group returns the symmetries that keep both the start and the goal in
// place: the group every search of the problem reduces by.
func (p Problem) Group() *engine.Group { return p.Board.GameSymmetry(p.Start, p.Goal) }

// check checks the start: it must hold a peg, and only on the board.
func (p Problem) check() error {
	if p.Start == 0 {
		return ErrNoPegs
	}
	if p.Start&^p.Board.Full() != 0 {
		return fmt.Errorf("position has pegs outside board %s", p.Board.Name())
	}
	return nil
}

// checkOnePeg is check for the searches of whole state spaces, which need
// a one-peg goal.
func (p Problem) checkOnePeg() error {
	if err := p.check(); err != nil {
		return err
	}
	if p.Goal.Kind == engine.FewestPegs {
		return errors.New("an exhaustive search needs a one-peg goal (any, center or a hole)")
	}
	return nil
}
