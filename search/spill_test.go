package search

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"pegs/engine"
	"pegs/engine/enginetest"
)

// analysisJSON returns a's counts as JSON, without what differs between
// runs of the same problem (time, memory, the spill's own figures).
func analysisJSON(t testing.TB, a *Analysis) string {
	t.Helper()
	c := *a
	c.Elapsed, c.PeakBytes, c.Spilled = 0, 0, nil
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(c); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestSpillAgrees checks that spilled runs, their layers split into many
// partitions, give the same analysis as in memory, every count of every
// layer.
func TestSpillAgrees(t *testing.T) {
	for _, c := range []struct {
		board, start, goal string
		opt                Options
		partition          int // most positions of a partition
	}{
		{"triangle", "1", "any", Options{}, 100},
		{"triangle", "1", "1", Options{}, 100},
		{"triangle:6", "1", "any", Options{}, 3000},
		{"triangle:6", "4", "any", Options{NoGames: true}, 3000},
		{"triangle:7", "1", "any", Options{}, 1 << 20},
	} {
		t.Run(c.board+"/"+c.start+"/"+c.goal, func(t *testing.T) {
			if testing.Short() && c.board == "triangle:7" {
				t.Skip("the 28-hole triangle spilled takes about 30 s")
			}
			b := enginetest.Board(t, c.board)
			prob := Problem{b, vacate(t, b, c.start), enginetest.Goal(t, b, c.goal)}
			want, err := Explore(context.Background(), prob, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "spill")
			got, err := Explore(context.Background(), prob, spilledIn(c.opt, dir, c.partition))
			if err != nil {
				t.Fatal(err)
			}
			if got.Spilled == nil || got.Spilled.Widest < 2 || got.Spilled.Partitions <= int64(len(got.Layers)) {
				t.Fatalf("the spill was not taken, or no layer was split: %+v", got.Spilled)
			}
			if diff := cmp.Diff(analysisJSON(t, want), analysisJSON(t, got)); diff != "" {
				t.Errorf("spilled (+) and in memory (-) differ:\n%s", diff)
			}
		})
	}
}

// vacate returns b's position with every hole full but those labelled.
func vacate(t testing.TB, b *engine.Board, labels string) engine.Position {
	t.Helper()
	p, err := b.Vacate(labels)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
