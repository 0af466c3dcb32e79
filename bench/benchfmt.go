package bench

import (
	"fmt"
	"io"
	"strings"
)

// benchName is the Go benchmark name of a result, with key=value parts.
func benchName(r Result) string {
	return fmt.Sprintf("BenchmarkSolve/problem=%s/strategy=%s/workers=%d", r.Problem, r.Strategy, r.Workers)
}

// WriteBenchfmt writes results in Go's benchmark format, one line per timed
// run, so that benchstat can compare two runs. Timed-out results are
// written as comments.
func WriteBenchfmt(w io.Writer, results []Result) error {
	var sb strings.Builder
	sb.WriteString("goos: pegs bench\npkg: pegs/bench\n")
	for _, r := range results {
		if r.TimedOut || len(r.Runs) == 0 {
			fmt.Fprintf(&sb, "# %s timed out\n", benchName(r))
			continue
		}
		for _, d := range r.Runs {
			fmt.Fprintf(&sb, "%s\t1\t%d ns/op\t%d positions/op\t%.0f positions/s\t%d B/op\t%d allocs/op\n",
				benchName(r), d.Nanoseconds(), r.Answer.Positions, float64(r.Answer.Positions)/d.Seconds(), r.Bytes, r.Allocs)
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}
