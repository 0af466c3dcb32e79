package bench

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"golang.org/x/perf/benchfmt"
)

// TestWriteBenchfmt writes two measured results and a timed-out one, and
// reads them back with benchfmt.Reader, as benchstat would.
func TestWriteBenchfmt(t *testing.T) {
	results := []Result{
		{Problem: "cross", Strategy: "dfs-pruned", Workers: 1, Answer: Answer{Positions: 5000},
			Runs: []time.Duration{2 * time.Millisecond, 4 * time.Millisecond}, Bytes: 4096, Allocs: 12},
		{Problem: "cross", Strategy: "layered", Workers: 2, TimedOut: true},
		{Problem: "gen-01", Strategy: "fewest-moves", Workers: 2, Answer: Answer{Positions: 1234567},
			Runs: []time.Duration{1234567 * time.Nanosecond}, Bytes: 1 << 30, Allocs: 3},
	}
	var buf bytes.Buffer
	if err := WriteBenchfmt(&buf, results); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if want := "# BenchmarkSolve/problem=cross/strategy=layered/workers=2 timed out\n"; !strings.Contains(text, want) {
		t.Errorf("output lacks the timed-out line %q:\n%s", want, text)
	}

	type line struct {
		Name   string
		Iters  int
		Values map[string]float64
	}
	want := []line{
		{"Solve/problem=cross/strategy=dfs-pruned/workers=1", 1, map[string]float64{
			"sec/op": 0.002, "positions/op": 5000, "positions/s": 2500000, "B/op": 4096, "allocs/op": 12}},
		{"Solve/problem=cross/strategy=dfs-pruned/workers=1", 1, map[string]float64{
			"sec/op": 0.004, "positions/op": 5000, "positions/s": 1250000, "B/op": 4096, "allocs/op": 12}},
		{"Solve/problem=gen-01/strategy=fewest-moves/workers=2", 1, map[string]float64{
			"sec/op": 0.001234567, "positions/op": 1234567, "positions/s": 1e9, "B/op": 1 << 30, "allocs/op": 3}},
	}
	wantConfig := map[string]string{"goos": runtime.GOOS, "goarch": runtime.GOARCH, "pkg": "pegs/bench"}
	if cpu := cpuName(); cpu != "" {
		wantConfig["cpu"] = cpu
	}

	var got []line
	rd := benchfmt.NewReader(&buf, "bench.txt")
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.Result:
			l := line{Name: rec.Name.String(), Iters: rec.Iters, Values: map[string]float64{}}
			for _, v := range rec.Values {
				l.Values[v.Unit] = v.Value
			}
			got = append(got, l)
			gotConfig := map[string]string{}
			for _, c := range rec.Config {
				gotConfig[c.Key] = string(c.Value)
			}
			if diff := cmp.Diff(wantConfig, gotConfig); diff != "" {
				t.Errorf("%s: configuration differs (-want +got):\n%s", rec.Name, diff)
			}
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt: %v", rec)
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	// Seconds are read back from nanoseconds, scaled by 1e-9.
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(1e-12, 0)); diff != "" {
		t.Errorf("results read back differ (-want +got):\n%s\n%s", diff, text)
	}
}
