package key

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDir checks that a directory's stretch holds every word of a sorted
// list, and no stretch holds a word the list does not: on lists of
// uniform, clustered and tiny words, and lists too short for one.
func TestDir(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tt := range []struct {
		name string
		n    int
		word func() uint64
	}{
		{"uniform", 5000, func() uint64 { return rng.Uint64N(1 << 40) }},
		{"clustered", 5000, func() uint64 { return rng.Uint64N(1<<10) << 30 }},
		{"small", 3000, func() uint64 { return rng.Uint64N(4000) }},
		{"short", 40, func() uint64 { return rng.Uint64N(1000) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var ws []uint64
			for range tt.n {
				ws = append(ws, tt.word())
			}
			slices.Sort(ws)
			ws = slices.Compact(ws)
			d := NewDir(ws)
			for i, w := range ws {
				if lo, hi := d.Range(w, len(ws)); i < lo || i >= hi || !d.Has(ws, w) {
					t.Fatalf("word %d (%d) not in its stretch [%d, %d)", i, w, lo, hi)
				}
				for _, x := range []uint64{w + 1, w - 1} {
					_, in := slices.BinarySearch(ws, x)
					if d.Has(ws, x) != in {
						t.Fatalf("Has(%d) = %v, want %v", x, !in, in)
					}
				}
			}
			if last := ws[len(ws)-1]; d.Has(ws, last+1) || d.Has(ws, math.MaxUint64) {
				t.Errorf("words past the last found")
			}
		})
	}
}
