package serve

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
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
		s := classicServer(b)
		ln, err := netListen(b)
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go s.Serve(ctx, ln)
		games := make([]*gamePlayer, clients)
		for c := range games {
			games[c] = &gamePlayer{s: s, rng: rand.New(rand.NewPCG(uint64(c), 33))}
		}
		loadTest(b, ln.Addr().String(), clients, perClient, func(c int) string { return games[c].next() })
	})
}

// BenchmarkServeHTTPFloor is BenchmarkServeHints against a server whose
// handler reads the request and answers a fixed hint: what net/http, the
// loopback and the clients cost alone on this machine, the floor under the
// real server's figures.
func BenchmarkServeHTTPFloor(b *testing.B) {
	const clients, perClient = 64, 200
	b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
		answer := []byte(`{"status":"one peg still possible","jump":"d2-d4","center_possible":true,"goal_possible":true,"one_peg_possible":true,"fewest_reachable":1,"undo":0,"movable":["d2","b4","f4","d6"],"position":"..."}`)
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, err := io.ReadAll(r.Body); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(answer)
		})}
		ln, err := netListen(b)
		if err != nil {
			b.Fatal(err)
		}
		go srv.Serve(ln)
		defer srv.Close()
		const body = `{"level": "classic-7", "history": "d2-d4 f3-d3 f5-f3 c3-e3 c1-c3 d5-f5"}`
		loadTest(b, ln.Addr().String(), clients, perClient, func(int) string { return body })
	})
}

// loadTest runs the load of BenchmarkServeHints against the server at
// addr: clients kept-alive connections, each posting perClient hint
// requests an iteration, next(c) the body of client c's next one.
func loadTest(b *testing.B, addr string, clients, perClient int, next func(c int) string) {
	// Each client keeps one connection and writes its requests and reads
	// the answers itself, as a load generator such as wrk does: net/http's
	// client costs more CPU than the server it measures.
	conns := make([]*hintConn, clients)
	for c := range conns {
		hc, err := dialHints(addr)
		if err != nil {
			b.Fatal(err)
		}
		defer hc.close()
		conns[c] = hc
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
					body := next(c)
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
	// hints/s on a machine of n cores (n/cpu), and what another load on
	// the machine does not change.
	b.ReportMetric(float64(cpu.Microseconds())/float64(len(latencies)), "cpu-us/hint")
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
// returns its status. It reads the response by hand (status line,
// Content-Length, body), as a load generator does: http.ReadResponse
// builds a header map a hint, which would take CPU from the server it
// measures.
func (h *hintConn) post(body string) (int, error) {
	h.req = append(h.req[:0], "POST /api/hint HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: "...)
	h.req = strconv.AppendInt(h.req, int64(len(body)), 10)
	h.req = append(h.req, "\r\n\r\n"...)
	h.req = append(h.req, body...)
	if _, err := h.w.Write(h.req); err != nil {
		return 0, err
	}
	if err := h.w.Flush(); err != nil {
		return 0, err
	}
	line, err := h.r.ReadSlice('\n')
	if err != nil {
		return 0, err
	}
	// "HTTP/1.1 200 OK\r\n"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, fmt.Errorf("status line %q", line)
	}
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, fmt.Errorf("status line %q", line)
	}
	length := -1
	for {
		line, err := h.r.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		if name, value, ok := bytes.Cut(line, []byte(":")); ok && strings.EqualFold(string(name), "Content-Length") {
			if length, err = strconv.Atoi(string(bytes.TrimSpace(value))); err != nil {
				return 0, fmt.Errorf("header %q", line)
			}
		}
	}
	if length < 0 {
		return 0, errors.New("a response without Content-Length")
	}
	_, err = h.r.Discard(length)
	return status, err
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

// BenchmarkHintHandler is the server's own part of a hint: the handler
// called in process, without the network, along the same games as
// BenchmarkServeHints. ns/op is the CPU a hint costs the server past
// net/http.
func BenchmarkHintHandler(b *testing.B) {
	s := classicServer(b)
	g := &gamePlayer{s: s, rng: rand.New(rand.NewPCG(1, 33))}
	bodies := make([]string, 10000)
	for i := range bodies {
		bodies[i] = g.next()
	}
	h := s.Handler()
	i := 0
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPost, "/api/hint", strings.NewReader(bodies[i%len(bodies)]))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", bodies[i%len(bodies)], w.Code, w.Body)
		}
		i++
	}
}

// classicServer returns a server with every classic level's oracle, Full's
// too, built, so that the clock starts after them; it is closed when b
// ends.
func classicServer(b *testing.B) *Server {
	s, err := New(Config{Log: slog.New(slog.DiscardHandler), EagerPegs: 64,
		Oracles: func(id string) bool { return strings.HasPrefix(id, "classic-") }})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	s.Start()
	for deadline := time.Now().Add(5 * time.Minute); !s.Ready(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatal("the oracles of the classic levels are not built after 5 minutes")
		}
	}
	return s
}
