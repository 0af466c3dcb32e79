package measure

import (
	"context"
	"slices"
	"testing"

	"pegs/engine"
	"pegs/search/internal/kernel"
)

// TestPlacersAgree checks the placer by numbers against the keys: on the
// English board's Diamond level (24 pegs), whose middle layers a forward
// pass finds in bitsets, each child of a sample of each layer's parents,
// numbered with its siblings (movegen.Parent.MoveRanks) and placed by a
// count of bits, must land on its own key. A layer's keys sorted by key
// rather than by number must get no such placer.
func TestPlacersAgree(t *testing.T) {
	b := engine.English()
	goal, err := b.ParseGoal("center")
	if err != nil {
		t.Fatal(err)
	}
	start, err := b.ParsePosition(".o.ooo.ooooo.ooo.ooo.ooooo.ooo.o.")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	gen := kernel.NewGen(b, b.GoalSymmetry(goal))
	mem := kernel.NewBudget(1 << 30)
	e, err := kernel.NewExpander(kernel.Scanned, kernel.Setup{Gen: gen, Mem: mem, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	fwd, err := kernel.Forward(ctx, e, kernel.First(gen.Group, start, false), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range fwd {
		if err := l.Keyed(ctx, 2, mem); err != nil {
			t.Fatal(err)
		}
	}
	par := gen.NewParent()
	dense := 0
	for i := 1; i < len(fwd); i++ {
		l := fwd[i]
		pl := densePlacer(gen, l.Keys(), l.Pegs(), 2, mem)
		if pl == nil {
			continue
		}
		dense++
		for j := 0; j < len(fwd[i-1].Keys()); j += 13 {
			p := kernel.Unmix(fwd[i-1].Keys()[j])
			par.Set(p)
			places, n := par.MoveRanks(nil, p, pl.d)
			kids := par.MoveChildren(nil, p)
			if n != len(kids) {
				t.Fatalf("%d pegs: %x has %d numbered children and %d children", l.Pegs(), uint64(p), n, len(kids))
			}
			if !pl.placeRanks(places) {
				t.Fatalf("%d pegs: a child of %x is not in the placer's bitset", l.Pegs(), uint64(p))
			}
			for k, at := range places {
				if got, want := l.Keys()[at], kernel.Mix(kids[k]); got != want {
					t.Fatalf("%d pegs: child %d of %x placed at %d, key %x, want %x", l.Pegs(), k, uint64(p), at, got, want)
				}
			}
		}
		sorted := slices.Clone(l.Keys())
		slices.Sort(sorted)
		if !slices.Equal(sorted, l.Keys()) && densePlacer(gen, sorted, l.Pegs(), 2, mem) != nil {
			t.Errorf("%d pegs: keys sorted by key got a placer by numbers", l.Pegs())
		}
	}
	if dense < 5 {
		t.Errorf("%d layers placed by numbers, want at least 5 (the forward pass found them in bitsets)", dense)
	}
}
