package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"pegs/bench"
	"pegs/report"
)

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", "[--suite classic|triangle|english|french|generated|midgame|@FILE] [--strategies a,b] [--runs N] [--timeout D] [--quick] [--format F]", stderr)
	var bf boardFlags
	bf.register(fs)
	suite := fs.String("suite", "classic", "problems: classic, triangle, english, french, generated, midgame, or @FILE (lines 'name picture' on --board)")
	strategies := fs.String("strategies", "", "comma-separated strategies (default: all): backtrack, dfs-table, dfs-symmetry, dfs-pruned, dfs-beam, dfs+layered, layered, bidirectional, fewest-moves")
	runs := fs.Int("runs", 3, "timed runs after one warm-up")
	timeout := fs.Duration("timeout", time.Minute, "time allowed per run; a strategy that passes it is reported as timed out")
	quick := fs.Bool("quick", false, "one timed run, 3 s timeout, workers 1 and 2 only")
	format := fs.String("format", "text", "output format: text, markdown, csv, json or benchfmt (for benchstat)")
	if err := parse(fs, args); err != nil {
		return err
	}
	benchfmt := *format == "benchfmt"
	var f report.Format
	if !benchfmt {
		var err error
		if f, err = parseFormat(*format); err != nil {
			return err
		}
	}
	b, err := bf.load()
	if err != nil {
		return err
	}
	problems, err := bench.Suite(*suite, b)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return err
		}
		return usageError{err: err}
	}
	strats, err := bench.Select(*strategies)
	if err != nil {
		return usageError{err: err}
	}
	if *runs < 1 || *timeout <= 0 {
		return usagef("--runs and --timeout must be positive")
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
	if werr := writeBench(stdout, f, benchfmt, results); werr != nil {
		return werr
	}
	return err
}

func writeBench(w io.Writer, f report.Format, benchfmt bool, results []bench.Result) error {
	if benchfmt {
		return bench.WriteBenchfmt(w, results)
	}
	switch f {
	case report.JSON:
		type row struct {
			Problem   string  `json:"problem"`
			Strategy  string  `json:"strategy"`
			Workers   int     `json:"workers"`
			TimedOut  bool    `json:"timed_out"`
			Solvable  bool    `json:"solvable"`
			Winnable  int64   `json:"winnable"`
			Positions int64   `json:"positions"`
			RunsNS    []int64 `json:"runs_ns"`
			MedianNS  int64   `json:"median_ns"`
			MinNS     int64   `json:"min_ns"`
			MaxNS     int64   `json:"max_ns"`
			PerSecond float64 `json:"positions_per_second"`
			Allocs    uint64  `json:"allocs_per_op"`
			Bytes     uint64  `json:"bytes_per_op"`
			PeakHeapB uint64  `json:"peak_heap_bytes"`
		}
		out := []row{}
		for _, r := range results {
			x := row{Problem: r.Problem, Strategy: r.Strategy, Workers: r.Workers, TimedOut: r.TimedOut,
				Solvable: r.Answer.Solvable, Winnable: r.Answer.Winnable, Positions: r.Answer.Positions,
				MedianNS: r.Median.Nanoseconds(), MinNS: r.Min.Nanoseconds(), MaxNS: r.Max.Nanoseconds(),
				PerSecond: r.PositionsPerSecond(), Allocs: r.Allocs, Bytes: r.Bytes, PeakHeapB: r.PeakHeap, RunsNS: []int64{}}
			for _, d := range r.Runs {
				x.RunsNS = append(x.RunsNS, d.Nanoseconds())
			}
			out = append(out, x)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case report.CSV:
		return report.BenchTable(results).Write(w, f)
	}
	if err := report.BenchTable(results).Write(w, f); err != nil {
		return err
	}
	scaling := report.ScalingTable(results)
	if len(scaling.Rows) == 0 {
		return nil // no strategy ran at several worker counts
	}
	fmt.Fprintln(w)
	return scaling.Write(w, f)
}
