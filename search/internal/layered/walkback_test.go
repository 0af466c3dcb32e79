package layered

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"pegs/engine"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// TestWalkBackLetsGo checks that a walk back over stored layers lets each
// go when told to (its charge back in the budget, the winnable positions
// the same), and that finding a layer's parents lets its decoded keys go
// once they are in the tables.
func TestWalkBackLetsGo(t *testing.T) {
	b, err := engine.Lookup("triangle:6")
	if err != nil {
		t.Fatal(err)
	}
	start, _ := b.Vacate("5")
	goal := engine.Goal{Kind: engine.OnePeg}
	gen := movegen.New(b, b.GameSymmetry(start, goal))
	layers := func() (map[int]*Layer, *memory.Budget) {
		mem := memory.New(1 << 30)
		e := &Expander{gen: gen, tuning: Tuning{StoreShare: 1 << 40}, store: true, mem: mem}
		fwd, err := Forward(context.Background(), e, First(gen.Group, start, false), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		byPegs := map[int]*Layer{}
		for _, l := range fwd {
			byPegs[l.pegs] = l
		}
		return byPegs, mem
	}
	walk := func(fwd map[int]*Layer, mem *memory.Budget, free bool) map[int][]uint64 {
		win := map[int][]uint64{}
		err := WalkBack(context.Background(), goal, gen, fwd, start.Pegs(), free, false, Config{}, mem, func(pegs int, keys []uint64) error {
			win[pegs] = keys
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return win
	}
	kept, mem := layers()
	want := walk(kept, mem, false)
	fwd, mem := layers()
	var held int64
	for _, l := range fwd {
		held += l.Bytes()
	}
	before := inUse(mem)
	got := walk(fwd, mem, true)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("winnable positions with layers let go differ (-kept +let go):\n%s", diff)
	}
	for pegs, l := range fwd {
		if l.Bytes() != 0 {
			t.Errorf("layer of %d pegs holds %d bytes after the walk back", pegs, l.Bytes())
		}
	}
	if after := inUse(mem); after != before-held {
		t.Errorf("budget in use after the walk back: %d, want %d (%d less the layers' %d)", after, before-held, before, held)
	}
	// The parents of the 3-peg winners among the 4-peg positions, found
	// in tables seeded from the stored layer's code, which is never
	// decoded whole, and from its keys decoded.
	l := kept[4]
	if l.stored == nil || l.keys != nil {
		t.Fatalf("the 4-peg layer is not stored alone")
	}
	coded, err := ParentsOf(context.Background(), l, want[3], gen, 1, mem, false)
	if err != nil {
		t.Fatal(err)
	}
	if l.keys != nil {
		t.Errorf("finding parents decoded a stored layer whole")
	}
	if err := l.Load(1, mem); err != nil {
		t.Fatal(err)
	}
	decoded, err := ParentsOf(context.Background(), l, want[3], gen, 1, mem, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		how  string
		keys []uint64
	}{{"from the code", coded}, {"from the decoded keys", decoded}} {
		if !slices.Equal(c.keys, want[4]) {
			t.Errorf("parents of the 3-peg winners %s: %d positions, want %d", c.how, len(c.keys), len(want[4]))
		}
	}
}

// BenchmarkStoredKeys measures coding a layer for the walk back and
// decoding it (storedKeys): the English centre game's 16-peg layer, about
// as dense as the French board's widest.
func BenchmarkStoredKeys(b *testing.B) {
	gen, layers := englishLayers(b, 16)
	bd := gen.Board
	keys := layers[16].keys
	for _, w := range []int{1, 2} {
		b.Run("layer=english-16/workers="+string(rune('0'+w)), func(b *testing.B) {
			var s *Stored
			for b.Loop() {
				s = StoreKeys(slices.Clone(keys), bd.Holes(), w)
				if got := s.Keys(w); len(got) != len(keys) {
					b.Fatalf("decoded %d keys, want %d", len(got), len(keys))
				}
			}
			b.ReportMetric(float64(len(keys))*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
			b.ReportMetric(float64(s.Bytes())/float64(len(keys)), "bytes/position")
		})
	}
}
