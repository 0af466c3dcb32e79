package layered

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"pegs/search/internal/memory"
)

// TestNonzeroBytes checks nonzeroBytes against a byte by byte test, on
// every word of one byte set and on random words with bytes zero.
func TestNonzeroBytes(t *testing.T) {
	naive := func(x uint64) uint64 {
		var f uint64
		for i := range 8 {
			if x>>(8*i)&0xff != 0 {
				f |= 1 << i
			}
		}
		return f
	}
	words := []uint64{0, ^uint64(0), 1 << 63, 0x8000000000000080}
	for i := range 8 {
		for v := range 256 {
			words = append(words, uint64(v)<<(8*i))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		x := rng.Uint64()
		for i := range 8 {
			if rng.IntN(2) == 0 {
				x &^= 0xff << (8 * i)
			}
		}
		words = append(words, x)
	}
	for _, x := range words {
		if got, want := nonzeroBytes(x), naive(x); got != want {
			t.Fatalf("nonzeroBytes(%#x) = %08b, want %08b", x, got, want)
		}
	}
}

// TestPackSet packs bitsets of lengths around the blocks' and summary
// words' bounds and densities from none to all, and checks that unpacking
// gives the bitset back, and that mergePacked ors and ands as mergeSets
// does.
func TestPackSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	random := func(n int, density float64) []uint64 {
		set := make([]uint64, n)
		for w := range set {
			for b := range 64 {
				if rng.Float64() < density {
					set[w] |= 1 << b
				}
			}
		}
		return set
	}
	for _, n := range []int{0, 1, 7, 8, 9, 8*packBlock - 1, 8 * packBlock, 8*packBlock + 3, 3*8*packBlock + 17} {
		for _, density := range []float64{0, 0.001, 0.03, 0.5, 1} {
			t.Run(fmt.Sprintf("words=%d/density=%v", n, density), func(t *testing.T) {
				set := random(n, density)
				for _, workers := range []int{1, 2} {
					p := packSet(set, workers)
					got := make([]uint64, p.words)
					p.unpack(got, workers)
					if !slices.Equal(got, set) {
						t.Fatalf("workers %d: the bitset unpacked differs", workers)
					}
					if density < 0.01 && n >= 8*packBlock && p.size() > int64(n)*8/4 {
						t.Errorf("workers %d: %d bytes packed, want under a quarter of %d", workers, p.size(), n*8)
					}
				}
				for k := 1; k <= 3; k++ {
					var sets, again [][]uint64
					for range k {
						s := random(n, 0.3)
						sets, again = append(sets, s), append(again, slices.Clone(s))
					}
					want := mergeSets(again, set, 2)[0]
					if got := mergePacked(sets, packSet(set, 2), 2)[0]; !slices.Equal(got, want) {
						t.Fatalf("%d sets merged with the packed mask differ from mergeSets", k)
					}
				}
			})
		}
	}
}

// TestPackLayer packs a layer held as bitsets (the English centre game's
// positions of 21 pegs) and checks the budget's charge, that a small
// layer is left as it is, and that unpacking gives the layer back.
func TestPackLayer(t *testing.T) {
	gen, layers := englishLayers(t, 21)
	want := layers[21].keys
	slices.Sort(want)
	mem := memory.New(1 << 32)
	l := asBitLayer(t, gen, &Layer{pegs: 21, keys: slices.Clone(want)})
	bitsets := l.Bytes()
	if err := mem.Take(bitsets, "the layer"); err != nil {
		t.Fatal(err)
	}
	if !l.Pack(2, mem) {
		t.Fatal("Pack left the layer of 21 pegs")
	}
	if got := inUse(mem); got != l.Bytes() || got >= bitsets/2 {
		t.Errorf("the budget holds %d bytes packed, the layer %d, want them equal and under half of %d", got, l.Bytes(), bitsets)
	}
	if l.Size() != len(want) {
		t.Errorf("packed, the layer has %d positions, want %d", l.Size(), len(want))
	}
	if l.Pack(2, mem) {
		t.Error("Pack packed a packed layer")
	}
	if err := l.unpack(context.Background(), 2, mem); err != nil {
		t.Fatal(err)
	}
	got := keysOf(l)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("unpacked, the layer has %d positions that differ from its %d", len(got), len(want))
	}
	if inUse(mem) != bitsets {
		t.Errorf("the budget holds %d bytes unpacked, want the bitsets' %d", inUse(mem), bitsets)
	}
	small := asBitLayer(t, gen, layers[24])
	if small.Pack(2, memory.New(1<<32)) {
		t.Errorf("Pack packed the layer of 24 pegs, %d bytes of bitsets", small.Bytes())
	}
}
