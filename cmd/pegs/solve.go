package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"pegs/engine"
	"pegs/report"
	"pegs/search"
)

func runSolve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("solve", "--board B (--start H,...|--position P) [--goal G] [--format text|json]", stderr)
	var pf problemFlags
	var sf searchFlags
	pf.register(fs, true)
	sf.register(fs, "4GiB")
	format := fs.String("format", "text", "output format: text or json")
	metric := fs.String("metric", "jumps", "jumps: any solution, as jumps; moves: a solution with the fewest moves (a chain of jumps by one peg is one move), proved shortest")
	if err := parse(fs, args); err != nil {
		return err
	}
	b, start, goal, err := pf.load()
	if err != nil {
		return err
	}
	f, err := parseFormat(*format, report.Text, report.JSON)
	if err != nil {
		return err
	}
	budget, err := sf.load()
	if err != nil {
		return err
	}
	byMoves := false
	switch *metric {
	case "jumps":
	case "moves":
		byMoves = true
		if goal.Kind == engine.FewestPegs {
			return usagef("--metric moves needs a one-peg goal (any, center or a hole)")
		}
	default:
		return usagef("--metric %q: want jumps or moves", *metric)
	}
	t0 := time.Now()
	var sol search.Solution
	if byMoves {
		ms, err := search.FewestMoves(ctx, b, start, goal, search.ExploreOptions{Workers: sf.workers, Memory: budget, Progress: progress(stderr, "")})
		if err != nil {
			return err
		}
		sol = search.Solution{Solvable: ms.Solvable, Refuted: ms.Refuted, Jumps: ms.Jumps, Nodes: ms.Nodes, Final: start}
		if ms.Solvable {
			sol.Final, _ = b.Replay(start, ms.Jumps)
		}
	} else {
		var err error
		sol, err = search.Decide(ctx, search.Problem{Board: b, Start: start, Goal: goal}, search.ExploreOptions{Workers: sf.workers, Memory: budget, Progress: progress(stderr, "")})
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
	if f == report.JSON {
		return writeSolveJSON(stdout, b, start, goal, sol, byMoves, elapsed)
	}
	return writeSolveText(stdout, b, start, goal, sol, byMoves, elapsed)
}

func goalText(b *engine.Board, g engine.Goal) string {
	switch g.Kind {
	case engine.OnePeg:
		return "one peg anywhere"
	case engine.FewestPegs:
		return "fewest pegs"
	}
	return "one peg at " + b.Label(g.Hole)
}

func writeSolveText(w io.Writer, b *engine.Board, start engine.Position, goal engine.Goal, sol search.Solution, byMoves bool, elapsed time.Duration) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "board %s, %d pegs, goal: %s\n\n%s\n", b.Name(), start.Pegs(), goalText(b, goal), b.Picture(start))
	switch {
	case sol.Refuted:
		fmt.Fprintf(&sb, "no solution: the position class of the start differs from that of every goal position, so no sequence of jumps can reach it.\n")
	case !sol.Solvable && sol.Layered:
		fmt.Fprintf(&sb, "no solution: layer-by-layer searches forward from the start and backward from the goal share no position.\n")
	case !sol.Solvable:
		fmt.Fprintf(&sb, "no solution: a complete search of %d positions found none.\n", sol.Nodes)
	default:
		steps := b.FormatMoves(sol.Jumps)
		if !byMoves {
			steps = steps[:0]
			for _, j := range sol.Jumps {
				steps = append(steps, b.FormatJump(j))
			}
		}
		for i, st := range steps {
			fmt.Fprintf(&sb, "%3d. %s\n", i+1, st)
		}
		if byMoves {
			fmt.Fprintf(&sb, "\nNo solution has fewer moves: every position up to one move fewer was searched.\n")
		}
		fmt.Fprintf(&sb, "\n%s\n%d jumps (%d moves), %s left.\n", b.Picture(sol.Final), len(sol.Jumps), len(b.FormatMoves(sol.Jumps)), plural(sol.Final.Pegs(), "peg"))
	}
	fmt.Fprintf(&sb, "%d positions searched in %s.\n", sol.Nodes, elapsed.Round(time.Microsecond))
	_, err := io.WriteString(w, sb.String())
	return err
}

// solveJSON is the JSON output of pegs solve.
type solveJSON struct {
	Board     string   `json:"board"`
	Start     string   `json:"start"`
	Goal      string   `json:"goal"`
	Solvable  bool     `json:"solvable"`
	Refuted   bool     `json:"refuted_by_class"`
	Method    string   `json:"method"`
	Metric    string   `json:"metric"`
	Solution  []string `json:"solution"`
	Moves     int      `json:"moves"`
	Final     string   `json:"final"`
	PegsLeft  int      `json:"pegs_left"`
	Nodes     int64    `json:"nodes"`
	ElapsedMS float64  `json:"elapsed_ms"`
}

func writeSolveJSON(w io.Writer, b *engine.Board, start engine.Position, goal engine.Goal, sol search.Solution, byMoves bool, elapsed time.Duration) error {
	out := solveJSON{
		Board: b.Name(), Start: b.Line(start), Goal: b.FormatGoal(goal),
		Solvable: sol.Solvable, Refuted: sol.Refuted, Metric: "jumps",
		Solution: []string{}, Moves: len(b.FormatMoves(sol.Jumps)),
		Final: b.Line(sol.Final), PegsLeft: sol.Final.Pegs(), Nodes: sol.Nodes,
		ElapsedMS: float64(elapsed.Microseconds()) / 1000,
	}
	switch {
	case sol.Refuted:
		out.Method = "class"
	case sol.Layered || byMoves:
		out.Method = "layered"
	default:
		out.Method = "depth-first"
	}
	if byMoves {
		out.Metric = "moves"
		out.Solution = append(out.Solution, b.FormatMoves(sol.Jumps)...)
	} else {
		for _, j := range sol.Jumps {
			out.Solution = append(out.Solution, b.FormatJump(j))
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
