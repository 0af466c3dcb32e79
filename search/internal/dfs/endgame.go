package dfs

import (
	"context"
	"slices"
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

// Endgame tables come in two sizes. A search on tables of its own (no
// Config.Tables: a single search, such as a command's) starts with a
// small one, which builds in about 0.3 ms on the English board
// (BenchmarkEndgame) and decides positions of up to 8 pegs, and turns to
// the full one, 16 ms to build, to 11 pegs, once depth first has visited
// bigEndgameAfter positions: most first solutions are found before that
// (the English centre game's after 21,000 positions, 2.7 ms in all when
// this was chosen, against 4,351 positions and 15 ms with the full table
// first; BenchmarkFirstSolution measures it now), and the searches that
// go on past it are the long ones, which the full table shortens. Searches
// that share Tables build the full table at once, for all of them.
const (
	smallEndgame    = 1 << 10 // positions a small table holds
	fullEndgame     = 1 << 16 // and a full one
	bigEndgameAfter = 1 << 16 // positions visited before the full table
)

// Tables keeps what searches on the same boards share, built once and
// read-only after: by board and goal, the move generator, the pagodas and
// the scores of holes that order jumps and rank beams, and, by position
// class too, the endgame tables. It is safe for concurrent use; the zero
// value is empty, and a nil *Tables shares nothing (each search builds its
// own).
type Tables struct {
	goals sync.Map // goalKey -> *goalTables
}

// goalKey names a board and goal.
type goalKey struct {
	board *engine.Board
	goal  engine.Goal
}

// goalTables is what searches of one board and goal share.
type goalTables struct {
	gen *movegen.Gen
	// pagoda is the distance pagoda toward the goal hole (nil for any
	// hole), need its value there; ord the one toward the centre (or the
	// goal hole) that orders jumps.
	pagoda *engine.Pagoda
	need   int
	ord    *engine.Pagoda
	// dist is each hole's distance from the centre or goal by ord, cost
	// a peg's part of a beam's score (see newGoalTables).
	dist, cost []int
	// By jump: rise is what it adds to pagoda's value (nil without a
	// pagoda: never positive), so a child's value is its parent's plus
	// one number; shift what it adds to a position's part of a beam's
	// score from cost, nil unless cost is the same on the holes each
	// symmetry of the group swaps (a child's score is then its parent's
	// plus shift, whichever image of it the beam keeps).
	rise, shift []int
	// pagodaSym reports that pagoda has the same weight on the holes each
	// symmetry of the group swaps: a canonical child's value is then its
	// parent's plus rise too, whichever image the parent is.
	pagodaSym bool
	endgames  sync.Map // endgameKey -> *endgame
}

// endgameKey names an endgame table of a goal: its position class and
// size.
type endgameKey struct {
	class engine.Class
	size  int
}

// forGoal returns the tables of board b's goal, building them on first
// use; a nil t builds them every time.
func (t *Tables) forGoal(b *engine.Board, goal engine.Goal) *goalTables {
	if t == nil {
		return newGoalTables(b, goal)
	}
	k := goalKey{b, goal}
	if g, ok := t.goals.Load(k); ok {
		return g.(*goalTables)
	}
	g, _ := t.goals.LoadOrStore(k, newGoalTables(b, goal))
	return g.(*goalTables)
}

func newGoalTables(b *engine.Board, goal engine.Goal) *goalTables {
	g := &goalTables{gen: movegen.New(b, b.GoalSymmetry(goal))}
	if goal.Kind == engine.OnePegAt {
		g.pagoda = b.DistancePagoda(goal.Hole)
		g.need = g.pagoda.Weight(goal.Hole)
	}
	if c, ok := b.Centre(); ok {
		g.ord = b.DistancePagoda(c)
	} else {
		g.ord = b.DistancePagoda(goal.Hole)
	}
	top := g.ord.Weight(g.ord.Top())
	g.dist = make([]int, b.Holes())
	for h := range g.dist {
		g.dist[h] = top - g.ord.Weight(h)
	}
	// A peg costs a beam its distance, and twice the jumps over its hole
	// short of the most any hole has: few jumps take a peg off a board's
	// edges and arms' ends, and a beam that leaves pegs there strands them.
	over := make([]int, b.Holes())
	most := 0
	for _, j := range g.gen.Jumps {
		over[j.Over]++
		most = max(most, over[j.Over])
	}
	g.cost = make([]int, b.Holes())
	for h := range g.cost {
		g.cost[h] = g.dist[h] + 2*(most-over[h])
	}
	if g.pagoda != nil {
		weight := make([]int, b.Holes())
		for h := range weight {
			weight[h] = g.pagoda.Weight(h)
		}
		g.pagodaSym = invariant(weight, g.gen.Group)
		g.rise = make([]int, len(g.gen.Jumps))
		for k, j := range g.gen.Jumps {
			g.rise[k] = weight[j.To] - weight[j.From] - weight[j.Over]
		}
	}
	if invariant(g.cost, g.gen.Group) {
		g.shift = make([]int, len(g.gen.Jumps))
		for k, j := range g.gen.Jumps {
			g.shift[k] = g.cost[j.To] - g.cost[j.From] - g.cost[j.Over]
		}
	}
	return g
}

// invariant reports whether every symmetry of group maps each hole to one
// of the same weight.
func invariant(weight []int, group *engine.Group) bool {
	for s := range group.Len() {
		for h, t := range group.Perm(s) {
			if weight[t] != weight[h] {
				return false
			}
		}
	}
	return true
}

// endgame returns the endgame table of size positions for a position
// class, building it on first use; it returns nil if it cannot be built
// within the memory budget (and builds it again next time: a larger
// budget may allow it).
func (g *goalTables) endgame(ctx context.Context, b *engine.Board, goal engine.Goal, class engine.Class, budget int64, size int) *endgame {
	k := endgameKey{class, size}
	if e, ok := g.endgames.Load(k); ok {
		return e.(*endgame)
	}
	e := buildEndgame(ctx, b, goal, class, g.gen, budget, size)
	if e == nil {
		return nil
	}
	actual, _ := g.endgames.LoadOrStore(k, e)
	return actual.(*endgame)
}

// buildEndgame builds the endgame table of about size positions for a goal
// and position class, or returns nil if it cannot be built within the
// memory budget.
func buildEndgame(ctx context.Context, b *engine.Board, goal engine.Goal, class engine.Class, gen *movegen.Gen, budget int64, size int) *endgame {
	n := b.Holes()
	seeds := layered.GoalSeeds(b, class, goal, gen.Group)
	if len(seeds) == 0 {
		return nil
	}
	e := &endgame{full: b.Full(), layers: make([]*key.Set, n+1)}
	var ex *layered.Expander
	cur := layered.NewLayer(n-1, seeds)
	total := 0
	w := gen.NewParent()
	var seen *PosSet
	for {
		pegs := n - cur.Pegs()
		e.layers[pegs] = key.NewSet(cur.Keys(), 1)
		e.maxPegs = pegs
		total += cur.Len()
		if total > size || pegs >= n/2 {
			break
		}
		var next *layered.Layer
		if cur.Len() <= smallLayer {
			if seen == nil {
				seen = NewPosSet(budget)
			}
			keys, err := children(w, cur.Keys(), seen)
			if err != nil {
				return nil
			}
			next = layered.NewLayer(cur.Pegs()-1, keys)
		} else {
			if ex == nil {
				var err error
				if ex, err = layered.NewExpander(layered.Positions, layered.Setup{Gen: gen, Mem: memory.New(budget), Workers: 1}); err != nil {
					return nil
				}
			}
			slices.Sort(cur.Keys()) // children leaves them in the order found
			var err error
			if next, _, err = ex.Next(ctx, cur); err != nil {
				return nil
			}
		}
		if next.Len() == 0 {
			break
		}
		cur = next
	}
	return e
}

// smallLayer is the most keys of a layer that buildEndgame expands itself:
// a layered.Expander, made for millions, takes a tenth of a millisecond to
// set up its tables and workers, as long as a small table's every layer.
const smallLayer = 1 << 12

// children returns the distinct keys of the canonical children of the
// positions whose keys are keys, in the order found; seen is room to find
// them in. A child comes about six times over, so a set weeds the repeats
// out as they come (sorting them all took three times as long).
func children(w *movegen.Parent, keys []uint64, seen *PosSet) ([]uint64, error) {
	var kids []engine.Position
	seen.clear()
	seen.reserve(4 * len(keys)) // distinct children: 3.8-5 a parent on the English board
	var out []uint64
	for _, k := range keys {
		p := key.Unmix(k)
		w.Set(p)
		kids = w.MoveChildren(kids[:0], p)
		for _, c := range kids {
			added, err := seen.Add(c)
			if err != nil {
				return nil, err
			}
			if added {
				out = append(out, key.Mix(c))
			}
		}
	}
	return out, nil
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
