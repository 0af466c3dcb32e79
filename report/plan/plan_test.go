package plan

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"pegs/engine"
	"pegs/report"
	"pegs/search"
	"pegs/search/cluster"
)

// TestTable plans the 21-hole triangle on 64 KiB workers and checks that
// its table has a row a layer in JSON and names the run's totals in text,
// and that the plans side by side have a row a board.
func TestTable(t *testing.T) {
	b, err := engine.Lookup("triangle:6")
	if err != nil {
		t.Fatal(err)
	}
	prob := search.Problem{Board: b, Start: b.Start(), Goal: engine.Goal{Kind: engine.OnePeg}}
	pl, err := cluster.NewPlan(context.Background(), prob, cluster.Options{}, 64<<10, 3)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Table(pl).Write(&buf, report.JSON); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rows); err != nil {
		t.Fatalf("the plan's JSON: %v\n%s", err, buf.String())
	}
	if len(rows) != len(pl.Layers) {
		t.Errorf("%d JSON rows, want a row a layer (%d)", len(rows), len(pl.Layers))
	}
	buf.Reset()
	if err := Table(pl).Write(&buf, report.Text); err != nil {
		t.Fatal(err)
	}
	if want := "partitions a layer"; !strings.Contains(buf.String(), want) {
		t.Errorf("the plan's text lacks %q:\n%s", want, buf.String())
	}
	buf.Reset()
	if err := SideBySide([]string{"triangle:6", "again"}, []*cluster.Plan{pl, pl}).Write(&buf, report.CSV); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(buf.String(), "\n"); got != 3 {
		t.Errorf("side by side: %d CSV lines, want a header and a row a plan:\n%s", got, buf.String())
	}
}
