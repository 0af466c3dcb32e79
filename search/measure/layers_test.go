package measure

import (
	"context"
	"slices"
	"testing"

	"pegs/engine"
	"pegs/search/internal/kernel"
)

// TestPlacersAgree checks the positions and placer read from a layer's
// bitset against its keys: on the English board's Diamond level (24
// pegs), whose middle layers a forward pass finds in bitsets, a cursor
// from any place, whatever the goroutines that found it, must read the
// layer's keys from there on, and each child of a sample of each layer's
// parents, numbered with its siblings (movegen.Parent.MoveRanks) and
// placed by a count of bits, must land on its own key, whatever the
// goroutines that made the placer.
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
	// The layers' positions as bitsets, then as keys: Keyed lets go of
	// the bitsets, not their memory.
	ps := make([]positions, len(fwd))
	for i, l := range fwd {
		if ps[i], err = layerPositions(ctx, gen, l, 2, mem); err != nil {
			t.Fatal(err)
		}
		if err := l.Keyed(ctx, 2, mem); err != nil {
			t.Fatal(err)
		}
	}
	par := gen.NewParent()
	dense := 0
	for i := 1; i < len(fwd); i++ {
		l := fwd[i]
		if ps[i].d == nil {
			continue
		}
		dense++
		keys := l.Keys()
		froms := []int{0, 1, 63, 64, len(keys) / 3, len(keys) - 1}
		slices.Sort(froms)
		// Found on one to three goroutines, each finding those in its
		// runs of words.
		for f, c := range ps[i].cursors(froms, 1+i%3) {
			for k := froms[f]; k < len(keys); k++ {
				if got := kernel.Mix(c.next()); got != keys[k] {
					t.Fatalf("%d pegs: the cursor from %d read %x at %d, want %x", l.Pegs(), froms[f], got, k, keys[k])
				}
			}
		}
		// Made on one to three goroutines, each counting its runs of
		// words apart.
		pl, err := bitsPlacer(&ps[i], mem, 1+i%3)
		if err != nil {
			t.Fatal(err)
		}
		defer mem.GiveMapped(pl.words)
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
				if got, want := keys[at], kernel.Mix(kids[k]); got != want {
					t.Fatalf("%d pegs: child %d of %x placed at %d, key %x, want %x", l.Pegs(), k, uint64(p), at, got, want)
				}
			}
		}
	}
	if dense < 5 {
		t.Errorf("%d layers read from bitsets, want at least 5 (the forward pass found them in bitsets)", dense)
	}
}

// TestChunkBounds checks that a pass's chunks cover its positions in
// order, none empty, shrinking as it goes on several workers but none
// under chunkLeast (or a 1/(4·workers) share of a small layer) but the
// last, and equal on one.
func TestChunkBounds(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100, 4096, 5000, 70_000, 2_600_000} {
		for _, workers := range []int{1, 2, 4} {
			b := chunkBounds(n, workers)
			if b[0] != 0 || b[len(b)-1] != n {
				t.Fatalf("chunkBounds(%d, %d) = %v..%v, want 0..%d", n, workers, b[0], b[len(b)-1], n)
			}
			least := max(1, min(chunkLeast, (n+4*workers-1)/(4*workers)))
			for c := 1; c < len(b); c++ {
				size := b[c] - b[c-1]
				switch {
				case size <= 0:
					t.Fatalf("chunkBounds(%d, %d): chunk %d is %d..%d", n, workers, c-1, b[c-1], b[c])
				case workers == 1 && b[c] != c*n/(len(b)-1):
					t.Errorf("chunkBounds(%d, 1): chunk %d ends at %d, want %d", n, c-1, b[c], c*n/(len(b)-1))
				case workers > 1 && c+1 < len(b) && size < least:
					t.Errorf("chunkBounds(%d, %d): chunk %d of %d positions, fewer than %d", n, workers, c-1, size, least)
				case workers > 1 && c > 1 && size > b[c-1]-b[c-2]:
					t.Errorf("chunkBounds(%d, %d): chunk %d of %d positions after one of %d", n, workers, c-1, size, b[c-1]-b[c-2])
				}
			}
			if workers == 1 && n > 0 {
				want := kernel.ChunkCount(n, 1)
				if len(b)-1 != want {
					t.Errorf("chunkBounds(%d, 1): %d chunks, want %d", n, len(b)-1, want)
				}
			}
		}
	}
}

// TestSetWins checks a layer's win bits set a chunk at a time, chunks
// sharing words, against its meta bytes read one by one.
func TestSetWins(t *testing.T) {
	const n = 1000
	v := &values{meta: make([]uint8, n), winBits: newRankBits(n)}
	for i := range v.meta {
		v.meta[i] = uint8(i*7919%251) &^ flagWin
		if i%3 == 0 || i%17 == 5 {
			v.meta[i] |= flagWin
		}
	}
	bounds := []int{0, 5, 64, 70, 200, 256, 257, 700, 999, n}
	for c := len(bounds) - 2; c >= 0; c-- {
		v.setWins(bounds[c], bounds[c+1])
	}
	for i := range n {
		if got, want := v.winBits.set[i/64]>>(i%64)&1 == 1, v.meta[i]&flagWin != 0; got != want {
			t.Fatalf("win bit %d = %v, want %v", i, got, want)
		}
	}
}

// TestSpareSizes checks that a spare keeps every size of block that
// blocks makes, 16 items to winBlock, and no other.
func TestSpareSizes(t *testing.T) {
	var b blocks[int]
	for i := range 5 * winBlock {
		b.add(i)
	}
	for _, blk := range b.blocks {
		if spareSize(cap(blk)) < 0 {
			t.Errorf("a block of %d items is not kept", cap(blk))
		}
	}
	for _, size := range []int{0, 8, 24, 1000, 2 * winBlock} {
		if k := spareSize(size); k >= 0 {
			t.Errorf("spareSize(%d) = %d, want -1", size, k)
		}
	}
}
