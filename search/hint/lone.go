package hint

import (
	"context"

	"pegs/engine"
	"pegs/search/internal/kernel"
)

// loneWinner searches from p and from the goal, layer by layer, until the
// two meet (see layered.Meet), within budget bytes, and returns what a
// hint asks of p and its children: whether each can meet goal, and, when
// p cannot, whether each can end with one peg anywhere (a second meeting).
func loneWinner(ctx context.Context, b *engine.Board, p engine.Position, goal engine.Goal, budget int64) (winner, error) {
	mg, err := kernel.Meet(ctx, b, p, goal, kernel.LayerConfig{}, budget)
	if err != nil {
		return nil, err
	}
	w := meetWinner{goal: mg}
	if goal.Kind == engine.OnePeg || kernel.SameAsAny(b, p, goal) {
		w.any = mg
	} else if win, _ := mg.Winnable(p); !win {
		if w.any, err = kernel.Meet(ctx, b, p, engine.Goal{Kind: engine.OnePeg}, kernel.LayerConfig{}, budget); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// meetWinner answers for the positions that meetings from one position
// reach (see layered.Meeting.Winnable): goal's for the goal, any's for one
// peg anywhere (goal's too where they agree from two pegs up, see
// layered.SameAsAny; nil where the goal was met, which answers only for
// the positions that can meet it).
type meetWinner struct {
	goal, any *kernel.Meeting
}

func (w meetWinner) Winnable(p engine.Position) (bool, bool) {
	return w.goal.Winnable(p)
}

func (w meetWinner) OnePeg(p engine.Position) (bool, bool) {
	if p.Pegs() == 1 {
		return true, true
	}
	if w.any != nil {
		return w.any.Winnable(p)
	}
	if win, ok := w.goal.Winnable(p); win {
		return win, ok
	}
	return false, false
}
