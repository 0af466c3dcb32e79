package engine

import (
	"errors"
	"fmt"
	"strings"
)

// GameText is a game as text, the way pegs hint's flags and the level
// server's requests give it; an empty field takes its default.
type GameText struct {
	// Board is a built-in board's name (see Lookup) or one that
	// GameRules.Boards knows; default english.
	Board string
	// Start is the level's start: holes to vacate (such as d4 or 1,6), or
	// a picture of 'o' and '.'.
	Start string
	// Position is a position as a picture.
	Position string
	// Goal is any, center, fewest or a hole; default center where the
	// board has a centre, else any.
	Goal string
	// History is the jumps played from Start, such as "f4-d4, d2-d4"
	// (chains allowed).
	History string
}

// GameRules say which games ResolveGame accepts.
type GameRules struct {
	// Boards returns a board that is not built in, by name; nil accepts
	// the built-in boards alone.
	Boards func(name string) (*Board, error)
	// Fewest accepts the goal fewest.
	Fewest bool
	// History reads a game in play: a start and the jumps played from it,
	// or the position now, or both (which must agree). Without it the
	// game is a problem: a start or a position, not both, the board's
	// usual start if neither, and no history.
	History bool
}

// Game is a GameText resolved.
type Game struct {
	Board *Board
	Goal  Goal
	// Start is the start given; without one, the position.
	Start Position
	// Played reports whether Start was given, so that Jumps, played from
	// it, lead to Position.
	Played bool
	Jumps  []Jump
	// Position is the position now, which holds a peg.
	Position Position
}

// A FieldError says which field of a GameText is wrong, and why.
type FieldError struct {
	Field string // board, start, position, goal or history
	Err   error
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// Errors that ResolveGame wraps in a FieldError.
var (
	ErrNoPegs           = errors.New("the position has no pegs")
	ErrStartAndPosition = errors.New("give start or position, not both")
	ErrNoStart          = errors.New("needs start")
	ErrNoPosition       = errors.New("give position, or start with history")
	ErrNoHistory        = errors.New("taken only with a game in play")
	ErrFewest           = errors.New("fewest: want a one-peg goal (any, center or a hole)")
)

// BoardNames lists the names Lookup takes, for messages.
func BoardNames() string {
	var names []string
	for _, e := range builtin {
		names = append(names, e.name)
		if e.name == "triangle" {
			names = append(names, "triangle:N (N=4..10)")
		}
	}
	return strings.Join(names, ", ")
}

// IsPicture reports whether s draws a position (only 'o', '.' and
// spaces) rather than naming holes.
func IsPicture(s string) bool { return strings.Trim(s, "o. \t\r\n") == "" }

// ResolveGame reads a game from its text fields under rules r. Its errors
// are FieldErrors naming the field at fault.
func ResolveGame(t GameText, r GameRules) (Game, error) {
	var g Game
	var err error
	field := func(name string, err error) error { return &FieldError{name, err} }
	if g.Board, err = r.Board(t.Board); err != nil {
		return g, field("board", err)
	}
	if g.Goal, err = DefaultGoal(g.Board, t.Goal); err != nil {
		return g, field("goal", err)
	}
	if g.Goal.Kind == FewestPegs && !r.Fewest {
		return g, field("goal", ErrFewest)
	}
	b := g.Board
	start := func() (Position, error) {
		var p Position
		var err error
		if IsPicture(t.Start) {
			p, err = b.ParsePosition(t.Start)
		} else {
			p, err = b.Vacate(t.Start)
		}
		if err != nil {
			return 0, field("start", err)
		}
		return p, nil
	}
	position := func() (Position, error) {
		p, err := b.ParsePosition(t.Position)
		if err != nil {
			return 0, field("position", err)
		}
		return p, nil
	}
	name := "position"
	switch {
	case !r.History && t.History != "":
		return g, field("history", ErrNoHistory)
	case !r.History && t.Start != "" && t.Position != "":
		return g, field("start", ErrStartAndPosition)
	case !r.History:
		g.Position = b.Start()
		if t.Start != "" {
			g.Position, err = start()
			name = "start"
		} else if t.Position != "" {
			g.Position, err = position()
		}
		if err != nil {
			return g, err
		}
		g.Start = g.Position
	case t.Start != "":
		if g.Start, err = start(); err != nil {
			return g, err
		}
		if g.Jumps, err = b.ParseMoves(t.History); err != nil {
			return g, field("history", err)
		}
		if g.Position, err = b.Replay(g.Start, g.Jumps); err != nil {
			return g, field("history", err)
		}
		g.Played = true
		name = "start"
		if t.Position != "" {
			p, err := position()
			if err != nil {
				return g, err
			}
			if p != g.Position {
				return g, field("position", fmt.Errorf("the history ends in %s, not %s", b.Line(g.Position), b.Line(p)))
			}
			name = "position"
		}
	case t.History != "":
		return g, field("history", ErrNoStart)
	case t.Position != "":
		if g.Position, err = position(); err != nil {
			return g, err
		}
		g.Start = g.Position
	default:
		return g, field("position", ErrNoPosition)
	}
	if g.Position == 0 {
		return g, field(name, ErrNoPegs)
	}
	return g, nil
}

// Board returns the board named: built in (english if name is empty), or
// found by r.Boards.
func (r GameRules) Board(name string) (*Board, error) {
	if name == "" {
		return English(), nil
	}
	b, err := Lookup(name)
	if errors.Is(err, ErrUnknownBoard) && r.Boards != nil {
		return r.Boards(name)
	}
	return b, err
}

// DefaultGoal reads goal s of board b; an empty s means one peg in the
// centre where b has one, else one peg anywhere.
func DefaultGoal(b *Board, s string) (Goal, error) {
	if s == "" {
		if c, ok := b.Centre(); ok {
			return Goal{Kind: OnePegAt, Hole: c}, nil
		}
		return Goal{Kind: OnePeg}, nil
	}
	return b.ParseGoal(s)
}
