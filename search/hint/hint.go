package hint

import (
	"context"
	"errors"
	"fmt"

	"pegs/engine"
	"pegs/search"
	"pegs/search/internal/kernel"
)

// Status says where a game stands.
type Status string

// The statuses a hint reports.
const (
	// GoalPossible: the goal (one peg at the goal hole, or anywhere) can
	// still be met.
	GoalPossible Status = "goal still possible"
	// OnePegOnly: the goal hole is out of reach but one peg elsewhere is not.
	OnePegOnly Status = "goal hole out of reach; one peg still possible"
	// FewestOnly: one peg is out of reach, but jumps remain; the hint's
	// jump keeps the fewest pegs still reachable (Hint.Fewest).
	FewestOnly Status = "one peg out of reach"
	// DeadEnd: no jump is left, and the goal is not met.
	DeadEnd Status = "dead end"
	// Won: the goal is met.
	Won Status = "won"
)

// Hint is the advice for one position of a game.
type Hint struct {
	Status Status
	// Jump keeps the best finish still possible: the goal, else one peg
	// anywhere, else the fewest pegs still reachable. It is nil when no
	// jump is left (DeadEnd, Won, or one peg at another hole than the
	// goal's).
	Jump *engine.Jump
	// GoalPossible reports whether the goal can still be met: for a centre
	// goal, whether the centre is still possible.
	GoalPossible bool
	// OnePegPossible reports whether one peg anywhere is still possible.
	OnePegPossible bool
	// Fewest is the fewest pegs still reachable: 1 while one peg is
	// possible, the pegs left in a dead end.
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

// Hint returns the hint for position p of board b toward goal (one peg at
// a hole or anywhere); hist, how the game got there, may be nil. See the
// package documentation for how it is found.
func (a *Advisor) Hint(ctx context.Context, b *engine.Board, p engine.Position, goal engine.Goal, hist *History) (Hint, error) {
	if p == 0 {
		return Hint{}, search.ErrNoPegs
	}
	if p&^b.Full() != 0 {
		return Hint{}, fmt.Errorf("position has pegs outside board %s", b.Name())
	}
	if goal.Kind == engine.FewestPegs {
		return Hint{}, errors.New("a hint needs a one-peg goal (any, center or a hole)")
	}
	positions, err := replay(b, p, hist)
	if err != nil {
		return Hint{}, err
	}
	r := &request{a: a, b: b, p: p, goal: goal, hist: hist, positions: positions, dead: map[engine.Goal]*kernel.PosSet{}}
	var h Hint
	var room [32]engine.Jump // a position's jumps, mostly, without a heap slice
	for _, j := range b.Moves(room[:0], p) {
		if !contains(h.Movable, j.From) {
			h.Movable = append(h.Movable, j.From)
		}
	}
	if goal.Reached(p) {
		h.Status, h.GoalPossible, h.OnePegPossible, h.Fewest = Won, true, true, 1
		return h, nil
	}
	if err := r.chooseOracle(ctx); err != nil {
		return h, err
	}
	defer r.buildAfter(ctx)
	return r.answer(ctx, h)
}

// replay returns the positions of hist, p last, checking that it leads to
// p; nil for no history.
func replay(b *engine.Board, p engine.Position, hist *History) ([]engine.Position, error) {
	if hist == nil {
		return nil, nil
	}
	q := hist.Start
	positions := []engine.Position{q}
	for i, j := range hist.Jumps {
		next, err := b.Replay(q, []engine.Jump{j})
		if err != nil {
			return nil, fmt.Errorf("%w: jump %d (%s) is illegal", ErrHistory, i+1, b.FormatJump(j))
		}
		q = next
		positions = append(positions, q)
	}
	if q != p {
		return nil, fmt.Errorf("%w: it ends in %s", ErrHistory, b.Line(q))
	}
	return positions, nil
}

func contains(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// winner answers whether a position can still meet a goal, and whether it
// can still end with one peg anywhere; ok is false when it cannot tell (a
// position outside what it knows). An *Oracle is one; so is a lone
// position's meeting (see loneWinner).
type winner interface {
	Winnable(p engine.Position) (win, ok bool)
	OnePeg(p engine.Position) (win, ok bool)
}

// levelNodes is how many positions a hint with a history searches depth
// first, per question, before it races the building of its level's tables
// (about 10 ms against 1.5 s on the English board).
const levelNodes = 1 << 16

// request is one hint being found. Without an oracle, each question is
// solved depth first, which answers most at once; but refuting a position
// of many pegs that way can take seconds, and a hint asks up to three
// questions (goal, one peg, fewest) and, with a history, one more per jump
// taken back. So depth first stops after a budget of positions:
//   - With a history, levelNodes (about 10 ms). Then the level's tables are
//     built in the background while depth first goes on, and the first to
//     finish answers: the tables take seconds to build, but then answer
//     every later question of the level; on a board whose tables pass half
//     the memory budget (the French board), depth first answers alone.
//   - Without one, dfs.LoneNodes(p), or levelNodes first if p may be of the
//     board's own game. Then layered searches from p and from the goal,
//     which meet halfway (see loneWinner), answer the goal and one peg for
//     p and its children, unless they pass the memory budget: then depth
//     first goes on without a limit. The fewest pegs of a dead end is then
//     searched depth first from a floor of two; past its budget, by a
//     layered search of everything p reaches.
//   - For p, once past levelNodes with its level's tables being built
//     (with a history, or for a lone position of the board's own game after
//     an earlier hint's layered search), depth first to dfs.LoneNodes(p),
//     then the layered search, race the tables.
type request struct {
	a         *Advisor
	b         *engine.Board
	p         engine.Position
	goal      engine.Goal
	hist      *History
	positions []engine.Position // the history's, p last
	// winner answers without searching, if set; oracle is it when it is
	// an *Oracle (whose fewest table may know a dead end's fewest pegs).
	winner winner
	oracle *Oracle
	// levelStart is the start of a level known to hold p (inLevel), whose
	// tables may answer: a history's start, or the board's own start (one
	// hole) once it is shown to reach a lone position.
	levelStart engine.Position
	inLevel    bool
	// ownGame: p is lone, and whether the board's start reaches it is
	// still to be asked (see startReaches; quick for pegs enough).
	ownGame bool
	// maxNodes is depth first's budget; ownBudget reports that the hint
	// set it (else it is the caller's).
	maxNodes  int64
	ownBudget bool
	// build is the build of the level's tables that p's questions race.
	build *levelBuild
	// buildLater asks for the level's tables to be built after the hint:
	// it needed a layered search.
	buildLater bool
	// dead holds each goal's refuted positions, shared by its questions
	// (see dfs.Config.Dead): a dead end and the positions taken back
	// before it are a chain of parents.
	dead map[engine.Goal]*kernel.PosSet
}

// use makes o answer the hint's questions.
func (r *request) use(o *Oracle) {
	r.winner, r.oracle = o, o
}

// chooseOracle finds what can answer without searching: an oracle of the
// history's level, given or built; for a lone position, a given oracle
// whose level is shown to hold it, or the board's own game's if built. It
// sets depth first's budget where no oracle answers.
func (r *request) chooseOracle(ctx context.Context) error {
	a, b, p := r.a, r.b, r.p
	check := r.plain(kernel.LoneNodes(b.Complement(p), a.knobs.loneBase))
	if r.hist != nil {
		r.levelStart, r.inLevel = r.hist.Start, true
		if o := a.oracleFor(b, r.hist.Start, r.goal); o != nil {
			r.use(o)
		} else if o := a.built(b, r.hist.Start, r.goal); o != nil {
			r.use(o)
		}
	} else {
		// An oracle's tables hold its level's positions only: it speaks
		// for a lone position only once that is shown to be in its level.
		for _, o := range a.givenFor(b, r.goal) {
			in, err := o.inLevel(ctx, p, check)
			if err != nil {
				return err
			}
			if in {
				r.use(o)
				break
			}
		}
	}
	r.ownGame = r.hist == nil && r.winner == nil && b.Complement(b.Start()).Pegs() == 1 && p.Pegs() >= levelCheckFrom
	if r.ownGame {
		if o := a.built(b, b.Start(), r.goal); o != nil {
			r.ownGame = false
			in, err := o.inLevel(ctx, p, check)
			if err != nil {
				return err
			}
			if in {
				r.use(o)
			}
		}
	}
	r.maxNodes, r.ownBudget = a.opt.MaxNodes, r.winner == nil
	if r.ownBudget {
		lone := kernel.LoneNodes(p, a.knobs.loneBase)
		switch {
		case r.ownGame:
			r.maxNodes = min(levelNodes, lone)
		case r.hist == nil:
			r.maxNodes = lone
		default:
			r.maxNodes = levelNodes
		}
	}
	return nil
}

// buildAfter starts building the level's tables if the hint needed a
// layered search and was not cancelled, for the hints after it (a game
// server's): building first would take longer (on the English board 4 s
// on one core, against about a second on two for the slowest layered
// refutations, of 26 and 27 pegs).
func (r *request) buildAfter(ctx context.Context) {
	if r.buildLater && ctx.Err() == nil {
		r.a.startLevel(r.b, r.levelStart, r.goal, r.a.buildMemory())
	}
}

// config returns depth first's configuration for goal g within maxNodes.
// Where a level's tables may be built (a history, or a lone position that
// may be of the board's own game), it keeps within half the budget, which
// the build may use the other half of.
func (r *request) config(g engine.Goal, maxNodes int64) kernel.SolveConfig {
	mem := r.a.memory()
	if r.inLevel || r.ownGame {
		mem /= 2
	}
	if r.dead[g] == nil {
		r.dead[g] = kernel.NewPosSet(mem)
	}
	c := r.plain(maxNodes)
	c.Dead = r.dead[g]
	return c
}

// plain returns depth first's configuration within maxNodes, with no
// shared table of refuted positions.
func (r *request) plain(maxNodes int64) kernel.SolveConfig {
	return kernel.SolveConfig{Memory: r.a.memory(), Techniques: kernel.All(), MaxNodes: maxNodes, Tables: &r.a.tables}
}

// layerMemory is the budget of a layered search of p's: half, when it
// races the level's build, which has the other half.
func (r *request) layerMemory() int64 {
	if r.build != nil {
		return r.a.memory() / 2
	}
	return r.a.memory()
}

// tables returns the level's build that p's questions race, if any: a
// history's, started on first need, or for a lone position of the board's
// own game one under way.
func (r *request) tables() *levelBuild {
	if r.build == nil && r.inLevel {
		if r.hist != nil {
			r.build = r.a.startLevel(r.b, r.levelStart, r.goal, r.a.buildMemory())
		} else {
			r.build = r.a.building(r.b, r.levelStart, r.goal)
		}
	}
	return r.build
}

// layered answers p's questions by meetings from p and from the goal (see
// loneWinner); past the memory budget, depth first goes on without a
// limit.
func (r *request) layered(ctx context.Context) error {
	r.buildLater = r.buildLater || r.inLevel && r.build == nil
	w, err := loneWinner(ctx, r.b, r.p, r.goal, r.layerMemory())
	if errors.Is(err, search.ErrMemory) {
		r.maxNodes = 0
		return nil
	}
	if err != nil {
		return err
	}
	// It speaks for p and what p reaches; the positions of a history
	// before p are still solved (and race the level's tables).
	r.winner, r.oracle = w, nil
	return nil
}

// deeper answers a question of p once depth first has passed its first
// budget: depth first on to dfs.LoneNodes(p), then the layered search
// (again reports that it ran: p's questions are then asked again).
func (r *request) deeper(ctx context.Context, g engine.Goal) (res kernel.SolveResult, again bool, err error) {
	if lim := kernel.LoneNodes(r.p, r.a.knobs.loneBase); r.maxNodes != 0 && r.maxNodes < lim {
		res, err = kernel.Solve(ctx, r.b, r.p, g, r.config(g, lim))
		if !errors.Is(err, kernel.ErrNodeLimit) {
			return res, false, err
		}
	}
	return kernel.SolveResult{}, true, r.layered(ctx)
}

// ask answers whether q can meet g from the winner, and a jump that keeps
// it so; ok is false when the winner cannot tell.
func (r *request) ask(q engine.Position, g engine.Goal) (win bool, jump *engine.Jump, ok bool) {
	ask := r.winner.Winnable
	if g != r.goal {
		ask = r.winner.OnePeg
	}
	if w, ok := ask(q); !ok || !w {
		return false, nil, ok
	}
	var room [32]engine.Jump
	for _, j := range r.b.Moves(room[:0], q) {
		if cw, ok := ask(q.Apply(j)); ok && cw {
			found := j // on the heap only when returned
			return true, &found, true
		}
	}
	return true, nil, true
}

// win answers whether q (p or a position of its history) can meet goal g,
// and a jump that keeps it so.
func (r *request) win(ctx context.Context, q engine.Position, g engine.Goal) (bool, *engine.Jump, error) {
	if r.build != nil {
		// The level's tables, once built, speak for every position of the
		// history (a layered search's, only for p and after).
		if o := r.build.ready(); o != nil {
			r.use(o)
		}
	}
	if r.winner != nil {
		if w, j, ok := r.ask(q, g); ok {
			return w, j, nil
		}
	}
	res, err := kernel.Solve(ctx, r.b, q, g, r.config(g, r.maxNodes))
	if errors.Is(err, kernel.ErrNodeLimit) && r.ownGame {
		r.ownGame = false
		in, err := startReaches(ctx, r.b, r.b.Start(), r.p, r.plain(kernel.LoneNodes(r.b.Complement(r.p), r.a.knobs.loneBase)))
		if err != nil {
			return false, nil, err
		}
		if in {
			r.levelStart, r.inLevel = r.b.Start(), true
		}
	}
	switch {
	case errors.Is(err, kernel.ErrNodeLimit) && q != r.p:
		// A position of the history before p: depth first without a limit
		// races the level's tables.
		cfg := r.config(g, 0)
		cfg.Memory = r.a.memory() / 2
		var done bool
		if res, done, err = r.tables().solve(ctx, r.b, q, g, cfg); done {
			return r.win(ctx, q, g)
		}
	case errors.Is(err, kernel.ErrNodeLimit):
		var again, done bool
		if l := r.tables(); l != nil {
			done, err = l.race(ctx, func(ctx context.Context) error {
				var err error
				res, again, err = r.deeper(ctx, g)
				return err
			})
		} else {
			res, again, err = r.deeper(ctx, g)
		}
		if err == nil && (done || again) {
			return r.win(ctx, q, g)
		}
	}
	if err != nil || !res.Solvable {
		return false, nil, err
	}
	if len(res.Jumps) == 0 {
		return true, nil, nil
	}
	return true, &res.Jumps[0], nil
}

// answer asks p's questions in turn: the goal, one peg anywhere, the
// fewest pegs, the jumps to take back.
func (r *request) answer(ctx context.Context, h Hint) (Hint, error) {
	ok, jump, err := r.win(ctx, r.p, r.goal)
	if err != nil {
		return h, err
	}
	h.GoalPossible = ok
	if ok {
		h.Status, h.Jump, h.OnePegPossible, h.Fewest = GoalPossible, jump, true, 1
		return h, nil
	}
	if r.goal.Kind == engine.OnePegAt {
		if ok, jump, err = r.win(ctx, r.p, engine.Goal{Kind: engine.OnePeg}); err != nil {
			return h, err
		}
	}
	h.OnePegPossible = ok
	switch {
	case ok:
		h.Status, h.Jump, h.Fewest = OnePegOnly, jump, 1
	case len(h.Movable) == 0:
		h.Status, h.Fewest = DeadEnd, r.p.Pegs()
	default:
		h.Status = FewestOnly
		if h.Fewest, h.Jump, err = r.fewest(ctx); err != nil {
			return h, err
		}
	}
	// Take back jumps one at a time until the goal is possible again.
	for k := 1; k < len(r.positions); k++ {
		ok, _, err := r.win(ctx, r.positions[len(r.positions)-1-k], r.goal)
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

// fewest returns the fewest pegs p can reach, one peg being out of reach
// and a jump left, and a jump toward them (whose child can still reach that
// many): from an oracle's fewest table; else, one peg being refuted, two is
// the floor, and depth first stops at the first two-peg finish it finds;
// past its budget, the last layer of everything p reaches gives the
// fewest, and depth first stops at the first finish with that many.
func (r *request) fewest(ctx context.Context) (int, *engine.Jump, error) {
	if r.oracle != nil {
		if n, ok := r.oracle.Fewest(r.p); ok {
			if j := r.tabledToward(n); j != nil {
				return n, j, nil
			}
			j, err := r.toward(ctx, n)
			return n, j, err
		}
	}
	few := r.plain(r.maxNodes)
	few.Floor = 2
	if r.hist != nil {
		// The level's tables answer this only once their fewest pegs are
		// built too, which comes after them: building them would not
		// answer it sooner. (The jumps to take back race them again.)
		few.MaxNodes = r.a.opt.MaxNodes
	} else if r.ownBudget && few.MaxNodes != 0 {
		// A lone position gets dfs.LoneNodes(p) here too, though its first
		// question may have had less (the check for the board's own game):
		// what this falls back on lists everything p reaches, 0.5 s for a
		// lost English position of 26 pegs, whose two-peg finish depth
		// first finds within 2^16 to 2^18 positions.
		few.MaxNodes = max(few.MaxNodes, kernel.LoneNodes(r.p, r.a.knobs.loneBase))
	}
	fewest := engine.Goal{Kind: engine.FewestPegs}
	res, err := kernel.Solve(ctx, r.b, r.p, fewest, few)
	if !errors.Is(err, kernel.ErrNodeLimit) {
		if err != nil {
			return 0, nil, err
		}
		return res.Final.Pegs(), first(res.Jumps), nil
	}
	// The last layer of everything p reaches.
	list := search.Explore
	if r.a.knobs.listFewest != nil {
		list = r.a.knobs.listFewest
	}
	prob := search.Problem{Board: r.b, Start: r.p, Goal: engine.Goal{Kind: engine.OnePeg}}
	an, err := list(ctx, prob, search.ExploreOptions{Budget: search.Budget{Memory: r.layerMemory()}, ReachableOnly: true})
	if errors.Is(err, search.ErrMemory) {
		few.MaxNodes = 0
		res, err = kernel.Solve(ctx, r.b, r.p, fewest, few)
		if err != nil {
			return 0, nil, err
		}
		return res.Final.Pegs(), first(res.Jumps), nil
	}
	if err != nil {
		return 0, nil, err
	}
	j, err := r.toward(ctx, an.Fewest())
	return an.Fewest(), j, err
}

// tabledToward returns a jump of p whose child the oracle's fewest table
// shows to reach n pegs, or nil when the table does not know the children
// (they have fewer pegs than it holds).
func (r *request) tabledToward(n int) *engine.Jump {
	var room [32]engine.Jump
	for _, j := range r.b.Moves(room[:0], r.p) {
		if m, ok := r.oracle.Fewest(r.p.Apply(j)); ok && m == n {
			found := j // on the heap only when returned
			return &found
		}
	}
	return nil
}

// toward returns the first jump of a way from p to n pegs, n being the
// fewest p can reach: depth first (with its beams) stops at the first
// finish of n pegs. It has no limit of positions, since such a finish
// exists; the context bounds it.
func (r *request) toward(ctx context.Context, n int) (*engine.Jump, error) {
	cfg := r.plain(0)
	cfg.Floor = n
	res, err := kernel.Solve(ctx, r.b, r.p, engine.Goal{Kind: engine.FewestPegs}, cfg)
	if err != nil {
		return nil, err
	}
	if res.Final.Pegs() != n {
		return nil, fmt.Errorf("internal error: depth first from %s ends with %d pegs, not the fewest %d", r.b.Line(r.p), res.Final.Pegs(), n)
	}
	return first(res.Jumps), nil
}

// first returns the first of jumps, or nil if there is none.
func first(jumps []engine.Jump) *engine.Jump {
	if len(jumps) == 0 {
		return nil
	}
	return &jumps[0]
}
