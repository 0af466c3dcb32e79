package serve

import (
	"flag"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"pegs/report/reporttest"
)

var update = flag.Bool("update", false, "write the golden files of testdata/api")

// TestGolden checks every endpoint's answer, status, headers that matter
// and body, against its golden file in testdata/api (-update writes them);
// the time a search took is blanked out.
func TestGolden(t *testing.T) {
	s, _ := testServer(t, Config{})
	tests := []struct {
		name, method, path, ctype, body string
	}{
		{"healthz", "GET", "/healthz", "", ""},
		{"readyz", "GET", "/readyz", "", ""},
		{"boards", "GET", "/api/boards", "", ""},
		{"board_triangle4", "GET", "/api/boards/triangle:4", "", ""},
		{"levels", "GET", "/api/levels", "", ""},
		{"level_classic1", "GET", "/api/levels/classic-1", "", ""},
		{"level_solo", "GET", "/api/levels/solo-1", "", ""},
		{"hint_level", "POST", "/api/hint", "application/json", `{"level": "classic-1", "history": "d3-d5"}`},
		{"hint_triangle", "POST", "/api/hint", "application/json; charset=utf-8", `{"board": "triangle", "start": "5", "goal": "any", "history": "14-5"}`},
		{"solve_full_moves", "POST", "/api/solve", "application/json", `{"level": "classic-7", "metric": "moves"}`},
		{"solve_triangle", "POST", "/api/solve", "application/json", `{"board": "triangle", "start": "5", "goal": "any"}`},
		{"grade_cross", "POST", "/api/grade", "application/json", `{"level": "classic-1"}`},
		{"generate_triangle", "POST", "/api/generate", "application/json", `{"board": "triangle", "count": 2}`},
		{"generate_too_many", "POST", "/api/generate", "application/json", `{"board": "triangle:4", "count": 10}`},
		{"generate_pegs", "POST", "/api/generate", "application/json", `{"count": 2, "pegs": "31-32"}`},
		{"text_plain", "POST", "/api/hint", "text/plain", `{"level": "classic-1", "history": ""}`},
		{"no_type", "POST", "/api/solve", "", `{"level": "classic-1"}`},
		{"not_found", "GET", "/api/nope", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			if tt.ctype != "" {
				req.Header.Set("Content-Type", tt.ctype)
			}
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, req)
			got := fmt.Sprintf("%s %s\n%s\n\n%d %s Retry-After:%q\n%s", tt.method, tt.path, tt.body, w.Code,
				w.Header().Get("Content-Type"), w.Header().Get("Retry-After"), elapsed.ReplaceAllString(w.Body.String(), `"elapsed_ms": 0`))
			reporttest.Golden(t, filepath.Join("api", tt.name+".golden"), []byte(got), *update)
		})
	}
}
