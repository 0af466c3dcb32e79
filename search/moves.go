package search

import (
	"context"
	"sync"

	"pegs/engine"
	"pegs/search/internal/bfs"
	"pegs/search/internal/dfs"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
)

// MovesSolution is a solution with the fewest moves, where a move is one or
// more consecutive jumps by the same peg. Its Nodes count the positions
// the search by moves expanded, from both ends.
type MovesSolution struct {
	Solution
	Moves int
	// Winnable counts the positions the search was restricted to.
	Winnable int64
}

// FewestMoves finds a solution with the fewest moves and proves that none
// is shorter.
//
// It first finds every winnable position (Winnable), since every position of
// a solution is winnable, then searches by moves from the start and back
// from the goal until the two searches meet (see the package doc, "Fewest
// moves"); its Nodes count the positions both expanded. The path is
// rebuilt from parent links, turning each canonical step back into a real
// move on the board, and replayed.
func FewestMoves(ctx context.Context, prob Problem, opt Budget) (MovesSolution, error) {
	b, start, goal := prob.Board, prob.Start, prob.Goal
	if err := prob.checkOnePeg(); err != nil {
		return MovesSolution{}, err
	}
	if !b.Feasible(start, goal) {
		return MovesSolution{Solution: Solution{Refuted: true, Final: start}}, nil
	}
	ws, err := Winnable(ctx, prob, opt)
	if err != nil {
		return MovesSolution{}, err
	}
	if err := fewestMovesRoom(ws, opt); err != nil {
		return MovesSolution{}, err
	}
	r, err := bfs.FewestMoves(ctx, b, start, goal, ws.group, newWinNumbers(ws), opt.Workers)
	sol := MovesSolution{Solution: Solution{Jumps: r.Jumps, Final: start, Nodes: r.Nodes}, Moves: r.Moves, Winnable: ws.Winnable}
	if err == nil && r.Solvable {
		sol.Final, err = dfs.Replay(b, start, goal, r.Jumps)
		sol.Solvable = err == nil
	}
	return sol, err
}

// winNumbers numbers a WinSet's positions for bfs.FewestMoves: those of
// pegs pegs from base[pegs] on, in ascending order (of the positions it
// mirrors, for a mirroring layer), each layer's positions sorted and
// indexed by their high bits (key.SortedOf) when first asked: a lookup
// reads a word of its runs and a line of its positions, where a binary
// search over a layer cost a cache miss a step, and a hash index of the
// keys (what it was before, 24 to 48 bytes a position against 12 to 16) took
// a quarter of the CPU time of the English centre game's search.
type winNumbers struct {
	ws     *WinSet
	base   []int
	sorted []*key.Sorted
	once   []sync.Once
}

func newWinNumbers(ws *WinSet) *winNumbers {
	n := ws.board.Holes()
	w := &winNumbers{ws: ws, base: make([]int, n+2), sorted: make([]*key.Sorted, n+1), once: make([]sync.Once, n+1)}
	for pegs := range n + 1 {
		w.base[pegs+1] = w.base[pegs] + ws.count(pegs)
	}
	return w
}

func (w *winNumbers) Len() int { return w.base[len(w.base)-1] }

func (w *winNumbers) Number(c engine.Position) (int, bool) {
	pegs := c.Pegs()
	if w.base[pegs] == w.base[pegs+1] {
		return 0, false
	}
	s, mirrored := w.layer(pegs)
	if mirrored {
		c = w.ws.group.Canonical(w.ws.board.Complement(c))
	}
	j, ok := s.Find(c)
	return w.base[pegs] + j, ok
}

// layer returns the index of the layer of pegs pegs, made when first
// asked for, and whether it holds the positions that layer mirrors.
func (w *winNumbers) layer(pegs int) (*key.Sorted, bool) {
	keys, ok := w.ws.keys[pegs]
	if !ok {
		keys = w.ws.mirror[pegs].of
	}
	w.once[pegs].Do(func() {
		ps := make([]engine.Position, len(keys))
		for k, x := range keys {
			ps[k] = key.Unmix(x)
		}
		w.sorted[pegs] = key.SortedOf(ps)
	})
	return w.sorted[pegs], !ok
}

// Numbers sets ids[k] to the number of cs[k], or -1 where it is not
// winnable, their first reads asked for together first (key.Numbers),
// so that their cache misses overlap. A position of a mirroring layer is
// found without. It returns a sum of what it read ahead.
func (w *winNumbers) Numbers(cs []engine.Position, ids []int32) uint64 {
	return key.Numbers(cs, ids, w.readable, w.Number)
}

// readable returns the index c is found in, where c's layer has
// winnable positions and is not a mirror, else nil.
func (w *winNumbers) readable(c engine.Position) *key.Sorted {
	if pegs := c.Pegs(); w.base[pegs] < w.base[pegs+1] {
		if s, mirrored := w.layer(pegs); !mirrored {
			return s
		}
	}
	return nil
}

// fewestBytes is what the search by moves holds for each winnable
// position beyond its key: a word of marks for the two sides, its
// layer's sorted positions and runs (16 bytes at most, see
// key.SortedBytes) and, at most, a node on a side's level.
const fewestBytes = 8 + 16 + 16

// fewestMovesRoom charges the winnable set's keys and what the search by
// moves adds to them (fewestBytes a position) to a budget of opt's memory,
// and returns its *MemoryError where they do not fit.
func fewestMovesRoom(ws *WinSet, opt Budget) error {
	mem := memory.New(opt.Bytes())
	var keys int64
	for pegs := range ws.board.Holes() + 1 {
		keys += int64(ws.count(pegs))
	}
	if err := mem.Take(8*keys, "the winnable positions' keys"); err != nil {
		return err
	}
	return mem.Take(fewestBytes*keys, "the search by moves over the winnable positions")
}
