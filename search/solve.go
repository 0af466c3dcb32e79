// Package search decides peg solitaire problems exactly: a depth-first solver
// for single problems and a layered exhaustive search over whole state
// spaces.
//
// Every search reduces positions by the board's symmetry through
// engine.Group.Canonical, restricted to the symmetries that keep the start
// and goal in place. A "no solution" answer is always the end of a complete
// search, never a guess after a limit; a search that would pass its memory
// budget stops with ErrMemory.
//
// Fewest moves (FewestMoves, where a chain of jumps by one peg is one move)
// uses breadth-first search by moves restricted to the winnable positions,
// rather than iterative deepening with admissible bounds (Barker and Korf's
// BFIDA*): every position of a solution is winnable, so the restriction
// loses nothing, and on the boards here the winnable set is small (1.68
// million positions for the English centre game) and exact to compute. Each
// level of the search holds the positions first reached by k moves; the
// first level holding a goal position gives the optimum, and the complete
// levels before it are the proof that nothing shorter exists. It needs no
// bound beyond the winnable set, whose size bounds its time and memory.
package search

import (
	"context"
	"errors"
	"fmt"

	"pegs/engine"
	"pegs/search/internal/movegen"
)

// DefaultMemory is the memory budget when Options.Memory is zero.
const DefaultMemory = 4 << 30

// Options tune a search.
type Options struct {
	// Memory is the budget in bytes for the search's tables; zero means
	// DefaultMemory.
	Memory int64
	// Level turns the solver's techniques off, for comparing strategies:
	// the zero value, Full, uses them all.
	Level Level
	// MaxNodes, if positive, stops the depth-first solver with
	// ErrNodeLimit once it has visited about that many positions (it looks
	// every 65,536), so a caller can turn to another way in time.
	MaxNodes int64
}

// ErrNodeLimit reports a search stopped at Options.MaxNodes.
var ErrNodeLimit = errors.New("the search reached its limit of positions (MaxNodes)")

// Level says which techniques the depth-first solver uses.
type Level int

const (
	// Full uses everything: dead-position table with symmetry, position
	// class, pagoda bound, move ordering and the endgame table, and beam
	// searches beside depth first once it has taken long (see beamAfter).
	Full Level = iota
	// Plain is bare backtracking on raw positions: no table, no symmetry,
	// no pruning, jumps in the board's order (Board.Jumps).
	Plain
	// Table adds the table of dead positions, keyed by raw position.
	Table
	// Symmetric keys the table by canonical position.
	Symmetric
	// Pruned is Full without the beam searches: depth first alone.
	Pruned
)

func (o Options) memory() int64 {
	if o.Memory > 0 {
		return o.Memory
	}
	return DefaultMemory
}

// Solution is the answer to one problem.
type Solution struct {
	// Solvable reports whether the goal can be met. For a Fewest goal it is
	// always true and Jumps reach the fewest pegs.
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
	// Layered reports that the answer came from a search of every position
	// the start reaches, layer by layer, after depth first (see Decide);
	// Nodes then counts the positions both visited.
	Layered bool
}

// ErrNoPegs reports a start position with no peg.
var ErrNoPegs = errors.New("position has no pegs")

// Solve decides whether start can meet goal on board b and returns a
// solution if so: depth-first search with a table of dead canonical
// positions, the position-class test at the root and a pagoda bound at every
// node.
func Solve(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, opt Options) (Solution, error) {
	floor := 1
	if goal.Kind == engine.Fewest && !b.Feasible(start, engine.Goal{Kind: engine.OnePeg}) {
		floor = 2 // the position classes rule out one peg
	}
	return solve(ctx, b, start, goal, opt, floor)
}

// Decide solves or refutes prob like Solve, and turns to layered searches
// where depth first is slow: once depth first has visited loneNodes(start)
// positions (2^14 up to 20 pegs, doubling with each peg past 20, as a
// hint's questions do), it searches layer by layer from the start and from
// the goal until the two meet (see meeting), and takes a solution through
// the winnable positions found if there are any. Depth first finds the
// solutions of most positions within that budget, but refutes a lost
// position of many pegs several times slower (over the 61 lost positions
// of 18 to 27 pegs along 10 random English games, 29 s against 7.6 s for a
// layered search of everything the start reaches), and a meeting reaches
// neither side's widest layers: over the 142 positions of 18 pegs or more
// along 10 random English games, 8.1-8.6 s in all, the slowest 1.24 s,
// against 11.6-13.7 s and 1.85-2.29 s searching everything the start
// reaches. For a Fewest goal a meeting for one peg anywhere comes first;
// then depth first from a floor of two, which mostly reaches it at once;
// then the last layer of everything the start reaches is the fewest, and
// depth first stops at the first position of that many. If a layered
// search would pass opt.Memory, depth first goes on without a limit.
func Decide(ctx context.Context, prob Problem, opt ExploreOptions) (Solution, error) {
	b, start, goal := prob.Board, prob.Start, prob.Goal
	dfs := Options{Memory: opt.Memory, MaxNodes: loneNodes(start)}
	sol, err := Solve(ctx, b, start, goal, dfs)
	if !errors.Is(err, ErrNodeLimit) {
		return sol, err
	}
	dfsNodes := sol.Nodes
	if goal.Kind == engine.Fewest {
		return decideFewest(ctx, prob, opt, dfsNodes)
	}
	mt, err := meet(ctx, prob, opt)
	if errors.Is(err, ErrMemory) {
		return Solve(ctx, b, start, goal, Options{Memory: opt.Memory})
	}
	if err != nil {
		return Solution{}, err
	}
	return mt.solution(goal, dfsNodes)
}

// decideFewest is Decide for a Fewest goal once depth first has passed its
// budget (after dfsNodes positions): one peg anywhere if a meeting finds
// it; else two is the floor, which depth first mostly reaches at once; and
// past the budget again, the last layer of everything the start reaches
// is the fewest, and depth first stops at the first position of that many.
func decideFewest(ctx context.Context, prob Problem, opt ExploreOptions, dfsNodes int64) (Solution, error) {
	b, start, goal := prob.Board, prob.Start, prob.Goal
	unlimited := Options{Memory: opt.Memory}
	mt, err := meet(ctx, Problem{Board: b, Start: start, Goal: engine.Goal{Kind: engine.OnePeg}}, opt)
	if errors.Is(err, ErrMemory) {
		return Solve(ctx, b, start, goal, unlimited)
	}
	if err != nil {
		return Solution{}, err
	}
	if win, _ := mt.winnable(start); win {
		return mt.solution(goal, dfsNodes)
	}
	nodes := dfsNodes + mt.positions
	sol, err := solve(ctx, b, start, goal, Options{Memory: opt.Memory, MaxNodes: loneNodes(start)}, 2)
	if !errors.Is(err, ErrNodeLimit) {
		sol.Layered, sol.Nodes = true, nodes+sol.Nodes
		return sol, err
	}
	nodes += sol.Nodes
	fewest, reached, err := fewestReached(ctx, prob, opt)
	if errors.Is(err, ErrMemory) {
		return Solve(ctx, b, start, goal, unlimited)
	}
	if err != nil {
		return Solution{}, err
	}
	sol, err = solve(ctx, b, start, goal, unlimited, fewest)
	sol.Layered, sol.Nodes = true, nodes+reached+sol.Nodes
	if err == nil && sol.Final.Pegs() != fewest {
		err = fmt.Errorf("search: depth first ended with %d pegs, the layered search with %d", sol.Final.Pegs(), fewest)
	}
	return sol, err
}

// fewestReached returns the fewest pegs prob's start can reach, the last
// layer of a search of every position it reaches (as ReachableOnly), and
// how many positions that search found.
func fewestReached(ctx context.Context, prob Problem, opt ExploreOptions) (fewest int, reached int64, err error) {
	prob.Goal = engine.Goal{Kind: engine.OnePeg}
	opt.ReachableOnly = true
	a, err := Explore(ctx, prob, opt)
	if err != nil {
		return 0, 0, err
	}
	fewest = prob.Start.Pegs()
	for _, l := range a.Layers {
		if l.Reachable > 0 {
			fewest = min(fewest, l.Pegs)
		}
	}
	return fewest, a.Reachable, nil
}

// solved replays sol's jumps from start, checks that they meet goal (any
// final position for a Fewest goal), and marks sol solvable with the
// position they reach.
func solved(b *engine.Board, start engine.Position, goal engine.Goal, sol *Solution) error {
	final, err := b.Replay(start, sol.Jumps)
	if err != nil {
		return fmt.Errorf("search: solution does not replay: %w", err)
	}
	if goal.Kind != engine.Fewest && !goal.Reached(final) {
		return fmt.Errorf("search: solution ends in %s, which misses the goal", b.Line(final))
	}
	sol.Solvable, sol.Final = true, final
	return nil
}

// solve is Solve; for a Fewest goal, floor is a proven lower bound on the
// pegs that can remain, and the search stops when it reaches it.
func solve(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, opt Options, floor int) (Solution, error) {
	return solveIn(ctx, b, start, goal, opt, floor, nil)
}

// solveIn is solve with the table of refuted positions dead, if not nil,
// which searches for the same one-peg goal may share: what one refutes
// (canonical positions that cannot meet the goal) holds for the others.
// A hint's jumps taken back are refutations of a chain of positions, each
// a parent of the one before, so each finds most of its work done: over 21
// positions of random English games, 36 s of separate refutations took 18 s.
// If what the searches before left in dead fills its budget, it is emptied
// and the search starts over with it: they must not cost this one its answer.
func solveIn(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, opt Options, floor int, dead *posSet) (Solution, error) {
	earlier := dead != nil && dead.n > 0
	sol, err := solveOnce(ctx, b, start, goal, opt, floor, dead)
	if errors.Is(err, ErrMemory) && earlier {
		dead.reset()
		sol, err = solveOnce(ctx, b, start, goal, opt, floor, dead)
	}
	return sol, err
}

// solveOnce is solveIn without the second try.
func solveOnce(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, opt Options, floor int, dead *posSet) (Solution, error) {
	if start == 0 {
		return Solution{}, ErrNoPegs
	}
	if start&^b.Full() != 0 {
		return Solution{}, fmt.Errorf("position has pegs outside board %s", b.Name())
	}
	if (opt.Level == Full || opt.Level == Pruned) && !b.Feasible(start, goal) {
		return Solution{Final: start, Refuted: true}, nil
	}
	s := newSolver(ctx, b, start, goal, opt)
	if dead != nil && goal.Kind != engine.Fewest {
		s.table = dead
	}
	s.floor = floor
	if goal.Kind == engine.Fewest {
		s.lowest(start)
	} else if s.level == Plain && s.plain(b, start, 0) || s.level != Plain && s.find(start) {
		s.best = 1
		s.bestPath = append([]int16(nil), s.path[:start.Pegs()-1]...)
	}
	if s.err != nil {
		return Solution{Nodes: s.nodes}, s.err
	}
	sol := Solution{Nodes: s.nodes, Final: start}
	if s.bestPath != nil || goal.Kind == engine.Fewest {
		for _, k := range s.bestPath {
			sol.Jumps = append(sol.Jumps, b.Jumps()[k])
		}
		return sol, solved(b, start, goal, &sol)
	}
	return sol, nil
}

// goalGroup returns the symmetries that keep a goal in place.
func goalGroup(b *engine.Board, goal engine.Goal) *engine.Group {
	if goal.Kind == engine.OnePegAt {
		return b.Symmetry().Stabilizer(1 << uint(goal.Hole))
	}
	return b.Symmetry()
}

type solver struct {
	ctx      context.Context
	gen      *movegen.Gen
	goal     engine.Goal
	pagoda   *engine.Pagoda
	ord      *engine.Pagoda
	end      *endgame
	level    Level
	dist     []int
	cost     []int // a peg's part of beamScore by hole: see newSolver
	need     int
	table    *posSet
	pegs0    int
	img      [][]engine.Position
	moves    [][]int16
	path     []int16
	bestPath []int16
	best     int
	floor    int // the fewest search stops when best reaches it
	nodes    int64
	maxNodes int64
	err      error
	// probeEnd, if positive, cuts the depth-first search (cut) once it
	// has visited that many positions; see find.
	probeEnd int64
	cut      bool
	beams    bool // find and lowest alternate depth first with beam searches
}

func newSolver(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, opt Options) *solver {
	n := start.Pegs()
	s := &solver{ctx: ctx, gen: solverGen(b, goal), goal: goal, table: newPosSet(opt.memory()), pegs0: n, best: n + 1}
	g := s.gen.Group
	if goal.Kind == engine.OnePegAt {
		s.pagoda = distancePagoda(b, goal.Hole)
		s.need = s.pagoda.Weight(goal.Hole)
	}
	if c, ok := b.Centre(); ok {
		s.ord = distancePagoda(b, c)
	} else {
		s.ord = distancePagoda(b, goal.Hole)
	}
	top := s.ord.Weight(s.ord.Top())
	s.dist = make([]int, b.Holes())
	for h := range s.dist {
		s.dist[h] = top - s.ord.Weight(h)
	}
	// A peg costs a beam its distance, and twice the jumps over its hole
	// short of the most any hole has: few jumps take a peg off a board's
	// edges and arms' ends, and a beam that leaves pegs there strands them.
	over := make([]int, b.Holes())
	most := 0
	for _, j := range s.gen.Jumps {
		over[j.Over]++
		most = max(most, over[j.Over])
	}
	s.cost = make([]int, b.Holes())
	for h := range s.cost {
		s.cost[h] = s.dist[h] + 2*(most-over[h])
	}
	s.level, s.beams = opt.Level, opt.Level == Full
	if s.level == Pruned {
		s.level = Full
	}
	s.maxNodes = opt.MaxNodes
	if goal.Kind != engine.Fewest && s.level == Full {
		s.end = endgameFor(ctx, b, goal, b.Class(start), s.gen, opt.memory())
	}
	if s.level != Full {
		s.pagoda = nil
	}
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
	if s.level == Table {
		key = p
	}
	if s.level != Plain && s.table.has(key) {
		return false
	}
	moves := s.gen.AppendMoves(s.moves[depth][:0], p)
	s.moves[depth] = moves
	if s.level == Full {
		s.order(p, moves, true)
	}
	next := s.img[depth+1]
	for _, k := range moves {
		child := p ^ s.gen.Masks[k]
		if s.pagoda != nil && s.pagoda.Value(child) < s.need {
			continue
		}
		s.gen.ChildImages(next, imgs, k)
		s.path[depth] = k
		if s.win(child, next, depth+1) {
			return true
		}
		if s.err != nil || s.cut {
			return false
		}
	}
	if s.level != Plain {
		if _, err := s.table.add(key); err != nil {
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
	if s.table.has(key) {
		return
	}
	moves := s.gen.AppendMoves(s.moves[depth][:0], p)
	s.moves[depth] = moves
	if s.level == Full {
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
	if _, err := s.table.add(key); err != nil {
		s.err = err
	}
}

// order sorts moves so that the children with the fewest isolated pegs (pegs
// with no neighbour, which need another peg to come to them) come first, and
// among those the jumps that bring pegs closest to the centre or goal. With
// isolated false it orders by the second alone, which costs far less.
func (s *solver) order(p engine.Position, moves []int16, isolated bool) {
	var score [64]int
	for i, k := range moves {
		j := s.gen.Jumps[k]
		score[i] = s.dist[j.To] - s.dist[j.From] - s.dist[j.Over]
		if isolated {
			score[i] += s.gen.Isolated(p^s.gen.Masks[k]) * 64
		}
	}
	for i := 1; i < len(moves); i++ {
		for j := i; j > 0 && score[j] < score[j-1]; j-- {
			moves[j], moves[j-1] = moves[j-1], moves[j]
			score[j], score[j-1] = score[j-1], score[j]
		}
	}
}
