package hint

import (
	"context"

	"pegs/engine"
	"pegs/search"
)

// Test knobs: thresholds that tests move to reach, on small boards or in
// a short time, the paths that large boards take. Set them before the
// Advisor's first hint.

// setLoneBase sets depth first's budget, for 20 pegs or fewer, before a
// lone position's hint turns to a layered search (see dfs.LoneNodes).
func (a *Advisor) setLoneBase(n int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.knobs.loneBase = n
}

// setFewestFrom sets the fewest pegs of the positions the fewest tables
// of the level oracles a builds hold (see Oracle.AddFewest).
func (a *Advisor) setFewestFrom(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.knobs.fewestFrom = n
}

// setNoFewest makes the builds of a's levels stop after their winnable
// tables, without going on to the fewest pegs of their dead ends.
func (a *Advisor) setNoFewest() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.knobs.noFewest = true
}

// setListFewest replaces search.Explore in the fewest pegs of a dead end
// past depth first's budget.
func (a *Advisor) setListFewest(f func(ctx context.Context, prob search.Problem, opt search.ExploreOptions) (*search.Analysis, error)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.knobs.listFewest = f
}

// setTooBig marks the level that starts at start as too big for a budget
// of n bytes or less, so that a builds it within none of those.
func (a *Advisor) setTooBig(b *engine.Board, start engine.Position, goal engine.Goal, n int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.levelOf(keyOf(b, start, goal)).tooBig = n
}

// setLevelOracle makes o the oracle a has built for o's level, as a
// finished build leaves it.
func (a *Advisor) setLevelOracle(o *Oracle) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.levelOf(keyOf(o.board, o.start, o.goal)).oracle = o
}

// levelOf returns the level of key k, made if absent; a.mu is held.
func (a *Advisor) levelOf(k levelKey) *level {
	l := a.levels[k]
	if l == nil {
		l = &level{}
		a.levels[k] = l
	}
	return l
}

// levelStarted reports whether a has built, or is building, the tables
// of the level that starts at start.
func (a *Advisor) levelStarted(b *engine.Board, start engine.Position, goal engine.Goal) bool {
	return a.building(b, start, goal) != nil || a.built(b, start, goal) != nil
}
