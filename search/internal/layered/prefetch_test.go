package layered

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"pegs/search/internal/prefetch"
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
	prefetchBits(&set[0], nil, []uint64{0, 63, 64, 6399})
	prefetch.At(unsafe.Pointer(&counts[0]), nil, 5)
	prefetch.At(unsafe.Pointer(&counts[0]), []uint64{0, 9}, 5)
	if set[99] != 7 || before[99] != 8 || counts[9].Paths.Lo != 9 {
		t.Error("a prefetch changed memory")
	}
	if unsafe.Sizeof(WinCount{}) != 1<<5 {
		t.Errorf("a WinCount is %d bytes; Win prefetches them as 32", unsafe.Sizeof(WinCount{}))
	}
}

// TestPlaces checks that placesIn finds the places placesGo does, where
// the assembly runs it, absent ones marked, and counts as many set bits:
// random bitsets and numbers, some of them at unset bits, at a word's
// first and last bits too.
func TestPlaces(t *testing.T) {
	if !havePlacesBMI2() {
		t.Skip("no BMI2 here: placesIn is placesGo")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, words := range []int{1, 3, 1000} {
		set := make([]uint64, words)
		for i := range set {
			set[i] = rng.Uint64() & rng.Uint64()
		}
		set[0] |= 1 | 1<<63
		before := make([]uint32, words)
		for i := 1; i < words; i++ {
			before[i] = before[i-1] + uint32(bits.OnesCount64(set[i-1]))
		}
		vals := make([]uint32, before[words-1]+64)
		for _, onlySet := range []bool{true, false} {
			var ranks []uint64
			for len(ranks) < 500 {
				r := rng.Uint64N(uint64(words) * 64)
				if onlySet && set[r/64]>>(r%64)&1 == 0 {
					continue
				}
				ranks = append(ranks, r)
			}
			ranks = append(ranks, 0, 63)
			want, got := slices.Clone(ranks), slices.Clone(ranks)
			wantHits := placesGo(set, before, want)
			gotHits := placesIn(set, before, got, unsafe.Pointer(&vals[0]), 2)
			if gotHits != wantHits || (wantHits == len(ranks)) != onlySet {
				t.Errorf("%d words, only set bits %v: placesIn finds %d bits of %d, placesGo %d", words, onlySet, gotHits, len(ranks), wantHits)
			}
			for k, r := range ranks {
				if set[r/64]>>(r%64)&1 == 0 && want[k]&absent == 0 {
					t.Errorf("placesGo: number %d, not in the set, at place %d, not marked absent", r, want[k])
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d words, only set bits %v: placesIn and placesGo differ", words, onlySet)
			}
		}
	}
}

// TestSetBits checks that setBits sets the bits setBitsGo does, numbers
// repeated and at a word's first and last bits among them.
func TestSetBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, words := range []int{1, 5, 1000} {
		ranks := []uint64{0, 63, uint64(words*64 - 1), 0}
		for range 700 {
			ranks = append(ranks, rng.Uint64N(uint64(words)*64))
		}
		got, want := make([]uint64, words), make([]uint64, words)
		got[0], want[0] = 1<<5, 1<<5 // set before: kept
		setBits(got, ranks)
		setBitsGo(want, ranks)
		if !slices.Equal(got, want) {
			t.Errorf("%d words: setBits and setBitsGo set different bits", words)
		}
	}
}
