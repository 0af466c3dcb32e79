package search

import (
	"context"
	"sync"

	"pegs/engine"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// endgame is a table of the positions with few pegs that can still meet a
// goal, so the solver decides them without searching. Backward play is
// forward play on complements: p with n pegs can meet the goal exactly when
// the complement of p is reachable from the complement of a goal position,
// so the table is the first layers of a forward search from those
// complements, stored as canonical complements.
type endgame struct {
	full    engine.Position
	maxPegs int
	layers  []*key.Set // by peg count of the position (not of its complement)
}

// endgameSize bounds the positions an endgame table holds.
const endgameSize = 1 << 16

type endgameKey struct {
	board *engine.Board
	goal  engine.Goal
	class engine.Class
}

var endgames sync.Map // endgameKey -> *endgame

// Move generators and pagodas are built once per board and group and
// shared: they are read-only.
var (
	moveGens sync.Map // genKey -> *moveGen
	pagodas  sync.Map // pagodaKey -> *engine.Pagoda
)

type genKey struct {
	board *engine.Board
	goal  engine.Goal
}

type pagodaKey struct {
	board *engine.Board
	hole  int
}

// solverGen returns the shared move generator for a goal's group.
func solverGen(b *engine.Board, goal engine.Goal) *movegen.Gen {
	k := genKey{b, goal}
	if g, ok := moveGens.Load(k); ok {
		return g.(*movegen.Gen)
	}
	g, _ := moveGens.LoadOrStore(k, movegen.New(b, goalGroup(b, goal)))
	return g.(*movegen.Gen)
}

// distancePagoda returns the shared distance pagoda toward a hole.
func distancePagoda(b *engine.Board, hole int) *engine.Pagoda {
	k := pagodaKey{b, hole}
	if p, ok := pagodas.Load(k); ok {
		return p.(*engine.Pagoda)
	}
	p, _ := pagodas.LoadOrStore(k, b.DistancePagoda(hole))
	return p.(*engine.Pagoda)
}

// endgameFor returns the endgame table for a goal and position class,
// building it on first use; it returns nil if it cannot be built within
// the memory budget.
func endgameFor(ctx context.Context, b *engine.Board, goal engine.Goal, class engine.Class, gen *movegen.Gen, budget int64) *endgame {
	ek := endgameKey{b, goal, class}
	if e, ok := endgames.Load(ek); ok {
		return e.(*endgame)
	}
	n := b.Holes()
	seeds := goalSeeds(b, class, goal, gen.Group)
	if len(seeds) == 0 {
		return nil
	}
	e := &endgame{full: b.Full(), layers: make([]*key.Set, n+1)}
	ex := &expander{gen: gen, workers: 1, mem: memory.New(budget)}
	cur := &layer{pegs: n - 1, keys: seeds}
	total := 0
	for {
		pegs := n - cur.pegs
		e.layers[pegs] = key.NewSet(cur.keys, 1)
		e.maxPegs = pegs
		total += cur.len()
		if total > endgameSize || pegs >= n/2 {
			break
		}
		next, _, err := ex.next(ctx, cur)
		if err != nil {
			return nil
		}
		if next.len() == 0 {
			break
		}
		cur = next
	}
	actual, _ := endgames.LoadOrStore(ek, e)
	return actual.(*endgame)
}

// has reports whether the position with the given images and peg count
// can meet the goal.
func (e *endgame) has(pegs int, imgs []engine.Position) bool {
	c := e.full ^ imgs[0]
	for _, x := range imgs[1:] {
		c = min(c, e.full^x)
	}
	return e.layers[pegs].Has(key.Mix(c))
}
