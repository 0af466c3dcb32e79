// Package dfs is the depth-first solver: it decides one problem by
// searching depth first with a table of refuted canonical positions, the
// position-class test, a pagoda bound, move ordering and an endgame table,
// and alternates with beam searches once depth first has taken long.
//
// # Depth first
//
// The solver tables each position it refutes (up to symmetry), so that no
// position is refuted twice. The position class (Conway's 3-colourings)
// refutes a start at once; a pagoda function toward the goal hole cuts
// children that cannot reach it. Jumps go in an order that brings pegs
// toward the centre or goal and, when looking for one peg, leaves the
// fewest isolated pegs. Positions of few pegs are decided by the endgame
// table: the first layers of a forward search from the complements of the
// goal's positions (backward play is forward play on complements).
//
// # Beams
//
// Depth first commits to its first choices, and on large boards a wrong
// early jump can hold it for minutes. Past a budget of positions it
// alternates with beam searches, which look at every choice of a layer
// but keep only the best, scored by isolated pegs, pegs on holes few jumps
// pass over and distance from the centre; widths and budgets grow fourfold
// a round. A beam search can only find a solution; depth first, which
// resumes with what it has refuted, finishes any proof.
package dfs

import (
	"context"
	"errors"
	"fmt"

	"pegs/engine"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// Techniques says which techniques the solver uses; the zero value is
// bare backtracking on raw positions, jumps in the board's order.
type Techniques struct {
	// Table keeps the positions refuted, so none is searched twice.
	Table bool
	// Symmetry keys the table by canonical position (with Table).
	Symmetry bool
	// Prune adds the position-class test, the pagoda bound, move ordering
	// and the endgame table (with Table and Symmetry).
	Prune bool
	// Beams alternates depth first with beam searches once it has taken
	// long (with Prune; see beamAfter).
	Beams bool
}

// All is every technique: what a solve uses unless told otherwise.
func All() Techniques { return Techniques{Table: true, Symmetry: true, Prune: true, Beams: true} }

// Config says how a search runs.
type Config struct {
	// Memory is the budget in bytes for the search's tables (positive).
	Memory int64
	Techniques
	// MaxNodes, if positive, stops the search with ErrNodeLimit once it
	// has visited about that many positions (it looks every 65,536), so a
	// caller can turn to another way in time.
	MaxNodes int64
	// Floor is, for a FewestPegs goal, a proven lower bound on the pegs
	// that can remain: the search stops when it reaches it. Zero means 1.
	Floor int
	// Dead, if set, is a table of refuted positions that searches for the
	// same one-peg goal share (see Solve).
	Dead *PosSet
	// Tables, if set, keeps the endgame tables and pagodas that searches on
	// the same board and goal share; else the search builds its own.
	Tables *Tables
}

// Result is the answer to one problem.
type Result struct {
	// Solvable reports whether the goal can be met. For a FewestPegs goal
	// it is always true and Jumps reach the fewest pegs.
	Solvable bool
	// Jumps lead from the start to the goal; they have been replayed.
	Jumps []engine.Jump
	// Final is the position the jumps reach (the start when unsolvable).
	Final engine.Position
	// Nodes counts the positions the search visited.
	Nodes int64
	// Refuted reports that the position class alone proved the goal
	// impossible, without a search.
	Refuted bool
}

// Errors a search reports.
var (
	// ErrNodeLimit reports a search stopped at Config.MaxNodes.
	ErrNodeLimit = errors.New("the search reached its limit of positions (MaxNodes)")
	// ErrNoPegs reports a start position with no peg.
	ErrNoPegs = errors.New("position has no pegs")
)

// Solve decides whether start can meet goal on board b and returns a
// solution if so.
//
// Searches for the same one-peg goal may share their table of refuted
// positions (Config.Dead): what one refutes (canonical positions that
// cannot meet the goal) holds for the others. A hint's jumps taken back
// are refutations of a chain of positions, each a parent of the one
// before, so each finds most of its work done: over 21 positions of random
// English games, 36 s of separate refutations took 18 s. If what the
// searches before left in the table fills its budget, it is emptied and
// the search starts over with it: they must not cost this one its answer.
func Solve(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, cfg Config) (Result, error) {
	dead := cfg.Dead
	earlier := dead != nil && dead.n > 0
	res, err := solveOnce(ctx, b, start, goal, cfg)
	if errors.Is(err, memory.ErrExceeded) && earlier {
		dead.reset()
		res, err = solveOnce(ctx, b, start, goal, cfg)
	}
	return res, err
}

// solveOnce is Solve without the second try.
func solveOnce(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, cfg Config) (Result, error) {
	if start == 0 {
		return Result{}, ErrNoPegs
	}
	if start&^b.Full() != 0 {
		return Result{}, fmt.Errorf("position has pegs outside board %s", b.Name())
	}
	if cfg.Prune && !b.Feasible(start, goal) {
		return Result{Final: start, Refuted: true}, nil
	}
	s := newSolver(ctx, b, start, goal, cfg)
	if cfg.Dead != nil && goal.Kind != engine.FewestPegs {
		s.table = cfg.Dead
	}
	if goal.Kind == engine.FewestPegs {
		s.lowest(start)
	} else if !cfg.Table && s.plain(b, start, 0) || cfg.Table && s.find(start) {
		s.best = 1
		s.bestPath = append([]int16(nil), s.path[:start.Pegs()-1]...)
	}
	if s.err != nil {
		return Result{Nodes: s.nodes}, s.err
	}
	res := Result{Nodes: s.nodes, Final: start}
	if s.bestPath != nil || goal.Kind == engine.FewestPegs {
		for _, k := range s.bestPath {
			res.Jumps = append(res.Jumps, b.Jumps()[k])
		}
		final, err := Replay(b, start, goal, res.Jumps)
		res.Solvable, res.Final = err == nil, final
		return res, err
	}
	return res, nil
}

// Replay plays jumps from start and checks that they meet goal (any final
// position for a FewestPegs goal), returning the position they reach.
// Every solution is replayed before it is given out.
func Replay(b *engine.Board, start engine.Position, goal engine.Goal, jumps []engine.Jump) (engine.Position, error) {
	final, err := b.Replay(start, jumps)
	if err != nil {
		return start, fmt.Errorf("search: solution does not replay: %w", err)
	}
	if goal.Kind != engine.FewestPegs && !goal.Reached(final) {
		return start, fmt.Errorf("search: solution ends in %s, which misses the goal", b.Line(final))
	}
	return final, nil
}

type solver struct {
	ctx    context.Context
	gen    *movegen.Gen
	goal   engine.Goal
	pagoda *engine.Pagoda
	end    *endgame
	// gt, if set, is where the full endgame table comes from once the
	// search has gone on long (see bigEndgameAfter); class and budget
	// are the start's class and the table's memory budget.
	gt        *goalTables
	class     engine.Class
	budget    int64
	tech      Techniques
	dist      []int
	cost      []int // a peg's part of beamScore by hole: see newGoalTables
	rise      []int // by jump: see goalTables
	shift     []int
	pagodaSym bool
	need      int
	table     *PosSet
	pegs0     int
	img       [][]engine.Position
	moves     [][]int16
	path      []int16
	bestPath  []int16
	best      int
	floor     int // the fewest search stops when best reaches it
	nodes     int64
	maxNodes  int64
	err       error
	// probeEnd, if positive, cuts the depth-first search (cut) once it
	// has visited that many positions; see find.
	probeEnd int64
	cut      bool
}

func newSolver(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, cfg Config) *solver {
	n := start.Pegs()
	gt := cfg.Tables.forGoal(b, goal)
	s := &solver{ctx: ctx, gen: gt.gen, goal: goal, table: NewPosSet(cfg.Memory), pegs0: n, best: n + 1, tech: cfg.Techniques,
		pagoda: gt.pagoda, need: gt.need, dist: gt.dist, cost: gt.cost, rise: gt.rise, shift: gt.shift, maxNodes: cfg.MaxNodes}
	s.floor = max(1, cfg.Floor)
	g := s.gen.Group
	if goal.Kind != engine.FewestPegs && s.tech.Prune {
		s.class, s.budget = b.Class(start), cfg.Memory
		if cfg.Tables != nil {
			// Searches that share their tables build the full endgame
			// table once, for all of them.
			s.end = gt.endgame(ctx, b, goal, s.class, s.budget, fullEndgame)
		} else {
			s.gt = gt
			s.end = gt.endgame(ctx, b, goal, s.class, s.budget, smallEndgame)
		}
	}
	if !s.tech.Prune {
		s.pagoda = nil
	}
	s.pagodaSym = s.pagoda != nil && gt.pagodaSym
	s.img = make([][]engine.Position, n+1)
	s.moves = make([][]int16, n+1)
	for i := range s.img {
		s.img[i] = make([]engine.Position, g.Len())
	}
	g.Images(start, s.img[0])
	s.path = make([]int16, n)
	return s
}

// check notes cancellation every so often.
func (s *solver) check() bool {
	if s.err != nil {
		return false
	}
	if s.nodes&0xffff == 0 {
		if err := s.ctx.Err(); err != nil {
			s.err = err
			return false
		}
		if s.maxNodes > 0 && s.nodes >= s.maxNodes {
			s.err = ErrNodeLimit
			return false
		}
		if s.gt != nil && s.nodes >= bigEndgameAfter {
			// A long search: the full endgame table shortens it.
			if e := s.gt.endgame(s.ctx, s.gen.Board, s.goal, s.class, s.budget, fullEndgame); e != nil {
				s.end = e
			}
			s.gt = nil
		}
	}
	return true
}

// win reports whether p, reached after depth jumps, can meet a one-peg goal.
func (s *solver) win(p engine.Position, imgs []engine.Position, depth int) bool {
	s.nodes++
	pegs := s.pegs0 - depth
	if pegs == 1 {
		return s.goal.Reached(p)
	}
	if s.end != nil && pegs <= s.end.maxPegs {
		return s.end.has(pegs, imgs) && s.follow(p, imgs, depth)
	}
	if !s.check() {
		return false
	}
	if s.probeEnd > 0 && s.nodes > s.probeEnd {
		s.cut = true // not refuted: nothing on the way back is tabled
		return false
	}
	key := movegen.Canonical(imgs)
	if !s.tech.Symmetry {
		key = p
	}
	if s.tech.Table && s.table.Has(key) {
		return false
	}
	moves := s.gen.AppendMoves(s.moves[depth][:0], p)
	s.moves[depth] = moves
	if s.tech.Prune {
		s.order(p, moves, true)
	}
	next := s.img[depth+1]
	value := 0
	if s.pagoda != nil {
		value = s.pagoda.Value(p)
	}
	for _, k := range moves {
		if s.pagoda != nil && value+s.rise[k] < s.need {
			continue
		}
		child := p ^ s.gen.Masks[k]
		s.gen.ChildImages(next, imgs, k)
		s.path[depth] = k
		if s.win(child, next, depth+1) {
			return true
		}
		if s.err != nil || s.cut {
			return false
		}
	}
	if s.tech.Table {
		if _, err := s.table.Add(key); err != nil {
			s.err = err
		}
	}
	return false
}

// plain is bare backtracking on raw positions: the board's jumps in the
// board's order, no table, no symmetry, no pruning.
func (s *solver) plain(b *engine.Board, p engine.Position, depth int) bool {
	s.nodes++
	if s.pegs0-depth == 1 {
		return s.goal.Reached(p)
	}
	if !s.check() {
		return false
	}
	for k, j := range b.Jumps() {
		if b.Legal(p, j) {
			s.path[depth] = int16(k)
			if s.plain(b, p^s.gen.Masks[k], depth+1) {
				return true
			}
			if s.err != nil {
				return false
			}
		}
	}
	return false
}

// follow completes the path from a position the endgame table calls
// winnable, choosing at each step a child the table also calls winnable.
func (s *solver) follow(p engine.Position, imgs []engine.Position, depth int) bool {
	pegs := s.pegs0 - depth
	if pegs == 1 {
		return s.goal.Reached(p)
	}
	moves := s.gen.AppendMoves(s.moves[depth][:0], p)
	s.moves[depth] = moves
	next := s.img[depth+1]
	for _, k := range moves {
		s.gen.ChildImages(next, imgs, k)
		if s.end.has(pegs-1, next) {
			s.path[depth] = k
			s.nodes++
			return s.follow(p^s.gen.Masks[k], next, depth+1)
		}
	}
	return false
}

// fewest searches every position reachable from p, keeping the path to the
// fewest pegs found; it stops early at the floor. Jumps that bring pegs
// toward the centre (or goal) go first (see order), which finds a low
// finish early: the 55-hole triangle's corner start reaches two pegs after
// 3,569 positions, against 149 million in the board's order. Counting
// isolated pegs too finds it after 184, but makes the exhaustive searches
// of English dead ends that cannot reach two a quarter slower.
func (s *solver) fewest(p engine.Position, imgs []engine.Position, depth int) {
	s.nodes++
	if !s.check() {
		return
	}
	if s.probeEnd > 0 && s.nodes > s.probeEnd {
		s.cut = true
		return
	}
	// A position is tabled once searched to the end, so a search cut
	// short (see lowest) can resume: what it tabled stays true, and the
	// fewest pegs found so far stays in s.best.
	key := movegen.Canonical(imgs)
	if s.table.Has(key) {
		return
	}
	moves := s.gen.AppendMoves(s.moves[depth][:0], p)
	s.moves[depth] = moves
	if s.tech.Prune {
		s.order(p, moves, false)
	}
	if len(moves) == 0 {
		if pegs := s.pegs0 - depth; pegs < s.best {
			s.best = pegs
			s.bestPath = append(s.bestPath[:0], s.path[:depth]...)
		}
	}
	next := s.img[depth+1]
	for _, k := range moves {
		s.gen.ChildImages(next, imgs, k)
		s.path[depth] = k
		s.fewest(p^s.gen.Masks[k], next, depth+1)
		if s.best <= s.floor || s.err != nil || s.cut {
			return
		}
	}
	if _, err := s.table.Add(key); err != nil {
		s.err = err
	}
}

// order sorts moves so that the children with the fewest isolated pegs (pegs
// with no neighbour, which need another peg to come to them) come first, and
// among those the jumps that bring pegs closest to the centre or goal. With
// isolated false it orders by the second alone, which costs far less.
func (s *solver) order(p engine.Position, moves []int16, isolated bool) {
	var score [64]int
	var q engine.Position
	if isolated {
		q = s.gen.ToLattice(p)
	}
	for i, k := range moves {
		j := s.gen.Jumps[k]
		score[i] = s.dist[j.To] - s.dist[j.From] - s.dist[j.Over]
		if isolated {
			score[i] += s.gen.LatticeIsolated(q^s.gen.LatMasks[k]) * 64
		}
	}
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0 && score[j] < score[j-1]; j-- {
			moves[j], moves[j-1] = moves[j-1], moves[j]
			score[j], score[j-1] = score[j-1], score[j]
		}
	}
}

// LoneNodes returns how many positions depth first searches from p before
// a caller turns to layered searches instead: base (2^14 if not positive)
// for 20 pegs or fewer, doubled for each peg past 20. Both ways grow about
// twofold a peg. On the English board a layered search refutes 3-7x
// faster than depth first (26 pegs: 0.7 s against 4.8 s), but depth first
// finds the solutions of a winnable position of many pegs sooner than a
// search of everything it reaches (29 pegs: 0.04-1.3 s against 1-10 s).
// Depth first alternates with beam searches, which find most solutions
// within a few thousand positions, so it gets a quarter of the layered
// search's time or less (2^14 positions take about 2 ms): over the 239
// positions of 10 random English games, 2^14 against 2^16 took the slowest
// hint from 2.7-2.85 s to 1.85-1.95 s and p99 from 1.24-1.27 s to
// 1.04-1.09 s.
func LoneNodes(p engine.Position, base int64) int64 {
	if base <= 0 {
		base = 1 << 14
	}
	return base << uint(min(24, max(0, p.Pegs()-20)))
}
