package serve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
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
// their latencies, the failures (any answer but 200), and the process's
// CPU time per hint.
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
		// Each client keeps one connection and writes its requests and
		// reads the answers itself, as a load generator such as wrk does:
		// net/http's client costs more CPU than the server it measures.
		addr := ln.Addr().String()
		conns := make([]*hintConn, clients)
		for c := range conns {
			hc, err := dialHints(addr)
			if err != nil {
				b.Fatal(err)
			}
			defer hc.close()
			conns[c] = hc
		}
		games := make([]*gamePlayer, clients)
		for c := range games {
			games[c] = &gamePlayer{s: s, rng: rand.New(rand.NewPCG(uint64(c), 33))}
		}
		var latencies []time.Duration
		var failed atomic.Int64
		var elapsed, cpu time.Duration
		for b.Loop() {
			cpu0 := processCPU()
			t0 := time.Now()
			var wg sync.WaitGroup
			got := make([][]time.Duration, clients)
			for c := range clients {
				wg.Go(func() {
					for range perClient {
						body := games[c].next()
						t := time.Now()
						status, err := conns[c].post(body)
						if err != nil {
							b.Error(err)
							return
						}
						got[c] = append(got[c], time.Since(t))
						if status != http.StatusOK {
							failed.Add(1)
						}
					}
				})
			}
			wg.Wait()
			elapsed += time.Since(t0)
			cpu += processCPU() - cpu0
			latencies = append(latencies, slices.Concat(got...)...)
		}
		slices.Sort(latencies)
		pct := func(p float64) float64 {
			return float64(latencies[int(p*float64(len(latencies)-1))].Microseconds()) / 1000
		}
		b.ReportMetric(float64(len(latencies))/elapsed.Seconds(), "hints/s")
		b.ReportMetric(pct(0.5), "p50-ms")
		b.ReportMetric(pct(0.99), "p99-ms")
		b.ReportMetric(float64(failed.Load()), "errors")
		// The CPU a hint costs, server and clients together: what bounds
		// hints/s on a machine of n cores (n/cpu), and what another load
		// on the machine does not change.
		b.ReportMetric(float64(cpu.Microseconds())/float64(len(latencies)), "cpu-us/hint")
	})
}

// hintConn is a client's kept-alive connection to the server.
type hintConn struct {
	conn net.Conn
	r    *bufio.Reader
	w    *bufio.Writer
	req  []byte
}

func dialHints(addr string) (*hintConn, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &hintConn{conn: conn, r: bufio.NewReader(conn), w: bufio.NewWriter(conn)}, nil
}

// post sends a hint request of body and reads the answer through, and
// returns its status.
func (h *hintConn) post(body string) (int, error) {
	h.req = fmt.Appendf(h.req[:0], "POST /api/hint HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	if _, err := h.w.Write(h.req); err != nil {
		return 0, err
	}
	if err := h.w.Flush(); err != nil {
		return 0, err
	}
	res, err := http.ReadResponse(h.r, nil)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, err
}

func (h *hintConn) close() { h.conn.Close() }

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
