package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"pegs/cmd/internal/cli"
	"pegs/report"
	"pegs/search"
)

func runExplore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs", "explore", cli.ExploreUsage+" [--spill DIR|--resume DIR] [--keep]", stderr)
	var ef cli.ExploreFlags
	ef.Register(fs)
	var spf spillFlags
	spf.register(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	x, err := ef.Load()
	if err != nil {
		return err
	}
	sp, err := spf.load()
	if err != nil {
		return err
	}
	if sp.Dir != "" && (x.WinnableOnly || x.Options.ReachableOnly || x.RandomOnly) {
		return cli.Usagef("--spill and --resume are for the full analysis: leave out --winnable-only, --reachable-only and --random-only")
	}
	x.Options.Progress = progress(stderr, "")
	x.Options.Spill = sp
	if x.WinnableOnly {
		w, err := search.Winnable(ctx, x.Problem, x.Options.Budget)
		if w != nil && errors.Is(err, context.Canceled) {
			return cli.Interrupted(stdout, stderr, x.Format, x.Problem, w.ForwardPass(), err)
		}
		if err != nil {
			return err
		}
		return report.WriteWinnable(stdout, x.Format, x.Problem, w)
	}
	if x.RandomOnly {
		r, err := search.RandomChance(ctx, x.Problem, x.Options.Budget)
		if err != nil {
			return err
		}
		return report.WriteRandomPlay(stdout, x.Format, x.Problem, r)
	}
	a, err := search.Explore(ctx, x.Problem, x.Options)
	if sp.Dir != "" && errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "pegs: %s keeps the run so far; continue it with --resume %s\n", sp.Dir, sp.Dir)
	}
	return x.Write(stdout, stderr, a, err)
}

// spillFlags put an exhaustive search's layers on disk.
type spillFlags struct {
	spill, resume    string
	keep, noEstimate bool
}

func (f *spillFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.spill, "spill", "", "hold the layers as files in `DIR` (made if missing), memory bounding one partition's work;\nan interrupted run can be continued with --resume DIR")
	fs.StringVar(&f.resume, "resume", "", "continue the spilled run in `DIR` from its last complete partition")
	fs.BoolVar(&f.keep, "keep", false, "with --spill or --resume, leave the files at the end")
	fs.BoolVar(&f.noEstimate, "no-disk-estimate", false, "with --spill, start without estimating the disk the run needs at most\n(each layer is still checked before it is written)")
}

// load returns the spill asked for.
func (f *spillFlags) load() (search.Spill, error) {
	switch {
	case f.spill != "" && f.resume != "":
		return search.Spill{}, cli.Usagef("give --spill DIR or --resume DIR, not both")
	case f.keep && f.spill == "" && f.resume == "":
		return search.Spill{}, cli.Usagef("--keep needs --spill DIR or --resume DIR")
	case f.noEstimate && f.spill == "":
		return search.Spill{}, cli.Usagef("--no-disk-estimate needs --spill DIR (a resumed run is not estimated)")
	case f.resume != "":
		return search.Spill{Dir: f.resume, Resume: true, Keep: f.keep}, nil
	}
	return search.Spill{Dir: f.spill, Keep: f.keep, NoEstimate: f.noEstimate}, nil
}
