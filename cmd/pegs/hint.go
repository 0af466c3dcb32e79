package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"pegs/engine"
	"pegs/report"
	"pegs/search"
)

func runHint(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("hint", "--board B --position P [--start S --history JUMPS] [--goal center|any|HOLE] [--oracle FILE] [--format text|json]", stderr)
	var pf problemFlags
	pf.boardFlags.register(fs)
	pf.registerGoal(fs, false)
	position := fs.String("position", "", "the position now: a picture or @FILE (default: the start after --history)")
	startFlag := fs.String("start", "", "the level's start: holes to vacate (such as d4) or a picture; with --history")
	history := fs.String("history", "", "the jumps played from --start, such as 'f4-d4, d2-d4' (chains allowed)")
	oracleFile := fs.String("oracle", "", "an oracle file from 'pegs oracle' for this level: answers without searching")
	format := fs.String("format", "text", "output format: text or json")
	mem := fs.String("mem", "4GiB", "memory budget for the searches")
	if err := parse(fs, args); err != nil {
		return err
	}
	b, goal, err := pf.loadBoardGoal()
	if err != nil {
		return err
	}
	f, err := parseFormat(*format, report.Text, report.JSON)
	if err != nil {
		return err
	}
	budget, err := parseMem(*mem)
	if err != nil {
		return err
	}
	var hist *search.History
	if *startFlag != "" {
		start, err := parseStartOrPicture(b, *startFlag)
		if err != nil {
			return err
		}
		jumps, err := b.ParseMoves(*history)
		if err != nil {
			return usagef("--history: %w", err)
		}
		hist = &search.History{Start: start, Jumps: jumps}
	} else if *history != "" {
		return usagef("--history needs --start")
	}
	var p engine.Position
	switch {
	case *position != "":
		pf := positionFlags{position: *position}
		if p, err = pf.load(b); err != nil {
			return err
		}
	case hist != nil:
		if p, err = b.Replay(hist.Start, hist.Jumps); err != nil {
			return usagef("--history: %w", err)
		}
	default:
		return usagef("give --position, or --start with --history")
	}
	if p == 0 {
		return usagef("the position has no pegs")
	}
	var oracle search.Winner
	if *oracleFile != "" {
		fh, err := os.Open(*oracleFile)
		if err != nil {
			return err
		}
		o, err := search.LoadOracle(fh, b)
		fh.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", *oracleFile, err)
		}
		if o.Goal() != goal {
			return usagef("--oracle %s answers for goal %s, not %s", *oracleFile, b.FormatGoal(o.Goal()), b.FormatGoal(goal))
		}
		if hist != nil && hist.Start != o.Start() {
			return usagef("--oracle %s is for the level that starts %s, not --start %s", *oracleFile, b.Line(o.Start()), b.Line(hist.Start))
		}
		oracle = o
	}
	h, err := search.Advise(ctx, b, p, goal, hist, oracle, search.Options{Memory: budget})
	if err != nil {
		return err
	}
	return writeHint(stdout, f, b, p, goal, h)
}

// parseStartOrPicture reads holes to vacate or a picture.
func parseStartOrPicture(b *engine.Board, s string) (engine.Position, error) {
	pf := positionFlags{start: s}
	if strings.ContainsAny(s, "o.") && !strings.ContainsAny(s, "0123456789") || strings.HasPrefix(s, "@") {
		pf = positionFlags{position: s}
	}
	return pf.load(b)
}

type hintJSON struct {
	Status         string   `json:"status"`
	Jump           *string  `json:"jump"`
	CenterPossible bool     `json:"center_possible"`
	GoalPossible   bool     `json:"goal_possible"`
	OnePegPossible bool     `json:"one_peg_possible"`
	Fewest         int      `json:"fewest_reachable"`
	Undo           int      `json:"undo"`
	Movable        []string `json:"movable"`
	Position       string   `json:"position"`
}

func statusText(b *engine.Board, goal engine.Goal, h search.Hint) string {
	hole := "goal"
	if c, ok := b.Centre(); ok && goal.Kind == engine.OnePegAt && goal.Hole == c {
		hole = "centre"
	} else if goal.Kind == engine.OnePegAt {
		hole = b.Label(goal.Hole)
	}
	switch h.Status {
	case search.GoalPossible:
		if goal.Kind == engine.OnePeg {
			return "one peg still possible"
		}
		return hole + " still possible"
	case search.OnePegOnly:
		return hole + " out of reach; one peg still possible"
	case search.Won:
		return "won"
	}
	return "dead end"
}

func writeHint(w io.Writer, f report.Format, b *engine.Board, p engine.Position, goal engine.Goal, h search.Hint) error {
	movable := []string{}
	for _, m := range h.Movable {
		movable = append(movable, b.Label(m))
	}
	centre := false
	if c, ok := b.Centre(); ok {
		centre = h.GoalPossible && goal.Kind == engine.OnePegAt && goal.Hole == c
	}
	if f == report.JSON {
		out := hintJSON{Status: statusText(b, goal, h), CenterPossible: centre, GoalPossible: h.GoalPossible,
			OnePegPossible: h.OnePegPossible, Fewest: h.Fewest, Undo: h.Undo, Movable: movable, Position: b.Line(p)}
		if h.Jump != nil {
			s := b.FormatJump(*h.Jump)
			out.Jump = &s
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s\n%s\n", b.Picture(p), statusText(b, goal, h))
	if h.Jump != nil {
		fmt.Fprintf(&sb, "hint: %s\n", b.FormatJump(*h.Jump))
	}
	if h.Status == search.DeadEnd {
		fmt.Fprintf(&sb, "fewest pegs still reachable: %d\n", h.Fewest)
	}
	if h.Undo > 0 {
		fmt.Fprintf(&sb, "take back %s to make the goal possible again\n", plural(h.Undo, "jump"))
	}
	jumpers := strings.Join(movable, " ")
	if jumpers == "" {
		jumpers = "none"
	}
	fmt.Fprintf(&sb, "pegs that can jump: %s\n", jumpers)
	_, err := io.WriteString(w, sb.String())
	return err
}

func runOracle(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("oracle", "--board B (--start ...|--position ...) --goal G [--fewest] --out FILE", stderr)
	var pf problemFlags
	var sf searchFlags
	pf.register(fs, false)
	sf.register(fs, "8GiB")
	out := fs.String("out", "", "file to write (required)")
	fewest := fs.Bool("fewest", false, "also store the fewest pegs of the dead ends of many pegs (a bigger file; every hint a lookup)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out is required")
	}
	b, start, goal, err := pf.load()
	if err != nil {
		return err
	}
	budget, err := sf.load()
	if err != nil {
		return err
	}
	o, err := search.NewOracle(ctx, search.Problem{Board: b, Start: start, Goal: goal}, search.ExploreOptions{Workers: sf.workers, Memory: budget, Progress: progress(stderr, "")})
	if err != nil {
		return err
	}
	if *fewest {
		if err := o.AddFewest(ctx, search.ExploreOptions{Workers: sf.workers, Memory: budget, Progress: progress(stderr, "")}); err != nil {
			return err
		}
	}
	fh, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := o.Write(fh); err != nil {
		fh.Close()
		return err
	}
	if err := fh.Close(); err != nil {
		return err
	}
	st, _ := os.Stat(*out)
	more := ""
	if *fewest {
		more = fmt.Sprintf(" and the fewest pegs of %d dead ends", o.FewestLen())
	}
	fmt.Fprintf(stdout, "%s: %d winnable positions of board %s toward %s%s, %d bytes\n", *out, o.Len(), b.Name(), b.FormatGoal(goal), more, st.Size())
	return nil
}
