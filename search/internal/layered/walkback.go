package layered

import (
	"context"
	"fmt"
	"slices"

	"pegs/engine"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"
)

// Mirrored reports whether start is, up to group's symmetry, the
// complement of goal's one position (in the start's class): then
// backward play from the goal is forward play from the start, and a
// position of k pegs is reachable and winnable exactly when its complement
// (of n-k pegs on a board of n holes) is.
func Mirrored(b *engine.Board, start engine.Position, goal engine.Goal, group *engine.Group) bool {
	seeds := BackwardSeeds(b, start, goal, group)
	return len(seeds) == 1 && seeds[0] == key.Mix(group.Canonical(start))
}

// BackwardSeeds returns the complements of the goal positions in the start's
// class, canonical and mixed: backward play from the goal is forward play
// from these.
func BackwardSeeds(b *engine.Board, start engine.Position, goal engine.Goal, group *engine.Group) []uint64 {
	// The class test applies only when the group keeps the start in place;
	// otherwise positions from the start's images, of other classes, share
	// the search.
	if group.Stabilizer(start).Len() == group.Len() {
		return GoalSeeds(b, b.Class(start), goal, group)
	}
	var seeds []uint64
	for _, t := range b.Targets(goal) {
		seeds = append(seeds, key.Mix(group.Canonical(b.Complement(t))))
	}
	slices.Sort(seeds)
	return slices.Compact(seeds)
}

// WalkBack finds the winnable positions of reachable layers fwd (by peg
// count, from the start's p0 down to one peg), walking back up from the
// goal positions: a reachable position is winnable when one of its
// children is. It calls each with every layer's winnable keys, fewest pegs
// first. With free, it lets each layer of fwd go (keys, code and counts)
// once done with it. With mirror (the start is the complement of the
// goal's one position: see Mirrored), the winnable positions of n-k pegs
// on a board of n holes are the complements of those of k, so it walks
// back only to the middle and complements the layers past it.
func WalkBack(ctx context.Context, goal engine.Goal, gen *movegen.Gen, fwd map[int]*Layer, p0 int, free, mirror bool, cfg Config, mem *memory.Budget, each func(pegs int, keys []uint64) error) error {
	group := gen.Group
	n := gen.Board.Holes()
	top := p0 // the last layer walked back to
	if mirror {
		top = min(p0, n/2)
	}
	// The layers the layers past top mirror, copied (each may store what
	// it is given, which overwrites it).
	mirrors := map[int][]uint64{}
	defer func() {
		for _, keys := range mirrors {
			mem.Give(int64(len(keys)) * 8)
		}
	}()
	var below []uint64
	for pegs := 1; pegs <= p0; pegs++ {
		l, ok := fwd[pegs]
		if !ok {
			below = nil
			continue
		}
		var keys []uint64
		if pegs == 1 {
			if err := l.Load(cfg.Workers, mem); err != nil {
				return err
			}
		}
		if pegs > top {
			keys = ComplementKeys(mirrors[n-pegs], gen.Board, group, key.Mixed(), cfg.Workers)
			mem.Give(int64(len(mirrors[n-pegs])) * 8)
			delete(mirrors, n-pegs)
		} else if pegs == 1 {
			for _, k := range l.keys {
				if Wins(goal, group, k) {
					keys = append(keys, k)
				}
			}
		} else if len(below) > 0 {
			cfg.Progress.report("backward", pegs, 0, l.Size())
			var err error
			if keys, err = ParentsOf(ctx, l, below, gen, cfg.Workers, mem, free); err != nil {
				return err
			}
		}
		l.Drop(mem)
		if free {
			l.Release(mem)
		}
		if pegs <= top && n-pegs > top && n-pegs <= p0 {
			if err := mem.Take(int64(len(keys))*8, "the winnable positions to mirror"); err != nil {
				return err
			}
			mirrors[pegs] = slices.Clone(keys)
		}
		if err := each(pegs, keys); err != nil {
			return err
		}
		below = keys
	}
	return nil
}

// ComplementKeys returns the canonical complements of keys, packed by pk
// (their tags left out), sorted.
func ComplementKeys(keys []uint64, b *engine.Board, group *engine.Group, pk key.Packing, workers int) []uint64 {
	out := make([]uint64, len(keys))
	pool.Chunks(len(keys), workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = pk.Key(group.Canonical(b.Complement(pk.Pos(keys[i]))))
		}
	})
	key.Sort(out, workers)
	return out
}

// ParentsOf returns the keys of l that have a child in next (both sorted
// mixed keys). It plays backward from next: the parents of q are q with one
// jump undone, and winnable layers are far smaller than reachable ones, so
// this touches a fraction of what expanding l would. The parents go into
// tables closed on l's keys, which keep those found: memory for l's keys
// in tables, where sorting every parent found took three words each (7 GiB
// on the French board's widest winnable layers). With free, l lets go of
// its keys and code (see WalkBack) once they are in the tables.
func ParentsOf(ctx context.Context, l *Layer, next []uint64, gen *movegen.Gen, workers int, mem *memory.Budget, free bool) ([]uint64, error) {
	return parentsOf(ctx, l, next, gen, workers, mem, free, true)
}

// parentsOf is ParentsOf, with bitsets for the parents only where dense
// allows them (a test's way to the tables from a layer held as bitsets,
// or packed).
func parentsOf(ctx context.Context, l *Layer, next []uint64, gen *movegen.Gen, workers int, mem *memory.Budget, free, dense bool) ([]uint64, error) {
	if len(next) == 0 || l.Size() == 0 {
		return nil, nil
	}
	if dense {
		if keys, ok, err := parentsDense(ctx, l, next, gen, workers, mem, free); ok {
			doing(err, fmt.Sprintf("finding the winnable positions of %d pegs", l.pegs))
			return keys, err
		}
	}
	if err := l.unpack(ctx, workers, mem); err != nil { // packed (see Layer.Pack)
		return nil, err
	}
	// The tables are seeded from sorted keys.
	if err := l.Keyed(ctx, workers, mem); err != nil {
		return nil, err
	}
	l.Sort(workers)
	e := &Expander{purpose: Parents, gen: gen, workers: workers, mem: mem, within: l.keys, undo: true}
	if l.keys == nil {
		// A stored layer seeds the tables from its code (1.7 GB less on
		// the French widest layers than decoding it whole).
		e.within, e.withinCode = nil, l.stored
	}
	if free {
		// Once its keys are in the tables, l goes (on the French c1 run
		// its code is 0.4 GB at the walk back's widest layer).
		e.seeded = func() {
			l.Release(mem)
			e.within, e.withinCode = nil, nil
		}
	}
	found, _, err := e.Grow(ctx, &Layer{pegs: l.pegs + 1, keys: next})
	doing(err, fmt.Sprintf("finding the winnable positions of %d pegs", l.pegs))
	if err != nil {
		return nil, err
	}
	mem.Give(found.Bytes())
	return found.keys, nil
}

// GoalSeeds returns the complements of goal's positions in position class
// c, canonical under group, as sorted mixed keys: backward play from the
// goal is forward play from them (the first layer of a meeting's goal
// side, an endgame table, a walk back).
func GoalSeeds(b *engine.Board, c engine.Class, goal engine.Goal, group *engine.Group) []uint64 {
	var seeds []uint64
	for _, t := range b.Targets(goal) {
		if b.Class(t) == c {
			seeds = append(seeds, key.Mix(group.Canonical(b.Complement(t))))
		}
	}
	slices.Sort(seeds)
	return slices.Compact(seeds)
}

// Wins reports whether the one-peg position of mixed key k meets goal
// (a goal hole counts up to group): the winnable positions of one peg.
func Wins(goal engine.Goal, group *engine.Group, k uint64) bool {
	p := key.Unmix(k)
	return goal.Reached(p) || goal.Kind == engine.OnePegAt && group.Canonical(p) == group.Canonical(1<<uint(goal.Hole))
}
