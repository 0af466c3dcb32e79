package pool

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

// TestEach checks that Each calls f on every item of its range once, in
// chunks, with at most as many states at once as idle holds, and that a
// cancelled context stops it with its error.
func TestEach(t *testing.T) {
	for _, states := range []int{1, 3} {
		idle := make(chan int, states)
		for i := range states {
			idle <- i
		}
		seen := make([]atomic.Int32, 1000)
		var busy [3]atomic.Int32
		err := Each(context.Background(), idle, 10, 1000, 7, func(s, lo, hi int) {
			if busy[s].Add(1) != 1 {
				t.Errorf("state %d used by two calls at once", s)
			}
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
			busy[s].Add(-1)
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := range seen {
			want := int32(1)
			if i < 10 {
				want = 0
			}
			if got := seen[i].Load(); got != want {
				t.Fatalf("states=%d: item %d seen %d times, want %d", states, i, got, want)
			}
		}
		if len(idle) != states {
			t.Errorf("states=%d: %d states back in idle", states, len(idle))
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	idle := make(chan int, 1)
	idle <- 0
	calls := 0
	err := Each(ctx, idle, 0, 100, 10, func(int, int, int) { calls++ })
	if !errors.Is(err, context.Canceled) || calls != 0 {
		t.Errorf("cancelled: %d calls, error %v; want none and context.Canceled", calls, err)
	}
}

// TestSplit checks that Split calls f once a chunk, chunk c bounded by
// c·n/chunks, the chunks covering [0, n) once, whatever the count asked
// for (at most n chunks, at least one).
func TestSplit(t *testing.T) {
	for _, c := range []struct{ n, workers, chunks, want int }{
		{1000, 2, 64, 64},
		{1000, 1, 7, 7},
		{5, 2, 64, 5},
		{5, 2, 0, 1},
	} {
		seen := make([]atomic.Int32, c.n)
		called := make([]atomic.Int32, c.n)
		Split(c.n, c.workers, c.chunks, func(k, lo, hi int) {
			called[k].Add(1)
			if lo != k*c.n/c.want || hi != (k+1)*c.n/c.want {
				t.Errorf("n=%d chunks=%d: chunk %d is [%d, %d), want [%d, %d)", c.n, c.chunks, k, lo, hi, k*c.n/c.want, (k+1)*c.n/c.want)
			}
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		for i := range seen {
			if got := seen[i].Load(); got != 1 {
				t.Fatalf("n=%d chunks=%d: item %d seen %d times, want 1", c.n, c.chunks, i, got)
			}
		}
		for k := range called {
			want := int32(0)
			if k < c.want {
				want = 1
			}
			if got := called[k].Load(); got != want {
				t.Fatalf("n=%d chunks=%d: chunk %d called %d times, want %d", c.n, c.chunks, k, got, want)
			}
		}
	}
}
