package layered

import (
	"testing"
	"unsafe"
)

// TestPrefetch calls the prefetches on the first and last words and
// elements of arrays, and on no numbers: a prefetch reads nothing the
// caller sees and must neither fault nor write. (What the lookups that
// use it find, TestGames and TestWin check, here with the assembly and
// elsewhere without.)
func TestPrefetch(t *testing.T) {
	set := make([]uint64, 100)
	before := make([]uint32, 100)
	counts := make([]WinCount, 10)
	set[99], before[99], counts[9].Paths.Lo = 7, 8, 9
	prefetchBits(&set[0], &before[0], nil)
	prefetchBits(&set[0], &before[0], []uint64{0, 63, 64, 6399})
	prefetchAt(unsafe.Pointer(&counts[0]), nil, 5)
	prefetchAt(unsafe.Pointer(&counts[0]), []uint64{0, 9}, 5)
	if set[99] != 7 || before[99] != 8 || counts[9].Paths.Lo != 9 {
		t.Error("a prefetch changed memory")
	}
	if unsafe.Sizeof(WinCount{}) != 1<<5 {
		t.Errorf("a WinCount is %d bytes; Win prefetches them as 32", unsafe.Sizeof(WinCount{}))
	}
}
