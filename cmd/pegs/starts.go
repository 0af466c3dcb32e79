package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"pegs/cmd/internal/cli"

	"pegs/report"
	"pegs/search"
)

func runStarts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs", "starts", "--board B [--goal any|complement|all] [--workers N] [--mem SIZE] [--format F] [--spill DIR|--resume DIR] [--keep]", stderr)
	var bf cli.BoardFlags
	bf.Register(fs)
	goalFlag := fs.String("goal", "all", "what the board picture marks: any (one peg anywhere), complement (one peg in the start hole) or all (both)")
	var sf cli.SearchFlags
	sf.Register(fs, search.DefaultExhaustiveMemory)
	format := fs.String("format", "text", "output format: text, markdown, csv or json")
	var spf spillFlags
	spf.register(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	sp, err := spf.load()
	if err != nil {
		return err
	}
	b, err := bf.Load()
	if err != nil {
		return err
	}
	switch *goalFlag {
	case "any", "complement", "all":
	default:
		return cli.Usagef("--goal %q: want any, complement or all", *goalFlag)
	}
	f, err := cli.ParseFormat(*format)
	if err != nil {
		return err
	}
	budget, err := sf.Load()
	if err != nil {
		return err
	}
	opt := search.ExploreOptions{Budget: search.Budget{Workers: sf.Workers, Memory: budget, Progress: progress(stderr, "starts: ")}, Spill: sp}
	results, err := search.Starts(ctx, b, opt, func(r search.StartResult) {
		if isTerminal(stderr) {
			fmt.Fprintf(stderr, "\rstart %s done%s\n", b.Label(r.Hole), strings.Repeat(" ", 40))
		}
	})
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		return err
	}
	if interrupted {
		fmt.Fprintf(stderr, "pegs: interrupted; the starts finished so far follow\n")
		if sp.Dir != "" {
			fmt.Fprintf(stderr, "pegs: %s keeps the runs so far; continue them with --resume %s\n", sp.Dir, sp.Dir)
		}
	}
	if werr := report.WriteStarts(stdout, f, b, *goalFlag, results); werr != nil {
		return werr
	}
	if interrupted {
		return cli.Reported{Err: err}
	}
	return err
}
