package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"time"

	"pegs/engine"
	"pegs/generate"
	"pegs/report"
	"pegs/search"
	"pegs/search/hint"
)

// hint answers POST /api/hint as pegs hint --format json does. A loaded
// level's hints are lookups once its oracle is built; other hints search,
// in a slot.
func (s *Server) hint(w http.ResponseWriter, r *http.Request) error {
	var req hintRequest
	if err := s.readRequest(w, r, &req); err != nil {
		return err
	}
	g, err := s.resolveGame(req)
	if err != nil {
		return err
	}
	// A level whose oracle answers is looked up: no deadline to set, the
	// request's context is enough.
	ctx := r.Context()
	s.wake(g.level)
	if !s.answers(g.level) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.lim.Timeout)
		defer cancel()
		release, err := s.acquire(ctx, s.lim.Wait)
		if err != nil {
			return err
		}
		defer release()
	}
	h, err := s.adv.Hint(ctx, g.b, g.p, g.goal, g.hist)
	if errors.Is(err, hint.ErrHistory) {
		return badRequest("%v", err)
	}
	if err != nil {
		return err
	}
	return respond(w, func(buf io.Writer) error { return report.WriteHint(buf, report.JSON, g.b, g.p, g.goal, h) })
}

// solve answers POST /api/solve as pegs solve --format json does: metric
// jumps (the default) any solution, moves one with the fewest moves,
// which a loaded level keeps once found.
func (s *Server) solve(w http.ResponseWriter, r *http.Request) error {
	var req solveRequest
	if err := s.readRequest(w, r, &req); err != nil {
		return err
	}
	var byMoves bool
	switch req.Metric {
	case "", "jumps":
	case "moves":
		byMoves = true
	default:
		return badRequest("metric %q: want jumps or moves", req.Metric)
	}
	pr, err := s.resolve(req.problemFields, !byMoves)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.lim.Timeout)
	defer cancel()
	prob := search.Problem{Board: pr.b, Start: pr.start, Goal: pr.goal}
	find := func(ctx context.Context) (search.Solution, time.Duration, error) {
		return s.find(ctx, prob, byMoves)
	}
	var sol search.Solution
	var elapsed time.Duration
	if byMoves && pr.level != nil {
		sol, elapsed, err = pr.level.moves.get(ctx, find)
	} else {
		sol, elapsed, err = find(ctx)
	}
	if err != nil {
		return err
	}
	// Nothing is answered that the engine has not replayed.
	if final, err := pr.b.Replay(pr.start, sol.Jumps); err != nil || final != sol.Final {
		return fmt.Errorf("solution of %s does not replay: %v", pr.b.Line(pr.start), err)
	}
	return respond(w, func(buf io.Writer) error { return report.WriteSolve(buf, report.JSON, prob, sol, byMoves, elapsed) })
}

// grade answers POST /api/grade as pegs grade --position --format json
// does, for levels of at most Limits.GradePegs pegs.
func (s *Server) grade(w http.ResponseWriter, r *http.Request) error {
	var req gradeRequest
	if err := s.readRequest(w, r, &req); err != nil {
		return err
	}
	pr, err := s.resolve(req.problemFields, false)
	if err != nil {
		return err
	}
	if n := pr.start.Pegs(); n > s.lim.GradePegs {
		return tooBig("too many pegs: the level has %d, the server grades levels of at most %d (pegs grade has no limit)", n, s.lim.GradePegs)
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.lim.Timeout)
	defer cancel()
	release, err := s.acquire(ctx, 0)
	if err != nil {
		return err
	}
	defer release()
	lvl, err := generate.Grade(ctx, pr.b, pr.start, pr.goal, search.SolveOptions{Budget: search.Budget{Memory: s.slotMemory()}, Tables: &s.tables})
	if errors.Is(err, generate.ErrUnsolvable) {
		return tooBig("the level has no solution to goal %s: %v", pr.b.FormatGoal(pr.goal), err)
	}
	if err != nil {
		return err
	}
	if req.Level != "" {
		lvl.Name = req.Level // as pegs grade --levels names a level from its file
	}
	return respond(w, func(buf io.Writer) error {
		return report.WriteGrades(buf, report.JSON, pr.b, pr.goal, []generate.Level{lvl})
	})
}

// generate answers POST /api/generate as pegs generate does (a level
// pack), for at most Limits.Generate levels.
func (s *Server) generate(w http.ResponseWriter, r *http.Request) error {
	var req generateRequest
	if err := s.readRequest(w, r, &req); err != nil {
		return err
	}
	b, err := s.board(req.Board)
	if err != nil {
		return err
	}
	goal, err := goalOf(b, req.Goal, false)
	if err != nil {
		return err
	}
	n := max(req.Count, req.Pack)
	if req.Count < 0 || req.Pack < 0 || (req.Count > 0) == (req.Pack > 0) {
		return badRequest("give count or pack, one of them, a positive number")
	}
	if n > s.lim.Generate {
		return tooBig("%d levels: the server makes at most %d a request (pegs generate has no limit)", n, s.lim.Generate)
	}
	lo, hi, err := pegRange(b, req.Pegs)
	if err != nil {
		return err
	}
	if hi > s.lim.GradePegs {
		return tooBig("levels of %d-%d pegs: the server makes levels of at most %d pegs, each measured on its whole state space (pegs generate has no limit)", lo, hi, s.lim.GradePegs)
	}
	var shape generate.Shape
	if req.Shape != "" {
		if shape, err = generate.ParseShape(req.Shape); err != nil {
			return badRequest("shape: %v", err)
		}
	}
	seed := uint64(1)
	if req.Seed != nil {
		seed = *req.Seed
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.lim.Timeout)
	defer cancel()
	release, err := s.acquire(ctx, 0)
	if err != nil {
		return err
	}
	defer release()
	opt := generate.Options{Goal: goal, MinPegs: lo, MaxPegs: hi, Seed: seed, Workers: s.workers(), Memory: s.slotMemory(), Shape: shape, Symmetric: req.Symmetric}
	var levels []generate.Level
	if req.Count > 0 {
		levels, err = generate.Generate(ctx, b, n, opt)
	} else {
		levels, err = generate.Pack(ctx, b, n, opt)
	}
	if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) && !errors.Is(err, search.ErrMemory) {
		// The request cannot be met (too few levels of those pegs on the
		// board, say): the generator's error says why, as pegs generate
		// prints it.
		return tooBig("%v", err)
	}
	if err != nil {
		return err
	}
	return respond(w, func(buf io.Writer) error { return report.WriteLevels(buf, report.JSON, b, goal, seed, levels) })
}

// find solves prob in a slot: a solution with the fewest moves if
// byMoves, else any.
func (s *Server) find(ctx context.Context, prob search.Problem, byMoves bool) (search.Solution, time.Duration, error) {
	release, err := s.acquire(ctx, 0)
	if err != nil {
		return search.Solution{}, 0, err
	}
	defer release()
	t0 := time.Now()
	opt := search.SolveOptions{Budget: search.Budget{Workers: s.workers(), Memory: s.slotMemory()}, Tables: &s.tables}
	var sol search.Solution
	if byMoves {
		var ms search.MovesSolution
		ms, err = search.FewestMoves(ctx, prob, opt.Budget)
		sol = ms.Solution
	} else {
		sol, err = search.Decide(ctx, prob, opt)
	}
	return sol, time.Since(t0), err
}

// workers returns the goroutines of one layered search.
func (s *Server) workers() int {
	if s.cfg.Workers > 0 {
		return s.cfg.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// memo keeps a level's fewest-moves solution once found: the first request
// finds it while the others wait (as long as their deadlines allow).
type memo struct {
	lock    chan struct{} // held while finding
	done    bool
	sol     search.Solution
	elapsed time.Duration
}

func newMemo() *memo { return &memo{lock: make(chan struct{}, 1)} }

// get returns the solution, found by find if no request has found it yet.
func (m *memo) get(ctx context.Context, find func(context.Context) (search.Solution, time.Duration, error)) (search.Solution, time.Duration, error) {
	select {
	case m.lock <- struct{}{}:
	case <-ctx.Done():
		return search.Solution{}, 0, ctx.Err()
	}
	defer func() { <-m.lock }()
	if m.done {
		return m.sol, m.elapsed, nil
	}
	sol, elapsed, err := find(ctx)
	if err == nil {
		m.done, m.sol, m.elapsed = true, sol, elapsed
	}
	return sol, elapsed, err
}

// goalHole returns the label of goal's hole, or nil for one peg anywhere.
func goalHole(b *engine.Board, goal engine.Goal) *string {
	if goal.Kind != engine.OnePegAt {
		return nil
	}
	l := b.Label(goal.Hole)
	return &l
}
