package layered

import (
	"context"
	"errors"
	"slices"
	"testing"
	"unsafe"

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
	gen, first := countedStart(t, "5")
	// A layer of a few thousand positions with their path counts.
	l := first()
	for l.Len() < 2000 {
		next, _, err := (&Expander{gen: gen, counts: true, mem: memory.New(1 << 30)}).Next(context.Background(), l)
		if err != nil {
			t.Fatal(err)
		}
		l = next
	}
	want, _, err := (&Expander{gen: gen, counts: true, workers: 1, mem: memory.New(1 << 30)}).Next(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int64{1 << 10, 64 << 10, 256 << 10} {
		e := &Expander{gen: gen, counts: true, workers: 1, mem: memory.New(budget)}
		if _, _, err := e.Next(context.Background(), l); !errors.Is(err, memory.ErrExceeded) {
			t.Logf("budget %d: err %v, want the budget passed", budget, err)
			continue
		}
		e.mem = memory.New(1 << 30)
		got, _, err := e.Next(context.Background(), l)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.keys, want.keys) || !slices.Equal(countsOf(got), countsOf(want)) {
			t.Errorf("budget %d: a retry found %d positions, %d paths; want %d, %d", budget, got.Len(), pathsOf(got), want.Len(), pathsOf(want))
		}
	}
}

// countedStart returns the move generator of the 21-hole triangle's game
// from vacating hole, one peg to be left, and a maker of its first layer:
// the start with one path.
func countedStart(t *testing.T, hole string) (*movegen.Gen, func() *Layer) {
	t.Helper()
	b, err := engine.Lookup("triangle:6")
	if err != nil {
		t.Fatal(err)
	}
	start, err := b.Vacate(hole)
	if err != nil {
		t.Fatal(err)
	}
	gen := movegen.New(b, b.GameSymmetry(start, engine.Goal{Kind: engine.OnePeg}))
	return gen, func() *Layer {
		return &Layer{pegs: start.Pegs(), keys: []uint64{key.Mix(gen.Group.Canonical(start))}, m: []exact.U128{{Lo: 1}}}
	}
}

func pathsOf(l *Layer) uint64 {
	var n uint64
	for _, m := range countsOf(l) {
		n += m.Lo
	}
	return n
}

// countsOf returns l's path counts, narrow or not.
func countsOf(l *Layer) []exact.U128 {
	out := make([]exact.U128, l.Len())
	for i := range out {
		out[i] = l.Count(i)
	}
	return out
}

// TestNarrowCounts checks that a layer made from children counting in 64
// bits keeps its counts in 64 bits, half the bytes of 128-bit ones, and
// that they equal the counts a search carrying 128-bit records finds.
func TestNarrowCounts(t *testing.T) {
	gen, first := countedStart(t, "1")
	narrow, wide := first(), first()
	for narrow.Len() > 0 {
		n, _, err := (&Expander{gen: gen, counts: true, mem: memory.New(1 << 30)}).Next(context.Background(), narrow)
		if err != nil {
			t.Fatal(err)
		}
		w, _, err := (&Expander{gen: gen, counts: true, mem: memory.New(1 << 30), tuning: Tuning{NarrowBelow: 1}}).Next(context.Background(), wide)
		if err != nil {
			t.Fatal(err)
		}
		if n.Len() > 0 && (n.narrow == nil || n.m != nil || n.Bytes() != int64(n.Len())*16) {
			t.Errorf("%d pegs: %d narrow and %d wide counts, %d bytes; want %d narrow, %d bytes", n.pegs, len(n.narrow), len(n.m), n.Bytes(), n.Len(), n.Len()*16)
		}
		if w.Len() > 0 && w.m == nil {
			t.Errorf("%d pegs: 128-bit records made %d narrow counts", w.pegs, len(w.narrow))
		}
		if !slices.Equal(n.keys, w.keys) || !slices.Equal(countsOf(n), countsOf(w)) {
			t.Fatalf("%d pegs: narrow %d positions, %d paths; wide %d, %d", n.pegs, n.Len(), pathsOf(n), w.Len(), pathsOf(w))
		}
		narrow, wide = n, w
	}
}

// TestKeptListsCharged checks that the workers' lists an Expander keeps
// from one expansion for the next stay charged to its budget while kept,
// as spare memory: after each layer, what the budget counts beside the
// layer found covers every list the workers hold; and that a budget found
// short lets them go.
func TestKeptListsCharged(t *testing.T) {
	gen, first := countedStart(t, "5")
	mem := memory.New(1 << 30)
	e := &Expander{gen: gen, counts: true, workers: 2, mem: mem}
	held := func() int64 {
		var n int64
		for _, w := range e.states {
			n += listBytes(w.recs) + listBytes(w.paths) + listBytes(w.keys) + listBytes(w.packs)
		}
		return n
	}
	l := first()
	start := l.Pegs()
	for l.Len() > 0 {
		next, _, err := e.Next(context.Background(), l)
		if err != nil {
			t.Fatal(err)
		}
		lists := held()
		if lists == 0 {
			t.Fatalf("layer of %d pegs: the workers keep no lists; the test needs them kept", next.Pegs())
		}
		if got := mem.Used() - next.Bytes(); got < lists {
			t.Errorf("layer of %d pegs: %d bytes charged beside the layer found, want the %d of the lists the workers keep", next.Pegs(), got, lists)
		}
		if got := e.KeptLists(); got != lists || mem.Spared() < lists {
			t.Errorf("layer of %d pegs: KeptLists = %d, Spared = %d; want the lists' %d", next.Pegs(), got, mem.Spared(), lists)
		}
		if l.Pegs() != start { // the start is not charged
			mem.Give(l.Bytes())
		}
		l = next
	}
	// A byte more than the budget has left: room made by the lists.
	before := mem.Used()
	need := mem.Limit() - before + 1
	if err := mem.Take(need, "a test's rest"); err != nil {
		t.Fatalf("Take of a byte past the budget beside the lists: %v, want them let go to make room", err)
	}
	mem.Give(need)
	if lists, kept := held(), e.KeptLists(); lists != 0 || kept != 0 || mem.Used() >= before {
		t.Errorf("after a Take found the budget short: the workers keep %d bytes of lists, KeptLists %d, Used %d of %d; want them let go", lists, kept, mem.Used(), before)
	}
}

// listBytes returns the bytes of lists' capacity.
func listBytes[R any](lists [][]R) int64 {
	var n int64
	for _, o := range lists {
		n += int64(cap(o)) * int64(unsafe.Sizeof(*new(R)))
	}
	return n
}
