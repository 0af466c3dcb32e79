package prefetch

import (
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
