package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"pegs/cmd/internal/cli"
	"pegs/engine"
	"pegs/report"
	"pegs/report/plan"
	"pegs/search"
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
		return plan.Table(pl).Write(stdout, x.Format)
	}
	fmt.Fprintf(stdout, "plan: board %s, %d pegs, goal %s\n", b.Name(), x.Problem.Start.Pegs(), b.FormatGoal(x.Problem.Goal))
	return plan.Table(pl).Write(stdout, x.Format)
}

// runPlan plans the full analysis of each board's usual start, with its
// usual goal, and writes the plans side by side.
func runPlan(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs-beam", "plan", "--boards B,... [--worker-mem SIZE] [--sample N] [--format F]", stderr)
	boards := fs.String("boards", "diamond,wiegleb,triangle:9", "the boards to plan, by name, comma-separated")
	workerMem := fs.String("worker-mem", "8GiB", "the memory of a worker")
	sample := fs.Int("sample", 0, "the layers run exactly before extrapolating (default: a few seconds' worth)")
	format := fs.String("format", "text", "output format: text, markdown, csv or json")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	f, err := cli.ParseFormat(*format)
	if err != nil {
		return err
	}
	wm, err := cli.ParseSize("--worker-mem", *workerMem)
	if err != nil {
		return err
	}
	if *sample < 0 {
		return cli.Usagef("--sample %d: want 0 (a few seconds' worth) or more", *sample)
	}
	var names []string
	var plans []*cluster.Plan
	for _, name := range strings.Split(*boards, ",") {
		b, err := engine.Lookup(name)
		if err != nil {
			return cli.Usagef("--boards: %w", err)
		}
		goal, err := cli.ParseGoal(b, cli.DefaultGoal(b))
		if err != nil {
			return err
		}
		pl, err := cluster.NewPlan(ctx, search.Problem{Board: b, Start: b.Start(), Goal: goal}, cluster.Options{}, wm, *sample)
		if err != nil {
			return fmt.Errorf("board %s: %w", name, err)
		}
		names = append(names, name)
		plans = append(plans, pl)
	}
	return plan.SideBySide(names, plans).Write(stdout, f)
}
