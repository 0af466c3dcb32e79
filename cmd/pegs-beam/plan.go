package main

import (
	"context"
	"fmt"
	"io"

	"pegs/cmd/internal/cli"
	"pegs/report"
	"pegs/search/cluster"
)

// writePlan writes the plan of exploration x's run with workers of
// workerMem bytes, from sample layers run exactly (zero: a few seconds'
// worth).
func writePlan(ctx context.Context, stdout io.Writer, x cli.Exploration, opt cluster.Options, workerMem int64, sample int) error {
	pl, err := cluster.NewPlan(ctx, x.Problem, opt, workerMem, sample)
	if err != nil {
		return err
	}
	b := x.Problem.Board
	if x.Format == report.JSON || x.Format == report.CSV {
		return pl.Table().Write(stdout, x.Format)
	}
	fmt.Fprintf(stdout, "plan: board %s, %d pegs, goal %s\n", b.Name(), x.Problem.Start.Pegs(), b.FormatGoal(x.Problem.Goal))
	return pl.Table().Write(stdout, x.Format)
}
