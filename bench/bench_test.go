package bench

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"pegs/engine"
)

func TestRunTriangleAgrees(t *testing.T) {
	problems, err := Suite("triangle", nil)
	if err != nil {
		t.Fatal(err)
	}
	results, err := Run(context.Background(), problems[:4], Strategies(), Options{Runs: 2, Timeout: time.Minute, Workers: []int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	// 4 problems × (5 sequential + 4 parallel × 2 worker counts).
	if len(results) != 4*13 {
		t.Errorf("%d results, want 52", len(results))
	}
	for _, r := range results {
		if r.TimedOut || len(r.Runs) != 2 || !r.Answer.Solvable || r.Median <= 0 {
			t.Errorf("%s/%s/%d: timed out=%v runs=%d solvable=%v", r.Problem, r.Strategy, r.Workers, r.TimedOut, len(r.Runs), r.Answer.Solvable)
		}
	}
	var buf bytes.Buffer
	if err := WriteBenchfmt(&buf, results); err != nil {
		t.Fatal(err)
	}
	rd := benchfmt.NewReader(&buf, "bench.txt")
	n := 0
	for rd.Scan() {
		switch rec := rd.Result(); rec := rec.(type) {
		case *benchfmt.Result:
			if _, ok := rec.Value("sec/op"); !ok {
				t.Errorf("result %s has no time per op", rec.Name)
			}
			n++
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt: %v", rec)
		}
	}
	if n != 2*len(results) {
		t.Errorf("benchfmt holds %d results, want %d", n, 2*len(results))
	}
}

// TestDisagreement checks that a strategy with a wrong answer stops the run.
func TestDisagreement(t *testing.T) {
	problems, _ := Suite("triangle", nil)
	liar := Strategy{Name: "liar", Run: func(ctx context.Context, p Problem, _ int) (Answer, error) {
		return Answer{Solvable: false, Winnable: -1}, nil
	}}
	strats, _ := Select("dfs-pruned")
	_, err := Run(context.Background(), problems[:1], append(strats, liar), Options{Runs: 1})
	if !errors.Is(err, ErrDisagree) {
		t.Errorf("err = %v, want ErrDisagree", err)
	}
}

func TestTimeoutReported(t *testing.T) {
	slow := Strategy{Name: "slow", Run: func(ctx context.Context, p Problem, _ int) (Answer, error) {
		<-ctx.Done()
		return Answer{}, ctx.Err()
	}}
	problems, _ := Suite("triangle", nil)
	results, err := Run(context.Background(), problems[:1], []Strategy{slow}, Options{Runs: 1, Timeout: 10 * time.Millisecond})
	if err != nil || len(results) != 1 || !results[0].TimedOut {
		t.Errorf("results %+v, err %v; want one timed-out result", results, err)
	}
}

func TestSuites(t *testing.T) {
	for _, s := range Suites {
		p, err := Suite(s, nil)
		if err != nil || len(p) == 0 {
			t.Errorf("suite %s: %d problems, %v", s, len(p), err)
		}
	}
	if _, err := Suite("nope", engine.English()); err == nil {
		t.Error("unknown suite: no error")
	}
	if _, err := Select("dfs-pruned,warp"); err == nil {
		t.Error("unknown strategy: no error")
	}
}

// BenchmarkStrategies runs every registered strategy on the small classic
// levels, as testing.B benchmarks with key=value names.
func BenchmarkStrategies(b *testing.B) {
	problems, err := Suite("classic", nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range problems[:3] {
		for _, s := range Strategies() {
			workers := []int{1}
			if s.Parallel {
				workers = []int{1, 2}
			}
			for _, w := range workers {
				b.Run("problem="+p.Name+"/strategy="+s.Name+"/workers="+string(rune('0'+w)), func(b *testing.B) {
					var positions int64
					for b.Loop() {
						a, err := s.Run(context.Background(), p, w)
						if err != nil || !a.Solvable {
							b.Fatalf("solvable=%v err=%v", a.Solvable, err)
						}
						positions += a.Positions
					}
					b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
				})
			}
		}
	}
}

func TestSummarize(t *testing.T) {
	ms := func(xs ...int) []time.Duration {
		var out []time.Duration
		for _, x := range xs {
			out = append(out, time.Duration(x)*time.Millisecond)
		}
		return out
	}
	tests := []struct {
		name                string
		runs                []time.Duration
		median, least, most time.Duration
	}{
		{"one", ms(7), 7 * time.Millisecond, 7 * time.Millisecond, 7 * time.Millisecond},
		{"two: the mean of both", ms(9, 4), 6500 * time.Microsecond, 4 * time.Millisecond, 9 * time.Millisecond},
		{"three: the middle", ms(5, 1, 30), 5 * time.Millisecond, 1 * time.Millisecond, 30 * time.Millisecond},
		{"four: the mean of the middle two", ms(8, 2, 6, 3), 4500 * time.Microsecond, 2 * time.Millisecond, 8 * time.Millisecond},
		{"odd nanoseconds round", []time.Duration{1, 2}, 2, 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs := slices.Clone(tt.runs)
			median, least, most := summarize(runs)
			if median != tt.median || least != tt.least || most != tt.most {
				t.Errorf("summarize(%v) = %v, %v, %v; want %v, %v, %v", tt.runs, median, least, most, tt.median, tt.least, tt.most)
			}
			if !slices.Equal(runs, tt.runs) {
				t.Errorf("summarize changed its argument: %v, was %v", runs, tt.runs)
			}
		})
	}
}

// heapSink keeps TestMeasureMemory's allocations on the heap.
var heapSink [][]byte

// TestMeasureMemory runs a strategy of known allocations: per run, 64
// small objects and one of 4 MiB, held 50 ms, which the heap watcher sees.
func TestMeasureMemory(t *testing.T) {
	const big = 4 << 20
	s := Strategy{Name: "alloc", Run: func(ctx context.Context, p Problem, _ int) (Answer, error) {
		held := make([][]byte, 0, 64)
		for range 64 {
			held = append(held, make([]byte, 100))
		}
		held = append(held, make([]byte, big))
		heapSink = held
		time.Sleep(50 * time.Millisecond)
		heapSink = nil
		return Answer{Solvable: true, Winnable: -1, Positions: 1}, nil
	}}
	problems, _ := Suite("triangle", nil)
	r, err := measure(context.Background(), problems[0], s, 1, Options{Runs: 2})
	if err != nil {
		t.Fatal(err)
	}
	// 64 objects, the slice of slices and the big one; a little slack for
	// what the runtime allocates around them (the timer of the sleep).
	if r.Allocs < 66 || r.Allocs > 80 {
		t.Errorf("Allocs = %d per run, want 66 to 80", r.Allocs)
	}
	if r.Bytes < big+64*100 || r.Bytes > big+64<<10 {
		t.Errorf("Bytes = %d per run, want %d to %d", r.Bytes, big+64*100, big+64<<10)
	}
	if r.PeakHeap < big {
		t.Errorf("PeakHeap = %d, want at least %d", r.PeakHeap, big)
	}
}
