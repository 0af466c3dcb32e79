package report

import (
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
	t := &Table{Header: []string{"problem", "strategy", "workers", "solvable", "median", "min", "max", "relative", "positions", "positions/s", "allocs/op", "bytes/op", "peak heap"}}
	for _, r := range results {
		if r.TimedOut {
			t.Add(r.Problem, r.Strategy, strconv.Itoa(r.Workers), "timed out", "", "", "", "", "", "", "", "", "")
			continue
		}
		rel := float64(r.Median) / float64(fastest[r.Problem])
		t.Add(r.Problem, r.Strategy, strconv.Itoa(r.Workers), strconv.FormatBool(r.Answer.Solvable),
			dur(r.Median), dur(r.Min), dur(r.Max), strconv.FormatFloat(rel, 'f', 1, 64)+"x",
			strconv.FormatInt(r.Answer.Positions, 10), strconv.FormatFloat(r.PositionsPerSecond(), 'f', 0, 64),
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
	t := &Table{Header: []string{"problem", "strategy", "workers", "median", "speed-up", "efficiency"}}
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
		t.Add(r.Problem, r.Strategy, strconv.Itoa(r.Workers), dur(r.Median),
			strconv.FormatFloat(sp, 'f', 2, 64)+"x", strconv.FormatFloat(100*sp/float64(r.Workers), 'f', 0, 64)+"%")
	}
	return t
}

func dur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return strconv.FormatFloat(float64(d)/1e3, 'f', 1, 64) + "µs"
	case d < time.Second:
		return strconv.FormatFloat(float64(d)/1e6, 'f', 2, 64) + "ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + "s"
}
