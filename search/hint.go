package search

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"pegs/engine"
	"pegs/search/internal/pool"
)

// HintStatus says where a game stands.
type HintStatus string

// The statuses a hint reports.
const (
	// GoalPossible: the goal (one peg at the goal hole, or anywhere) can
	// still be met.
	GoalPossible HintStatus = "goal still possible"
	// OnePegOnly: the goal hole is out of reach but one peg elsewhere is not.
	OnePegOnly HintStatus = "goal hole out of reach; one peg still possible"
	// DeadEnd: one peg is no longer possible.
	DeadEnd HintStatus = "dead end"
	// Won: the goal is met.
	Won HintStatus = "won"
)

// Hint is the advice for one position of a game.
type Hint struct {
	Status HintStatus
	// Jump keeps the best finish still possible; nil in a dead end or when
	// no jump is left.
	Jump *engine.Jump
	// GoalPossible reports whether the goal can still be met: for a centre
	// goal, whether the centre is still possible.
	GoalPossible bool
	// OnePegPossible reports whether one peg anywhere is still possible.
	OnePegPossible bool
	// Fewest is the fewest pegs still reachable.
	Fewest int
	// Undo is the fewest jumps of the history to take back to reach a
	// position from which the goal is possible again; 0 if it is possible
	// now or no history was given.
	Undo int
	// Movable lists the holes whose peg can jump now.
	Movable []int
}

// History is how a game reached its position: its start and the jumps
// played.
type History struct {
	Start engine.Position
	Jumps []engine.Jump
}

// ErrHistory reports a history that does not lead to the position.
var ErrHistory = errors.New("history does not lead to the position")

// Winner answers whether a position can still meet a goal, and whether it
// can still end with one peg anywhere. A *Oracle is one; without an oracle,
// the hint oracle solves. A Winner may answer for one level only (the
// positions its start reaches): Advise checks that a lone position is in an
// *Oracle's level before it takes the oracle's "no".
type Winner interface {
	// Winnable reports whether p can meet the goal; ok is false when the
	// winner cannot tell (a position outside its level).
	Winnable(p engine.Position) (win, ok bool)
	// OnePeg is Winnable for one peg anywhere.
	OnePeg(p engine.Position) (win, ok bool)
}

// Advise returns the hint for position p toward goal: the goal is one peg
// at a hole or anywhere. hist may be nil. oracle, if not nil, answers
// "still winnable?" for the goal without searching. Without one, a hint
// with a history may start building its level's oracle (when depth first
// is slow), in the background on all cores but one: the build goes on
// after the hint returns, and the process's later hints of that level use
// it (see startLevel). A lone position (no history) of the board's own
// game, one the board's start reaches, starts its level's build once its
// hint needs a layered search, after answering it.
func Advise(ctx context.Context, b *engine.Board, p engine.Position, goal engine.Goal, hist *History, oracle Winner, opt Options) (Hint, error) {
	if p == 0 {
		return Hint{}, ErrNoPegs
	}
	if p&^b.Full() != 0 {
		return Hint{}, fmt.Errorf("position has pegs outside board %s", b.Name())
	}
	if goal.Kind == engine.Fewest {
		return Hint{}, errors.New("a hint needs a one-peg goal (any, center or a hole)")
	}
	var positions []engine.Position // the history's positions, p last
	if hist != nil {
		q := hist.Start
		positions = append(positions, q)
		for i, j := range hist.Jumps {
			next, err := b.Replay(q, []engine.Jump{j})
			if err != nil {
				return Hint{}, fmt.Errorf("%w: jump %d (%s) is illegal", ErrHistory, i+1, b.FormatJump(j))
			}
			q = next
			positions = append(positions, q)
		}
		if q != p {
			return Hint{}, fmt.Errorf("%w: it ends in %s", ErrHistory, b.Line(q))
		}
	}
	// An oracle's tables hold its level's positions only: it speaks for a
	// history from its own start, and for a lone position only once that
	// is shown to be in its level; elsewhere the hint searches.
	if o, ok := oracle.(*Oracle); ok {
		switch {
		case hist != nil && hist.Start != o.start:
			return Hint{}, fmt.Errorf("the oracle is for the level that starts %s, not %s", b.Line(o.start), b.Line(hist.Start))
		case hist == nil:
			in, err := o.inLevel(ctx, p, Options{Memory: opt.Memory, MaxNodes: loneNodes(b.Complement(p))})
			if err != nil {
				return Hint{}, err
			}
			if !in {
				oracle = nil
			}
		}
	}
	var h Hint
	for _, j := range b.Moves(nil, p) {
		h.Movable = appendUnique(h.Movable, j.From)
	}
	if goal.Reached(p) {
		h.Status, h.GoalPossible, h.OnePegPossible, h.Fewest = Won, true, true, 1
		return h, nil
	}
	// With the level's start known, its winnable sets answer every
	// question about its positions once built (on the English board about
	// 2 s, once a process; see levelOracle).
	if oracle == nil && hist != nil {
		oracle = builtLevel(b, hist.Start, goal)
	}
	// levelStart is the start of a level known to hold p, whose tables
	// (built once a process) may answer: a history's start, or the board's
	// own start (one hole) once it is shown to reach a lone position.
	levelStart, inLevel := engine.Position(0), false
	if hist != nil {
		levelStart, inLevel = hist.Start, true
	}
	// ownGame: p is lone, and whether the board's start reaches it is
	// still to be asked (see startReaches; quick for pegs enough).
	ownGame := hist == nil && oracle == nil && b.Complement(b.Start()).Pegs() == 1 && p.Pegs() >= levelCheckFrom
	if ownGame {
		if o, ok := builtLevel(b, b.Start(), goal).(*Oracle); ok {
			ownGame = false
			in, err := o.inLevel(ctx, p, Options{Memory: opt.Memory, MaxNodes: loneNodes(b.Complement(p))})
			if err != nil {
				return Hint{}, err
			}
			if in {
				oracle = o
			}
		}
	}
	// A lone position's level is built after its hint, for the hints
	// after it (a game server's), if the hint needed a layered search:
	// building first would take longer (on the English board 4 s on one
	// core, against about a second on two for the slowest layered
	// refutations, of 26 and 27 pegs).
	buildAfter := false
	defer func() {
		if buildAfter && ctx.Err() == nil {
			startLevel(b, levelStart, goal, Options{Memory: opt.memory() / 2})
		}
	}()
	anyGoal := engine.Goal{Kind: engine.OnePeg}
	// Without an oracle, each question is solved depth first, which
	// answers most at once; but refuting a position of many pegs that way
	// can take seconds, and a hint asks up to three questions (goal, one
	// peg, fewest) and, with a history, one more per jump taken back. So
	// depth first stops after a budget of positions:
	//   - With a history, levelNodes (about 10 ms). Then the level's tables
	//     are built in the background while depth first goes on, and the
	//     first to finish answers: the tables take seconds to build, but
	//     then answer every later question of the level; on a board whose
	//     tables pass half the memory budget (the French board), depth
	//     first answers alone.
	//   - Without one, loneNodes(p), or levelNodes first if p may be of
	//     the board's own game. Then layered searches from p and from the
	//     goal, which meet halfway (see loneOracle), answer the goal and
	//     one peg for p and its children, unless they pass the memory
	//     budget: then depth first goes on without a limit. The fewest
	//     pegs of a dead end is then searched depth first from a floor of
	//     two; past its budget, by a layered search of everything p
	//     reaches.
	//   - For p, once past levelNodes with its level's tables being built
	//     (with a history, or for a lone position of the board's own game
	//     after an earlier hint's layered search), depth first to
	//     loneNodes(p), then the layered search, race the tables.
	// The fewest pegs, once an oracle's table or a layered search has
	// found it.
	fewest, known := 0, false
	dfs := opt
	// ownBudget: the hint sets depth first's budget (else it is opt's).
	ownBudget := oracle == nil
	if ownBudget {
		dfs.MaxNodes = levelNodes
		if hist == nil {
			dfs.MaxNodes = loneNodes(p)
		}
		if ownGame {
			dfs.MaxNodes = min(levelNodes, loneNodes(p))
		}
	}
	var level *levelBuild
	// layerMemory is the budget of a layered search of p's: half, when
	// it races the level's build, which has the other half.
	layerMemory := func() int64 {
		if level != nil {
			return opt.memory() / 2
		}
		return opt.Memory
	}
	layered := func(ctx context.Context) error {
		lopt := opt
		lopt.Memory = layerMemory()
		buildAfter = buildAfter || inLevel && level == nil
		o, err := loneOracle(ctx, b, p, goal, lopt)
		if errors.Is(err, ErrMemory) {
			dfs.MaxNodes = 0
			return nil
		}
		if err != nil {
			return err
		}
		// It speaks for p and what p reaches; the positions of a history
		// before p are still solved (and race the level's tables).
		oracle = o
		return nil
	}
	// The questions of one goal share their refuted positions (see
	// solveIn): a dead end and the positions taken back before it are a
	// chain of parents. Where a level's tables may be built (a history, or
	// a lone position that may be of the board's own game), within half
	// the budget, which the build may use the other half of.
	dead := map[engine.Goal]*posSet{}
	deadFor := func(g engine.Goal) *posSet {
		if dead[g] == nil {
			budget := opt.memory()
			if inLevel || ownGame {
				budget /= 2
			}
			dead[g] = newPosSet(budget)
		}
		return dead[g]
	}
	half := Options{Memory: opt.memory() / 2}
	// tables returns the level's build that p's questions race, if any: a
	// history's, started on first need, or for a lone position of the
	// board's own game one under way.
	tables := func() *levelBuild {
		if level == nil && inLevel {
			if hist != nil {
				level = startLevel(b, levelStart, goal, half)
			} else if l, ok := levelBuilds.Load(keyOfLevel(b, levelStart, goal)); ok {
				level = l.(*levelBuild)
			}
		}
		return level
	}
	// deeper answers a question of p once depth first has passed its first
	// budget: depth first on to loneNodes(p), then the layered search
	// (again reports that it ran: p's questions are then asked again).
	deeper := func(ctx context.Context, g engine.Goal) (sol Solution, again bool, err error) {
		if lim := loneNodes(p); dfs.MaxNodes != 0 && dfs.MaxNodes < lim {
			d := dfs
			d.MaxNodes = lim
			sol, err = solveIn(ctx, b, p, g, d, 1, deadFor(g))
			if !errors.Is(err, ErrNodeLimit) {
				return sol, false, err
			}
		}
		return Solution{}, true, layered(ctx)
	}
	var win func(q engine.Position, g engine.Goal) (bool, *engine.Jump, error)
	win = func(q engine.Position, g engine.Goal) (bool, *engine.Jump, error) {
		if level != nil {
			// The level's tables, once built, speak for every position of
			// the history (a layered search's, only for p and after).
			if o := level.ready(); o != nil {
				oracle = o
			}
		}
		if oracle != nil {
			ask := oracle.Winnable
			if g != goal {
				ask = oracle.OnePeg
			}
			if w, ok := ask(q); ok {
				if !w {
					return false, nil, nil
				}
				for _, j := range b.Moves(nil, q) {
					if cw, ok := ask(q.Apply(j)); ok && cw {
						return true, &j, nil
					}
				}
				return true, nil, nil
			}
		}
		sol, err := solveIn(ctx, b, q, g, dfs, 1, deadFor(g))
		if errors.Is(err, ErrNodeLimit) && ownGame {
			ownGame = false
			in, err := startReaches(ctx, b, b.Start(), p, Options{Memory: opt.Memory, MaxNodes: loneNodes(b.Complement(p))})
			if err != nil {
				return false, nil, err
			}
			if in {
				levelStart, inLevel = b.Start(), true
			}
		}
		switch {
		case errors.Is(err, ErrNodeLimit) && q != p:
			// A position of the history before p: depth first without a
			// limit races the level's tables.
			var done bool
			if sol, done, err = tables().solve(ctx, b, q, g, half, deadFor(g)); done {
				return win(q, g)
			}
		case errors.Is(err, ErrNodeLimit):
			var again, done bool
			if l := tables(); l != nil {
				done, err = l.race(ctx, func(ctx context.Context) error {
					var err error
					sol, again, err = deeper(ctx, g)
					return err
				})
			} else {
				sol, again, err = deeper(ctx, g)
			}
			if err == nil && (done || again) {
				return win(q, g)
			}
		}
		if err != nil || !sol.Solvable {
			return false, nil, err
		}
		if len(sol.Jumps) == 0 {
			return true, nil, nil
		}
		return true, &sol.Jumps[0], nil
	}
	ok, jump, err := win(p, goal)
	if err != nil {
		return h, err
	}
	h.GoalPossible = ok
	if ok {
		h.Status, h.Jump, h.OnePegPossible, h.Fewest = GoalPossible, jump, true, 1
		return h, nil
	}
	if goal.Kind == engine.OnePegAt {
		if ok, jump, err = win(p, anyGoal); err != nil {
			return h, err
		}
	}
	h.OnePegPossible = ok
	if ok {
		h.Status, h.Jump, h.Fewest = OnePegOnly, jump, 1
	} else {
		h.Status = DeadEnd
		// An oracle's fewest table may know the fewest pegs. Else, one
		// peg being refuted, two is the floor: the search stops at the
		// first two-peg finish it finds.
		if o, ok := oracle.(*Oracle); ok && !known {
			fewest, known = o.Fewest(p)
		}
		var sol Solution
		var err error
		few := dfs
		if hist != nil {
			// The level's tables answer this only once their fewest pegs
			// are built too, which comes after them: building them would
			// not answer it sooner. (The jumps to take back, below, race
			// them again.)
			few.MaxNodes = opt.MaxNodes
		} else if ownBudget && few.MaxNodes != 0 {
			// A lone position gets loneNodes(p) here too, though its first
			// question may have had less (the check for the board's own
			// game): what this falls back on lists everything p reaches,
			// 0.5 s for a lost English position of 26 pegs, whose two-peg
			// finish depth first finds within 2^16 to 2^18 positions.
			few.MaxNodes = max(few.MaxNodes, loneNodes(p))
		}
		if !known {
			sol, err = solve(ctx, b, p, engine.Goal{Kind: engine.Fewest}, few, 2)
			if errors.Is(err, ErrNodeLimit) {
				// The last layer of everything p reaches.
				fewest, _, err = listFewest(ctx, Problem{Board: b, Start: p, Goal: goal}, ExploreOptions{Memory: layerMemory()})
				known = err == nil
				if errors.Is(err, ErrMemory) {
					few.MaxNodes = 0
					sol, err = solve(ctx, b, p, engine.Goal{Kind: engine.Fewest}, few, 2)
				}
			}
		}
		switch {
		case err != nil:
			return h, err
		case known:
			h.Fewest = fewest
		default:
			h.Fewest = sol.Final.Pegs()
		}
	}
	// Take back jumps one at a time until the goal is possible again.
	for k := 1; k < len(positions); k++ {
		ok, _, err := win(positions[len(positions)-1-k], goal)
		if err != nil {
			return h, err
		}
		if ok {
			h.Undo = k
			return h, nil
		}
	}
	return h, nil
}

// loneNodes returns how many positions a hint for lone position p searches
// depth first, per question, before it searches layer by layer instead:
// loneBase, doubled for each peg past 20. Both ways grow about twofold a
// peg. On the English board a layered search refutes 3-7x faster than depth
// first (26 pegs: 0.7 s against 4.8 s), but depth first finds the
// solutions of a winnable position of many pegs sooner than a search of
// everything it reaches (29 pegs: 0.04-1.3 s against 1-10 s). Depth first
// alternates with beam searches, which find most solutions within a few
// thousand positions, so it gets a quarter of the layered search's time or
// less (2^14 positions take about 2 ms): over the 239 positions of 10
// random English games, 2^14 against 2^16 took the slowest hint from
// 2.7-2.85 s to 1.85-1.95 s and p99 from 1.24-1.27 s to 1.04-1.09 s.
func loneNodes(p engine.Position) int64 {
	return loneBase << uint(min(24, max(0, p.Pegs()-20)))
}

// listFewest is how a dead end's hint finds its fewest pegs once depth
// first has passed its budget: fewestReached, which lists everything the
// position reaches; tests watch it.
var listFewest = fewestReached

// loneBase is loneNodes for 20 pegs or fewer; tests change it.
var loneBase int64 = 1 << 14

// levelNodes is how many positions a hint with a history searches depth
// first, per question, before it races the building of its level's tables
// (about 10 ms against 1.5 s on the English board).
const levelNodes = 1 << 16

// loneOracle searches from p and from the goal, layer by layer, until the
// two meet (see meeting), and returns what a hint asks of p and its
// children: whether each can meet goal, and, when p cannot, whether each can
// end with one peg anywhere (a second meeting).
func loneOracle(ctx context.Context, b *engine.Board, p engine.Position, goal engine.Goal, opt Options) (Winner, error) {
	eopt := ExploreOptions{Memory: opt.Memory}
	mg, err := meet(ctx, Problem{Board: b, Start: p, Goal: goal}, eopt)
	if err != nil {
		return nil, err
	}
	w := meetWinner{goal: mg}
	if goal.Kind == engine.OnePeg || sameAsAny(b, p, goal) {
		w.any = mg
	} else if win, _ := mg.winnable(p); !win {
		if w.any, err = meet(ctx, Problem{Board: b, Start: p, Goal: engine.Goal{Kind: engine.OnePeg}}, eopt); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// meetWinner answers for the positions that meetings from one position
// reach (see meeting.winnable): goal's for the goal, any's for one peg
// anywhere (goal's too where they agree from two pegs up, see sameAsAny;
// nil where the goal was met, which answers only for the positions that
// can meet it).
type meetWinner struct {
	goal, any *meeting
}

func (w meetWinner) Winnable(p engine.Position) (bool, bool) {
	return w.goal.winnable(p)
}

func (w meetWinner) OnePeg(p engine.Position) (bool, bool) {
	if p.Pegs() == 1 {
		return true, true
	}
	if w.any != nil {
		return w.any.winnable(p)
	}
	if win, ok := w.goal.winnable(p); win {
		return win, ok
	}
	return false, false
}

func appendUnique(s []int, x int) []int {
	for _, y := range s {
		if y == x {
			return s
		}
	}
	return append(s, x)
}

type levelKey struct {
	board *engine.Board
	start engine.Position
	goal  engine.Goal
}

// keyOfLevel returns the key of the level that starts at start: levels
// whose starts are images of each other share their tables.
func keyOfLevel(b *engine.Board, start engine.Position, goal engine.Goal) levelKey {
	return levelKey{b, Problem{Board: b, Start: start, Goal: goal}.Group().Canonical(start), goal}
}

var levelOracles sync.Map // levelKey -> *Oracle

// levelBuild is a level's tables (levelOracle) being built in the
// background, which depth-first searches race.
type levelBuild struct {
	done chan struct{} // closed when the winnable tables are built or fail
	o    *Oracle
	err  error
	// full is closed when the build ends: after the winnable tables, the
	// fewest pegs of the level's dead ends (see levelFewest) are built too.
	full chan struct{}
}

// levelBuilds holds the builds under way, one a level.
var levelBuilds sync.Map // levelKey -> *levelBuild

// startLevel starts building the tables of the level that starts at start,
// or returns the build under way, unless they are known not to fit in
// opt's memory budget. A build outlives the hint that started it, so that
// the hints after it (a game's next moves) find it done: it is not
// cancelled, and it costs one build a level and process at most (then the
// tables are kept, or their failure to fit is). Once the winnable tables
// are built and answer, the build goes on to the fewest pegs of the
// level's dead ends (levelFewest: on the English board about 20 s on one
// core), which then answer a dead end's hint too without searching.
func startLevel(b *engine.Board, start engine.Position, goal engine.Goal, opt Options) *levelBuild {
	key := keyOfLevel(b, start, goal)
	l := &levelBuild{done: make(chan struct{}), full: make(chan struct{})}
	if failed, ok := levelsTooBig.Load(key); ok && failed.(int64) >= opt.memory() {
		l.err = ErrMemory
		close(l.done)
		close(l.full)
		return l
	}
	if running, ok := levelBuilds.LoadOrStore(key, l); ok {
		return running.(*levelBuild)
	}
	go func() {
		defer close(l.full)
		defer levelBuilds.Delete(key)
		// Depth first keeps a core of its own.
		eopt := ExploreOptions{Memory: opt.memory(), Workers: max(1, pool.Size(0)-1)}
		l.o, l.err = levelOracle(context.Background(), b, start, goal, eopt)
		if errors.Is(l.err, ErrMemory) {
			levelsTooBig.Store(key, opt.memory())
		}
		close(l.done)
		if l.err == nil && levelFewestStage {
			// Past the budget, dead ends go on being searched.
			levelFewest(context.Background(), l.o, eopt)
		}
	}()
	return l
}

// levelFewestStage is whether a level's build goes on to the fewest pegs
// of its dead ends; tests that need the build alone turn it off.
var levelFewestStage = true

// levelsTooBig remembers the levels whose tables passed a memory budget,
// so that later hints do not try again within one no larger.
var levelsTooBig sync.Map // levelKey -> int64 budget

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

// solve is Solve without a node limit, with the refuted positions dead
// (see solveIn), stopped if the tables are built first: then it reports
// tables true and no solution.
func (l *levelBuild) solve(ctx context.Context, b *engine.Board, q engine.Position, g engine.Goal, opt Options, dead *posSet) (sol Solution, tables bool, err error) {
	tables, err = l.race(ctx, func(ctx context.Context) error {
		sol, err = solveIn(ctx, b, q, g, opt, 1, dead)
		if errors.Is(err, ErrMemory) {
			<-l.done // the tables are the one way left
		}
		return err
	})
	if tables {
		return Solution{}, true, nil
	}
	return sol, false, err
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

// builtLevel returns the oracle of a level if levelOracle has built it,
// else nil.
func builtLevel(b *engine.Board, start engine.Position, goal engine.Goal) Winner {
	if o, ok := levelOracles.Load(keyOfLevel(b, start, goal)); ok {
		return o.(*Oracle)
	}
	return nil
}

// levelOracle returns the oracle of a level, building it on first use.
func levelOracle(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, opt ExploreOptions) (*Oracle, error) {
	key := keyOfLevel(b, start, goal)
	if o, ok := levelOracles.Load(key); ok {
		return o.(*Oracle), nil
	}
	o, err := NewOracle(ctx, Problem{Board: b, Start: start, Goal: goal}, opt)
	if err != nil {
		return nil, err
	}
	actual, _ := levelOracles.LoadOrStore(key, o)
	return actual.(*Oracle), nil
}

// levelFewest returns a level's oracle (from levelOracle) with its fewest
// table, building that on first use and putting the new oracle in the
// level's place for later hints; o itself is left as it was, so hints that
// hold it are not disturbed.
func levelFewest(ctx context.Context, o *Oracle, opt ExploreOptions) (*Oracle, error) {
	if o.fewest != nil {
		return o, nil
	}
	key := keyOfLevel(o.board, o.start, o.goal)
	if cur, ok := levelOracles.Load(key); ok && cur.(*Oracle).fewest != nil {
		return cur.(*Oracle), nil
	}
	f := *o
	if err := f.AddFewest(ctx, opt); err != nil {
		return nil, err
	}
	levelOracles.Store(key, &f)
	return &f, nil
}
