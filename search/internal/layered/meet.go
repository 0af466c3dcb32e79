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

// Meeting is a search for a one-peg goal from both ends, layer by layer.
// Forward from the start; and from the goal, as forward play from the
// complements of the goal's positions (in the start's class), since a
// position of k pegs on a board of n holes can meet the goal exactly when
// its complement, of n-k pegs, is reachable from one of those. Each step
// grows the side whose last layer is smaller, until the start's side has
// m pegs and the goal's side n-m: a start's position of m pegs whose
// complement the goal's side reached is winnable, and walking back from
// those gives the winnable positions of every forward layer. Where the
// sides are one jump apart (the goal's at n-m+1) and the start's is the
// smaller, its positions' children are looked up in the goal's side
// instead of found (see MeetingKeys): a position is winnable when one of
// them is. Neither side
// reaches the other's widest layers: from a lost English position of 26
// pegs the Meeting goes 12 jumps forward and 13 from the goal, where a
// search of everything the position reaches goes 24 and walks back.
type Meeting struct {
	board *engine.Board
	// fwd reduces the start's side (the start's and goal hole's
	// stabilizer), back the goal's (the goal hole's): fwd is a subgroup of
	// back, so a position canonical under fwd has one form under back.
	fwd, back *engine.Group
	start     engine.Position
	m         int // where the sides met (0 if one side died first)
	// win[k] holds the winnable positions of k pegs the start reaches, for
	// k from m up to the start's pegs (sorted mixed keys under fwd).
	win map[int][]uint64
	// goal[k] holds the complements of the positions of k pegs that can
	// meet the goal, for k from 1 up to m, or m-1 where the sides met one
	// jump apart (sorted mixed keys under back).
	goal map[int][]uint64
	// Positions counts the positions both sides found.
	Positions int64
}

// Meet searches start on board b toward goal (one peg at a hole or
// anywhere) from both ends, within a memory budget of budget bytes; see
// Meeting.
func Meet(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, cfg Config, budget int64) (*Meeting, error) {
	if k := goal.Kind; k != engine.OnePeg && k != engine.OnePegAt {
		return nil, fmt.Errorf("search: meeting needs a one-peg goal")
	}
	n := b.Holes()
	mem := memory.New(budget)
	mt := &Meeting{board: b, fwd: b.GameSymmetry(start, goal), back: b.GoalSymmetry(goal), start: start,
		win: map[int][]uint64{}, goal: map[int][]uint64{}}
	seeds := GoalSeeds(b, b.Class(start), goal, mt.back)
	f := &Layer{pegs: start.Pegs(), keys: []uint64{key.Mix(mt.fwd.Canonical(start))}}
	g := &Layer{pegs: n - 1, keys: seeds}
	if err := mem.Take(f.Bytes()+g.Bytes(), "the first layers"); err != nil {
		return nil, err
	}
	mt.goal[1] = seeds
	mt.Positions = int64(f.Len() + g.Len())
	fwd := map[int]*Layer{f.pegs: f}
	ef := &Expander{gen: movegen.New(b, mt.fwd), workers: cfg.Workers, mem: mem}
	eg := &Expander{gen: movegen.New(b, mt.back), workers: cfg.Workers, mem: mem}
	// lookup: the sides are one jump apart and the start's is the
	// smaller, so its children are looked up rather than found (see
	// MeetingKeys).
	lookup := false
	for f.Len() > 0 && g.Len() > 0 && f.pegs+g.pegs > n {
		e, from, phase := ef, f, "forward"
		if g.Len() < f.Len() {
			e, from, phase = eg, g, "from the goal"
		} else if f.pegs+g.pegs == n+1 {
			lookup = true
			break
		}
		if cfg.Progress != nil {
			pegs := from.pegs
			if from == g {
				pegs = n - g.pegs // the positions its complements stand for
			}
			e.progress = func(done, total int) { cfg.Progress(phase, pegs, done, total) }
		}
		next, _, err := e.Next(ctx, from)
		if err != nil {
			return nil, err
		}
		mt.Positions += int64(next.Len())
		if from == f {
			f = next
			fwd[f.pegs] = f
		} else {
			g = next
			mt.goal[n-g.pegs] = g.keys
		}
	}
	if f.Len() == 0 || g.Len() == 0 {
		return mt, nil // one side died: nothing meets
	}
	mt.m = f.pegs
	var won []uint64
	var err error
	if lookup {
		won, err = MeetingKeys(ctx, f.keys, g.keys, eg.gen, cfg, mem)
	} else {
		won, err = mt.meetAt(f.keys, g.keys, cfg.Workers, mem)
	}
	if err != nil {
		return nil, err
	}
	mt.win[mt.m] = won
	for pegs := mt.m + 1; pegs <= mt.start.Pegs() && len(mt.win[pegs-1]) > 0; pegs++ {
		cfg.Progress.report("backward", pegs, 0, fwd[pegs].Len())
		keys, err := ParentsOf(ctx, fwd[pegs], mt.win[pegs-1], ef.gen, cfg.Workers, mem, false)
		if err != nil {
			return nil, err
		}
		mt.win[pegs] = keys
	}
	return mt, nil
}

// meetAt returns the keys of fwd (the start's side) whose complements are
// among goal (the goal's side, of as many pegs as fwd's complements).
func (mt *Meeting) meetAt(fwd, goal []uint64, workers int, mem *memory.Budget) ([]uint64, error) {
	set, release, err := NewSetIn(goal, workers, mem, "the positions where the searches meet")
	if err != nil {
		return nil, err
	}
	defer release()
	chunks := make([][]uint64, pool.ChunkCount(len(fwd), workers))
	pool.Chunks(len(fwd), workers, func(c, lo, hi int) {
		for _, k := range fwd[lo:hi] {
			if set.Has(key.Mix(mt.back.Canonical(mt.board.Complement(key.Unmix(k))))) {
				chunks[c] = append(chunks[c], k)
			}
		}
	})
	return slices.Concat(chunks...), nil
}

// Winnable reports whether p, a position the start reaches, can meet the
// goal; ok is false when p has more pegs than the start.
func (mt *Meeting) Winnable(p engine.Position) (win, ok bool) {
	k := p.Pegs()
	switch {
	case k > mt.start.Pegs():
		return false, false
	case mt.m == 0:
		return false, true
	case k >= mt.m:
		_, win = slices.BinarySearch(mt.win[k], key.Mix(mt.fwd.Canonical(p)))
	default:
		_, win = slices.BinarySearch(mt.goal[k], key.Mix(mt.back.Canonical(mt.board.Complement(p))))
	}
	return win, true
}

// Path returns jumps from the start position p to the goal through
// winnable positions.
func (mt *Meeting) Path(p engine.Position) ([]engine.Jump, error) {
	b := mt.board
	if win, _ := mt.Winnable(p); !win {
		return nil, fmt.Errorf("search: %s is not winnable", b.Line(p))
	}
	var jumps []engine.Jump
	for p.Pegs() > 1 {
		next := p
		for _, j := range b.Moves(nil, p) {
			if win, _ := mt.Winnable(p.Apply(j)); win {
				jumps, next = append(jumps, j), p.Apply(j)
				break
			}
		}
		if next == p {
			return nil, fmt.Errorf("search: winnable position %s has no winnable child", b.Line(p))
		}
		p = next
	}
	return jumps, nil
}

// SameAsAny reports whether the positions of two pegs or more in start's
// class that can meet goal (one peg at a hole that every symmetry of the
// board fixes) are exactly those that can end with one peg anywhere. They
// are when the two goals' complements lead in one jump to the same
// positions up to symmetry: every position of n-2 pegs or fewer reachable
// from one set is then, up to symmetry, reachable from the other, and the
// goal is unchanged by symmetry. On the English board the last peg of the
// centre's class can end at d4 or d1 (up to symmetry), and vacating d4 or
// d1 leaves the same position after one jump.
func SameAsAny(b *engine.Board, start engine.Position, goal engine.Goal) bool {
	all := b.Symmetry()
	if goal.Kind != engine.OnePegAt || b.GoalSymmetry(goal).Len() != all.Len() {
		return false
	}
	first := func(g engine.Goal) []uint64 {
		var keys []uint64
		for _, k := range GoalSeeds(b, b.Class(start), g, all) {
			q := key.Unmix(k)
			for _, j := range b.Moves(nil, q) {
				keys = append(keys, key.Mix(all.Canonical(q.Apply(j))))
			}
		}
		slices.Sort(keys)
		return slices.Compact(keys)
	}
	return slices.Equal(first(goal), first(engine.Goal{Kind: engine.OnePeg}))
}

// Board returns the meeting's board.
func (mt *Meeting) Board() *engine.Board { return mt.board }

// Start returns the position the meeting searched from.
func (mt *Meeting) Start() engine.Position { return mt.start }
