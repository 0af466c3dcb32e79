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
