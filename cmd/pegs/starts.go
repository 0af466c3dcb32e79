package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"pegs/report"
	"pegs/search"
)

func runStarts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("starts", "--board B [--goal any|complement|all] [--workers N] [--mem SIZE] [--format F]", stderr)
	var bf boardFlags
	bf.register(fs)
	goalFlag := fs.String("goal", "all", "what the board picture marks: any (one peg anywhere), complement (one peg in the start hole) or all (both)")
	var sf searchFlags
	sf.register(fs, search.DefaultExhaustiveMemory)
	format := fs.String("format", "text", "output format: text, markdown, csv or json")
	if err := parse(fs, args); err != nil {
		return err
	}
	b, err := bf.load()
	if err != nil {
		return err
	}
	switch *goalFlag {
	case "any", "complement", "all":
	default:
		return usagef("--goal %q: want any, complement or all", *goalFlag)
	}
	f, err := parseFormat(*format)
	if err != nil {
		return err
	}
	budget, err := sf.load()
	if err != nil {
		return err
	}
	opt := search.Options{Workers: sf.workers, Memory: budget, Progress: progress(stderr, "starts: ")}
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
	}
	if werr := report.WriteStarts(stdout, f, b, *goalFlag, results); werr != nil {
		return werr
	}
	if interrupted {
		return reported{err}
	}
	return err
}
