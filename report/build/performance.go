package build

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"pegs/bench"
	"pegs/engine"
	"pegs/report"
)

// performance is section 5: every solver strategy timed on the plan's
// benchmark suite, and the parallel ones' scaling with workers.
func (b *builder) performance(ctx context.Context) (Section, error) {
	if b.plan.bench == "" {
		return Section{Text: "Not measured in this run."}, nil
	}
	probs, err := bench.Suite(b.plan.bench, engine.English())
	if err != nil {
		return Section{}, err
	}
	opt := b.plan.benchOpt
	opt.Progress = func(p, s string, w int) { b.progress(fmt.Sprintf("bench %s: %s, %d workers", p, s, w)) }
	results, err := bench.Run(ctx, probs, bench.Strategies(), opt)
	if err != nil {
		return Section{}, err
	}
	times, err := strategyTimes(fmt.Sprintf("Solver strategies on the %s suite", b.plan.bench), results)
	if err != nil {
		return Section{}, err
	}
	if err := times.Save(b.path("figures"), "strategy-times"); err != nil {
		return Section{}, err
	}
	scaling, err := scalingPlot("Worker scaling of the parallel strategies", results)
	if err != nil {
		return Section{}, err
	}
	if err := scaling.Save(b.path("figures"), "scaling"); err != nil {
		return Section{}, err
	}
	runs := fmt.Sprintf("%d timed run(s) after a warm-up, %v allowed per run", max(1, opt.Runs), opt.Timeout)
	return Section{
		Lead:     "How fast each solver strategy answers the classic levels on this machine, and how the parallel ones scale with workers.",
		Findings: benchFindings(results),
		Text: fmt.Sprintf("Every solver strategy on the %s suite (%s), its answers cross-checked against the others. "+
			"Timings are of this machine and run (GOMAXPROCS %d); they are the one part of the report that varies between runs.", b.plan.bench, runs, runtime.GOMAXPROCS(0)),
		Items: []Item{
			{Caption: "Median wall time per strategy and problem, relative to the fastest strategy on that problem; positions visited per second; allocations and peak heap.", Table: report.BenchTable(results), Name: "bench"},
			{Caption: "Each strategy's median time per problem (its best worker count); a strategy that timed out has no bar.", Figure: "strategy-times"},
			{Caption: "Speed-up and efficiency of the parallel strategies by worker count.", Table: report.ScalingTable(results), Name: "scaling"},
			{Caption: "Speed-up over one worker, summed over the problems every worker count finished, against the ideal.", Figure: "scaling"},
		},
	}, nil
}

// benchFindings names the fastest strategy on the problem whose fastest
// answer took longest, and how much slower the slowest that finished was.
func benchFindings(results []bench.Result) []string {
	problems, strategies, best := fastest(results)
	var hardest, win, lose string
	var hardTime, slow time.Duration
	for _, p := range problems {
		var quick string
		for _, s := range strategies {
			if d, ok := best[[2]string{p, s}]; ok && (quick == "" || d < best[[2]string{p, quick}]) {
				quick = s
			}
		}
		if d := best[[2]string{p, quick}]; quick != "" && d > hardTime {
			hardest, win, hardTime = p, quick, d
		}
	}
	if hardest == "" {
		return nil
	}
	for _, s := range strategies {
		if d, ok := best[[2]string{hardest, s}]; ok && d > slow {
			lose, slow = s, d
		}
	}
	return []string{fmt.Sprintf("On %s, the hardest problem of the suite, %s was fastest (median %s); %s, the slowest to finish, took %s times as long.",
		hardest, win, report.FormatDuration(hardTime), lose, report.FormatNumber(float64(slow)/float64(hardTime)))}
}
