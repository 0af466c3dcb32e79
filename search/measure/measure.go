// Package measure measures a level (a start and a goal on a board) on its
// whole state space: how many positions it reaches and how many can still
// win, its solutions and complete games, how a random player fares, its
// critical decisions and its par. Package generate turns the measures into
// a difficulty.
package measure

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"pegs/engine"
	"pegs/search"
	"pegs/search/internal/bfs"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/movegen"
)

// Metrics describe how hard a level is, measured on its whole state space.
type Metrics struct {
	Pegs      int
	Reachable int64 // positions up to the goal's symmetry
	Winnable  int64
	Solutions *big.Int // jump sequences that meet the goal
	Games     *big.Int // jump sequences until no jump is left
	// P0 is the probability that a player choosing uniformly among the
	// legal jumps wins; P1 the same for a player who never jumps into a
	// stuck losing position when another jump exists.
	P0, P1 float64
	// MeanAttempt is the expected number of jumps in one attempt of the P1
	// player; J1 = MeanAttempt / P1 is the expected number of jumps to a
	// win with restarts.
	MeanAttempt, J1 float64
	// Critical counts the positions on the most likely winning line (the
	// P1 player's likeliest winning choices) at which some jump loses.
	Critical int
	// UniqueFirst reports that exactly one first jump keeps the level
	// winnable.
	UniqueFirst bool
	// FewestMoves is the par: the fewest moves (chains of jumps by one peg)
	// of a solution; 0 if unsolvable.
	FewestMoves int
}

// WinShare is the fraction of reachable positions that can still win.
func (m Metrics) WinShare() float64 {
	if m.Reachable == 0 {
		return 0
	}
	return float64(m.Winnable) / float64(m.Reachable)
}

// nodeBytes is about what a position of a level's state space takes in
// memory: its node and its share of the table's slots.
const nodeBytes = 120

type levelNode struct {
	win         bool
	stuck       bool // no jump left and the goal not met
	p0, p1, len float64
	sol, games  exact.U128
}

// Level computes the metrics of the level that starts at start on board b
// toward goal (one peg at a hole or anywhere) by a depth-first walk of its
// whole state space, memoized by canonical position, within a memory
// budget of budget bytes. It suits levels whose state space fits in memory
// comfortably (up to a few million positions).
func Level(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, budget int64) (Metrics, error) {
	m, _, err := LevelIf(ctx, b, start, goal, budget, nil)
	return m, err
}

// LevelIf is Level for callers that discard some levels on their other
// metrics: it computes the par (the fewest moves, a breadth-first search
// over move chains and about a quarter of the time) only if keep, when not
// nil, accepts the rest. kept reports keep's answer.
func LevelIf(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, budget int64, keep func(Metrics) bool) (m Metrics, kept bool, err error) {
	switch {
	case start == 0:
		return Metrics{}, false, search.ErrNoPegs
	case start&^b.Full() != 0:
		return Metrics{}, false, fmt.Errorf("position has pegs outside board %s", b.Name())
	case goal.Kind == engine.FewestPegs:
		return Metrics{}, false, errors.New("measuring a level needs a one-peg goal (any, center or a hole)")
	}
	w := newWalk(ctx, b, start, goal, budget)
	root := w.visit(start, 0)
	if w.err != nil {
		return Metrics{}, false, w.err
	}
	m = Metrics{Pegs: start.Pegs(), Reachable: int64(w.memo.n), Solutions: root.sol.Big(), Games: root.games.Big(),
		P0: root.p0, P1: root.p1, MeanAttempt: root.len}
	for i := range w.memo.n {
		if w.memo.node(uint32(i)).win {
			m.Winnable++
		}
	}
	if m.P1 > 0 {
		m.J1 = m.MeanAttempt / m.P1
	} else {
		m.J1 = math.Inf(1)
	}
	m.UniqueFirst = w.winningChildren(start) == 1
	if root.win {
		m.Critical = w.critical(start)
	}
	if keep != nil && !keep(m) {
		return m, false, nil
	}
	if root.win {
		ms, err := bfs.FewestMoves(ctx, b, start, goal, w.group, func(c engine.Position) bool {
			n := w.memo.find(c)
			return n != nil && n.win
		})
		if err != nil {
			return m, true, err
		}
		m.FewestMoves = ms.Moves
	}
	return m, true, nil
}

// walk is a depth-first walk of a level's whole state space, memoized by
// canonical position.
type walk struct {
	ctx    context.Context
	goal   engine.Goal
	budget int64
	gen    *movegen.Gen
	group  *engine.Group
	memo   *nodeTable
	// imgs[d] holds the symmetric images of the position at depth d, each
	// child's images being its parent's XOR the jump's image masks.
	imgs [][]engine.Position
	err  error
}

func newWalk(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, budget int64) *walk {
	gen := movegen.New(b, b.GoalSymmetry(goal))
	w := &walk{ctx: ctx, goal: goal, budget: budget, gen: gen, group: gen.Group, memo: newNodeTable()}
	w.imgs = make([][]engine.Position, start.Pegs()+1)
	for d := range w.imgs {
		w.imgs[d] = make([]engine.Position, w.group.Len())
	}
	w.group.Images(start, w.imgs[0])
	return w
}

// visit returns the node of p, reached at depth, measuring it and every
// position it reaches on first sight.
func (w *walk) visit(p engine.Position, depth int) *levelNode {
	n, fresh := w.memo.get(movegen.Canonical(w.imgs[depth]))
	if !fresh {
		return n
	}
	if w.memo.n&0xfff == 0 && w.err == nil {
		w.err = w.ctx.Err()
		if held := int64(w.memo.n) * nodeBytes; held > w.budget {
			const chunk = 0x1000 * nodeBytes // held since the last look
			w.err = &search.MemoryError{What: fmt.Sprintf("the %d positions of a level", w.memo.n), Need: chunk, InUse: held - chunk, Budget: w.budget}
		}
	}
	moves := w.gen.AppendMoves(nil, p)
	if len(moves) == 0 || w.err != nil {
		n.win = w.goal.Reached(p)
		n.stuck = !n.win
		n.games = exact.U128{Lo: 1}
		if n.win {
			n.p0, n.p1, n.sol = 1, 1, exact.U128{Lo: 1}
		}
		return n
	}
	var win bool
	var p0, p1, length float64
	var sol, games exact.U128
	allowed := 0
	for _, k := range moves {
		w.gen.ChildImages(w.imgs[depth+1], w.imgs[depth], k)
		c := w.visit(p^w.gen.Masks[k], depth+1)
		win = win || c.win
		p0 += c.p0
		sol, _ = sol.Add(c.sol)
		games, _ = games.Add(c.games)
		if !c.stuck {
			allowed++
			p1 += c.p1
			length += c.len
		}
	}
	if allowed == 0 {
		// Every jump sticks: the player has no choice to make.
		for _, k := range moves {
			c := w.memo.find(w.group.Canonical(p ^ w.gen.Masks[k]))
			p1 += c.p1
			length += c.len
		}
		allowed = len(moves)
	}
	n.win, n.sol, n.games = win, sol, games
	n.p0 = p0 / float64(len(moves))
	n.p1 = p1 / float64(allowed)
	n.len = 1 + length/float64(allowed)
	return n
}

// child returns the node of p's child by jump k.
func (w *walk) child(p engine.Position, k int16) *levelNode {
	return w.memo.find(w.group.Canonical(p ^ w.gen.Masks[k]))
}

// winningChildren counts the jumps from p that keep the level winnable.
func (w *walk) winningChildren(p engine.Position) int {
	n := 0
	for _, k := range w.gen.AppendMoves(nil, p) {
		if w.child(p, k).win {
			n++
		}
	}
	return n
}

// critical counts the positions on the most likely winning line from p (a
// winnable position: from each, the winnable child the P1 player is
// likeliest to win from) at which some jump loses.
func (w *walk) critical(p engine.Position) int {
	critical := 0
	for {
		moves := w.gen.AppendMoves(nil, p)
		if len(moves) == 0 {
			return critical
		}
		var best engine.Position
		bestP, losing := -1.0, false
		for _, k := range moves {
			c := w.child(p, k)
			if !c.win {
				losing = true
				continue
			}
			if c.p1 > bestP {
				best, bestP = p^w.gen.Masks[k], c.p1
			}
		}
		if losing {
			critical++
		}
		p = best
	}
}

// nodeTable maps canonical positions to their nodes: open addressing over
// (key, index) slots, the nodes in fixed-size chunks in the order they were
// added, so that growing never copies them.
type nodeTable struct {
	slots  []nodeSlot
	chunks [][]levelNode
	n      int
	shift  uint
}

const nodeChunk = 1 << 12

func (t *nodeTable) node(idx uint32) *levelNode {
	return &t.chunks[idx/nodeChunk][idx%nodeChunk]
}

type nodeSlot struct {
	key engine.Position
	idx uint32
}

func newNodeTable() *nodeTable {
	t := &nodeTable{}
	t.resize(1 << 10)
	return t
}

func (t *nodeTable) resize(size int) {
	old := t.slots
	t.slots = make([]nodeSlot, size)
	t.shift = uint(64 - bits.Len(uint(size)-1))
	for _, sl := range old {
		if sl.key != 0 {
			j := t.slot(sl.key)
			for t.slots[j].key != 0 {
				j = (j + 1) & (size - 1)
			}
			t.slots[j] = sl
		}
	}
}

func (t *nodeTable) slot(k engine.Position) int { return int((uint64(k) * key.MixMul) >> t.shift) }

// find returns the node of k, or nil.
func (t *nodeTable) find(k engine.Position) *levelNode {
	mask := len(t.slots) - 1
	for i := t.slot(k); ; i = (i + 1) & mask {
		switch t.slots[i].key {
		case k:
			return t.node(t.slots[i].idx)
		case 0:
			return nil
		}
	}
}

// get returns the node of k, adding a zero node if there is none; fresh
// reports the addition.
func (t *nodeTable) get(k engine.Position) (n *levelNode, fresh bool) {
	mask := len(t.slots) - 1
	i := t.slot(k)
	for ; t.slots[i].key != 0; i = (i + 1) & mask {
		if t.slots[i].key == k {
			return t.node(t.slots[i].idx), false
		}
	}
	if 2*(t.n+1) > len(t.slots) {
		t.resize(2 * len(t.slots))
		return t.get(k)
	}
	idx := uint32(t.n)
	if idx%nodeChunk == 0 {
		t.chunks = append(t.chunks, make([]levelNode, nodeChunk))
	}
	t.slots[i] = nodeSlot{k, idx}
	t.n++
	return t.node(idx), true
}
