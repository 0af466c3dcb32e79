package report

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"pegs/bench"
)

// BenchTable tabulates benchmark results, each strategy's median time also
// shown relative to the fastest on the same problem.
func BenchTable(results []bench.Result) *Table {
	fastest := map[string]time.Duration{}
	for _, r := range results {
		if r.TimedOut || r.Median <= 0 {
			continue
		}
		if f, ok := fastest[r.Problem]; !ok || r.Median < f {
			fastest[r.Problem] = r.Median
		}
	}
	t := &Table{Header: []string{"problem", "strategy", "workers", "solvable", "median", "min", "max", "relative", "positions", "positions/s", "allocs/op", "bytes/op", "peak heap"},
		Counts: []string{"workers", "positions", "allocs/op"},
		Kinds: map[string]Kind{"solvable": Flag, "median": Seconds, "min": Seconds, "max": Seconds, "relative": Ratio,
			"positions/s": Number, "bytes/op": Bytes, "peak heap": Bytes}}
	for _, r := range results {
		if r.TimedOut {
			t.Add(r.Problem, r.Strategy, strconv.Itoa(r.Workers), "timed out", "", "", "", "", "", "", "", "", "")
			continue
		}
		rel := float64(r.Median) / float64(fastest[r.Problem])
		t.Add(r.Problem, r.Strategy, strconv.Itoa(r.Workers), strconv.FormatBool(r.Answer.Solvable),
			seconds(r.Median), seconds(r.Min), seconds(r.Max), strconv.FormatFloat(rel, 'g', 4, 64),
			strconv.FormatInt(r.Answer.Positions, 10), strconv.FormatFloat(r.PositionsPerSecond(), 'g', 4, 64),
			strconv.FormatUint(r.Allocs, 10), strconv.FormatUint(r.Bytes, 10), strconv.FormatUint(r.PeakHeap, 10))
	}
	return t
}

// ScalingTable shows the speed-up and efficiency of parallel strategies by
// worker count.
func ScalingTable(results []bench.Result) *Table {
	one := map[[2]string]time.Duration{}
	for _, r := range results {
		if r.Workers == 1 && !r.TimedOut {
			one[[2]string{r.Problem, r.Strategy}] = r.Median
		}
	}
	t := &Table{Header: []string{"problem", "strategy", "workers", "median", "speed-up", "efficiency"},
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
		sp := float64(base) / float64(r.Median)
		t.Add(r.Problem, r.Strategy, strconv.Itoa(r.Workers), seconds(r.Median),
			strconv.FormatFloat(sp, 'g', 4, 64), strconv.FormatFloat(sp/float64(r.Workers), 'g', 4, 64))
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
	PerSecond float64 `json:"positions_per_second"`
	Allocs    uint64  `json:"allocs_per_op"`
	Bytes     uint64  `json:"bytes_per_op"`
	PeakHeapB uint64  `json:"peak_heap_bytes"`
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
