package key

import (
	"math"
	"math/bits"
	"slices"

	"golang.org/x/sync/errgroup"

	"pegs/search/internal/memory"
	"pegs/search/internal/pool"
)

// Set is a read-only hash set of mixed keys. A set too large for a
// core's cache also keeps a Bloom filter of one word a key (see
// bloomBits): a key it rules out is not in the set, so most misses end
// there, in a few instructions on a word of a table that stays in the
// shared cache (the English centre game's middle layer: 5 MB of filter
// against 64 MB of keys), where a probe of the keys themselves reaches main
// memory (looking up the complements of that layer's 24 million children
// took 0.92 s without the filter, 0.46-0.56 s with it, of which finding
// the children 0.22 s).
type Set struct {
	slots []uint64
	home  spread   // a key's home slot
	bloom []uint64 // nil for a small set
	word  spread   // a key's filter word
}

// bloomKeys is the fewest keys for which a Set keeps a filter: their
// table (16 bytes a key, 2 MB here) is past a core's 1 MB cache.
const bloomKeys = 1 << 17

// bloomMul mixes a key again for the bits it sets in its filter word,
// which its top bits pick; odd (SplitMix64's), and not MixMul, which made
// the key.
const bloomMul = 0xbf58476d1ce4e5b9

// spread maps the keys from lo to lo+span onto n places (slots or filter
// words) evenly and in order: a key's home is its offset from lo scaled to
// n. A set's keys may share their top bits, as those of a range of a
// spilled layer's partitions do, and homes taken from the top bits alone
// crowded them into a share of the slots, in runs of thousands that every
// probe walked (the 28-hole triangle's random player, spilled in 64 MiB,
// took 48 minutes over one layer), and into a share of the filter words,
// which then ruled out nothing.
type spread struct {
	lo, span, mul uint64
}

// newSpread returns the spread of keys lo..hi (lo <= hi) onto n places.
func newSpread(lo, hi uint64, n int) spread {
	span := hi - lo
	// Keys closer together than the places are spread as if they were
	// as far apart as the places are many: mul stays below 2^64 (and
	// wide+1 above 0, were key 0 among them).
	wide := min(max(span, uint64(n)), math.MaxUint64-1)
	mul, _ := bits.Div64(uint64(n), 0, wide+1)
	return spread{lo: lo, span: span, mul: mul}
}

// keysSpread returns the spread of keys (none 0) onto n places, or of no
// keys (none is in range) where there are none.
func keysSpread(keys []uint64, n int) spread {
	if len(keys) == 0 {
		return spread{lo: 1} // only key 1 in range, at place 0, which is empty
	}
	return newSpread(slices.Min(keys), slices.Max(keys), n)
}

// of returns the place of key k, false if k is outside the keys' range.
func (s spread) of(k uint64) (int, bool) {
	off := k - s.lo
	if off > s.span {
		return 0, false
	}
	hi, _ := bits.Mul64(off, s.mul)
	return int(hi), true
}

// SetBytes returns the memory a Set of n keys takes.
func SetBytes(n int) int64 {
	slots, bloom := setSize(n)
	return int64(slots+bloom) * 8
}

// setSize returns the slots and filter words of a Set of n keys.
func setSize(n int) (slots, bloom int) {
	slots = 16
	for slots < 2*n {
		slots *= 2
	}
	if n >= bloomKeys {
		// 16 bits a key: about one key in 250 that the set lacks passes
		// the filter.
		bloom = n / 4
	}
	return slots, bloom
}

// NewSet returns the set of keys (distinct, not 0). Sorted keys of a
// set with a filter are put in on a pool of workers (see pool.Size), each
// worker a run of them; others, on one core.
func NewSet(keys []uint64, workers int) *Set {
	size, words := setSize(len(keys))
	s := &Set{home: keysSpread(keys, size), word: keysSpread(keys, words)}
	if nw := pool.Size(workers); nw > 1 && words > 0 && slices.IsSorted(keys) {
		s.slots, s.bloom = memory.Make[uint64](size), memory.Make[uint64](words)
		s.fill(keys, nw)
		return s
	}
	s.slots = memory.Touched[uint64](size)
	for _, k := range keys {
		s.put(k)
	}
	if words > 0 {
		s.bloom = memory.Touched[uint64](words)
		for _, k := range keys {
			w, m := s.bloomBits(k)
			s.bloom[w] |= m
		}
	}
	return s
}

// put puts key k in s's table.
func (s *Set) put(k uint64) {
	mask := len(s.slots) - 1
	i, _ := s.home.of(k)
	for s.slots[i] != 0 {
		i = (i + 1) & mask
	}
	s.slots[i] = k
}

// fill puts sorted keys in s's empty table and filter, in nw runs at once.
// A key's home slot and filter word grow with the key, so each run writes
// slots from its first key's home up to the next run's, and its own filter
// words: runs begin where the filter word changes. A key whose probe would
// pass into the next run's slots waits, and goes in once the runs are done.
func (s *Set) fill(keys []uint64, nw int) {
	n := len(keys)
	starts := make([]int, nw+1) // the runs' first keys
	for c := 1; c < nw; c++ {
		i := min(n, max(starts[c-1]+1, c*n/nw))
		for i < n {
			w0, _ := s.bloomBits(keys[i-1])
			if w, _ := s.bloomBits(keys[i]); w != w0 {
				break
			}
			i++
		}
		starts[c] = i
	}
	starts[nw] = n
	// first[c] is the first slot run c writes.
	first := make([]int, nw+1)
	for c := 1; c < nw; c++ {
		first[c] = len(s.slots)
		if starts[c] < n {
			first[c], _ = s.home.of(keys[starts[c]])
		}
	}
	first[nw] = len(s.slots)
	late := make([][]uint64, nw)
	var g errgroup.Group
	for c := range nw {
		g.Go(func() error {
			lo, hi := first[c], first[c+1]
			// Each page written before any probe reads it (see memory.Touched).
			for i := lo; i < hi; i += 512 {
				s.slots[i] = 0
			}
			for _, k := range keys[starts[c]:starts[c+1]] {
				i, _ := s.home.of(k)
				for i < hi && s.slots[i] != 0 {
					i++
				}
				if i == hi {
					late[c] = append(late[c], k)
					continue
				}
				s.slots[i] = k
				w, m := s.bloomBits(k)
				s.bloom[w] |= m
			}
			return nil
		})
	}
	g.Wait()
	for _, ks := range late {
		for _, k := range ks {
			s.put(k)
			w, m := s.bloomBits(k)
			s.bloom[w] |= m
		}
	}
}

// bloomBits returns the filter word of key k, which is in the keys'
// range, and the six bits it sets there.
func (s *Set) bloomBits(k uint64) (int, uint64) {
	w, _ := s.word.of(k)
	h := k * bloomMul
	m := 1<<(h>>58) | 1<<(h>>52&63) | 1<<(h>>46&63) | 1<<(h>>40&63) | 1<<(h>>34&63) | 1<<(h>>28&63)
	return int(w), uint64(m)
}

// Has reports whether k is in s.
func (s *Set) Has(k uint64) bool {
	i, ok := s.home.of(k)
	if !ok {
		return false
	}
	if s.bloom != nil {
		if w, m := s.bloomBits(k); s.bloom[w]&m != m {
			return false
		}
	}
	mask := len(s.slots) - 1
	for ; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return true
		case 0:
			return false
		}
	}
}

// Index is a read-only hash table from the keys of a sorted array to their
// places in it. A slot holds its key and its place side by side (12
// bytes, as the two arrays they were in), so that a hit reads one cache
// line, not a line of keys and one of places: an index's lookups land at
// random in a table past the cache (a measured layer's children, the
// winnable positions a search by moves asks for).
type Index struct {
	slots []indexSlot
	home  spread // a key's home slot
}

// indexSlot is a key (0 for an empty slot), in halves to pack the slot in
// 12 bytes, and its place.
type indexSlot struct {
	lo, hi, at uint32
}

func (s *indexSlot) key() uint64 { return uint64(s.hi)<<32 | uint64(s.lo) }

// IndexBytes returns the memory an Index of n keys takes.
func IndexBytes(n int) int64 {
	slots, _ := setSize(n)
	return int64(slots) * 12
}

// NewIndex returns the index of keys (distinct, not 0, fewer than 2^32).
func NewIndex(keys []uint64) *Index {
	size, _ := setSize(len(keys))
	x := &Index{slots: memory.Touched[indexSlot](size), home: keysSpread(keys, size)}
	mask := size - 1
	for j, k := range keys {
		i, _ := x.home.of(k)
		for x.slots[i].key() != 0 {
			i = (i + 1) & mask
		}
		x.slots[i] = indexSlot{lo: uint32(k), hi: uint32(k >> 32), at: uint32(j)}
	}
	return x
}

// Find returns the place of k, or false if k is not indexed.
func (x *Index) Find(k uint64) (int, bool) {
	i, ok := x.home.of(k)
	if !ok {
		return 0, false
	}
	mask := len(x.slots) - 1
	for ; ; i = (i + 1) & mask {
		switch s := &x.slots[i]; s.key() {
		case k:
			return int(s.at), true
		case 0:
			return 0, false
		}
	}
}
