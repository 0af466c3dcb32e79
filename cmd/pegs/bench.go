package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"pegs/cmd/internal/cli"

	"pegs/bench"
	"pegs/report"
)

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs", "bench", "[--suite classic|triangle|english|french|generated|midgame|@FILE] [--strategies a,b] [--runs N] [--timeout D] [--quick] [--format F]", stderr)
	var bf cli.BoardFlags
	bf.Register(fs)
	suite := fs.String("suite", "classic", "problems: classic, triangle, english, french, generated, midgame, or @FILE (lines 'name picture' on --board)")
	strategies := fs.String("strategies", "", "comma-separated strategies (default: all): backtrack, dfs-table, dfs-symmetry, dfs-pruned, dfs-beam, dfs+layered, layered, bidirectional, fewest-moves")
	runs := fs.Int("runs", 3, "timed runs after one warm-up")
	timeout := fs.Duration("timeout", time.Minute, "time allowed per run; a strategy that passes it is reported as timed out")
	quick := fs.Bool("quick", false, "one timed run, 3 s timeout, workers 1 and 2 only")
	format := fs.String("format", "text", "output format: text, markdown, csv, json or benchfmt (for benchstat)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	benchfmt := *format == "benchfmt"
	var f report.Format
	if !benchfmt {
		var err error
		if f, err = cli.ParseFormat(*format); err != nil {
			return err
		}
	}
	b, err := bf.Load()
	if err != nil {
		return err
	}
	var problems []bench.Problem
	if file, ok := strings.CutPrefix(*suite, "@"); ok {
		var f io.ReadCloser
		if f, err = cli.OpenFile("--suite", file, cli.MaxLevelsFile); err != nil {
			return err
		}
		problems, err = bench.Levels(f, file, b)
		f.Close()
	} else {
		problems, err = bench.Suite(*suite, b)
	}
	if err != nil {
		if ue, ok := errors.AsType[cli.UsageError](err); ok {
			return ue
		}
		var pe *os.PathError
		if errors.As(err, &pe) {
			return err
		}
		return cli.UsageError{Err: err}
	}
	strats, err := bench.Select(*strategies)
	if err != nil {
		return cli.UsageError{Err: err}
	}
	if *runs < 1 || *timeout <= 0 {
		return cli.Usagef("--runs and --timeout must be positive")
	}
	opt := bench.Options{Runs: *runs, Timeout: *timeout}
	if *quick {
		opt = bench.Quick()
	}
	if isTerminal(stderr) {
		opt.Progress = func(p, s string, w int) { fmt.Fprintf(stderr, "\r%-60s", fmt.Sprintf("%s: %s, %d workers", p, s, w)) }
	}
	results, err := bench.Run(ctx, problems, strats, opt)
	if opt.Progress != nil {
		fmt.Fprintf(stderr, "\r%-60s\r", "")
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	write := func() error { return report.WriteBench(stdout, f, results) }
	if benchfmt {
		write = func() error { return bench.WriteBenchfmt(stdout, results) }
	}
	if werr := write(); werr != nil {
		return werr
	}
	return err
}
