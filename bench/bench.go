// Package bench measures the solver strategies of package search side by
// side on the same problems, checks that their answers agree, and writes
// results as tables or in Go's benchmark format, which benchstat reads.
package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/perf/benchmath"

	"pegs/engine"
	"pegs/generate"
	"pegs/search"
)

// Problem is one position to solve toward a goal, by name.
type Problem struct {
	Name string
	search.Problem
}

// Answer is what a strategy found: whether the goal can be met and, for
// the strategies that count them, the winnable positions.
type Answer struct {
	Solvable  bool
	Winnable  int64 // -1 when the strategy does not count them
	Positions int64 // positions the strategy visited
}

// Strategy is one way to decide a problem.
type Strategy struct {
	Name     string
	Parallel bool // runs a worker pool: measured at 1..GOMAXPROCS workers
	Run      func(ctx context.Context, p Problem, workers int) (Answer, error)
}

// solveWith returns the depth-first strategy s, whose runs share their
// endgame tables: the first run on a board (the warm-up) builds them.
func solveWith(s search.Strategy, tables *search.Tables) func(context.Context, Problem, int) (Answer, error) {
	return func(ctx context.Context, p Problem, _ int) (Answer, error) {
		sol, err := search.Solve(ctx, p.Problem, search.SolveOptions{Strategy: s, Tables: tables})
		return Answer{Solvable: sol.Solvable, Winnable: -1, Positions: sol.Nodes}, err
	}
}

// Strategies returns every strategy, in the order tables list them.
func Strategies() []Strategy {
	tables := &search.Tables{}
	return []Strategy{
		{Name: "backtrack", Run: solveWith(search.Backtrack, tables)},
		{Name: "dfs-table", Run: solveWith(search.DeadTable, tables)},
		{Name: "dfs-symmetry", Run: solveWith(search.SymmetryTable, tables)},
		{Name: "dfs-pruned", Run: solveWith(search.Pruned, tables)},
		{Name: "dfs-beam", Run: solveWith(search.Best, tables)},
		{Name: "dfs+layered", Parallel: true, Run: func(ctx context.Context, p Problem, w int) (Answer, error) {
			sol, err := search.Decide(ctx, p.Problem, search.SolveOptions{Budget: search.Budget{Workers: w}, Tables: tables})
			return Answer{Solvable: sol.Solvable, Winnable: -1, Positions: sol.Nodes}, err
		}},
		{Name: "layered", Parallel: true, Run: func(ctx context.Context, p Problem, w int) (Answer, error) {
			a, err := search.Explore(ctx, p.Problem, search.ExploreOptions{Budget: search.Budget{Workers: w}})
			if err != nil {
				return Answer{}, err
			}
			return Answer{Solvable: a.Solutions.Sign() > 0, Winnable: a.Winnable, Positions: a.Reachable}, nil
		}},
		{Name: "bidirectional", Parallel: true, Run: func(ctx context.Context, p Problem, w int) (Answer, error) {
			ws, err := search.Winnable(ctx, p.Problem, search.Budget{Workers: w})
			if err != nil {
				return Answer{}, err
			}
			var reached int64
			for _, l := range ws.Layers {
				reached += l.Reachable
			}
			return Answer{Solvable: ws.Contains(p.Start), Winnable: ws.Winnable, Positions: reached}, nil
		}},
		{Name: "fewest-moves", Parallel: true, Run: func(ctx context.Context, p Problem, w int) (Answer, error) {
			ms, err := search.FewestMoves(ctx, p.Problem, search.Budget{Workers: w})
			if err != nil {
				return Answer{}, err
			}
			win := ms.Winnable
			if ms.Refuted {
				win = 0
			}
			return Answer{Solvable: ms.Solvable, Winnable: win, Positions: ms.Nodes}, nil
		}},
	}
}

// Select returns the strategies named in a comma-separated list, or all for
// an empty one.
func Select(names string) ([]Strategy, error) {
	all := Strategies()
	if strings.TrimSpace(names) == "" {
		return all, nil
	}
	var out []Strategy
	for _, n := range strings.Split(names, ",") {
		i := slices.IndexFunc(all, func(s Strategy) bool { return s.Name == strings.TrimSpace(n) })
		if i < 0 {
			var known []string
			for _, s := range all {
				known = append(known, s.Name)
			}
			return nil, fmt.Errorf("unknown strategy %q (want %s)", n, strings.Join(known, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}

// Suites lists the built-in problem suites.
var Suites = []string{"classic", "triangle", "english", "french", "generated", "midgame"}

// Suite returns a built-in suite's problems, or those of a level file
// (@FILE: one "name picture" per line, on board b). The generated suite is
// ten English levels of 8 to 14 pegs from the generator, seed 1; midgame
// is the positions of six random English games (seed 1) after eight jumps
// (24 pegs), to the centre: some still can reach it, which depth first
// shows in milliseconds, and some cannot, which it refutes in about a
// second, where a layered search takes a third of that.
func Suite(name string, b *engine.Board) ([]Problem, error) {
	switch name {
	case "classic":
		eng := engine.English()
		g, _ := eng.ParseGoal("center")
		var out []Problem
		for _, l := range engine.ClassicLevels() {
			out = append(out, Problem{l.Name, search.Problem{Board: eng, Start: l.Position, Goal: g}})
		}
		return out, nil
	case "triangle":
		tri, _ := engine.Lookup("triangle")
		var out []Problem
		for h := range tri.Holes() {
			out = append(out, Problem{"vacate-" + tri.Label(h), search.Problem{Board: tri, Start: tri.Full() &^ (1 << uint(h)), Goal: engine.Goal{Kind: engine.OnePeg}}})
		}
		return out, nil
	case "english":
		eng := engine.English()
		g, _ := eng.ParseGoal("center")
		return []Problem{{"centre", search.Problem{Board: eng, Start: eng.Start(), Goal: g}}}, nil
	case "french":
		fr := engine.French()
		var out []Problem
		for _, h := range []string{"c1", "d2", "d3"} {
			p, _ := fr.Vacate(h)
			out = append(out, Problem{"vacate-" + h, search.Problem{Board: fr, Start: p, Goal: engine.Goal{Kind: engine.OnePeg}}})
		}
		return out, nil
	case "midgame":
		eng := engine.English()
		g, _ := eng.ParseGoal("center")
		rng := rand.New(rand.NewPCG(1, 2))
		var out []Problem
		for len(out) < 6 {
			p := eng.Start()
			for range 8 {
				moves := eng.Moves(nil, p)
				p = p.Apply(moves[rng.IntN(len(moves))]) // 24 pegs or more always have a jump
			}
			out = append(out, Problem{fmt.Sprintf("game-%d", len(out)+1), search.Problem{Board: eng, Start: p, Goal: g}})
		}
		return out, nil
	case "generated":
		eng := engine.English()
		g, _ := eng.ParseGoal("center")
		levels, err := generate.Generate(context.Background(), eng, 10, generate.Options{Goal: g, MinPegs: 8, MaxPegs: 14, Seed: 1, Workers: runtime.GOMAXPROCS(0)})
		if err != nil {
			return nil, err
		}
		var out []Problem
		for i, l := range levels {
			out = append(out, Problem{fmt.Sprintf("gen-%02d", i+1), search.Problem{Board: eng, Start: l.Position(), Goal: g}})
		}
		return out, nil
	}
	file, ok := strings.CutPrefix(name, "@")
	if !ok {
		return nil, fmt.Errorf("unknown suite %q (want %s, or @FILE)", name, strings.Join(Suites, ", "))
	}
	return levelFile(file, b)
}

func levelFile(path string, b *engine.Board) ([]Problem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Levels(f, path, b)
}

// Levels reads the problems of a level file on board b (see
// engine.Board.ReadLevels) from r, name naming it in errors, each toward
// the centre where the board has one, else one peg anywhere.
func Levels(r io.Reader, name string, b *engine.Board) ([]Problem, error) {
	levels, err := b.ReadLevels(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	goal := engine.Goal{Kind: engine.OnePeg}
	if c, ok := b.Centre(); ok {
		goal = engine.Goal{Kind: engine.OnePegAt, Hole: c}
	}
	var out []Problem
	for _, l := range levels {
		out = append(out, Problem{l.Name, search.Problem{Board: b, Start: l.Position, Goal: goal}})
	}
	return out, nil
}

// Quick is the quick mode of pegs bench and of the report: one timed run,
// 3 s allowed per run, 1 and 2 workers.
func Quick() Options {
	return Options{Runs: 1, Timeout: 3 * time.Second, Workers: []int{1, 2}}
}

// Options tune a run.
type Options struct {
	Runs    int           // timed runs after one warm-up; default 3
	Timeout time.Duration // per run; a strategy that passes it is reported, not dropped
	// Workers lists the worker counts for parallel strategies; default
	// 1..GOMAXPROCS.
	Workers []int
	// Progress, if set, hears of each measurement as it starts.
	Progress func(problem, strategy string, workers int)
}

// Result is the measurement of one strategy on one problem.
type Result struct {
	Problem, Strategy string
	Workers           int
	TimedOut          bool
	Answer            Answer
	Runs              []time.Duration
	Median, Min, Max  time.Duration
	Allocs, Bytes     uint64 // per run
	PeakHeap          uint64
}

// PositionsPerSecond is the visiting rate at the median run.
func (r Result) PositionsPerSecond() float64 {
	if r.Median <= 0 {
		return 0
	}
	return float64(r.Answer.Positions) / r.Median.Seconds()
}

// ErrDisagree reports strategies that answered a problem differently.
var ErrDisagree = errors.New("strategies disagree")

// Run measures every strategy on every problem and cross-checks their
// answers: a disagreement stops the run with ErrDisagree.
func Run(ctx context.Context, problems []Problem, strategies []Strategy, opt Options) ([]Result, error) {
	if opt.Runs <= 0 {
		opt.Runs = 3
	}
	if len(opt.Workers) == 0 {
		for w := 1; w <= runtime.GOMAXPROCS(0); w++ {
			opt.Workers = append(opt.Workers, w)
		}
	}
	var out []Result
	for _, p := range problems {
		var first []Result
		for _, s := range strategies {
			workers := []int{1}
			if s.Parallel {
				workers = opt.Workers
			}
			for _, w := range workers {
				if err := ctx.Err(); err != nil {
					return out, err
				}
				if opt.Progress != nil {
					opt.Progress(p.Name, s.Name, w)
				}
				r, err := measure(ctx, p, s, w, opt)
				if err != nil {
					return out, fmt.Errorf("%s on %s: %w", s.Name, p.Name, err)
				}
				if !r.TimedOut {
					for _, o := range first {
						if o.Answer.Solvable != r.Answer.Solvable ||
							o.Answer.Winnable >= 0 && r.Answer.Winnable >= 0 && o.Answer.Winnable != r.Answer.Winnable {
							return append(out, r), fmt.Errorf("%w on %s: %s says solvable=%v winnable=%d, %s says solvable=%v winnable=%d",
								ErrDisagree, p.Name, o.Strategy, o.Answer.Solvable, o.Answer.Winnable, s.Name, r.Answer.Solvable, r.Answer.Winnable)
						}
					}
					first = append(first, r)
				}
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// measure runs one strategy: a warm-up, then opt.Runs timed runs.
func measure(ctx context.Context, p Problem, s Strategy, workers int, opt Options) (Result, error) {
	r := Result{Problem: p.Name, Strategy: s.Name, Workers: workers}
	run := func() (Answer, time.Duration, bool, error) {
		rctx, cancel := ctx, context.CancelFunc(func() {})
		if opt.Timeout > 0 {
			rctx, cancel = context.WithTimeout(ctx, opt.Timeout)
		}
		defer cancel()
		t0 := time.Now()
		a, err := s.Run(rctx, p, workers)
		d := time.Since(t0)
		if err != nil && rctx.Err() != nil && ctx.Err() == nil {
			return a, d, true, nil
		}
		return a, d, false, err
	}
	if _, _, timedOut, err := run(); err != nil || timedOut {
		r.TimedOut = timedOut
		return r, err
	}
	runtime.GC() // the warm-up's garbage is no part of the runs' peak heap
	stop := watchHeap(&r.PeakHeap)
	before := readAllocs()
	for range opt.Runs {
		a, d, timedOut, err := run()
		if err != nil {
			stop()
			return r, err
		}
		if timedOut {
			r.TimedOut = true
			break
		}
		r.Answer = a
		r.Runs = append(r.Runs, d)
	}
	stop()
	after := readAllocs()
	if n := uint64(len(r.Runs)); n > 0 {
		r.Allocs = (after.objects - before.objects) / n
		r.Bytes = (after.bytes - before.bytes) / n
		r.Median, r.Min, r.Max = summarize(r.Runs)
	}
	return r, nil
}

// summarize returns the median, the least and the greatest of runs, which
// must not be empty. The median is benchmath's (AssumeNothing, as
// benchstat takes it): for an even count, the mean of the two middle runs,
// where this package once took the greater of them, sorted[len/2].
func summarize(runs []time.Duration) (median, least, most time.Duration) {
	xs := make([]float64, len(runs))
	for i, d := range runs {
		xs[i] = float64(d)
	}
	s := benchmath.NewSample(xs, &benchmath.DefaultThresholds) // sorts xs
	c := benchmath.AssumeNothing.Summary(s, 0.95).Center
	return time.Duration(math.Round(c)), time.Duration(s.Values[0]), time.Duration(s.Values[len(s.Values)-1])
}

// allocs are the heap allocations of the program so far.
type allocs struct{ objects, bytes uint64 }

// readAllocs reads the heap allocations so far from runtime/metrics, as
// MemStats.Mallocs and TotalAlloc count them. It collects garbage first:
// runtime/metrics counts a small object only when its span leaves a P's
// cache, which a collection forces (ReadMemStats stops the world to flush
// the caches instead); without it, a strategy that allocates a few
// kilobytes a run reads as none or as tens of kilobytes.
func readAllocs() allocs {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/allocs:objects"}, {Name: "/gc/heap/tiny/allocs:objects"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	// MemStats.Mallocs counts tiny allocations too; the first metric
	// counts only the blocks that hold them.
	return allocs{objects: s[0].Value.Uint64() + s[1].Value.Uint64(), bytes: s[2].Value.Uint64()}
}

// watchHeap samples the heap's objects (live, or dead and not yet swept:
// MemStats.HeapAlloc) from runtime/metrics every 20 ms and once more when
// stopped, keeping the peak. Unlike ReadMemStats, a read does not stop the
// world; it misses the objects allocated from the spans a P holds in its
// cache, at most a span of each size class per P: kilobytes, which a
// search's peak of megabytes does not notice.
func watchHeap(peak *uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			*peak = max(*peak, s[0].Value.Uint64())
			select {
			case <-done:
				metrics.Read(s)
				*peak = max(*peak, s[0].Value.Uint64())
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
