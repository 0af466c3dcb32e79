package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"golang.org/x/perf/benchmath"

	"pegs/bench"
)

// sample returns a result's timed runs, in seconds, as a benchmath
// sample.
func sample(r bench.Result) *benchmath.Sample {
	xs := make([]float64, len(r.Runs))
	for i, d := range r.Runs {
		xs[i] = d.Seconds()
	}
	return benchmath.NewSample(xs, &benchmath.DefaultThresholds)
}

// confidence is the level of the medians' intervals.
const confidence = 0.95

// interval returns the median of a result's runs and its 95% confidence
// interval (benchmath.AssumeNothing, as benchstat takes it), in seconds;
// the interval is infinite with fewer than 6 runs.
func interval(r bench.Result) benchmath.Summary {
	return benchmath.AssumeNothing.Summary(sample(r), confidence)
}

// Change writes how the sample now differs from before, as benchstat
// does: "~" where a Mann-Whitney U-test cannot tell them apart at its
// level (p > 0.05), else the change of the median, and the test's p and
// sample sizes: "+12.5% (p=0.002 n=6)"; a change past ten times is
// written as a ratio, "×2,780 (p=0.002 n=6)".
func Change(before, now *benchmath.Sample) string {
	c := benchmath.AssumeNothing.Compare(before, now)
	b := benchmath.AssumeNothing.Summary(before, confidence).Center
	n := benchmath.AssumeNothing.Summary(now, confidence).Center
	delta := "~"
	switch {
	case c.P > c.Alpha:
	case b <= 0:
		delta = "?"
	case n/b >= 10 || n/b <= 0.1:
		delta = "×" + FormatNumber(n/b)
	default:
		delta = fmt.Sprintf("%+.1f%%", (n/b-1)*100)
	}
	return delta + " (" + c.String() + ")"
}

// BenchTable tabulates benchmark results: each strategy's median time
// with its 95% confidence interval, and its change from the fastest
// strategy on the same problem ("~" where the two cannot be told apart).
func BenchTable(results []bench.Result) *Table {
	fastest := map[string]bench.Result{}
	for _, r := range results {
		if r.TimedOut || r.Median <= 0 {
			continue
		}
		if f, ok := fastest[r.Problem]; !ok || r.Median < f.Median {
			fastest[r.Problem] = r
		}
	}
	t := &Table{Header: []string{"problem", "strategy", "workers", "solvable", "median", "low", "high", "runs", "relative", "vs fastest",
		"positions", "positions/s", "allocs/op", "bytes/op"},
		Counts: []string{"workers", "runs", "positions", "allocs/op"},
		Kinds: map[string]Kind{"solvable": Flag, "median": Seconds, "low": Seconds, "high": Seconds, "relative": Ratio,
			"positions/s": Number, "bytes/op": Bytes}}
	for _, r := range results {
		if r.TimedOut {
			t.Add(r.Problem, r.Strategy, strconv.Itoa(r.Workers), "timed out", "", "", "", "", "", "", "", "", "", "")
			continue
		}
		f := fastest[r.Problem]
		vs := "fastest"
		if f.Strategy != r.Strategy || f.Workers != r.Workers {
			vs = Change(sample(f), sample(r))
		}
		sum := interval(r)
		rel := float64(r.Median) / float64(f.Median)
		t.Add(r.Problem, r.Strategy, strconv.Itoa(r.Workers), strconv.FormatBool(r.Answer.Solvable),
			seconds(r.Median), bound(sum.Lo), bound(sum.Hi), strconv.Itoa(len(r.Runs)), strconv.FormatFloat(rel, 'g', 4, 64), vs,
			strconv.FormatInt(r.Answer.Positions, 10), strconv.FormatFloat(r.PositionsPerSecond(), 'g', 4, 64),
			strconv.FormatUint(r.Allocs, 10), strconv.FormatUint(r.Bytes, 10))
	}
	return t
}

// bound is an interval's end in seconds, blank if infinite (too few runs).
func bound(x float64) string {
	if math.IsInf(x, 0) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// ScalingTable shows the speed-up and efficiency of parallel strategies by
// worker count, against the same strategy on one worker. An efficiency
// above 100% is shown as 100% when the medians' intervals allow a speed-up
// of no more than the workers: noise, not a gain.
func ScalingTable(results []bench.Result) *Table {
	one := map[[2]string]bench.Result{}
	for _, r := range results {
		if r.Workers == 1 && !r.TimedOut {
			one[[2]string{r.Problem, r.Strategy}] = r
		}
	}
	t := &Table{Header: []string{"problem", "strategy", "workers", "median", "speed-up", "efficiency", "vs 1 worker"},
		Counts: []string{"workers"}, Kinds: map[string]Kind{"median": Seconds, "speed-up": Ratio, "efficiency": Percent}}
	for _, r := range results {
		base, ok := one[[2]string{r.Problem, r.Strategy}]
		if !ok || r.TimedOut || r.Median <= 0 {
			continue
		}
		multi := false
		for _, o := range results {
			if o.Problem == r.Problem && o.Strategy == r.Strategy && o.Workers > 1 {
				multi = true
			}
		}
		if !multi {
			continue
		}
		sp := float64(base.Median) / float64(r.Median)
		eff := sp / float64(r.Workers)
		if b, n := interval(base), interval(r); eff > 1 && !(b.Lo/n.Hi > float64(r.Workers)) {
			eff = 1
		}
		vs := "base"
		if r.Workers != 1 {
			vs = Change(sample(base), sample(r))
		}
		t.Add(r.Problem, r.Strategy, strconv.Itoa(r.Workers), seconds(r.Median),
			strconv.FormatFloat(sp, 'g', 4, 64), strconv.FormatFloat(eff, 'g', 4, 64), vs)
	}
	return t
}

// CompareTable sets results against an earlier run's (old, as
// WriteBench writes them in JSON), as benchstat does: for each problem,
// strategy and worker count timed in both, the two medians and the
// change, "~" where a Mann-Whitney U-test cannot tell them apart.
func CompareTable(old []BenchJSON, results []bench.Result) *Table {
	type key struct {
		problem, strategy string
		workers           int
	}
	before := map[key]BenchJSON{}
	for _, o := range old {
		before[key{o.Problem, o.Strategy, o.Workers}] = o
	}
	t := &Table{Header: []string{"problem", "strategy", "workers", "median before", "median now", "change"},
		Counts: []string{"workers"}, Kinds: map[string]Kind{"median before": Seconds, "median now": Seconds}}
	for _, r := range results {
		o, ok := before[key{r.Problem, r.Strategy, r.Workers}]
		if !ok || o.TimedOut || r.TimedOut || len(o.RunsNS) == 0 || len(r.Runs) == 0 {
			continue
		}
		xs := make([]float64, len(o.RunsNS))
		for i, ns := range o.RunsNS {
			xs[i] = float64(ns) / 1e9
		}
		was := benchmath.NewSample(xs, &benchmath.DefaultThresholds)
		t.Add(r.Problem, r.Strategy, strconv.Itoa(r.Workers), seconds(time.Duration(o.MedianNS)), seconds(r.Median), Change(was, sample(r)))
	}
	return t
}

// seconds is a duration's stored form: seconds, exact to the nanosecond.
func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }

// BenchJSON is one result of pegs bench in JSON: a strategy on a problem
// at a worker count.
type BenchJSON struct {
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
	// LowNS and HighNS bound the median's 95% confidence interval; both
	// are 0 with fewer than 6 runs, too few for one.
	LowNS     int64   `json:"low_ns"`
	HighNS    int64   `json:"high_ns"`
	PerSecond float64 `json:"positions_per_second"`
	Allocs    uint64  `json:"allocs_per_op"`
	Bytes     uint64  `json:"bytes_per_op"`
	PeakHeapB uint64  `json:"peak_heap_bytes"` // of the whole process
}

// WriteBench writes benchmark results: in JSON an array of BenchJSON, in
// CSV their BenchTable, in text and Markdown the BenchTable and, where a
// strategy ran at several worker counts, the ScalingTable.
func WriteBench(w io.Writer, f Format, results []bench.Result) error {
	switch f {
	case JSON:
		out := []BenchJSON{}
		for _, r := range results {
			x := BenchJSON{Problem: r.Problem, Strategy: r.Strategy, Workers: r.Workers, TimedOut: r.TimedOut,
				Solvable: r.Answer.Solvable, Winnable: r.Answer.Winnable, Positions: r.Answer.Positions,
				MedianNS: r.Median.Nanoseconds(), MinNS: r.Min.Nanoseconds(), MaxNS: r.Max.Nanoseconds(),
				PerSecond: r.PositionsPerSecond(), Allocs: r.Allocs, Bytes: r.Bytes, PeakHeapB: r.PeakHeap, RunsNS: []int64{}}
			for _, d := range r.Runs {
				x.RunsNS = append(x.RunsNS, d.Nanoseconds())
			}
			if sum := interval(r); len(r.Runs) > 0 && !math.IsInf(sum.Lo, 0) && !math.IsInf(sum.Hi, 0) {
				x.LowNS, x.HighNS = int64(math.Round(sum.Lo*1e9)), int64(math.Round(sum.Hi*1e9))
			}
			out = append(out, x)
		}
		return encodeJSON(w, out)
	case CSV:
		return BenchTable(results).Write(w, f)
	}
	if err := BenchTable(results).Write(w, f); err != nil {
		return err
	}
	scaling := ScalingTable(results)
	if len(scaling.Rows) == 0 {
		return nil // no strategy ran at several worker counts
	}
	fmt.Fprintln(w)
	return scaling.Write(w, f)
}
