package report

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"

	"pegs/engine"
	"pegs/search"
)

// TestWriteInterrupted checks that what an interrupted explore writes
// says so, and that a finished one does not.
func TestWriteInterrupted(t *testing.T) {
	b, err := engine.Lookup("triangle")
	if err != nil {
		t.Fatal(err)
	}
	prob := search.Problem{Board: b, Start: b.Full() &^ 1, Goal: engine.Goal{Kind: engine.OnePeg}}
	a, err := search.Explore(context.Background(), prob, search.ExploreOptions{ReachableOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		write func(io.Writer, Format, search.Problem, *search.Analysis) error
		want  bool
	}{{WriteReachable, false}, {WriteInterrupted, true}} {
		var buf bytes.Buffer
		if err := c.write(&buf, JSON, prob, a); err != nil {
			t.Fatal(err)
		}
		var got ReachableJSON
		if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Interrupted != c.want || got.Reachable != a.Reachable {
			t.Errorf("interrupted %v, reachable %d; want %v, %d", got.Interrupted, got.Reachable, c.want, a.Reachable)
		}
	}
}
