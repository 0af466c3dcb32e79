package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"pegs/cmd/internal/cli"

	"pegs/report/build"
	"pegs/search"
)

func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs", "report", "--out DIR [--quick|--full] [--compare OLD_DIR] [--seed S] [--workers N] [--mem SIZE] [--spill DIR]", stderr)
	out := fs.String("out", "", "directory to write the report into (index.md, index.html, figures/, data/)")
	quick := fs.Bool("quick", true, "the quick report: minutes on 2 cores")
	full := fs.Bool("full", false, "add exact counts for every English start, the French starts, larger boards, a larger level pool and longer benchmarks (hours)")
	seed := fs.Uint64("seed", 1, "seed of the generated levels")
	compare := fs.String("compare", "", "compare the solver timings with those of the earlier report in `OLD_DIR` (its data/bench-runs.json), as benchstat does")
	spillDir := fs.String("spill", "", "analyse the boards over --mem again with their layers as files under `DIR` (see explore --spill)")
	noEstimate := fs.Bool("no-disk-estimate", false, "with --spill, start those runs without estimating the disk they need at most (see explore)")
	var sf cli.SearchFlags
	sf.Register(fs, search.DefaultExhaustiveMemory)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return cli.Usagef("--out DIR is required")
	}
	if *noEstimate && *spillDir == "" {
		return cli.Usagef("--no-disk-estimate needs --spill DIR")
	}
	quickSet := false
	fs.Visit(func(f *flag.Flag) { quickSet = quickSet || f.Name == "quick" })
	if *full && quickSet && *quick {
		return cli.Usagef("give --quick or --full, not both")
	}
	if *compare != "" {
		if _, err := os.Stat(filepath.Join(*compare, "data", "bench-runs.json")); err != nil {
			return cli.Usagef("--compare %s: no earlier report's timings there (%v)", *compare, err)
		}
	}
	budget, err := sf.Load()
	if err != nil {
		return err
	}
	opt := build.Options{Full: *full, Seed: *seed, Workers: sf.Workers, Memory: budget, Spill: *spillDir, NoDiskEstimate: *noEstimate, Compare: *compare}
	if isTerminal(stderr) {
		opt.Progress = func(step string) { fmt.Fprintf(stderr, "\r\033[K%s", step) }
	}
	err = build.Report(ctx, *out, opt)
	if opt.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	index := filepath.Join(*out, "index.html")
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "pegs: interrupted; the finished sections are in %s\n", index)
		return cli.Reported{Err: err}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s and %s\n", filepath.Join(*out, "index.md"), index)
	return nil
}
