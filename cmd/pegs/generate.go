package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"pegs/cmd/internal/cli"

	"pegs/engine"
	"pegs/generate"
	"pegs/report"
	"pegs/search"
	"pegs/search/atomicfile"
)

func runGenerate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs", "generate", "--board B (--count N | --pack K | --calibrate N) [--pegs MIN-MAX] [--goal G] [--shape S] [--seed S] [--workers N] [--out FILE] [--format json|text]", stderr)
	var pf cli.ProblemFlags
	sf := cli.SearchFlags{Many: true}
	pf.BoardFlags.Register(fs)
	pf.RegisterGoal(fs, false)
	sf.Register(fs, search.DefaultMemory)
	count := fs.Int("count", 0, "make this many distinct levels")
	pack := fs.Int("pack", 0, "make a progression of this many levels, difficulty strictly rising")
	calibrate := fs.Int("calibrate", 0, "make a pool of this many levels and print the grade scale its scores make, a generate/calibration.json")
	pegs := fs.String("pegs", "", "peg counts of the levels, MIN-MAX (default 6-20; on a board of 20 holes or fewer, a third of the holes, at least 2, to all holes but 2)")
	shape := fs.String("shape", "designed", "layouts to draw: designed (one group, compact, symmetric where the board and size allow), connected (one group), symmetric (a mirror or rotation maps it onto itself) or any (what random backward play leaves)")
	symmetric := fs.Bool("symmetric", false, "the same as --shape symmetric")
	seed := fs.Uint64("seed", 1, "random seed; the same seed and flags give the same output for any --workers")
	out := fs.String("out", "", "write the levels to this file instead of stdout")
	format := fs.String("format", "json", "output format: json (a level pack) or text")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	b, goal, err := pf.LoadBoardGoal()
	if err != nil {
		return err
	}
	if *out != "" {
		if err := atomicfile.Check(*out); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
	}
	budget, err := sf.Load()
	if err != nil {
		return err
	}
	f, err := cli.ParseFormat(*format, report.JSON, report.Text)
	if err != nil {
		return err
	}
	sh, err := generate.ParseShape(*shape)
	if err != nil {
		return cli.Usagef("--shape: %w", err)
	}
	if *symmetric {
		sh = generate.ShapeSymmetric
	}
	min, max := generate.DefaultPegs(b.Holes())
	if *pegs != "" {
		lo, hi, ok := strings.Cut(*pegs, "-")
		var err1, err2 error
		min, err1 = strconv.Atoi(lo)
		max, err2 = strconv.Atoi(hi)
		if !ok || err1 != nil || err2 != nil {
			return cli.Usagef("--pegs %q: want MIN-MAX, such as 6-20", *pegs)
		}
		if min < 2 || max < min || max >= b.Holes() {
			return cli.Usagef("--pegs %s: want 2 <= MIN <= MAX < %d (board %s has %d holes)", *pegs, b.Holes(), b.Name(), b.Holes())
		}
	}
	n := 0
	for _, x := range []int{*count, *pack, *calibrate} {
		if x > 0 {
			n++
		}
	}
	if n != 1 {
		return cli.Usagef("give one of --count, --pack or --calibrate, with a positive number")
	}
	workers := sf.Workers
	if workers == 0 {
		workers = defaultWorkers()
	}
	opt := generate.Options{Goal: goal, MinPegs: min, MaxPegs: max, Seed: *seed, Workers: workers, Memory: budget, Shape: sh}
	var levels []generate.Level
	switch {
	case *count > 0:
		levels, err = generate.Generate(ctx, b, *count, opt)
	case *pack > 0:
		levels, err = generate.Pack(ctx, b, *pack, opt)
	default:
		pool, err := generate.Generate(ctx, b, *calibrate, opt)
		if err != nil {
			return err
		}
		command := "pegs " + strings.Join(append([]string{"generate"}, args...), " ")
		return report.WriteCalibration(stdout, generate.Calibrate(pool, command))
	}
	// Interrupted, --count keeps the levels finished: they come in candidate
	// order, so they are the first levels the whole run would give.
	interrupted := errors.Is(err, context.Canceled) && *count > 0 && len(levels) > 0
	if err != nil && !interrupted {
		return err
	}
	if interrupted {
		fmt.Fprintf(stderr, "pegs: interrupted; the %d levels finished so far follow\n", len(levels))
		if werr := writeLevels(stdout, *out, f, b, goal, *seed, levels); werr != nil {
			return werr
		}
		return cli.Reported{Err: err}
	}
	return writeLevels(stdout, *out, f, b, goal, *seed, levels)
}

// writeLevels writes levels to file out (whole or not at all), or to
// stdout if out is empty.
func writeLevels(stdout io.Writer, out string, f report.Format, b *engine.Board, goal engine.Goal, seed uint64, levels []generate.Level) error {
	write := func(w io.Writer) error { return report.WriteLevels(w, f, b, goal, seed, levels) }
	if out == "" {
		return write(stdout)
	}
	return atomicfile.Write(out, 0, write)
}

func defaultWorkers() int { return max(1, numCPU()) }
