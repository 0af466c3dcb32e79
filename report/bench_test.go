package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"pegs/bench"
)

// result is a made-up benchmark result whose runs take about ms
// milliseconds, each a little off.
func result(problem, strategy string, workers int, ms float64) bench.Result {
	r := bench.Result{Problem: problem, Strategy: strategy, Workers: workers, Answer: bench.Answer{Solvable: true, Positions: 100}}
	for i, off := range []float64{0, 0.01, -0.01, 0.02, -0.02, 0.005} {
		r.Runs = append(r.Runs, time.Duration((ms+off*float64(i%2+1))*1e6))
	}
	r.Median = time.Duration(ms * 1e6)
	return r
}

// TestBenchTables checks benchstat's marks: a strategy as fast as the
// fastest is "~", one twice as slow is not; medians have intervals; a
// speed-up above the workers that the intervals do not show is capped at
// 100% efficiency; and a comparison with an earlier run says "~" where
// nothing changed.
func TestBenchTables(t *testing.T) {
	results := []bench.Result{
		result("cross", "a", 1, 1),
		result("cross", "b", 1, 1.001),
		result("cross", "c", 1, 2),
		result("cross", "c", 2, 1.2),
		result("cross", "e", 1, 20),
		result("plus", "d", 1, 2),
		result("plus", "d", 2, 0.98),
	}
	row := func(tbl *Table, strategy string, workers string) map[string]string {
		for _, r := range tbl.Rows {
			if r[1] == strategy && r[2] == workers {
				m := map[string]string{}
				for j, h := range tbl.Header {
					m[h] = r[j]
				}
				return m
			}
		}
		t.Fatalf("no row for %s on %s workers", strategy, workers)
		return nil
	}
	bt := BenchTable(results)
	if got := row(bt, "a", "1")["vs fastest"]; got != "fastest" {
		t.Errorf("a: vs fastest %q, want fastest", got)
	}
	if got := row(bt, "b", "1")["vs fastest"]; !strings.HasPrefix(got, "~ (") {
		t.Errorf("b, as fast as a: vs fastest %q, want ~", got)
	}
	if got := row(bt, "c", "1")["vs fastest"]; !strings.HasPrefix(got, "+99.5%") {
		t.Errorf("c, twice as slow: vs fastest %q, want about +100%%", got)
	}
	if got := row(bt, "e", "1")["vs fastest"]; !strings.HasPrefix(got, "×19.9 (") {
		t.Errorf("e, twenty times as slow: vs fastest %q, want ×19.9", got)
	}
	if r := row(bt, "a", "1"); r["low"] == "" || r["high"] == "" || r["runs"] != "6" {
		t.Errorf("a: interval [%s, %s] over %s runs, want one over 6", r["low"], r["high"], r["runs"])
	}
	st := ScalingTable(results)
	if got := row(st, "d", "2")["efficiency"]; got != "1" {
		t.Errorf("d on 2 workers: efficiency %s, want 1: 2.04× from 2 workers is within noise", got)
	}
	if got := row(st, "c", "2")["efficiency"]; got != "0.8333" {
		t.Errorf("c on 2 workers: efficiency %s, want 0.8333", got)
	}
	var buf bytes.Buffer
	if err := WriteBench(&buf, JSON, results); err != nil {
		t.Fatal(err)
	}
	var old []BenchJSON
	if err := json.Unmarshal(buf.Bytes(), &old); err != nil {
		t.Fatal(err)
	}
	if old[0].LowNS == 0 || old[0].HighNS < old[0].LowNS {
		t.Errorf("JSON interval [%d, %d] ns", old[0].LowNS, old[0].HighNS)
	}
	now := append([]bench.Result(nil), results...)
	now[2] = result("cross", "c", 1, 4)
	ct := CompareTable(old, now)
	if got := row(ct, "a", "1")["change"]; !strings.HasPrefix(got, "~ (") {
		t.Errorf("a, unchanged: change %q, want ~", got)
	}
	if got := row(ct, "c", "1")["change"]; !strings.HasPrefix(got, "+") {
		t.Errorf("c, twice as slow: change %q, want about +100%%", got)
	}
}
