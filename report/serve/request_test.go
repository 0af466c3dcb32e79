package serve

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pegs/engine"
	"pegs/search"
)

// TestBadRequests checks that bad input gets a 4xx and one line of JSON
// naming what is wrong.
func TestBadRequests(t *testing.T) {
	s, _ := testServer(t, Config{})
	dots := strings.Repeat(".", 33)
	tests := []struct {
		name, method, path, body string
		status                   int
		contains                 string
	}{
		{"malformed JSON", "POST", "/api/hint", `{"level":`, 400, "malformed JSON"},
		{"not an object", "POST", "/api/hint", `[1, 2]`, 400, "want serve.hintRequest"},
		{"unknown field", "POST", "/api/hint", `{"levle": "classic-1"}`, 400, `unknown field "levle"`},
		{"wrong type", "POST", "/api/solve", `{"level": 3}`, 400, `field "level": want string`},
		{"empty body", "POST", "/api/hint", ``, 400, "empty request body"},
		{"two objects", "POST", "/api/hint", `{} {}`, 400, "more after the object"},
		{"body too large", "POST", "/api/hint", `{"history": "` + strings.Repeat("d2-d4 ", 12000) + `"}`, 413, "request body over 65536 bytes"},
		{"unknown board", "POST", "/api/hint", `{"board": "hexagonal", "position": "o"}`, 400, `unknown board "hexagonal" (want english, french, triangle, triangle:N (N=4..10), diamond, wiegleb, or a loaded pack's: hexagon.board)`},
		{"unknown hole", "POST", "/api/hint", `{"start": "z9", "history": "d2-d4"}`, 400, `unknown hole "z9"`},
		{"illegal jump", "POST", "/api/hint", `{"level": "classic-1", "history": "d3-f3, d3-f3"}`, 400, "history: illegal jump: jump 2 (d3-f3)"},
		{"bad jump", "POST", "/api/hint", `{"level": "classic-1", "history": "d3f3"}`, 400, `history: move "d3f3"`},
		{"history alone", "POST", "/api/hint", `{"history": "d2-d4"}`, 400, "history: needs start"},
		{"no position", "POST", "/api/hint", `{"board": "english"}`, 400, "give position, or start"},
		{"too few symbols", "POST", "/api/hint", `{"position": "ooo"}`, 400, "3 symbols; board english has 33 holes"},
		{"too many pegs", "POST", "/api/hint", `{"position": "` + strings.Repeat("o", 40) + `"}`, 400, "more than 33 symbols"},
		{"no pegs", "POST", "/api/hint", `{"position": "` + dots + `"}`, 400, "no pegs"},
		{"history elsewhere", "POST", "/api/hint", `{"level": "classic-1", "history": "d3-f3", "position": "` + dots[:16] + "o" + dots[17:] + `"}`, 400, "history ends in"},
		{"unknown level", "POST", "/api/hint", `{"level": "classic-99"}`, 400, `level "classic-99": no such level`},
		{"level and board", "POST", "/api/hint", `{"level": "classic-1", "board": "french"}`, 400, "leave out board"},
		{"hint toward fewest", "POST", "/api/hint", `{"position": "o.o` + dots[3:] + `", "goal": "fewest"}`, 400, "want a one-peg goal"},
		{"no centre", "POST", "/api/solve", `{"board": "triangle", "goal": "center"}`, 400, "no centre hole"},
		{"start and position", "POST", "/api/solve", `{"start": "d4", "position": "o"}`, 400, "not both"},
		{"bad metric", "POST", "/api/solve", `{"metric": "speed"}`, 400, "want jumps or moves"},
		{"moves toward fewest", "POST", "/api/solve", `{"metric": "moves", "goal": "fewest"}`, 400, "want a one-peg goal"},
		{"grade too many pegs", "POST", "/api/grade", `{"level": "classic-7"}`, 422, "too many pegs: the level has 32"},
		{"grade unsolvable", "POST", "/api/grade", `{"position": "o.o` + dots[3:] + `"}`, 422, "no solution to goal center"},
		{"generate nothing", "POST", "/api/generate", `{"board": "triangle"}`, 400, "give count or pack"},
		{"generate both", "POST", "/api/generate", `{"count": 2, "pack": 2}`, 400, "give count or pack"},
		{"generate negative", "POST", "/api/generate", `{"count": -2}`, 400, "give count or pack"},
		{"generate too many", "POST", "/api/generate", `{"count": 1000}`, 422, "at most 10 a request"},
		{"generate bad pegs", "POST", "/api/generate", `{"count": 2, "pegs": "six"}`, 400, "want MIN-MAX"},
		{"generate pegs too many", "POST", "/api/generate", `{"board": "triangle", "count": 2, "pegs": "6-20"}`, 400, "MAX < 15"},
		{"GET a POST", "GET", "/api/hint", ``, 405, "GET /api/hint: want POST"},
		{"POST a GET", "POST", "/api/levels", `{}`, 405, "want GET"},
		{"no such API", "GET", "/api/nothing", ``, 404, "no API at /api/nothing"},
		{"no such level", "GET", "/api/levels/nope", ``, 404, `level "nope": no such level`},
		{"no such board", "GET", "/api/boards/nope", ``, 404, `unknown board "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := do(t, s, tt.method, tt.path, tt.body)
			body := w.Body.String()
			var e ErrorJSON
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error == "" || strings.Count(body, "\n") != 1 || !strings.HasSuffix(body, "\n") {
				t.Errorf("%s %s: body %q, want one line of JSON with an error (%v)", tt.method, tt.path, body, err)
			}
			if w.Code != tt.status || !strings.Contains(e.Error, tt.contains) {
				t.Errorf("%s %s: %d %s; want %d with %q", tt.method, tt.path, w.Code, body, tt.status, tt.contains)
			}
			if w.Code == http.StatusMethodNotAllowed && w.Header().Get("Allow") == "" {
				t.Errorf("%s %s: 405 without Allow", tt.method, tt.path)
			}
		})
	}
}

// TestLimits checks the answers past the server's limits: the request's
// deadline, the memory budget, and a busy pool.
func TestLimits(t *testing.T) {
	quick, _ := testServer(t, Config{Limits: Limits{Timeout: 50 * time.Millisecond}})
	// A lone lost position of 26 pegs takes most of a second.
	w := do(t, quick, "POST", "/api/hint", `{"position": "ooooooooooooooooooooooo...o...o.o"}`)
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "did not finish within") || w.Header().Get("Retry-After") != "" {
		t.Errorf("past the deadline: %d %s (Retry-After %q, want none)", w.Code, w.Body, w.Header().Get("Retry-After"))
	}
	s, _ := testServer(t, Config{Memory: 4 << 20, Limits: Limits{Slots: 2}})
	w = do(t, s, "POST", "/api/solve", `{"start": "d3", "goal": "any", "metric": "moves"}`)
	if w.Code != http.StatusUnprocessableEntity || !strings.Contains(w.Body.String(), "memory budget exceeded") {
		t.Errorf("past the memory budget: %d %s", w.Code, w.Body)
	}
	for range 2 {
		release, err := s.acquire(t.Context(), 0)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
	}
	if _, err := s.acquire(t.Context(), 0); !errors.Is(err, errBusy) {
		t.Fatalf("a third slot of two: %v", err)
	}
	for _, path := range []string{"/api/solve", "/api/grade", "/api/generate"} {
		body := `{"level": "classic-1"}`
		if path == "/api/generate" {
			body = `{"count": 1}`
		}
		w := do(t, s, "POST", path, body)
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), "busy") {
			t.Errorf("POST %s when busy: %d %s, Retry-After %q", path, w.Code, w.Body, w.Header().Get("Retry-After"))
		}
	}
}

// TestPanic checks that a panic in a handler is a 500 with one line of
// JSON, and a log line with its stack; the server goes on.
func TestPanic(t *testing.T) {
	s, logs := testServer(t, Config{})
	h := s.logged(s.recovered(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })))
	w := do(t, &Server{handler: h}, "GET", "/api/boom", "")
	if w.Code != http.StatusInternalServerError || w.Body.String() != "{\"error\":\"internal error\"}\n" {
		t.Errorf("a panic: %d %q", w.Code, w.Body)
	}
	if l := logs.String(); !strings.Contains(l, "msg=panic") || !strings.Contains(l, "panic=boom") || !strings.Contains(l, "server_test.go") && !strings.Contains(l, "request_test.go") {
		t.Errorf("the log of a panic:\n%s", l)
	}
	if w := do(t, s, "GET", "/healthz", ""); w.Code != http.StatusOK {
		t.Errorf("after a panic: %d", w.Code)
	}
}

// FuzzDecodeRequest feeds request bodies to the decoding and resolution of
// every POST endpoint: each must answer a requestError of status 4xx, or a
// problem whose position is on the board and whose history leads to it.
func FuzzDecodeRequest(f *testing.F) {
	for _, seed := range []string{
		`{"level": "classic-1", "history": "d3-f3, d5-d3"}`,
		`{"board": "triangle", "start": "1", "history": "6-1,13-6,8-3"}`,
		`{"board": "english", "start": "..ooo..", "history": "f4-d4-b4"}`,
		`{"board": "hexagon.board", "position": "o.o.o.o.o.o.o.o.o.o"}`,
		`{"position": "....o...ooo.....o......o.........", "goal": "d4"}`,
		`{"metric": "moves", "level": "triangle-1"}`,
		`{"board": "triangle:6", "count": 2, "pegs": "6-9", "seed": 4}`,
		`{"level": "classic-1", "history": "d3-f3, d3-f3"}`,
		`{"start": "z9"}`, `[1]`, `{"level": 3}`, ``, `{}`, `{} x`,
	} {
		f.Add([]byte(seed))
	}
	s, _ := testServer(f, Config{})
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(err error) bool {
			if err == nil {
				return true
			}
			if re, ok := errors.AsType[*requestError](err); !ok || re.status < 400 || re.status > 499 {
				t.Fatalf("%q: %v is not a client's error", data, err)
			}
			return false
		}
		var h hintRequest
		if check(decodeBytes(data, &h)) {
			if g, err := s.resolveGame(h); check(err) {
				if g.p == 0 || g.p&^g.b.Full() != 0 {
					t.Fatalf("%q: position %x on board %s", data, g.p, g.b.Name())
				}
				if g.hist != nil {
					if p, err := g.b.Replay(g.hist.Start, g.hist.Jumps); err != nil || p != g.p {
						t.Fatalf("%q: the history does not lead to the position", data)
					}
				}
			}
		}
		var sv solveRequest
		if check(decodeBytes(data, &sv)) {
			if pr, err := s.resolve(sv.problemFields, true); check(err) && (pr.start == 0 || pr.start&^pr.b.Full() != 0) {
				t.Fatalf("%q: start %x on board %s", data, pr.start, pr.b.Name())
			}
		}
		var gen generateRequest
		if check(decodeBytes(data, &gen)) {
			if b, err := s.board(gen.Board); check(err) {
				if lo, hi, err := pegRange(b, gen.Pegs); check(err) && (lo < 2 || hi < lo || hi >= b.Holes()) {
					t.Fatalf("%q: pegs %d-%d on board %s", data, lo, hi, b.Name())
				}
				_, err := goalOf(b, gen.Goal, false)
				check(err)
			}
		}
	})
}

// TestPackMode checks a pack's mode: read from the pack, and refused when
// it is not one of the page's games.
func TestPackMode(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "triangle.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ mode, err string }{{"triangle", ""}, {"chess", `mode "chess": want one of selminha, solo, triangle, or none`}} {
		path := filepath.Join(t.TempDir(), "pack.json")
		withMode := strings.Replace(string(data), "{", `{"mode": "`+tt.mode+`",`, 1)
		if err := os.WriteFile(path, []byte(withMode), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := LoadPack(path, engine.Triangular)
		if tt.err == "" && (err != nil || p.Mode != tt.mode) || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("mode %s: %q, %v; want error %q", tt.mode, p.Mode, err, tt.err)
		}
	}
}

// TestPackMoves checks a pack level's moves: taken as the level's fewest
// moves once they replay to the goal in par moves, refused when they do
// not reach it or take more.
func TestPackMoves(t *testing.T) {
	pack, err := LoadPack(filepath.Join("testdata", "triangle.json"), engine.Triangular)
	if err != nil {
		t.Fatal(err)
	}
	l := pack.Levels[0]
	b := pack.Board
	fewest, err := search.FewestMoves(t.Context(), search.Problem{Board: b, Start: l.Start, Goal: pack.Goal}, search.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "triangle.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		moves []string
		ok    bool
	}{
		{"fewest", b.FormatMoves(fewest.Jumps), true},
		{"short of the goal", b.FormatMoves(fewest.Jumps)[:1], false},
		{"more than par", l.Info.Solution, len(l.Info.Solution) == l.Info.Par}, // a jump a move
	} {
		t.Run(tt.name, func(t *testing.T) {
			moves, _ := json.Marshal(tt.moves)
			path := filepath.Join(t.TempDir(), "pack.json")
			text := strings.Replace(string(data), `"levels": [`+"\n    {", `"levels": [`+"\n    {\"moves\": "+string(moves)+",", 1)
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := LoadPack(path, engine.Triangular)
			if tt.ok && (err != nil || p.Levels[0].Fewest == nil || len(p.Levels[0].Fewest.Jumps) != len(fewest.Jumps)) || !tt.ok && err == nil {
				t.Errorf("moves %v: %v", tt.moves, err)
			}
		})
	}
}
