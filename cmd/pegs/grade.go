package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"pegs/cmd/internal/cli"

	"pegs/engine"
	"pegs/generate"
	"pegs/report"
	"pegs/search"
)

func runGrade(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs", "grade", "--board B (--position P | --levels FILE) [--goal G] [--format F]", stderr)
	var pf cli.ProblemFlags
	var sf cli.SearchFlags
	pf.BoardFlags.Register(fs)
	pf.RegisterGoal(fs, false)
	sf.Register(fs, search.DefaultMemory)
	position := fs.String("position", "", "the level: a picture or @FILE")
	levels := fs.String("levels", "", "a file of levels, one 'name picture' per line")
	format := fs.String("format", "text", "output format: text, markdown, csv or json")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	b, goal, err := pf.LoadBoardGoal()
	if err != nil {
		return err
	}
	f, err := cli.ParseFormat(*format)
	if err != nil {
		return err
	}
	budget, err := sf.Load()
	if err != nil {
		return err
	}
	type level struct {
		name string
		pos  engine.Position
	}
	var lv []level
	switch {
	case *position != "" && *levels != "":
		return cli.Usagef("give --position or --levels, not both")
	case *position != "":
		p, err := (&cli.PositionFlags{Position: *position}).Load(b)
		if err != nil {
			return err
		}
		lv = append(lv, level{"", p})
	case *levels != "":
		fh, err := cli.OpenFile("--levels", *levels, cli.MaxLevelsFile)
		if err != nil {
			return err
		}
		defer fh.Close()
		named, err := b.ReadLevels(fh)
		if _, ok := errors.AsType[cli.UsageError](err); ok {
			return err
		} else if err != nil {
			return cli.Usagef("--levels %s: %w", *levels, err)
		}
		for _, l := range named {
			lv = append(lv, level{l.Name, l.Position})
		}
	default:
		return cli.Usagef("give --position or --levels")
	}
	var rows []generate.Level
	write := func() error { return report.WriteGrades(stdout, f, b, goal, rows) }
	// Interrupted, the levels graded so far are kept.
	stopped := func(err error) error {
		if !errors.Is(err, context.Canceled) || len(rows) == 0 {
			return err
		}
		fmt.Fprintf(stderr, "pegs: interrupted; the %d levels graded so far follow\n", len(rows))
		if werr := write(); werr != nil {
			return werr
		}
		return cli.Reported{Err: err}
	}
	tables := &search.Tables{}
	failed := 0
	for _, l := range lv {
		lvl, err := generate.Grade(ctx, b, l.pos, goal, search.SolveOptions{Budget: search.Budget{Memory: budget}, Tables: tables})
		name := "level " + l.name
		if l.name == "" {
			name = "position"
		}
		if errors.Is(err, generate.ErrUnsolvable) {
			err = fmt.Errorf("%s has no solution to goal %s: %w", name, b.FormatGoal(goal), err)
		}
		switch {
		case err != nil && errors.Is(err, context.Canceled):
			return stopped(fmt.Errorf("%s: %w", name, err))
		case err != nil && *position != "":
			return err
		case err != nil:
			// The levels file goes on: the level is a row with the reason.
			failed++
			lvl = generate.Level{Board: b.Name(), Goal: b.FormatGoal(goal), Picture: b.Line(l.pos), Pegs: l.pos.Pegs(), Failure: err.Error()}
		}
		lvl.Name = l.name
		rows = append(rows, lvl)
	}
	if err := write(); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d levels could not be graded (their rows say why)", failed, len(rows))
	}
	return nil
}
