package prefetch

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestPrefetch calls the prefetches on no indexes, and on the first and
// last elements of an array: a prefetch reads nothing the caller sees and
// must neither fault nor write. (That the lookups using them find what
// they found without, the tests of packages layered and measure check.)
func TestPrefetch(t *testing.T) {
	arr := make([]uint64, 256)
	for i := range arr {
		arr[i] = uint64(i) * 3
	}
	base := unsafe.Pointer(&arr[0])
	for _, c := range []struct {
		name  string
		f     func(unsafe.Pointer, []uint64, uint64)
		idx   []uint64
		shift uint64
	}{
		{"at/none", At, nil, 3},
		{"at/ends", At, []uint64{0, 255, 17}, 3},
		{"at/pairs", At, []uint64{0, 127}, 4},
		{"words/none", Words, nil, 3},
		{"words/ends", Words, []uint64{0, 63, 64, 255*64 + 63}, 3},
		{"words/blocks", Words, []uint64{0, 127*64 + 63}, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.f(base, c.idx, c.shift)
			for i, x := range arr {
				if x != uint64(i)*3 {
					t.Fatalf("element %d: got %d, want %d", i, x, i*3)
				}
			}
		})
	}
}

// BenchmarkGather sums 512 elements of 16 bytes at random places of an
// array of 64 MiB (far past the caches), a batch at a time: with
// mode=prefetch their lines asked for first (At), then work of about the
// batch's misses' time done, then the sum, against the same without the
// prefetch.
func BenchmarkGather(b *testing.B) {
	const n, batch = 1 << 22, 512
	arr := make([][2]uint64, n)
	for i := range arr {
		arr[i][0] = uint64(i)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	idx := make([]uint64, batch)
	for _, mode := range []string{"load", "prefetch"} {
		b.Run("mode="+mode, func(b *testing.B) {
			var sum, work uint64
			for b.Loop() {
				for k := range idx {
					idx[k] = rng.Uint64N(n)
				}
				if mode == "prefetch" {
					At(unsafe.Pointer(&arr[0]), idx, 4)
				}
				for k := range 4000 {
					work = work*31 + uint64(k)
				}
				for _, i := range idx {
					sum += arr[i][0]
				}
			}
			if sum == 0 && work == 0 {
				b.Log("nothing summed")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/element")
		})
	}
}
