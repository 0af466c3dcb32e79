package serve

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkServeHints is the load test: clients ask hints over HTTP on
// 127.0.0.1, each along random games of the classic English levels (a
// hint at every position, with the game's history), once the levels'
// oracles are built. An iteration is one round of 200 hints a client; it
// reports the hints answered a second, the median and 99th percentile of
// their latencies, and the failures (any answer but 200).
func BenchmarkServeHints(b *testing.B) {
	const clients, perClient = 64, 200
	b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
		// Every classic level's oracle, Full's too, built before the clock
		// starts.
		s, err := New(Config{Log: slog.New(slog.DiscardHandler), EagerPegs: 64,
			Oracles: func(id string) bool { return strings.HasPrefix(id, "classic-") }})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		s.Start()
		ln, err := netListen(b)
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go s.Serve(ctx, ln)
		for deadline := time.Now().Add(5 * time.Minute); !s.Ready(); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatal("the oracles of the classic levels are not built after 5 minutes")
			}
		}
		url := "http://" + ln.Addr().String() + "/api/hint"
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}, Timeout: time.Minute}
		games := make([]*gamePlayer, clients)
		for c := range games {
			games[c] = &gamePlayer{s: s, rng: rand.New(rand.NewPCG(uint64(c), 33))}
		}
		var latencies []time.Duration
		var failed atomic.Int64
		var elapsed time.Duration
		for b.Loop() {
			t0 := time.Now()
			var wg sync.WaitGroup
			got := make([][]time.Duration, clients)
			for c := range clients {
				wg.Go(func() {
					for range perClient {
						body := games[c].next()
						t := time.Now()
						res, err := client.Post(url, "application/json", strings.NewReader(body))
						if err != nil {
							failed.Add(1)
							continue
						}
						io.Copy(io.Discard, res.Body)
						res.Body.Close()
						got[c] = append(got[c], time.Since(t))
						if res.StatusCode != http.StatusOK {
							failed.Add(1)
						}
					}
				})
			}
			wg.Wait()
			elapsed += time.Since(t0)
			latencies = append(latencies, slices.Concat(got...)...)
		}
		client.CloseIdleConnections()
		slices.Sort(latencies)
		pct := func(p float64) float64 {
			return float64(latencies[int(p*float64(len(latencies)-1))].Microseconds()) / 1000
		}
		b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "hints/s")
		b.ReportMetric(pct(0.5), "p50-ms")
		b.ReportMetric(pct(0.99), "p99-ms")
		b.ReportMetric(float64(failed.Load()), "errors")
	})
}

// gamePlayer plays random games of the classic levels and asks a hint at
// every position.
type gamePlayer struct {
	s       *Server
	rng     *rand.Rand
	level   *level
	history []string // the jumps of the game being played
	played  int      // how many of them have been asked about
}

// next returns the body of the next hint request: the next position of
// the game, or of a new game on a random classic level.
func (g *gamePlayer) next() string {
	if g.level == nil || g.played > len(g.history) {
		g.level = g.s.levels[levelID("classic", g.rng.IntN(7))]
		b := g.level.pack.Board
		g.history = g.history[:0]
		for _, j := range b.RandomGame(g.level.Start, g.rng) {
			g.history = append(g.history, b.FormatJump(j))
		}
		g.played = 0
	}
	body := fmt.Sprintf(`{"level": %q, "history": %q}`, g.level.ID, strings.Join(g.history[:g.played], " "))
	g.played++
	return body
}
