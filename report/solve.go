package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"pegs/search"
)

// WriteSolve writes a solution of prob found in elapsed time, or why there
// is none: in text the jumps (with byMoves, the moves: chains of jumps by
// one peg) and the final position, in JSON SolveJSON.
func WriteSolve(w io.Writer, f Format, prob search.Problem, sol search.Solution, byMoves bool, elapsed time.Duration) error {
	if f == JSON {
		return encodeJSON(w, solveJSON(prob, sol, byMoves, elapsed))
	}
	b, start := prob.Board, prob.Start
	var sb strings.Builder
	fmt.Fprintf(&sb, "board %s, %d pegs, goal: %s\n\n%s\n", b.Name(), start.Pegs(), goalText(b, prob.Goal), b.Picture(start))
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
			fmt.Fprintf(&sb, "\nNo solution has fewer moves: searched from both ends, the two searches met first here.\n")
		}
		fmt.Fprintf(&sb, "\n%s\n%d jumps (%d moves), %s left.\n", b.Picture(sol.Final), len(sol.Jumps), len(b.FormatMoves(sol.Jumps)), plural(sol.Final.Pegs(), "peg"))
	}
	fmt.Fprintf(&sb, "%d positions searched in %s.\n", sol.Nodes, elapsed.Round(time.Microsecond))
	_, err := io.WriteString(w, sb.String())
	return err
}

// SolveJSON is the JSON output of pegs solve.
type SolveJSON struct {
	Board    string `json:"board"`
	Start    string `json:"start"`
	Goal     string `json:"goal"`
	Solvable bool   `json:"solvable"`
	// Refuted says the position classes alone show there is no solution.
	Refuted bool `json:"refuted_by_class"`
	// Method is what decided: "class", "depth-first" or "layered".
	Method string `json:"method"`
	// Metric is "jumps" or "moves" (a chain of jumps by one peg is one
	// move); Solution lists one or the other.
	Metric    string   `json:"metric"`
	Solution  []string `json:"solution"`
	Moves     int      `json:"moves"`
	Final     string   `json:"final"`
	PegsLeft  int      `json:"pegs_left"`
	Nodes     int64    `json:"nodes"`
	ElapsedMS float64  `json:"elapsed_ms"`
}

func solveJSON(prob search.Problem, sol search.Solution, byMoves bool, elapsed time.Duration) SolveJSON {
	b := prob.Board
	out := SolveJSON{
		Board: b.Name(), Start: b.Line(prob.Start), Goal: b.FormatGoal(prob.Goal),
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
	return out
}

// plural writes n and word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
