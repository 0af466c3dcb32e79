package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"pegs/cmd/internal/cli"

	"github.com/dustin/go-humanize"

	"pegs/report"
	"pegs/search"
	"pegs/search/atomicfile"
	"pegs/search/hint"
)

func runHint(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs", "hint", "--board B --position P [--start S --history JUMPS] [--goal center|any|HOLE] [--oracle FILE] [--format text|json]", stderr)
	var pf cli.ProblemFlags
	pf.BoardFlags.Register(fs)
	pf.RegisterGoal(fs, false)
	position := fs.String("position", "", "the position now: a picture or @FILE (default: the start after --history)")
	startFlag := fs.String("start", "", "the level's start: holes to vacate (such as d4) or a picture; with --history")
	history := fs.String("history", "", "the jumps played from --start, such as 'f4-d4, d2-d4' (chains allowed)")
	oracleFile := fs.String("oracle", "", "an oracle file from 'pegs oracle' for this level: answers without searching")
	format := fs.String("format", "text", "output format: text or json")
	mem := fs.String("mem", humanize.IBytes(search.DefaultMemory), "memory budget for the searches")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	f, err := cli.ParseFormat(*format, report.Text, report.JSON)
	if err != nil {
		return err
	}
	budget, err := cli.ParseMem(*mem)
	if err != nil {
		return err
	}
	pf.PositionFlags = cli.PositionFlags{Start: *startFlag, Position: *position}
	g, err := pf.Game(*history, true)
	if err != nil {
		return err
	}
	b, goal, p := g.Board, g.Goal, g.Position
	var hist *hint.History
	if g.Played {
		hist = &hint.History{Start: g.Start, Jumps: g.Jumps}
	}
	adv := hint.NewAdvisor(hint.Options{Memory: budget})
	defer adv.Close()
	if *oracleFile != "" {
		if st, err := os.Stat(*oracleFile); err == nil && st.IsDir() {
			return cli.Usagef("--oracle %s is a directory; give a file that 'pegs oracle --out FILE' wrote", *oracleFile)
		}
		fh, err := os.Open(*oracleFile)
		if err != nil {
			return fmt.Errorf("--oracle: %w", err)
		}
		o, err := hint.LoadOracle(fh, b)
		fh.Close()
		if err != nil {
			return fmt.Errorf("--oracle %s: %w", *oracleFile, err)
		}
		if o.Goal() != goal {
			return cli.Usagef("--oracle %s answers for goal %s, not %s", *oracleFile, b.FormatGoal(o.Goal()), b.FormatGoal(goal))
		}
		if hist != nil && hist.Start != o.Start() {
			return cli.Usagef("--oracle %s is for the level that starts %s, not --start %s", *oracleFile, b.Line(o.Start()), b.Line(hist.Start))
		}
		adv.AddOracle(o)
	}
	h, err := adv.Hint(ctx, b, p, goal, hist)
	if err != nil {
		return err
	}
	return report.WriteHint(stdout, f, b, p, goal, h)
}

func runOracle(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs", "oracle", "--board B (--start ...|--position ...) --goal G [--fewest] --out FILE", stderr)
	var pf cli.ProblemFlags
	var sf cli.SearchFlags
	pf.Register(fs, false)
	sf.Register(fs, search.DefaultExhaustiveMemory)
	out := fs.String("out", "", "file to write (required)")
	fewest := fs.Bool("fewest", false, "also store the fewest pegs of the dead ends of many pegs (a bigger file; every hint a lookup)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return cli.Usagef("--out is required")
	}
	if err := atomicfile.Check(*out); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	b, start, goal, err := pf.Load()
	if err != nil {
		return err
	}
	budget, err := sf.Load()
	if err != nil {
		return err
	}
	o, err := hint.NewOracle(ctx, search.Problem{Board: b, Start: start, Goal: goal}, search.Budget{Workers: sf.Workers, Memory: budget, Progress: progress(stderr, "")})
	if err != nil {
		return err
	}
	if *fewest {
		if err := o.AddFewest(ctx, search.Budget{Workers: sf.Workers, Memory: budget, Progress: progress(stderr, "")}); err != nil {
			return err
		}
	}
	if err := atomicfile.Write(*out, 0, o.Write); err != nil {
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
