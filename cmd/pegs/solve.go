package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"pegs/cmd/internal/cli"

	"pegs/engine"
	"pegs/report"
	"pegs/search"
)

func runSolve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs", "solve", "--board B (--start H,...|--position P) [--goal G] [--format text|json]", stderr)
	var pf cli.ProblemFlags
	// A solve is mostly depth first, within a few hundred kilobytes: the
	// collector's early pace (cli.LimitHeap) cost it a collection before
	// it had begun, a fifth of the page faults of the whole process
	// (English centre game: 1,246 -> 1,030). The memory limit still holds
	// for a layered search.
	sf := cli.SearchFlags{Many: true}
	pf.Register(fs, true)
	sf.Register(fs, search.DefaultMemory)
	format := fs.String("format", "text", "output format: text or json")
	metric := fs.String("metric", "jumps", "jumps: any solution, as jumps; moves: a solution with the fewest moves (a chain of jumps by one peg is one move), proved shortest")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	b, start, goal, err := pf.Load()
	if err != nil {
		return err
	}
	f, err := cli.ParseFormat(*format, report.Text, report.JSON)
	if err != nil {
		return err
	}
	budget, err := sf.Load()
	if err != nil {
		return err
	}
	byMoves := false
	switch *metric {
	case "jumps":
	case "moves":
		byMoves = true
		if goal.Kind == engine.FewestPegs {
			return cli.Usagef("--metric moves needs a one-peg goal (any, center or a hole)")
		}
	default:
		return cli.Usagef("--metric %q: want jumps or moves", *metric)
	}
	t0 := time.Now()
	var sol search.Solution
	if byMoves {
		ms, err := search.FewestMoves(ctx, search.Problem{Board: b, Start: start, Goal: goal}, search.Budget{Workers: sf.Workers, Memory: budget, Progress: progress(stderr, "")})
		if err != nil {
			return err
		}
		sol = ms.Solution
	} else {
		var err error
		sol, err = search.Decide(ctx, search.Problem{Board: b, Start: start, Goal: goal}, search.SolveOptions{Budget: search.Budget{Workers: sf.Workers, Memory: budget, Progress: progress(stderr, "")}})
		if err != nil {
			return err
		}
	}
	elapsed := time.Since(t0)
	// Replay once more here: nothing is printed that the engine has not
	// checked.
	final, err := b.Replay(start, sol.Jumps)
	if err != nil || final != sol.Final {
		return fmt.Errorf("solution does not replay: %v", err)
	}
	return report.WriteSolve(stdout, f, search.Problem{Board: b, Start: start, Goal: goal}, sol, byMoves, elapsed)
}
