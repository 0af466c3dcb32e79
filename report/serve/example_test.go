package serve_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"

	"pegs/report"
	"pegs/report/serve"
)

// Ask the level server for a hint in the Cross level after one jump, as
// the play page does. pegs serve calls Start, to build the levels'
// oracles, and Serve, to answer on a port; without them the hint is found
// by searching.
func Example() {
	s, err := serve.New(serve.Config{Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	body := `{"level": "classic-1", "history": "d3-f3"}`
	w := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/api/hint", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	s.Handler().ServeHTTP(w, req)
	var h report.HintJSON
	if err := json.Unmarshal(w.Body.Bytes(), &h); err != nil {
		panic(err)
	}
	fmt.Printf("%d: %s; hint %s\n", w.Code, h.Status, *h.Jump)
	// Output:
	// 200: centre still possible; hint d5-d3
}
