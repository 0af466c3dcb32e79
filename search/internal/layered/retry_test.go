package layered

import (
	"context"
	"errors"
	"slices"
	"testing"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// TestRetryAfterBudget checks that an Expander stopped by its budget in
// the middle of a round expands the same layer again, with room, into
// what a fresh Expander finds: the children the stopped round left in the
// workers' lists are not folded in (a spilled partition too large for the
// budget is cut in two and expanded again by the same Expander).
func TestRetryAfterBudget(t *testing.T) {
	b, err := engine.Lookup("triangle:6")
	if err != nil {
		t.Fatal(err)
	}
	start, _ := b.Vacate("5")
	gen := movegen.New(b, b.GameSymmetry(start, engine.Goal{Kind: engine.OnePeg}))
	// A layer of a few thousand positions with their path counts.
	l := &Layer{Pegs: start.Pegs(), Keys: []uint64{key.Mix(gen.Group.Canonical(start))}, M: []exact.U128{{Lo: 1}}}
	for l.Len() < 2000 {
		next, _, err := (&Expander{Gen: gen, Counts: true, Mem: memory.New(1 << 30)}).Next(context.Background(), l)
		if err != nil {
			t.Fatal(err)
		}
		l = next
	}
	want, _, err := (&Expander{Gen: gen, Counts: true, Workers: 1, Mem: memory.New(1 << 30)}).Next(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int64{1 << 10, 64 << 10, 256 << 10} {
		e := &Expander{Gen: gen, Counts: true, Workers: 1, Mem: memory.New(budget)}
		if _, _, err := e.Next(context.Background(), l); !errors.Is(err, memory.ErrExceeded) {
			t.Logf("budget %d: err %v, want the budget passed", budget, err)
			continue
		}
		e.Mem = memory.New(1 << 30)
		got, _, err := e.Next(context.Background(), l)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Keys, want.Keys) || !slices.Equal(got.M, want.M) {
			t.Errorf("budget %d: a retry found %d positions, %d paths; want %d, %d", budget, got.Len(), pathsOf(got), want.Len(), pathsOf(want))
		}
	}
}

func pathsOf(l *Layer) uint64 {
	var n uint64
	for _, m := range l.M {
		n += m.Lo
	}
	return n
}
