package cluster

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"pegs/engine"
	"pegs/report"
	"pegs/search"
)

// explored returns the JSON of analysis a of prob, its time and memory
// left out (they differ from run to run).
func explored(t *testing.T, prob search.Problem, a *search.Analysis) string {
	t.Helper()
	c := *a
	c.Elapsed, c.PeakBytes = 0, 0
	var buf bytes.Buffer
	if err := report.WriteExplore(&buf, report.JSON, prob, &c); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func problem(t *testing.T, board, start string) search.Problem {
	t.Helper()
	b, err := engine.Lookup(board)
	if err != nil {
		t.Fatal(err)
	}
	p := b.Start()
	if start != "" {
		if p, err = b.Vacate(start); err != nil {
			t.Fatal(err)
		}
	}
	g := engine.Goal{Kind: engine.OnePeg}
	if _, ok := b.Centre(); ok {
		g, _ = b.ParseGoal("center")
	}
	return search.Problem{Board: b, Start: p, Goal: g}
}

func TestExploreSameAsInProcess(t *testing.T) {
	tests := []struct {
		name, board, start string
		parts              int
		long               bool
	}{
		{name: "triangle4", board: "triangle:4", parts: 16},
		{name: "triangle21", board: "triangle:6"},
		{name: "triangle28", board: "triangle:7", parts: 2},
		{name: "english", board: "english", long: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.long && testing.Short() {
				// 89 s alone on 2 cores (pegs-beam explore --board english),
				// against 6 s in memory and 28 s with --spill.
				t.Skip("the English board through Prism takes a minute and a half")
			}
			prob := problem(t, tt.board, tt.start)
			ctx := context.Background()
			want, err := search.Explore(ctx, prob, search.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Now()
			got, err := Explore(ctx, prob, Options{Storage: t.TempDir(), Parts: tt.parts})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: in-process %v, Prism %v", tt.name, want.Elapsed, time.Since(t0))
			if g, w := explored(t, prob, got), explored(t, prob, want); g != w {
				t.Errorf("Prism run:\n%s\nwant (in-process):\n%s", g, w)
			}
		})
	}
}

func TestInjectedFailureRetried(t *testing.T) {
	prob := problem(t, "triangle:6", "")
	ctx := context.Background()
	want, err := search.Explore(ctx, prob, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "failed")
	r, err := Run(ctx, prob, Options{Storage: t.TempDir(), Parts: 4, failOnce: marker, failPegs: 12})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the failure was not injected: %v", err)
	}
	if r.Attempts != 2 {
		t.Errorf("attempts = %d, want 2 (one failed, one run again)", r.Attempts)
	}
	if g, w := explored(t, prob, r.Analysis), explored(t, prob, want); g != w {
		t.Errorf("after the failure:\n%s\nwant:\n%s", g, w)
	}
}
