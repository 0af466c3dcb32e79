package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"pegs/engine"
	"pegs/report"
)

// syncBuffer is a buffer the server's log writes to from many goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// testServer returns a server of the classic levels and the packs of
// testdata (its custom board's geometry is triangular), logging to the
// returned buffer, closed when t ends. cfg's packs and log are set here.
func testServer(t testing.TB, cfg Config) (*Server, *syncBuffer) {
	t.Helper()
	for _, name := range []string{"triangle.json", "hexagon.json", "diamond.json"} {
		p, err := LoadPack(filepath.Join("testdata", name), engine.Triangular)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Packs = append(cfg.Packs, p)
	}
	logs := &syncBuffer{}
	cfg.Log = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, logs
}

// small picks the oracles of the levels of fewer than 20 pegs, which
// build in milliseconds.
func small(s *Server) func(string) bool {
	return func(id string) bool { return s.levels[id].Start.Pegs() < 20 }
}

// do sends a request to the server's handler and returns the response.
func do(t testing.TB, s *Server, method, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if method == "POST" {
		req.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, req)
	return w
}

// netListen listens on a free port of the loopback interface.
func netListen(t testing.TB) (net.Listener, error) {
	t.Helper()
	return net.Listen("tcp", "127.0.0.1:0")
}

// elapsed blanks out the time a search took.
var elapsed = regexp.MustCompile(`"elapsed_ms": [0-9.]+`)

// TestSameAsCommands checks that the API answers as the commands do with
// --format json, byte for byte: their golden files (cmd/pegs/testdata)
// are the wanted bodies.
func TestSameAsCommands(t *testing.T) {
	s, _ := testServer(t, Config{})
	tests := []struct {
		golden, path, body string
	}{
		{"hint_fewest_json", "/api/hint", `{"board": "triangle", "start": "1", "history": "6-1,13-6,8-3,15-13,6-15"}`},
		{"hint_dead_json", "/api/hint", `{"board": "triangle", "start": "1", "history": "4-1,6-4,1-6,7-2"}`},
		{"solve_triangle_json", "/api/solve", `{"board": "triangle", "start": "1", "goal": "any"}`},
		{"solve_moves_json", "/api/solve", `{"metric": "moves", "board": "triangle", "start": "13", "goal": "13"}`},
		{"grade_plus_json", "/api/grade", `{"position": "....o....o....ooooo....o....o...."}`},
		{"generate_triangle", "/api/generate", `{"board": "triangle", "count": 5}`},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("..", "..", "cmd", "pegs", "testdata", tt.golden+".stdout"))
			if err != nil {
				t.Fatal(err)
			}
			w := do(t, s, "POST", tt.path, tt.body)
			if w.Code != http.StatusOK {
				t.Fatalf("POST %s %s: %d %s", tt.path, tt.body, w.Code, w.Body)
			}
			got := elapsed.ReplaceAllString(w.Body.String(), `"elapsed_ms": 0`)
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("POST %s %s differs from pegs (-want +got):\n%s", tt.path, tt.body, diff)
			}
			if ct := w.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
		})
	}
}

// decodeBody decodes a response's JSON body into v.
func decodeBody(t testing.TB, w *httptest.ResponseRecorder, v any) {
	t.Helper()
	if err := json.Unmarshal(w.Body.Bytes(), v); err != nil {
		t.Fatalf("%v in %s", err, w.Body)
	}
}

// TestBoardLayout checks GET /api/boards/{name} against the engine: every
// hole's label and place, every jump, for a built-in board and a pack's
// custom board.
func TestBoardLayout(t *testing.T) {
	s, _ := testServer(t, Config{})
	for _, name := range []string{"english", "triangle", "wiegleb", "hexagon.board"} {
		w := do(t, s, "GET", "/api/boards/"+name, "")
		if w.Code != http.StatusOK {
			t.Fatalf("GET /api/boards/%s: %d %s", name, w.Code, w.Body)
		}
		var got BoardJSON
		decodeBody(t, w, &got)
		b, err := s.board(name)
		if err != nil {
			t.Fatal(err)
		}
		lay := got.Layout
		if got.Name != b.Name() || got.Geometry != b.Geometry().String() || got.Holes != b.Holes() || len(lay.Holes) != b.Holes() || len(lay.Jumps) != len(b.Jumps()) {
			t.Fatalf("%s: %s %s, %d holes, %d jumps", name, got.Name, got.Geometry, len(lay.Holes), len(lay.Jumps))
		}
		for h, hole := range lay.Holes {
			x, y := b.Place(h)
			if hole.Label != b.Label(h) || hole.X != x || hole.Y != y || x > lay.Width || y > lay.Height {
				t.Errorf("%s hole %d: %+v, want %s at (%g, %g) within %g x %g", name, h, hole, b.Label(h), x, y, lay.Width, lay.Height)
			}
		}
		for i, j := range b.Jumps() {
			if lay.Jumps[i] != [3]int{j.From, j.Over, j.To} {
				t.Errorf("%s jump %d: %v, want %v", name, i, lay.Jumps[i], j)
			}
		}
	}
}

// TestLevels checks GET /api/levels and GET /api/levels/{id}: the classic
// seven first, in order, ungraded, then the packs, graded.
func TestLevels(t *testing.T) {
	s, _ := testServer(t, Config{})
	var packs PacksJSON
	decodeBody(t, do(t, s, "GET", "/api/levels", ""), &packs)
	var ids []string
	for _, p := range packs.Packs {
		ids = append(ids, p.ID)
		for i, l := range p.Levels {
			if l.ID != levelID(p.ID, i) || l.Graded != (p.Mode == nil || *p.Mode == "selminha") || l.Board != p.Board || l.Goal != p.Goal {
				t.Errorf("pack %s level %d: %s graded %v, board %s goal %s", p.ID, i, l.ID, l.Graded, l.Board, l.Goal)
			}
		}
	}
	if diff := cmp.Diff([]string{"classic", "solo", "tricky", "triangle", "hexagon", "diamond"}, ids); diff != "" {
		t.Errorf("packs (-want +got):\n%s", diff)
	}
	classic := packs.Packs[0]
	var names []string
	for _, l := range classic.Levels {
		names = append(names, l.Name)
	}
	if diff := cmp.Diff([]string{"cross", "plus", "fireplace", "pyramid", "arrow", "diamond", "full"}, names); diff != "" {
		t.Errorf("classic levels (-want +got):\n%s", diff)
	}
	var play PlayJSON
	decodeBody(t, do(t, s, "GET", "/api/levels/classic-1", ""), &play)
	if play.Name != "cross" || play.Pack != "classic" || play.Layout.Name != "english" || play.GoalHole == nil || *play.GoalHole != "d4" || play.Picture != classic.Levels[0].Picture {
		t.Errorf("classic-1: %+v", play)
	}
	decodeBody(t, do(t, s, "GET", "/api/levels/triangle-2", ""), &play)
	if play.Layout.Name != "triangle" || play.GoalHole != nil || play.Pack != "triangle" {
		t.Errorf("triangle-2: layout %s, goal hole %v", play.Layout.Name, play.GoalHole)
	}
}

// TestHintOfLevel checks a loaded level's hint along a game, by its id and
// by its board and start, which must agree.
func TestHintOfLevel(t *testing.T) {
	s, _ := testServer(t, Config{})
	var sol report.SolveJSON
	decodeBody(t, do(t, s, "POST", "/api/solve", `{"level": "classic-2"}`), &sol)
	if !sol.Solvable || len(sol.Solution) != strings.Count(sol.Start, "o")-1 {
		t.Fatalf("classic-2 (plus): %+v", sol)
	}
	for i := range sol.Solution {
		history := strings.Join(sol.Solution[:i], ", ")
		byLevel := do(t, s, "POST", "/api/hint", `{"level": "classic-2", "history": "`+history+`"}`)
		byStart := do(t, s, "POST", "/api/hint", `{"board": "english", "start": "`+sol.Start+`", "history": "`+history+`"}`)
		if byLevel.Code != http.StatusOK || byLevel.Body.String() != byStart.Body.String() {
			t.Fatalf("after %q: by level %d %s, by start %d %s", history, byLevel.Code, byLevel.Body, byStart.Code, byStart.Body)
		}
		var h report.HintJSON
		decodeBody(t, byLevel, &h)
		if !h.GoalPossible || h.Jump == nil {
			t.Fatalf("after %q on a solution: %+v", history, h)
		}
	}
}

// TestHealth checks /healthz, and /readyz before and after the oracles are
// built; then a loaded level's hint is a lookup, which needs no slot.
func TestHealth(t *testing.T) {
	s, _ := testServer(t, Config{Limits: Limits{Slots: 1, Wait: time.Millisecond}})
	s.cfg.Oracles = small(s)
	if w := do(t, s, "GET", "/healthz", ""); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"ok"`) {
		t.Errorf("GET /healthz: %d %s", w.Code, w.Body)
	}
	if w := do(t, s, "GET", "/readyz", ""); w.Code != http.StatusServiceUnavailable {
		t.Errorf("GET /readyz before Start: %d %s", w.Code, w.Body)
	}
	s.Start()
	deadline := time.Now().Add(10 * time.Second)
	var ready ReadyJSON
	for {
		w := do(t, s, "GET", "/readyz", "")
		decodeBody(t, w, &ready)
		if w.Code == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready after 10 s: %s", w.Body)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !ready.Ready || len(ready.Oracles) == 0 {
		t.Fatalf("ready: %+v", ready)
	}
	for _, o := range ready.Oracles {
		if o.State != "ready" || len(o.Levels) == 0 {
			t.Errorf("oracle of %v: %s %s", o.Levels, o.State, o.Error)
		}
	}
	// Every slot taken: the lookups still answer, a search does not.
	release, err := s.acquire(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	l := s.levels["classic-4"]
	first := l.pack.Board.FormatJump(l.pack.Board.Moves(nil, l.Start)[0])
	if w := do(t, s, "POST", "/api/hint", `{"level": "classic-4", "history": "`+first+`"}`); w.Code != http.StatusOK {
		t.Errorf("hint of a built level with every slot taken: %d %s", w.Code, w.Body)
	}
	w := do(t, s, "POST", "/api/hint", `{"level": "classic-7", "history": "d2-d4"}`)
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Errorf("hint that searches with every slot taken: %d %s (Retry-After %q)", w.Code, w.Body, w.Header().Get("Retry-After"))
	}
}

// TestSolutionKept checks that a loaded level's fewest-moves solution is
// found once and kept: asked again with every slot taken, it answers, as
// the classic levels' do from the start.
func TestSolutionKept(t *testing.T) {
	s, _ := testServer(t, Config{Limits: Limits{Slots: 1}})
	first := do(t, s, "POST", "/api/solve", `{"level": "triangle-3", "metric": "moves"}`)
	if first.Code != http.StatusOK {
		t.Fatalf("first: %d %s", first.Code, first.Body)
	}
	release, err := s.acquire(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	again := do(t, s, "POST", "/api/solve", `{"level": "triangle-3", "metric": "moves"}`)
	if again.Code != http.StatusOK || again.Body.String() != first.Body.String() {
		t.Errorf("again with every slot taken: %d %s; want the first answer %s", again.Code, again.Body, first.Body)
	}
	if w := do(t, s, "POST", "/api/solve", `{"level": "triangle-2", "metric": "moves"}`); w.Code != http.StatusServiceUnavailable {
		t.Errorf("another level with every slot taken: %d %s", w.Code, w.Body)
	}
	if w := do(t, s, "POST", "/api/solve", `{"level": "classic-7", "metric": "moves"}`); w.Code != http.StatusOK {
		t.Errorf("Full, from memory, with every slot taken: %d %s", w.Code, w.Body)
	}
}

// TestPlayPage checks that the page and its files are served, and that
// nothing it uses comes from elsewhere.
func TestPlayPage(t *testing.T) {
	s, _ := testServer(t, Config{})
	for path, want := range map[string]string{"/": "text/html", "/play.js": "text/javascript", "/play.css": "text/css"} {
		w := do(t, s, "GET", path, "")
		if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), want) {
			t.Errorf("GET %s: %d %s", path, w.Code, w.Header().Get("Content-Type"))
		}
		if csp := w.Header().Get("Content-Security-Policy"); csp != "default-src 'self'" {
			t.Errorf("GET %s: Content-Security-Policy %q", path, csp)
		}
		if regexp.MustCompile(`(src|href)="(https?:)?//`).MatchString(w.Body.String()) {
			t.Errorf("GET %s fetches from another site", path)
		}
	}
	if w := do(t, s, "GET", "/nothing.js", ""); w.Code != http.StatusNotFound {
		t.Errorf("GET /nothing.js: %d", w.Code)
	}
}

// TestServeShutdown checks a graceful shutdown: a search in flight when
// the context ends is cancelled and answers 503 saying so, and Serve
// returns nil.
func TestServeShutdown(t *testing.T) {
	s, logs := testServer(t, Config{})
	ln, err := netListen(t)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	// A lone lost position of 26 pegs: a layered search, most of a second.
	body := `{"board": "english", "position": "ooooooooooooooooooooooo...o...o.o"}`
	answered := make(chan *http.Response, 1)
	go func() {
		res, err := http.Post("http://"+ln.Addr().String()+"/api/hint", "application/json", strings.NewReader(body))
		if err != nil {
			t.Error(err)
		}
		answered <- res
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	res := <-answered
	if res == nil {
		return
	}
	data, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(data), "shutting down") || res.Header.Get("Retry-After") != "" {
		t.Errorf("the hint in flight: %d %s (Retry-After %q)", res.StatusCode, data, res.Header.Get("Retry-After"))
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	for _, want := range []string{"msg=serving", "shutting down", "msg=stopped", "path=/api/hint status=503"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, logs)
		}
	}
}

// TestGradeNamesLevel grades a level named in the request: the answer
// carries its id as pegs grade --levels carries a level's name.
func TestGradeNamesLevel(t *testing.T) {
	s, _ := testServer(t, Config{})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	var got report.GradesJSON
	if err := postJSON(ts.URL+"/api/grade", `{"level": "classic-1"}`, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Levels) != 1 || got.Levels[0].Name != "classic-1" {
		t.Errorf("grade of level classic-1: %+v, want one level named classic-1", got.Levels)
	}
}
