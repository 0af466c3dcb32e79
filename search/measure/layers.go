package measure

import (
	"context"
	"fmt"
	"unsafe"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"
)

// values holds the measures of one layer's positions (one peg count), in
// the order of its sorted keys: what the layer above reads of its
// children.
type values struct {
	keys  []uint64 // sorted mixed keys of the canonical positions
	index *key.Index
	nodes []node
	wins  []winVals    // the measures of the positions that can win (see node.winAt)
	fore  []exact.U128 // foresight vectors (see node.foreAt)
}

// node is the measures of a position. A layer's are read at random by the
// layer above, a position's children scattered over the layer below: one
// array of nodes, a node a cache line at most, takes about a third of the
// time of an array for each measure. The measures that are 0 for a
// position that cannot win, most of them, are kept apart (winVals), for
// those that can.
type node struct {
	// len is the P1 player's expected jumps (fixed point, lenOne is 1),
	// short of the true value by less than longest units, one per
	// division on the way down.
	len, games exact.U128
	// foreAt is where the position's foresight vector starts in its
	// layer's fore: W_1 .. W_{longest−1} of a winnable position whose
	// longest game has at least two jumps (see foresightOf).
	foreAt uint32
	// winAt is the place of a winnable position's winVals in its layer's
	// wins.
	winAt   uint32
	longest uint8 // jumps of the longest game from the position
	flags   uint8 // flagWin, flagStuck
}

// winVals is the measures of a winnable position that are 0 for one that
// cannot win: p0 and p1, the P0 and P1 players' chances of winning (fixed
// point, exact.ProbOne is 1, each short of the true value by less than
// longest units), and its solutions.
type winVals struct {
	p0, p1, sol exact.U128
}

// lost is the winVals of a position that cannot win.
var lost winVals

const (
	flagWin   = 1
	flagStuck = 2 // no jump left and the goal not met
)

// bytesPer is what a layer's values take a position, besides its
// foresight vector and index: its key and its node.
const bytesPer = 8 + int64(unsafe.Sizeof(node{}))

// winBytes is what a winnable position's winVals take.
const winBytes = int64(unsafe.Sizeof(winVals{}))

func (v *values) bytes() int64 {
	return int64(len(v.keys))*bytesPer + key.IndexBytes(len(v.keys)) + int64(len(v.wins))*winBytes + int64(len(v.fore))*16
}

func (n *node) win() bool { return n.flags&flagWin != 0 }

// winVals returns the winVals of node n of v.
func (v *values) winVals(n *node) *winVals {
	if !n.win() {
		return &lost
	}
	return &v.wins[n.winAt]
}

// w returns W_k of the winnable node n of v.
func (v *values) w(n *node, k int) exact.U128 {
	switch {
	case k >= int(n.longest):
		return exact.ProbOne
	case k == 0:
		return v.wins[n.winAt].p0
	}
	return v.fore[int(n.foreAt)+k-1]
}

// winners is what the measures after the walk need of a layer: its
// winnable positions, sorted, indexed, with their P1.
type winners struct {
	keys  []uint64
	index *key.Index
	p1    []exact.U128
}

// find returns whether the canonical position c is winnable, and its P1.
func (w *winners) find(c engine.Position) (exact.U128, bool) {
	if w == nil || w.index == nil {
		return exact.U128{}, false
	}
	j, ok := w.index.Find(key.Mix(c))
	if !ok {
		return exact.U128{}, false
	}
	return w.p1[j], true
}

// layers is a level's state space measured layer by layer.
type layers struct {
	ctx     context.Context
	goal    engine.Goal
	gen     *movegen.Gen
	group   *engine.Group
	mem     *memory.Budget
	workers int
	// win[pegs] holds the winnable positions of pegs pegs.
	win                 []*winners
	reachable, winnable int64
	// inner counts the positions that have a jump, jumps their jumps.
	inner, jumps int64
	root         *values
}

// parallelFrom is the fewest positions of a layer that it is measured on
// several goroutines: below it, one goroutine does the layer, as fast as
// splitting it (the levels that package generate makes by the thousand
// have layers of a few hundred positions).
const parallelFrom = 1 << 12

// parallelPegs is the fewest pegs of a level measured on GOMAXPROCS
// goroutines: smaller levels (those package generate measures by the
// thousand, 6 to 20 pegs, on its own pool of workers) are measured on one,
// where two cost more CPU time than they saved (BenchmarkLevel
// level=generated: 78.6 s of CPU at GOMAXPROCS 2 against 70.4 s for the
// depth-first walk, 12.6 s against 15.2 s at GOMAXPROCS 1).
const parallelPegs = 21

// measureLayers finds the positions of the level's state space layer by
// layer (layered.Forward), then measures them from the last layer up.
func measureLayers(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, budget int64) (*layers, error) {
	gen := movegen.New(b, b.GoalSymmetry(goal))
	mem := memory.New(budget)
	workers := pool.Size(0)
	if start.Pegs() < parallelPegs {
		workers = 1
	}
	l := &layers{ctx: ctx, goal: goal, gen: gen, group: gen.Group, mem: mem, workers: workers, win: make([]*winners, start.Pegs()+1)}
	first := layered.First(gen.Group, start, false)
	e := &layered.Expander{Gen: gen, Workers: l.workers, Mem: mem}
	fwd, err := layered.Forward(ctx, e, []*layered.Layer{first}, "forward", nil, nil)
	if err != nil {
		return nil, err
	}
	var below *values
	for d := len(fwd) - 1; d >= 0; d-- {
		cur, err := l.measure(fwd[d], below)
		if err != nil {
			return nil, err
		}
		mem.Give(fwd[d].Bytes())
		fwd[d].Keys = nil
		if below != nil {
			mem.Give(below.bytes())
		}
		if err := l.keepWinners(fwd[d].Pegs, cur); err != nil {
			return nil, err
		}
		below = cur
	}
	l.root = below
	return l, nil
}

// measure measures the positions of layer l from their children's values
// in below (nil for the last layer).
func (ls *layers) measure(l *layered.Layer, below *values) (*values, error) {
	n := len(l.Keys)
	v := &values{keys: l.Keys, nodes: make([]node, n)}
	if err := ls.mem.Take(v.bytes(), fmt.Sprintf("the measures of the %d positions of %d pegs", n, l.Pegs)); err != nil {
		return nil, err
	}
	workers := ls.workers
	if n < parallelFrom {
		workers = 1
	}
	chunks := pool.ChunkCount(n, workers)
	fores := make([][]exact.U128, chunks)
	wins := make([][]winVals, chunks)
	counts := make([][2]int64, chunks)
	errs := make([]error, chunks)
	run := func(c, lo, hi int) {
		if err := ls.ctx.Err(); err != nil {
			errs[c] = err
			return
		}
		fores[c], wins[c], counts[c], errs[c] = ls.measureChunk(v, below, lo, hi)
	}
	if workers == 1 {
		for c := range chunks {
			run(c, c*n/chunks, (c+1)*n/chunks)
		}
	} else {
		pool.Chunks(n, workers, run)
	}
	total, winTotal := 0, 0
	for c := range chunks {
		if errs[c] != nil {
			return nil, errs[c]
		}
		ls.inner += counts[c][0]
		ls.jumps += counts[c][1]
		total += len(fores[c])
		winTotal += len(wins[c])
	}
	// One array of the chunks' foresight vectors and one of their
	// winVals, each chunk's locators moved by where its own land.
	if err := ls.mem.Take(int64(total)*16+int64(winTotal)*winBytes, "foresight vectors and the winnable positions' measures"); err != nil {
		return nil, err
	}
	v.fore = make([]exact.U128, 0, total)
	v.wins = make([]winVals, 0, winTotal)
	for c := range chunks {
		base, winBase := uint32(len(v.fore)), uint32(len(v.wins))
		if base > 0 || winBase > 0 {
			for i := c * n / chunks; i < (c+1)*n/chunks; i++ {
				v.nodes[i].foreAt += base
				v.nodes[i].winAt += winBase
			}
		}
		v.fore = append(v.fore, fores[c]...)
		v.wins = append(v.wins, wins[c]...)
	}
	v.index = key.NewIndex(v.keys)
	ls.reachable += int64(n)
	return v, nil
}

// measureChunk measures positions lo..hi of v from their children in
// below, and returns their foresight vectors and winVals (node.foreAt and
// node.winAt locating them from the chunk's start) and the chunk's
// positions with a jump and jumps.
func (ls *layers) measureChunk(v, below *values, lo, hi int) ([]exact.U128, []winVals, [2]int64, error) {
	var fore []exact.U128
	var wins []winVals
	var inner, jumps int64
	gen := ls.gen
	par := gen.NewParent()
	var moves []int16
	var kids []int32
	for i := lo; i < hi; i++ {
		p := key.Unmix(v.keys[i])
		moves = gen.AppendMoves(moves[:0], p)
		n := &v.nodes[i]
		n.games = exact.U128{Lo: 1}
		if len(moves) == 0 {
			if ls.goal.Reached(p) {
				n.flags = flagWin
				n.winAt = uint32(len(wins))
				wins = append(wins, winVals{p0: exact.ProbOne, p1: exact.ProbOne, sol: exact.U128{Lo: 1}})
			} else {
				n.flags = flagStuck
			}
			continue
		}
		inner++
		jumps += int64(len(moves))
		par.Set(p)
		kids = kids[:0]
		var win bool
		var longest uint8
		var p0, p1, length, sol, games exact.U128
		allowed := 0
		for _, k := range moves {
			j, ok := below.index.Find(key.Mix(par.Child(k)))
			if !ok {
				return nil, nil, [2]int64{}, fmt.Errorf("measure: a child of %#x is missing from the layer below; this is a bug", uint64(p))
			}
			kids = append(kids, int32(j))
			c := &below.nodes[j]
			longest = max(longest, c.longest)
			games, _ = games.Add(c.games)
			if c.win() {
				win = true
				cw := &below.wins[c.winAt]
				p0, _ = p0.Add(cw.p0)
				p1, _ = p1.Add(cw.p1)
				sol, _ = sol.Add(cw.sol)
			}
			if c.flags&flagStuck == 0 {
				allowed++
				length, _ = length.Add(c.len)
			}
		}
		if allowed == 0 {
			// Every jump sticks: the player has no choice to make (and
			// no child can win, so P1 stays 0).
			for _, j := range kids {
				length, _ = length.Add(below.nodes[j].len)
			}
			allowed = len(moves)
		}
		longest++
		n.longest, n.games = longest, games
		// Sums of at most a few hundred children cannot overflow: see
		// exact.ProbOne and lenOne. A stuck child cannot win, so P1's sum
		// over the winnable children is its sum over the allowed ones.
		n.len, _ = lenOne.Add(exact.DivFloor(length, uint64(allowed)))
		if win {
			n.flags = flagWin
			n.winAt = uint32(len(wins))
			wins = append(wins, winVals{p0: exact.DivFloor(p0, uint64(len(moves))), p1: exact.DivFloor(p1, uint64(allowed)), sol: sol})
		}
		if win && longest >= 2 {
			n.foreAt = uint32(len(fore))
			fore = foresightOf(fore, below, kids, int(longest))
		}
	}
	return fore, wins, [2]int64{inner, jumps}, nil
}

// keepWinners keeps layer pegs's winnable positions and their P1, for the
// measures that follow lines from the start (Critical, UniqueFirst, the
// par).
func (ls *layers) keepWinners(pegs int, v *values) error {
	n := 0
	for i := range v.nodes {
		n += int(v.nodes[i].flags & flagWin)
	}
	ls.winnable += int64(n)
	if err := ls.mem.Take(int64(n)*24+key.IndexBytes(n), "the winnable positions"); err != nil {
		return err
	}
	w := &winners{keys: make([]uint64, 0, n), p1: make([]exact.U128, 0, n)}
	for i := range v.nodes {
		if n := &v.nodes[i]; n.win() {
			w.keys = append(w.keys, v.keys[i])
			w.p1 = append(w.p1, v.wins[n.winAt].p1)
		}
	}
	if n > 0 {
		w.index = key.NewIndex(w.keys)
	}
	ls.win[pegs] = w
	return nil
}

// winP1 returns whether the canonical position c is winnable, and its P1.
func (ls *layers) winP1(c engine.Position) (exact.U128, bool) {
	pegs := c.Pegs()
	if pegs >= len(ls.win) {
		return exact.U128{}, false
	}
	return ls.win[pegs].find(c)
}

// winNumbers numbers the winnable positions of a level for
// bfs.FewestMoves: those of pegs pegs from base[pegs] on, in their layer's
// order.
type winNumbers struct {
	win  []*winners
	base []int
}

func newWinNumbers(win []*winners) *winNumbers {
	w := &winNumbers{win: win, base: make([]int, len(win)+1)}
	for pegs, l := range win {
		w.base[pegs+1] = w.base[pegs]
		if l != nil {
			w.base[pegs+1] += len(l.keys)
		}
	}
	return w
}

func (w *winNumbers) Len() int { return w.base[len(w.base)-1] }

func (w *winNumbers) Number(c engine.Position) (int, bool) {
	pegs := c.Pegs()
	if pegs >= len(w.win) || w.win[pegs] == nil || w.win[pegs].index == nil {
		return 0, false
	}
	j, ok := w.win[pegs].index.Find(key.Mix(c))
	return w.base[pegs] + j, ok
}

// child returns whether p's child by jump k can win, and its P1.
func (ls *layers) child(p engine.Position, k int16) (exact.U128, bool) {
	return ls.winP1(ls.group.Canonical(p ^ ls.gen.Masks[k]))
}

// winningChildren counts the jumps from p that keep the level winnable.
func (ls *layers) winningChildren(p engine.Position) int {
	n := 0
	for _, k := range ls.gen.AppendMoves(nil, p) {
		if _, win := ls.child(p, k); win {
			n++
		}
	}
	return n
}

// critical counts the positions on the most likely winning line from p (a
// winnable position: from each, the winnable child the P1 player is
// likeliest to win from, the first in move order among equals) at which
// some jump loses.
func (ls *layers) critical(p engine.Position) int {
	critical := 0
	for {
		moves := ls.gen.AppendMoves(nil, p)
		if len(moves) == 0 {
			return critical
		}
		var best engine.Position
		var bestP exact.U128
		found, losing := false, false
		for _, k := range moves {
			p1, win := ls.child(p, k)
			if !win {
				losing = true
				continue
			}
			if !found || bestP.Less(p1) {
				best, bestP, found = p^ls.gen.Masks[k], p1, true
			}
		}
		if losing {
			critical++
		}
		p = best
	}
}
