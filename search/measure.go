package search

import (
	"context"
	"math"
	"math/big"

	"pegs/engine"
)

// LevelMetrics describes how hard a level is, measured on its whole state
// space.
type LevelMetrics struct {
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
func (m LevelMetrics) WinShare() float64 {
	if m.Reachable == 0 {
		return 0
	}
	return float64(m.Winnable) / float64(m.Reachable)
}

type levelNode struct {
	win         bool
	stuck       bool // no jump left and the goal not met
	p0, p1, len float64
	sol, games  u128
}

// Measure computes a level's metrics by a depth-first walk of its whole
// state space, memoized by canonical position. It suits levels whose state
// space fits in memory comfortably (up to a few million positions).
func Measure(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, opt Options) (LevelMetrics, error) {
	prob := Problem{Board: b, Start: start, Goal: goal}
	if err := prob.check(); err != nil {
		return LevelMetrics{}, err
	}
	gen := solverGen(b, goal)
	group := gen.group
	memo := newNodeTable()
	var err error
	var visit func(p engine.Position) *levelNode
	visit = func(p engine.Position) *levelNode {
		key := group.Canonical(p)
		n, fresh := memo.get(key)
		if !fresh {
			return n
		}
		if memo.n&0xfff == 0 && err == nil {
			err = ctx.Err()
			if int64(memo.n)*120 > opt.memory() {
				err = ErrMemory
			}
		}
		moves := gen.appendMoves(nil, p)
		if len(moves) == 0 || err != nil {
			n.win = goal.Reached(p)
			n.stuck = !n.win
			n.games = u128{lo: 1}
			if n.win {
				n.p0, n.p1, n.sol = 1, 1, u128{lo: 1}
			}
			return n
		}
		allowed := 0
		for _, k := range moves {
			c := visit(p ^ gen.masks[k])
			n.win = n.win || c.win
			n.p0 += c.p0
			n.sol = n.sol.add(c.sol)
			n.games = n.games.add(c.games)
			if !c.stuck {
				allowed++
				n.p1 += c.p1
				n.len += c.len
			}
		}
		n.p0 /= float64(len(moves))
		if allowed == 0 {
			// Every jump sticks: the player has no choice to make.
			for _, k := range moves {
				c := memo.find(group.Canonical(p ^ gen.masks[k]))
				n.p1 += c.p1
				n.len += c.len
			}
			allowed = len(moves)
		}
		n.p1 /= float64(allowed)
		n.len = 1 + n.len/float64(allowed)
		return n
	}
	root := visit(start)
	if err != nil {
		return LevelMetrics{}, err
	}
	m := LevelMetrics{Pegs: start.Pegs(), Reachable: int64(memo.n), Solutions: root.sol.big(), Games: root.games.big(),
		P0: root.p0, P1: root.p1, MeanAttempt: root.len}
	for _, chunk := range memo.arena {
		for i := range chunk {
			if chunk[i].win {
				m.Winnable++
			}
		}
	}
	if m.P1 > 0 {
		m.J1 = m.MeanAttempt / m.P1
	} else {
		m.J1 = math.Inf(1)
	}
	// The most likely winning line: from the start, the winnable child the
	// P1 player is likeliest to win from.
	winningFirst := 0
	for _, k := range gen.appendMoves(nil, start) {
		if memo.find(group.Canonical(start ^ gen.masks[k])).win {
			winningFirst++
		}
	}
	m.UniqueFirst = winningFirst == 1
	for p := start; root.win; {
		moves := gen.appendMoves(nil, p)
		if len(moves) == 0 {
			break
		}
		var best engine.Position
		bestP, losing := -1.0, false
		for _, k := range moves {
			q := p ^ gen.masks[k]
			c := memo.find(group.Canonical(q))
			if !c.win {
				losing = true
				continue
			}
			if c.p1 > bestP {
				best, bestP = q, c.p1
			}
		}
		if losing {
			m.Critical++
		}
		p = best
	}
	if root.win {
		ms, err := fewestMoves(ctx, b, start, goal, group, func(q engine.Position) bool {
			n := memo.find(group.Canonical(q))
			return n != nil && n.win
		})
		if err != nil {
			return m, err
		}
		m.FewestMoves = ms.Moves
	}
	return m, nil
}

// nodeTable maps canonical positions to their nodes: open addressing over
// stable chunks of nodes.
type nodeTable struct {
	keys  []engine.Position
	nodes []*levelNode
	arena [][]levelNode
	n     int
	shift uint
}

func newNodeTable() *nodeTable {
	t := &nodeTable{}
	t.resize(1 << 10)
	return t
}

func (t *nodeTable) resize(size int) {
	keys, nodes := t.keys, t.nodes
	t.keys, t.nodes = make([]engine.Position, size), make([]*levelNode, size)
	t.shift = uint(64 - log2(size))
	for i, k := range keys {
		if k != 0 {
			j := t.slot(k)
			for t.keys[j] != 0 {
				j = (j + 1) & (size - 1)
			}
			t.keys[j], t.nodes[j] = k, nodes[i]
		}
	}
}

func (t *nodeTable) slot(k engine.Position) int { return int((uint64(k) * mixMul) >> t.shift) }

// find returns the node of k, or nil.
func (t *nodeTable) find(k engine.Position) *levelNode {
	mask := len(t.keys) - 1
	for i := t.slot(k); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return t.nodes[i]
		case 0:
			return nil
		}
	}
}

// get returns the node of k, adding a zero node if there is none; fresh
// reports the addition.
func (t *nodeTable) get(k engine.Position) (n *levelNode, fresh bool) {
	if n := t.find(k); n != nil {
		return n, false
	}
	if 2*(t.n+1) > len(t.keys) {
		t.resize(2 * len(t.keys))
	}
	if len(t.arena) == 0 || len(t.arena[len(t.arena)-1]) == cap(t.arena[len(t.arena)-1]) {
		t.arena = append(t.arena, make([]levelNode, 0, 4096))
	}
	last := &t.arena[len(t.arena)-1]
	*last = append(*last, levelNode{})
	n = &(*last)[len(*last)-1]
	mask := len(t.keys) - 1
	i := t.slot(k)
	for t.keys[i] != 0 {
		i = (i + 1) & mask
	}
	t.keys[i], t.nodes[i] = k, n
	t.n++
	return n, true
}
