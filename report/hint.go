package report

import (
	"fmt"
	"io"
	"strings"

	"pegs/engine"
	"pegs/search/hint"
)

// HintJSON is the JSON output of pegs hint.
type HintJSON struct {
	// Status says what is still possible, in words: "centre still
	// possible", "one peg still possible", "one peg out of reach; 4 pegs
	// still possible", "won", "dead end" (no jump left), ...
	Status         string   `json:"status"`
	Jump           *string  `json:"jump"` // null when no jump keeps the goal
	CenterPossible bool     `json:"center_possible"`
	GoalPossible   bool     `json:"goal_possible"`
	OnePegPossible bool     `json:"one_peg_possible"`
	Fewest         int      `json:"fewest_reachable"`
	Undo           int      `json:"undo"`
	Movable        []string `json:"movable"`
	Position       string   `json:"position"`
}

// NewHintJSON returns hint h for position p toward goal on board b in its
// JSON shape.
func NewHintJSON(b *engine.Board, p engine.Position, goal engine.Goal, h hint.Hint) HintJSON {
	movable := []string{}
	for _, m := range h.Movable {
		movable = append(movable, b.Label(m))
	}
	centre := false
	if c, ok := b.Centre(); ok {
		centre = h.GoalPossible && goal.Kind == engine.OnePegAt && goal.Hole == c
	}
	out := HintJSON{Status: statusText(b, goal, h), CenterPossible: centre, GoalPossible: h.GoalPossible,
		OnePegPossible: h.OnePegPossible, Fewest: h.Fewest, Undo: h.Undo, Movable: movable, Position: b.Line(p)}
	if h.Jump != nil {
		s := b.FormatJump(*h.Jump)
		out.Jump = &s
	}
	return out
}

// statusText says in words what is still possible from a position.
func statusText(b *engine.Board, goal engine.Goal, h hint.Hint) string {
	hole := "goal"
	if c, ok := b.Centre(); ok && goal.Kind == engine.OnePegAt && goal.Hole == c {
		hole = "centre"
	} else if goal.Kind == engine.OnePegAt {
		hole = b.Label(goal.Hole)
	}
	switch h.Status {
	case hint.GoalPossible:
		if goal.Kind == engine.OnePeg {
			return "one peg still possible"
		}
		return hole + " still possible"
	case hint.OnePegOnly:
		return hole + " out of reach; one peg still possible"
	case hint.FewestOnly:
		return fmt.Sprintf("one peg out of reach; %d pegs still possible", h.Fewest)
	case hint.Won:
		return "won"
	}
	return "dead end"
}

// WriteHint writes hint h for position p toward goal on board b: in text
// the position, what is still possible, the next good jump, how many jumps
// to take back and the pegs that can jump; in JSON HintJSON (see
// NewHintJSON).
func WriteHint(w io.Writer, f Format, b *engine.Board, p engine.Position, goal engine.Goal, h hint.Hint) error {
	if f == JSON {
		return encodeJSON(w, NewHintJSON(b, p, goal, h))
	}
	movable := []string{}
	for _, m := range h.Movable {
		movable = append(movable, b.Label(m))
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s\n%s\n", b.Picture(p), statusText(b, goal, h))
	if h.Jump != nil {
		fmt.Fprintf(&sb, "hint: %s\n", b.FormatJump(*h.Jump))
	}
	if h.Status == hint.DeadEnd {
		fmt.Fprintf(&sb, "fewest pegs still reachable: %d\n", h.Fewest)
	}
	if h.Undo > 0 {
		fmt.Fprintf(&sb, "take back %s to make the goal possible again\n", plural(h.Undo, "jump"))
	}
	jumpers := strings.Join(movable, " ")
	if jumpers == "" {
		jumpers = "none"
	}
	fmt.Fprintf(&sb, "pegs that can jump: %s\n", jumpers)
	_, err := io.WriteString(w, sb.String())
	return err
}
