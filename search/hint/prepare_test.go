package hint

import (
	"context"
	"errors"
	"testing"

	"pegs/engine"
	"pegs/engine/enginetest"
)

// TestPrepare checks that a prepared level's build ends with its oracle
// and fewest table, that its hints then come from them, and that
// preparing it again returns the finished build.
func TestPrepare(t *testing.T) {
	a := NewAdvisor(Options{})
	defer a.Close()
	a.setFewestFrom(1)
	b := enginetest.Board(t, "triangle")
	g := enginetest.Goal(t, b, "any")
	start, _ := b.Vacate("1")
	build := a.Prepare(b, start, g)
	<-build.Done()
	if err := build.Err(); err != nil || !build.Answers() {
		t.Fatalf("prepared build: answers %v, error %v", build.Answers(), err)
	}
	o := a.built(b, start, g)
	if o == nil || o.fewest == nil {
		t.Fatal("the prepared level has no oracle with a fewest table")
	}
	again := a.Prepare(b, start, g)
	select {
	case <-again.Done():
	default:
		t.Fatal("preparing a built level again starts another build")
	}
	if !again.Answers() || again.Err() != nil {
		t.Errorf("prepared again: answers %v, error %v", again.Answers(), again.Err())
	}
	jumps, _ := b.ParseMoves("6-1 13-6 8-3 15-13 6-15")
	p, _ := b.Replay(start, jumps)
	h, err := a.Hint(context.Background(), b, p, g, &History{start, jumps})
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := o.Fewest(p); !ok || h.Fewest != n || h.Status != FewestOnly {
		t.Errorf("hint %v with fewest %d; the oracle says %d (%v)", h.Status, h.Fewest, n, ok)
	}
	checkLost(t, b, p, h)
}

// TestMaxLevels checks that the levels whose oracles hints build are kept
// up to Options.MaxLevels, the least recently used dropped first, and that
// a prepared level is never dropped.
func TestMaxLevels(t *testing.T) {
	a := NewAdvisor(Options{MaxLevels: 2})
	defer a.Close()
	a.setNoFewest()
	b := enginetest.Board(t, "triangle")
	g := enginetest.Goal(t, b, "any")
	starts := map[string]engine.Position{}
	for _, h := range []string{"1", "2", "4", "5"} {
		starts[h], _ = b.Vacate(h)
	}
	<-a.Prepare(b, starts["5"], g).Done()
	build := func(h string) {
		t.Helper()
		l := a.startLevel(b, starts[h], g, a.buildMemory())
		<-l.full
		if l.err != nil {
			t.Fatalf("start %s: %v", h, l.err)
		}
	}
	build("1")
	build("2")
	a.built(b, starts["1"], g) // 1 is now used more recently than 2
	build("4")
	for h, want := range map[string]bool{"1": true, "2": false, "4": true, "5": true} {
		a.mu.Lock()
		_, kept := a.levels[keyOf(b, starts[h], g)]
		a.mu.Unlock()
		if kept != want {
			t.Errorf("start %s: kept %v, want %v", h, kept, want)
		}
	}
}

// TestMaxBuilds checks that a hint's build is refused while Options.MaxBuilds
// builds run, a prepared one is not, and Close stops them with the
// context's error.
func TestMaxBuilds(t *testing.T) {
	a := NewAdvisor(Options{MaxBuilds: 1})
	eng := engine.English()
	centre := enginetest.Goal(t, eng, "center")
	big := a.Prepare(eng, eng.Start(), centre) // seconds
	tri := enginetest.Board(t, "triangle")
	any := enginetest.Goal(t, tri, "any")
	start, _ := tri.Vacate("1")
	l := a.startLevel(tri, start, any, a.buildMemory())
	<-l.full
	if !errors.Is(l.err, errBusy) {
		t.Errorf("a build past MaxBuilds: error %v, want errBusy", l.err)
	}
	other := a.Prepare(tri, start, any)
	<-other.Done()
	if other.Err() != nil {
		t.Errorf("a prepared build past MaxBuilds: %v", other.Err())
	}
	a.Close()
	if !errors.Is(big.Err(), context.Canceled) {
		t.Errorf("a build stopped by Close: error %v, want context.Canceled", big.Err())
	}
}
