package generate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"pegs/engine"
	"pegs/search"
	"pegs/search/measure"
)

// Options say what levels to make.
type Options struct {
	Goal             engine.Goal
	MinPegs, MaxPegs int
	Seed             uint64
	Workers          int
	Memory           int64
	// Shape says what layouts to draw; the zero value draws designed ones.
	Shape Shape
	// Symmetric, if set, draws as Shape ShapeSymmetric does.
	Symmetric bool
}

// shape returns the shape the options ask for.
func (o Options) shape() Shape {
	if o.Symmetric {
		return ShapeSymmetric
	}
	return o.Shape
}

// Level is a generated or graded level, as a game loads it.
type Level struct {
	// Name is the level's name in the file it was graded from, if any.
	Name string `json:"name,omitempty"`
	// Failure, for a level of a file that could not be graded, says why;
	// such a level has only its name, board, goal, picture and pegs.
	Failure string  `json:"failure,omitempty"`
	Board   string  `json:"board"`
	Goal    string  `json:"goal"`
	Picture string  `json:"picture"`
	Pegs    int     `json:"pegs"`
	Grade   int     `json:"grade"`
	Score   float64 `json:"score"`
	// Explanation says what the grade means for a player (Explain).
	Explanation string     `json:"explanation"`
	Difficulty  Difficulty `json:"difficulty"`
	Metrics     Metrics    `json:"metrics"`
	Solution    []string   `json:"solution"`
	Par         int        `json:"par"`
	// Moves is a solution of Par moves, each a chain of jumps by one peg
	// (f4-d4-b4), replayed before it is given.
	Moves []string `json:"moves,omitempty"`
	// Rank is the level's rank among the calibration pool's levels of its
	// size, for a level of the pool's board and goal (RankOf).
	Rank *Rank `json:"rank,omitempty"`
	// Symmetries counts the board's symmetries that map the layout onto
	// itself, the identity included: 1 for an asymmetric layout.
	Symmetries int `json:"symmetries"`
	position   engine.Position
	board      *engine.Board
}

// Metrics are the measured metrics of a level, in JSON form (see package
// search/measure).
type Metrics struct {
	Reachable   int64   `json:"reachable"`
	WinShare    float64 `json:"win_share"`
	Solutions   string  `json:"solutions"`
	Games       string  `json:"games"`
	P0          float64 `json:"p0"`
	P1          float64 `json:"p1"`
	J1          float64 `json:"j1"`
	Critical    int     `json:"critical"`
	UniqueFirst bool    `json:"unique_first"`
	Branching   float64 `json:"branching"`
	// Foresight holds W_k, from look-ahead 0 (the random player) to the
	// first that always wins.
	Foresight       []Foresight `json:"foresight"`
	ForesightNeeded float64     `json:"foresight_needed"`
	// Design holds the layout's design properties, in JSON alongside the
	// metrics above.
	Design
}

// Foresight is how a player who looks LookAhead jumps ahead fares: its
// probability to win an attempt, and the attempts it expects to need.
type Foresight struct {
	LookAhead        int     `json:"look_ahead"`
	WinProbability   float64 `json:"win_probability"`
	ExpectedAttempts float64 `json:"expected_attempts"`
}

// newMetrics returns measured metrics in JSON form.
func newMetrics(m measure.Metrics) Metrics {
	j := Metrics{Reachable: m.Reachable, WinShare: m.WinShare(), Solutions: m.Solutions.String(), Games: m.Games.String(),
		P0: m.P0, P1: m.P1, J1: m.J1, Critical: m.Critical, UniqueFirst: m.UniqueFirst,
		Branching: m.Branching, ForesightNeeded: m.ForesightNeeded()}
	for k, w := range m.Foresight {
		j.Foresight = append(j.Foresight, Foresight{LookAhead: k, WinProbability: w, ExpectedAttempts: m.Attempts[k]})
	}
	return j
}

// Position returns the level's starting position.
func (l Level) Position() engine.Position { return l.position }

// maxMisses is how many candidates in a row may bring no new level before
// Generate gives up: the board has no more distinct acceptable levels of
// the asked sizes, or too few to find.
const maxMisses = 3200

// maxP0 rejects trivial levels: a random player must win at most half the
// time.
const maxP0 = 0.5

// Generate makes count distinct levels (up to the board's symmetry), each
// solvable to the goal by construction: it starts from the goal position
// and plays jumps backward (un-jumps) until the level has enough pegs, then
// measures the level, rejects it if a random player wins more than half the
// time, and solves it again before output.
//
// Candidate i depends only on the seed and i. Workers take candidates in
// turn and never wait for each other; their results are taken in candidate
// order, so the output does not depend on the number of workers.
func Generate(ctx context.Context, b *engine.Board, count int, opt Options) ([]Level, error) {
	if opt.MinPegs < 2 || opt.MaxPegs < opt.MinPegs || opt.MaxPegs >= b.Holes() {
		return nil, fmt.Errorf("pegs %d-%d: want 2 <= min <= max < %d", opt.MinPegs, opt.MaxPegs, b.Holes())
	}
	if opt.Goal.Kind == engine.FewestPegs {
		return nil, errors.New("levels need a one-peg goal")
	}
	type result struct {
		i    uint64
		l    Level
		good bool
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The workers' solves share their endgame tables.
	tables := &search.Tables{}
	nb := newNeighbours(b)
	claims := newClaims(b, opt.Goal)
	g, gctx := errgroup.WithContext(ctx)
	results := make(chan result)
	var next atomic.Uint64
	for range max(1, opt.Workers) {
		g.Go(func() error {
			for gctx.Err() == nil {
				i := next.Add(1) - 1
				var r result
				r.i = i
				if p := candidate(b, nb, opt, i); p != 0 && claims.first(p, i) {
					var err error
					if r.l, r.good, err = make1(gctx, b, p, opt, tables); err != nil {
						return err
					}
				}
				select {
				case results <- r:
				case <-gctx.Done():
				}
			}
			return nil
		})
	}
	go func() {
		g.Wait()
		close(results)
	}()
	seen := map[engine.Position]bool{}
	pending := map[uint64]result{}
	var out []Level
	var want, lastNew uint64
	var failure error
	for r := range results {
		pending[r.i] = r
		for len(out) < count && failure == nil {
			r, ok := pending[want]
			if !ok {
				break
			}
			delete(pending, want)
			want++
			if r.good {
				if key := b.Symmetry().Canonical(r.l.position); !seen[key] {
					seen[key] = true
					out = append(out, r.l)
					lastNew = want
				}
			}
			if want-lastNew >= maxMisses {
				failure = fmt.Errorf("found %d of %d levels; the last %d candidates brought no new one, so the board has too few distinct levels of %d-%d pegs: widen --pegs or ask for fewer",
					len(out), count, maxMisses, opt.MinPegs, opt.MaxPegs)
			}
		}
		if len(out) == count || failure != nil {
			cancel()
		}
	}
	if failure != nil {
		return nil, failure
	}
	if len(out) == count {
		return out, nil
	}
	if err := g.Wait(); err != nil {
		return out, err
	}
	return out, ctx.Err()
}

// claims records the first candidate of each layout up to the symmetries
// that keep the goal in place, so that a worker does not measure a layout
// an earlier candidate holds: the earlier one makes the same level, or
// none, and comes first in the output. Which worker measures what does
// not change the output; it only saves the work of measuring a repeat.
type claims struct {
	group *engine.Group
	mu    sync.Mutex
	by    map[engine.Position]uint64
}

func newClaims(b *engine.Board, goal engine.Goal) *claims {
	g := b.Symmetry()
	if goal.Kind == engine.OnePegAt {
		g = g.Stabilizer(1 << uint(goal.Hole))
	}
	return &claims{group: g, by: map[engine.Position]uint64{}}
}

// first reports whether candidate i is the first of those seen so far
// with layout p, and records it.
func (c *claims) first(p engine.Position, i uint64) bool {
	k := c.group.Canonical(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	if j, ok := c.by[k]; ok && j < i {
		return false
	}
	c.by[k] = i
	return true
}

// candidate draws candidate i of the options' shape: for ShapeAny it plays
// random un-jumps back from the goal, and returns 0 if it gets stuck
// before reaching the peg count; the other shapes are drawn by
// symmetricCandidate and grownCandidate.
func candidate(b *engine.Board, nb neighbours, opt Options, i uint64) engine.Position {
	rng := rand.New(rand.NewPCG(opt.Seed, i))
	target := opt.MinPegs + rng.IntN(opt.MaxPegs-opt.MinPegs+1)
	switch opt.shape() {
	case ShapeSymmetric:
		return symmetricCandidate(b, opt, rng, target)
	case ShapeConnected:
		return grownCandidate(b, nb, opt, rng, target, false)
	case ShapeDesigned:
		if rng.Float64() < symmetricShare {
			if p := grownCandidate(b, nb, opt, rng, target, true); p != 0 {
				return p
			}
		}
		return grownCandidate(b, nb, opt, rng, target, false)
	}
	var p engine.Position
	if opt.Goal.Kind == engine.OnePegAt {
		p = 1 << uint(opt.Goal.Hole)
	} else {
		p = 1 << uint(rng.IntN(b.Holes()))
	}
	var legal []engine.Jump
	for p.Pegs() < target {
		legal = legal[:0]
		for _, j := range b.Jumps() {
			if p.Has(j.To) && !p.Has(j.Over) && !p.Has(j.From) {
				legal = append(legal, j)
			}
		}
		if len(legal) == 0 {
			return 0
		}
		p ^= legal[rng.IntN(len(legal))].Mask()
	}
	return p
}

// symmetricCandidate draws a layout that a symmetry σ of the board (other
// than the identity, and keeping a one-hole goal in place) maps onto
// itself: whole orbits of holes under the powers of σ, until the layout has
// the target pegs. Reverse play cannot make such layouts: from a single
// peg on σ's axis, an un-jump off the axis and its mirror image both need
// that peg. So a symmetric candidate is solvable not by construction but by
// the solver, which make1 runs first; it returns 0 for a layout the
// position classes rule out.
func symmetricCandidate(b *engine.Board, opt Options, rng *rand.Rand, target int) engine.Position {
	g := b.Symmetry()
	if opt.Goal.Kind == engine.OnePegAt {
		g = g.Stabilizer(1 << uint(opt.Goal.Hole))
	}
	if g.Len() < 2 {
		return 0
	}
	sigma := g.Perm(1 + rng.IntN(g.Len()-1))
	seen := make([]bool, b.Holes())
	var orbits []engine.Position
	for h := range b.Holes() {
		var o engine.Position
		for x := h; !seen[x]; x = sigma[x] {
			seen[x] = true
			o |= 1 << uint(x)
		}
		if o != 0 {
			orbits = append(orbits, o)
		}
	}
	rng.Shuffle(len(orbits), func(i, j int) { orbits[i], orbits[j] = orbits[j], orbits[i] })
	var p engine.Position
	for _, o := range orbits {
		if p.Pegs() >= target {
			break
		}
		if (p | o).Pegs() <= opt.MaxPegs {
			p |= o
		}
	}
	if p.Pegs() < opt.MinPegs || !b.Feasible(p, opt.Goal) {
		return 0
	}
	return p
}

// make1 measures and solves one candidate; good is false for a level a
// random player wins too often.
func make1(ctx context.Context, b *engine.Board, p engine.Position, opt Options, tables *search.Tables) (Level, bool, error) {
	sopt := search.SolveOptions{Budget: search.Budget{Memory: opt.Memory}, Tables: tables}
	prob := search.Problem{Board: b, Start: p, Goal: opt.Goal}
	// A level solved before it is measured is not solved again.
	var sol search.Solution
	if opt.shape() != ShapeAny { // not solvable by construction
		var err error
		if sol, err = search.Solve(ctx, prob, sopt); err != nil || !sol.Solvable {
			return Level{}, false, err
		}
	}
	// The par is measured only for levels that pass.
	m, ok, err := measure.LevelIf(ctx, b, p, opt.Goal, memory(opt.Memory), acceptable)
	if err != nil || !ok {
		return Level{}, false, err
	}
	if !sol.Solvable {
		if sol, err = search.Solve(ctx, prob, sopt); err != nil {
			return Level{}, false, err
		}
	}
	l, err := newLevel(b, p, opt.Goal, m, Score(b, m), sol)
	return l, err == nil, err
}

// memory returns a budget in bytes: n, or search.DefaultMemory if n is not
// positive.
func memory(n int64) int64 {
	if n > 0 {
		return n
	}
	return search.DefaultMemory
}

// newLevel assembles a level from its metrics and a solution, replaying
// the solution of the fewest moves.
func newLevel(b *engine.Board, p engine.Position, goal engine.Goal, m measure.Metrics, d Difficulty, sol search.Solution) (Level, error) {
	if !sol.Solvable {
		return Level{}, fmt.Errorf("level %s does not solve", b.Line(p))
	}
	l := Level{
		Board: b.Name(), Goal: b.FormatGoal(goal), Picture: b.Line(p), Pegs: p.Pegs(),
		Grade: GradeOf(d.Score), Score: d.Score, Explanation: Explain(m), Difficulty: d, Metrics: newMetrics(m),
		Par: m.FewestMoves, position: p, board: b, Symmetries: b.Symmetry().Stabilizer(p).Len(),
	}
	l.Metrics.Design = DesignOf(b, p)
	if r, ok := RankOf(l.Board, l.Goal, l.Pegs, l.Metrics.ForesightNeeded); ok {
		l.Rank = &r
	}
	for _, j := range sol.Jumps {
		l.Solution = append(l.Solution, b.FormatJump(j))
	}
	if m.FewestMoves > 0 {
		final, err := b.Replay(p, m.ParSolution)
		if err != nil || !goal.Reached(final) || len(b.FormatMoves(m.ParSolution)) != m.FewestMoves {
			return Level{}, fmt.Errorf("level %s: the solution of the fewest moves does not replay to the goal in %d moves", b.Line(p), m.FewestMoves)
		}
		l.Moves = b.FormatMoves(m.ParSolution)
	}
	return l, nil
}

// Pack makes a progression of k levels with strictly rising difficulty: it
// generates a pool eight times larger and takes a Progression from it.
func Pack(ctx context.Context, b *engine.Board, k int, opt Options) ([]Level, error) {
	if k < 1 {
		return nil, errors.New("a pack needs at least one level")
	}
	pool, err := Generate(ctx, b, 8*k, opt)
	if err != nil {
		return nil, err
	}
	return Progression(pool, k)
}

// Progression picks k levels of strictly rising difficulty from a pool: it
// sorts the pool by score, levels of equal score by their look-ahead
// curves (Harder), and takes levels at evenly spaced ranks, passing over
// a level whose score does not rise above the last one taken and one that
// is a level taken with one peg moved (up to the board's symmetry). The
// pool is not changed.
func Progression(pool []Level, k int) ([]Level, error) {
	if k < 1 {
		return nil, errors.New("a pack needs at least one level")
	}
	pool = slices.Clone(pool)
	slices.SortStableFunc(pool, func(x, y Level) int {
		if c := cmp.Compare(x.Score, y.Score); c != 0 {
			return c
		}
		return Harder(x, y)
	})
	var out []Level
	for i := range k {
		idx := (2*i + 1) * len(pool) / (2 * k)
		for idx < len(pool) && len(out) > 0 && (pool[idx].Score <= out[len(out)-1].Score || oneMoved(pool[idx], out)) {
			idx++
		}
		if idx == len(pool) {
			return out, fmt.Errorf("only %d levels of distinct difficulty in a pool of %d", len(out), len(pool))
		}
		out = append(out, pool[idx])
	}
	return out, nil
}

// Harder compares two levels of one size by their look-ahead curves: by
// the foresight they need, then by W_k from the random player up, a
// level whose players win less often being the harder. It returns −1 if x
// is easier than y, +1 if harder, 0 if their curves are equal. A level
// that every look-ahead player wins at least as often as another (one
// that dominates it) is never the harder.
func Harder(x, y Level) int {
	if c := cmp.Compare(x.Metrics.ForesightNeeded, y.Metrics.ForesightNeeded); c != 0 {
		return c
	}
	wx, wy := x.Metrics.Foresight, y.Metrics.Foresight
	for k := range max(len(wx), len(wy)) {
		if c := cmp.Compare(winAt(wy, k), winAt(wx, k)); c != 0 {
			return c
		}
	}
	return 0
}

// winAt returns W_k of a curve that ends at the first look-ahead that
// always wins.
func winAt(w []Foresight, k int) float64 {
	if k < len(w) {
		return w[k].WinProbability
	}
	return 1
}

// oneMoved reports whether l is one of levels with one peg moved, up to
// the board's symmetry.
func oneMoved(l Level, levels []Level) bool {
	if l.board == nil {
		return false
	}
	g := l.board.Symmetry()
	images := g.Images(l.position, make([]engine.Position, g.Len()))
	for _, o := range levels {
		if o.Pegs != l.Pegs || o.board != l.board {
			continue
		}
		for _, p := range images {
			if (p ^ o.position).Pegs() == 2 {
				return true
			}
		}
	}
	return false
}
