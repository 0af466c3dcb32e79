package measure

import (
	"context"

	"pegs/engine"
)

// Measured is a level measured but for its par, which Par finds: what
// BenchmarkPar times alone.
type Measured struct {
	ls    *layers
	b     *engine.Board
	start engine.Position
	goal  engine.Goal
}

// MeasureLayers measures the level that starts at start on b toward goal,
// as Level does before its par.
func MeasureLayers(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, budget int64) (*Measured, error) {
	ls, err := measureLayers(ctx, b, start, goal, budget)
	if err != nil {
		return nil, err
	}
	return &Measured{ls, b, start, goal}, nil
}

// Par finds the level's par as Level does, and a solution of that many
// moves.
func (m *Measured) Par(ctx context.Context) (int, []engine.Jump, error) {
	return m.ls.par(ctx, m.b, m.start, m.goal)
}
