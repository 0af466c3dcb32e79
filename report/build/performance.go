package build

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
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
	if len(b.plan.benchProblems) > 0 {
		probs = slices.DeleteFunc(probs, func(p bench.Problem) bool { return !slices.Contains(b.plan.benchProblems, p.Name) })
	}
	opt := b.plan.benchOpt
	opt.Progress = func(p, s string, w int) { b.progress(fmt.Sprintf("bench %s: %s, %d workers", p, s, w)) }
	results, err := bench.Run(ctx, probs, bench.Strategies(), opt)
	if err != nil {
		return Section{}, err
	}
	var raw bytes.Buffer
	if err := report.WriteBench(&raw, report.JSON, results); err != nil {
		return Section{}, err
	}
	if err := writeFile(b.path("data", benchRuns), &raw); err != nil {
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
	names := make([]string, len(probs))
	for i, p := range probs {
		names[i] = p.Name
	}
	runs := fmt.Sprintf("problems %s; %d timed runs each after a warm-up, %v allowed per run", strings.Join(names, ", "), max(1, opt.Runs), opt.Timeout)
	sec := Section{
		Lead:     "How fast each solver strategy answers the classic levels on this machine, and how the parallel ones scale with workers.",
		Findings: benchFindings(results),
		Text: fmt.Sprintf("Every solver strategy on the %s suite (%s), its answers cross-checked against the others. "+
			"Timings are of this machine and run (GOMAXPROCS %d); they are the one part of the report that varies between runs. "+
			"Medians come with their 95%% confidence intervals, and two strategies are told apart only where a Mann-Whitney U-test finds them different (p ≤ 0.05), as benchstat does; "+
			"`~` marks those it cannot tell apart. Every run's time is in data/%s, the JSON of `pegs bench`, which `pegs report --compare` reads.", b.plan.bench, runs, runtime.GOMAXPROCS(0), benchRuns),
		Items: []Item{
			{Caption: "Median wall time per strategy and problem with its 95% interval, and against the fastest strategy on that problem; positions visited per second; allocations and bytes per run.", Table: report.BenchTable(results), Name: "bench"},
			{Caption: "Each strategy's median time per problem (its best worker count); a strategy that timed out has no bar.", Figure: "strategy-times", Alt: timesAlt(results)},
			{Caption: "Speed-up and efficiency of the parallel strategies by worker count.", Table: report.ScalingTable(results), Name: "scaling"},
			{Caption: "Speed-up over one worker, summed over the problems every worker count finished, against the ideal.", Figure: "scaling"},
		},
	}
	if b.opt.Compare != "" {
		it, err := compareItem(b.opt.Compare, results)
		if err != nil {
			return Section{}, err
		}
		sec.Items = append(sec.Items, it)
	}
	return sec, nil
}

// benchRuns is the data file of every timed run.
const benchRuns = "bench-runs.json"

// compareItem compares results with those of the report in dir, as
// benchstat compares two runs: for each strategy, problem and worker
// count timed in both, the medians and the change.
func compareItem(dir string, results []bench.Result) (Item, error) {
	name := filepath.Join(dir, "data", benchRuns)
	raw, err := os.ReadFile(name)
	if err != nil {
		return Item{}, fmt.Errorf("--compare: %w", err)
	}
	var old []report.BenchJSON
	if err := json.Unmarshal(raw, &old); err != nil {
		return Item{}, fmt.Errorf("--compare: %s: %w", name, err)
	}
	t := report.CompareTable(old, results)
	return Item{Caption: fmt.Sprintf("This run against the report in %s: each median before and now, and the change (`~` where a U-test cannot tell the two runs apart).", dir),
		Table: t, Name: "bench-compare"}, nil
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
	return []string{fmt.Sprintf("On the %s problem, the hardest of the suite here, %s was fastest (median %s); %s, the slowest to finish, took %s times as long.",
		hardest, win, report.FormatDuration(hardTime), lose, report.FormatNumber(float64(slow)/float64(hardTime)))}
}

// timesAlt describes the strategy-times figure in words: per problem, the
// fastest strategy and the slowest that finished.
func timesAlt(results []bench.Result) string {
	problems, strategies, best := fastest(results)
	var parts []string
	for _, p := range problems {
		var quick, slow string
		for _, s := range strategies {
			d, ok := best[[2]string{p, s}]
			if !ok {
				continue
			}
			if quick == "" || d < best[[2]string{p, quick}] {
				quick = s
			}
			if slow == "" || d > best[[2]string{p, slow}] {
				slow = s
			}
		}
		if quick != "" {
			parts = append(parts, fmt.Sprintf("on %s, %s fastest at %s and %s slowest at %s", p,
				quick, report.FormatDuration(best[[2]string{p, quick}]), slow, report.FormatDuration(best[[2]string{p, slow}])))
		}
	}
	return "Bar chart on a log scale of each strategy's median time per problem: " + strings.Join(parts, "; ") + "."
}
