package dfs

import (
	"context"
	"sync"

	"pegs/engine"
	"pegs/search/internal/key"
	"pegs/search/internal/layered"
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

// Tables keeps what searches on the same boards share, built once and
// read-only after: move generators and distance pagodas by board and goal,
// and endgame tables by board, goal and position class. It is safe for
// concurrent use; the zero value is empty, and a nil *Tables shares
// nothing (each search builds its own).
type Tables struct {
	mu       sync.Mutex
	gens     map[tableKey]*movegen.Gen
	pagodas  map[tableKey]*engine.Pagoda
	endgames map[tableKey]*endgame
}

// tableKey names a table: a board and a goal, with a position class for
// endgame tables and a hole for pagodas.
type tableKey struct {
	board *engine.Board
	goal  engine.Goal
	class engine.Class
	hole  int
}

// shared returns the table of k in m, making it with build the first
// time (outside the lock: two searches may build it at once, and the first
// to finish is kept). A nil t builds every time.
func shared[T any](t *Tables, m *map[tableKey]T, k tableKey, build func() (T, bool)) T {
	if t == nil {
		v, _ := build()
		return v
	}
	t.mu.Lock()
	v, ok := (*m)[k]
	t.mu.Unlock()
	if ok {
		return v
	}
	v, keep := build()
	if !keep {
		return v
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if *m == nil {
		*m = map[tableKey]T{}
	}
	if old, ok := (*m)[k]; ok {
		return old
	}
	(*m)[k] = v
	return v
}

// gen returns the move generator for a goal's symmetry.
func (t *Tables) gen(b *engine.Board, goal engine.Goal) *movegen.Gen {
	var m *map[tableKey]*movegen.Gen
	if t != nil {
		m = &t.gens
	}
	return shared(t, m, tableKey{board: b, goal: goal}, func() (*movegen.Gen, bool) {
		return movegen.New(b, b.GoalSymmetry(goal)), true
	})
}

// pagoda returns the distance pagoda toward a hole.
func (t *Tables) pagoda(b *engine.Board, hole int) *engine.Pagoda {
	var m *map[tableKey]*engine.Pagoda
	if t != nil {
		m = &t.pagodas
	}
	return shared(t, m, tableKey{board: b, hole: hole}, func() (*engine.Pagoda, bool) {
		return b.DistancePagoda(hole), true
	})
}

// endgame returns the endgame table for a goal and position class,
// building it on first use; it returns nil if it cannot be built within
// the memory budget (and builds it again next time: a larger budget may
// allow it).
func (t *Tables) endgame(ctx context.Context, b *engine.Board, goal engine.Goal, class engine.Class, gen *movegen.Gen, budget int64) *endgame {
	var m *map[tableKey]*endgame
	if t != nil {
		m = &t.endgames
	}
	return shared(t, m, tableKey{board: b, goal: goal, class: class}, func() (*endgame, bool) {
		e := buildEndgame(ctx, b, goal, class, gen, budget)
		return e, e != nil
	})
}

// buildEndgame builds the endgame table for a goal and position class, or
// returns nil if it cannot be built within the memory budget.
func buildEndgame(ctx context.Context, b *engine.Board, goal engine.Goal, class engine.Class, gen *movegen.Gen, budget int64) *endgame {
	n := b.Holes()
	seeds := layered.GoalSeeds(b, class, goal, gen.Group)
	if len(seeds) == 0 {
		return nil
	}
	e := &endgame{full: b.Full(), layers: make([]*key.Set, n+1)}
	ex := &layered.Expander{Gen: gen, Workers: 1, Mem: memory.New(budget)}
	cur := &layered.Layer{Pegs: n - 1, Keys: seeds}
	total := 0
	for {
		pegs := n - cur.Pegs
		e.layers[pegs] = key.NewSet(cur.Keys, 1)
		e.maxPegs = pegs
		total += cur.Len()
		if total > endgameSize || pegs >= n/2 {
			break
		}
		next, _, err := ex.Next(ctx, cur)
		if err != nil {
			return nil
		}
		if next.Len() == 0 {
			break
		}
		cur = next
	}
	return e
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
