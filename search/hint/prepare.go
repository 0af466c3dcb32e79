package hint

import (
	"pegs/engine"
)

// Build is a level's oracle being built in the background (see
// Advisor.Prepare).
type Build struct {
	lb *levelBuild
}

// Prepare starts building the oracle of the level that starts at start
// toward goal (one peg at a hole or anywhere) now, in the background
// within Options.BuildMemory, unless it is built or under way: a game
// server prepares the levels it offers, so that their hints are lookups
// from the first that finds the build done. Until then, hints search (and
// race the build). The level is kept for the Advisor's life, whatever
// Options.MaxLevels says; Close stops the build.
func (a *Advisor) Prepare(b *engine.Board, start engine.Position, goal engine.Goal) *Build {
	return &Build{a.start(b, start, goal, a.buildMemory(), true)}
}

// Tables returns a channel closed once the level's winnable tables are
// built, or have failed (see Err): from then on they answer its hints'
// questions of the goal and one peg by lookup.
func (b *Build) Tables() <-chan struct{} { return b.lb.done }

// Done returns a channel closed when the build has ended: after the
// winnable tables, the fewest pegs of the level's dead ends are built too
// (see Oracle.AddFewest), or have failed.
func (b *Build) Done() <-chan struct{} { return b.lb.full }

// Err returns why the build failed once Done is closed, or nil: an error
// matching search.ErrMemory when the tables pass the budget, the
// Advisor's context's when it was closed. Hints search where the build
// failed: all of the level's if its winnable tables did, only its dead
// ends' fewest pegs if the fewest table did.
func (b *Build) Err() error {
	select {
	case <-b.lb.full:
	default:
		return nil
	}
	if b.lb.err != nil {
		return b.lb.err
	}
	return b.lb.fewestErr
}

// Answers reports whether the level's winnable tables are built and
// answer its hints by lookup.
func (b *Build) Answers() bool { return b.lb.ready() != nil }
