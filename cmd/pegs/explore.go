package main

import (
	"context"
	"errors"
	"io"

	"pegs/cmd/internal/cli"
	"pegs/report"
	"pegs/search"
)

func runExplore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs", "explore", cli.ExploreUsage, stderr)
	var ef cli.ExploreFlags
	ef.Register(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	x, err := ef.Load()
	if err != nil {
		return err
	}
	x.Options.Progress = progress(stderr, "")
	if x.WinnableOnly {
		w, err := search.Winnable(ctx, x.Problem, x.Options)
		if w != nil && errors.Is(err, context.Canceled) {
			return cli.Interrupted(stdout, stderr, x.Format, x.Problem, report.ForwardPass(x.Problem, w), err)
		}
		if err != nil {
			return err
		}
		return report.WriteWinnable(stdout, x.Format, x.Problem, w)
	}
	a, err := search.Explore(ctx, x.Problem, x.Options)
	return x.Write(stdout, stderr, a, err)
}
