package bench

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// benchName is the Go benchmark name of a result, with key=value parts,
// less the "Benchmark" prefix, which benchfmt.Writer adds.
func benchName(r Result) string {
	return fmt.Sprintf("Solve/problem=%s/strategy=%s/workers=%d", r.Problem, r.Strategy, r.Workers)
}

// WriteBenchfmt writes results in Go's benchmark format with
// golang.org/x/perf/benchfmt, one line per timed run, so that benchstat
// can compare two runs. The configuration lines say goos, goarch, cpu (the
// processor's model, where it is known) and pkg, as go test writes them.
// A timed-out result has no run to write: it is a comment line,
// "# BenchmarkSolve/... timed out", which benchfmt readers skip.
// benchfmt.Writer writes numbers with %v: large ones in exponent form,
// such as "1.234567e+06 ns/op", which benchstat reads as well.
func WriteBenchfmt(w io.Writer, results []Result) error {
	bw := benchfmt.NewWriter(w)
	rec := &benchfmt.Result{Iters: 1}
	for _, kv := range [][2]string{{"goos", runtime.GOOS}, {"goarch", runtime.GOARCH}, {"cpu", cpuName()}, {"pkg", "pegs/bench"}} {
		if kv[1] != "" {
			rec.Config = append(rec.Config, benchfmt.Config{Key: kv[0], Value: []byte(kv[1]), File: true})
		}
	}
	for _, r := range results {
		if r.TimedOut || len(r.Runs) == 0 {
			// benchfmt.Writer writes results alone; it flushes each
			// one, so a line written to w between them stays in order.
			if _, err := fmt.Fprintf(w, "# Benchmark%s timed out\n", benchName(r)); err != nil {
				return err
			}
			continue
		}
		rec.Name = benchfmt.Name(benchName(r))
		for _, d := range r.Runs {
			pos := float64(r.Answer.Positions)
			rec.Values = append(rec.Values[:0],
				benchfmt.Value{Value: d.Seconds(), Unit: "sec/op", OrigValue: float64(d.Nanoseconds()), OrigUnit: "ns/op"},
				benchfmt.Value{Value: pos, Unit: "positions/op"},
				benchfmt.Value{Value: math.Round(pos / d.Seconds()), Unit: "positions/s"},
				benchfmt.Value{Value: float64(r.Bytes), Unit: "B/op"},
				benchfmt.Value{Value: float64(r.Allocs), Unit: "allocs/op"})
			if err := bw.Write(rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// cpuName returns the processor's model as Linux's /proc/cpuinfo names it
// (its first "model name" line, which is where go test finds it on Linux
// too), or "" where there is no such file or line.
func cpuName() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		key, value, ok := strings.Cut(s.Text(), ":")
		if ok && strings.EqualFold(strings.TrimSpace(key), "model name") {
			return strings.TrimSpace(value)
		}
	}
	return ""
}
