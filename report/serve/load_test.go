package serve

import (
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"
)

// searchOverhead is what the server may hold beyond its --mem budget while
// 200 searching requests are in flight: their connections, decoded bodies
// and answers, and the searches' own bookkeeping outside the budget's
// tables. The package documentation (Limits) states it.
const searchOverhead = 48 << 20

// TestManySearchesWithinMemory sends 200 searching requests at once
// (fewest moves, hints found by search, grades) to a server with a 64 MiB
// budget: every one answers, 200, 422 where a search passes its share of
// the budget, or 503 with Retry-After when busy, and the heap never grows
// past the budget plus searchOverhead.
func TestManySearchesWithinMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("200 searches at once take seconds")
	}
	const budget, clients = 64 << 20, 200
	s, _ := testServer(t, Config{Memory: budget, Oracles: func(string) bool { return false },
		Limits: Limits{Timeout: 20 * time.Second, Wait: 2 * time.Second}})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()

	requests := []struct{ path, body string }{
		{"/api/solve", `{"start": "d4", "goal": "any", "metric": "moves"}`},
		{"/api/hint", `{"position": "ooooooooooooooooooooooo...o...o.o"}`},
		{"/api/grade", `{"position": "..ooo..ooo.ooooooooooooo...o....."}`},
		{"/api/solve", `{"start": "c1"}`},
	}
	// As pegs serve does (cli.LimitHeap), the collector keeps the heap
	// near the budget and its overhead, so what is measured is what the
	// requests hold, not garbage awaiting a collection.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(budget + searchOverhead))
	runtime.GC()
	base := heapBytes()
	var peak uint64
	done := make(chan struct{})
	var sampled sync.WaitGroup
	sampled.Go(func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, heapBytes())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}, Timeout: time.Minute}
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for i := range clients {
		r := requests[i%len(requests)]
		wg.Go(func() {
			resp, err := client.Post(ts.URL+r.path, "application/json", strings.NewReader(r.body))
			if err != nil {
				t.Errorf("POST %s: %v", r.path, err)
				return
			}
			defer resp.Body.Close()
			if resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "" {
				body, _ := io.ReadAll(resp.Body)
				if strings.Contains(string(body), "busy") {
					t.Errorf("POST %s busy without Retry-After: %s", r.path, body)
				}
			}
			mu.Lock()
			codes[resp.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	close(done)
	sampled.Wait()

	t.Logf("answers by status: %v; heap %d MiB at rest, %d MiB at its peak", codes, base>>20, peak>>20)
	if codes[http.StatusInternalServerError] > 0 {
		t.Errorf("%d answers were 500", codes[http.StatusInternalServerError])
	}
	if codes[http.StatusOK]+codes[http.StatusUnprocessableEntity] == 0 || codes[http.StatusServiceUnavailable] == 0 {
		t.Errorf("want some searches run (answered, or stopped at their share of the budget) and some refused as busy; got %v", codes)
	}
	for code := range codes {
		if code != http.StatusOK && code != http.StatusUnprocessableEntity && code != http.StatusServiceUnavailable {
			t.Errorf("%d answers of status %d", codes[code], code)
		}
	}
	if grew := int64(peak) - int64(base); grew > budget+searchOverhead {
		t.Errorf("the heap grew by %d MiB, past the budget of %d MiB and %d MiB of overhead", grew>>20, budget>>20, searchOverhead>>20)
	}
}

// heapBytes returns the bytes of live and not yet swept heap objects.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
