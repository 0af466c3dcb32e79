package hint

import (
	"context"
	"errors"
	"sync"

	"pegs/engine"
	"pegs/search"
	"pegs/search/internal/kernel"
)

// Options tune an Advisor.
type Options struct {
	// Memory is the budget in bytes of each hint's searches, and of each
	// level's oracle built in the background; zero means
	// search.DefaultMemory.
	Memory int64
	// Workers is the number of goroutines that build a level's oracle;
	// zero means all cores but one, which depth first keeps.
	Workers int
	// MaxNodes, if positive, bounds each depth-first search of a hint that
	// an oracle answers, or of a dead end's fewest pegs in a game with a
	// history; a hint without an oracle sets its own budgets.
	MaxNodes int64
	// BuildMemory, if positive, is the budget in bytes of each level's
	// oracle built in the background; zero means half of Memory (the
	// hint that starts a build keeps the other half).
	BuildMemory int64
	// MaxLevels, if positive, bounds the levels whose oracles (or whose
	// failure to fit) the Advisor keeps from the builds hints start: past
	// it, the least recently used is dropped. The levels given to Prepare
	// are kept for the Advisor's life and do not count.
	MaxLevels int
	// MaxBuilds, if positive, bounds the builds of level oracles running
	// at once: a hint that would start one more searches without it.
	// Prepare always starts its build, but its builds count.
	MaxBuilds int
}

// Advisor answers hints (see Advisor.Hint). It keeps the oracles of the
// levels it has seen or was given, the depth-first solver's endgame
// tables, and the builds of level oracles under way, which run in the
// background on a context of its own: hold one Advisor for as long as its
// hints are wanted (a game server's life) and Close it then. It is safe
// for concurrent use.
type Advisor struct {
	opt    Options
	tables kernel.Tables
	ctx    context.Context // the background builds'
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	// given holds the oracles given with AddOracle; levels the state of
	// each level whose oracle this Advisor builds.
	given  []*Oracle
	levels map[levelKey]*level
	clock  uint64 // counts the uses of levels, for MaxLevels
	knobs  knobs
}

// knobs are thresholds that tests move; the zero value is the default.
type knobs struct {
	loneBase   int64 // see dfs.LoneNodes
	fewestFrom int   // see Oracle.AddFewest
	noFewest   bool  // a level's build stops after its winnable tables
	// listFewest, if set, replaces Explore in the fewest pegs of a dead end
	// past depth first's budget.
	listFewest func(ctx context.Context, prob search.Problem, opt search.ExploreOptions) (*search.Analysis, error)
}

// NewAdvisor returns an Advisor with no oracle.
func NewAdvisor(opt Options) *Advisor {
	ctx, cancel := context.WithCancel(context.Background())
	return &Advisor{opt: opt, ctx: ctx, cancel: cancel, levels: map[levelKey]*level{}}
}

// AddOracle gives a the oracle of a level (from NewOracle or LoadOracle),
// which then answers the hints of that level's games by lookup.
func (a *Advisor) AddOracle(o *Oracle) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.given = append(a.given, o)
}

// Close stops the builds under way and waits for them to end.
func (a *Advisor) Close() {
	a.cancel()
	a.wg.Wait()
}

// memory returns the budget in bytes.
func (a *Advisor) memory() int64 {
	return search.Budget{Memory: a.opt.Memory}.Bytes()
}

// oracleFor returns a given oracle of the level that starts at start
// toward goal, or nil.
func (a *Advisor) oracleFor(b *engine.Board, start engine.Position, goal engine.Goal) *Oracle {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, o := range a.given {
		if o.board == b && o.start == start && o.goal == goal {
			return o
		}
	}
	return nil
}

// givenFor returns the given oracles of board b's goal, for a lone
// position that may be of one of their levels.
func (a *Advisor) givenFor(b *engine.Board, goal engine.Goal) []*Oracle {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []*Oracle
	for _, o := range a.given {
		if o.board == b && o.goal == goal {
			out = append(out, o)
		}
	}
	return out
}

// levelKey names a level: levels whose starts are images of each other
// share their tables.
type levelKey struct {
	board *engine.Board
	start engine.Position
	goal  engine.Goal
}

// keyOf returns the key of the level that starts at start.
func keyOf(b *engine.Board, start engine.Position, goal engine.Goal) levelKey {
	return levelKey{b, b.GameSymmetry(start, goal).Canonical(start), goal}
}

// level is what an Advisor knows of a level whose oracle it builds: the
// oracle once built, the build under way, or the budget it did not fit.
type level struct {
	oracle  *Oracle
	build   *levelBuild
	tooBig  int64 // the largest budget its tables passed; 0 if none
	running bool
	pinned  bool   // given to Prepare: never dropped
	used    uint64 // the Advisor's clock at its last use
}

// built returns the oracle of a level if a has built it, else nil.
func (a *Advisor) built(b *engine.Board, start engine.Position, goal engine.Goal) *Oracle {
	a.mu.Lock()
	defer a.mu.Unlock()
	if l := a.levels[keyOf(b, start, goal)]; l != nil {
		a.clock++
		l.used = a.clock
		return l.oracle
	}
	return nil
}

// buildMemory returns the budget in bytes of a level's build.
func (a *Advisor) buildMemory() int64 {
	if a.opt.BuildMemory > 0 {
		return a.opt.BuildMemory
	}
	return a.memory() / 2
}

// building returns the build of a level under way, or nil.
func (a *Advisor) building(b *engine.Board, start engine.Position, goal engine.Goal) *levelBuild {
	a.mu.Lock()
	defer a.mu.Unlock()
	if l := a.levels[keyOf(b, start, goal)]; l != nil && l.running {
		return l.build
	}
	return nil
}

// levelBuild is a level's tables being built in the background, which
// depth-first searches race.
type levelBuild struct {
	done chan struct{} // closed when the winnable tables are built or fail
	o    *Oracle
	err  error
	// full is closed when the build ends: after the winnable tables, the
	// fewest pegs of the level's dead ends (see Oracle.AddFewest) are
	// built too, unless fewestErr says why not.
	full      chan struct{}
	fewestErr error
}

// startLevel starts building the tables of the level that starts at start,
// or returns the build under way, unless they are known not to fit within
// budget. A build outlives the hint that started it, so that the hints
// after it (a game's next moves) find it done; Close stops it. It costs
// one build a level at most (then the tables are kept, or their failure to
// fit is). Once the winnable tables are built and answer, the build goes
// on to the fewest pegs of the level's dead ends (on the English board
// about 20 s on one core), which then answer a dead end's hint too
// without searching.
func (a *Advisor) startLevel(b *engine.Board, start engine.Position, goal engine.Goal, budget int64) *levelBuild {
	return a.start(b, start, goal, budget, false)
}

// errBusy refuses a build past Options.MaxBuilds.
var errBusy = errors.New("too many builds of level oracles under way")

// start is startLevel; pin keeps the level for the Advisor's life and
// starts its build even past Options.MaxBuilds.
func (a *Advisor) start(b *engine.Board, start engine.Position, goal engine.Goal, budget int64, pin bool) *levelBuild {
	k := keyOf(b, start, goal)
	a.mu.Lock()
	defer a.mu.Unlock()
	l := a.levels[k]
	if l == nil {
		l = &level{}
		a.levels[k] = l
	}
	a.clock++
	l.used, l.pinned = a.clock, l.pinned || pin
	if l.running {
		return l.build
	}
	lb := &levelBuild{done: make(chan struct{}), full: make(chan struct{})}
	if l.oracle != nil {
		lb.o = l.oracle
		close(lb.done)
		close(lb.full)
		return lb
	}
	if l.tooBig >= budget || a.ctx.Err() != nil || !pin && a.opt.MaxBuilds > 0 && a.runningBuilds() >= a.opt.MaxBuilds {
		switch {
		case a.ctx.Err() != nil:
			lb.err = a.ctx.Err()
		case l.tooBig >= budget:
			lb.err = search.ErrMemory
		default:
			lb.err = errBusy
		}
		close(lb.done)
		close(lb.full)
		a.evict()
		return lb
	}
	l.build, l.running = lb, true
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		defer close(lb.full)
		// Depth first keeps a core of its own.
		workers := a.opt.Workers
		if workers <= 0 {
			workers = max(1, kernel.PoolSize(0)-1)
		}
		opt := search.Budget{Memory: budget, Workers: workers}
		lb.o, lb.err = NewOracle(a.ctx, search.Problem{Board: b, Start: start, Goal: goal}, opt)
		a.mu.Lock()
		if lb.err == nil && l.oracle == nil {
			l.oracle = lb.o
		}
		if errors.Is(lb.err, search.ErrMemory) {
			l.tooBig = max(l.tooBig, budget)
		}
		if lb.err != nil || a.knobs.noFewest {
			l.running = false
			a.evict()
		}
		noFewest := a.knobs.noFewest
		a.mu.Unlock()
		close(lb.done)
		if lb.err != nil || noFewest {
			return
		}
		// Past the budget, dead ends go on being searched. The oracle
		// that hints hold is left as it was; the one with the fewest
		// table takes its place for later hints.
		f := *lb.o
		f.fewestMin = a.knobs.fewestFrom
		lb.fewestErr = f.AddFewest(a.ctx, opt)
		a.mu.Lock()
		if lb.fewestErr == nil {
			l.oracle = &f
		}
		l.running = false
		a.evict()
		a.mu.Unlock()
	}()
	return lb
}

// runningBuilds returns the number of builds under way; a.mu is held.
func (a *Advisor) runningBuilds() int {
	n := 0
	for _, l := range a.levels {
		if l.running {
			n++
		}
	}
	return n
}

// evict drops the least recently used levels past Options.MaxLevels,
// among those neither pinned nor being built; a.mu is held.
func (a *Advisor) evict() {
	if a.opt.MaxLevels <= 0 {
		return
	}
	for {
		var oldest *levelKey
		var at uint64
		n := 0
		for k, l := range a.levels {
			if l.pinned || l.running {
				continue
			}
			n++
			if oldest == nil || l.used < at {
				oldest, at = &k, l.used
			}
		}
		if n <= a.opt.MaxLevels {
			return
		}
		delete(a.levels, *oldest)
	}
}

// ready returns the tables once they are built, else nil.
func (l *levelBuild) ready() *Oracle {
	select {
	case <-l.done:
		if l.err == nil {
			return l.o
		}
	default:
	}
	return nil
}

// race runs f with a context that ends when the tables are built, and
// reports tables true if f failed after that: the tables answer then.
func (l *levelBuild) race(ctx context.Context, f func(context.Context) error) (tables bool, err error) {
	dctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		select {
		case <-l.done:
			if l.err == nil {
				stop()
			}
		case <-dctx.Done():
		}
	}()
	err = f(dctx)
	if err != nil && ctx.Err() == nil && l.ready() != nil {
		return true, nil
	}
	return false, err
}

// solve is dfs.Solve without a node limit, stopped if the tables are built
// first: then it reports tables true and no solution.
func (l *levelBuild) solve(ctx context.Context, b *engine.Board, q engine.Position, g engine.Goal, cfg kernel.SolveConfig) (res kernel.SolveResult, tables bool, err error) {
	cfg.MaxNodes = 0
	tables, err = l.race(ctx, func(ctx context.Context) error {
		res, err = kernel.Solve(ctx, b, q, g, cfg)
		if errors.Is(err, search.ErrMemory) {
			<-l.done // the tables are the one way left
		}
		return err
	})
	if tables {
		return kernel.SolveResult{}, true, nil
	}
	return res, false, err
}
