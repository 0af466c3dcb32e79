package key

import (
	"maps"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"pegs/engine"
)

// TestSortKeys checks the radix sort of mixed keys against slices.Sort, at
// sizes that take the small path, one radix pass and several, with repeats;
// and the split into parts by top bits it makes in place.
func TestSortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sizes := []int{0, 1, 100, 5000, 1 << 16, 1 << 20, 3 << 20}
	if testing.Short() {
		// 3<<20 keys sort in as many radix passes as 1<<20.
		sizes = sizes[:len(sizes)-1]
	}
	for _, n := range sizes {
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = rng.Uint64()
			if i > 0 && i%7 == 0 {
				keys[i] = keys[i-1]
			}
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		split := slices.Clone(keys)
		count := splitTops(split)
		for b := range Parts {
			for _, k := range split[count[b]:count[b+1]] {
				if k>>(64-TopBits) != uint64(b) {
					t.Fatalf("splitTops of %d keys: key %#x in part %d", n, k, b)
				}
			}
		}
		slices.Sort(split)
		if !slices.Equal(split, want) {
			t.Errorf("splitTops of %d keys: not the keys it was given", n)
		}
		Sort(keys, 2)
		if !slices.Equal(keys, want) {
			t.Errorf("Sort of %d keys: not sorted like slices.Sort", n)
		}
	}
}

// TestPacking checks that a packed word gives back its position whatever
// its tags, that a word holds a position and as many tags as it has bits
// to spare, and that the
// packing with no tags is the plain mixed key.
func TestPacking(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ holes, starts int }{{15, 49}, {33, 31}, {37, 27}, {45, 19}, {64, 0}} {
		pk, ok := PackingFor(c.holes, c.starts)
		if !ok {
			t.Fatalf("PackingFor(%d, %d) = false, want true", c.holes, c.starts)
		}
		if _, ok := PackingFor(c.holes, c.starts+1); ok {
			t.Errorf("PackingFor(%d, %d) = true, want false: %d bits", c.holes, c.starts+1, c.holes+c.starts+1)
		}
		for range 1000 {
			p := engine.Position(rng.Uint64()) & pk.Full
			tags := rng.Uint64() & pk.Tags
			w := pk.Key(p) | tags
			if w&pk.Tags != tags || pk.Pos(w) != p {
				t.Fatalf("%d holes: word %#x of %#x with tags %#x gives back %#x, tags %#x", c.holes, w, p, tags, pk.Pos(w), w&pk.Tags)
			}
		}
	}
	for range 1000 {
		p := engine.Position(rng.Uint64())
		if Mixed().Key(p) != Mix(p) || Mixed().Pos(Mix(p)) != p || Unmix(Mix(p)) != p {
			t.Fatalf("mixed packing of %#x: %#x, want %#x", p, Mixed().Key(p), Mix(p))
		}
	}
}

// TestSet checks a set large enough to keep a Bloom filter (and a
// small one) against a map: every key in, every other key out, made on one
// worker or several. It fails if the filter rules out a key that the set holds,
// or if two workers lose a key where their runs of the table meet: one
// case crowds a few thousand keys onto the slots there.
func TestSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, c := range []struct {
		n, crowd, workers int
	}{{1000, 0, 1}, {1000, 0, 2}, {3 * bloomKeys, 0, 1}, {3 * bloomKeys, 0, 2}, {3 * bloomKeys, 4000, 2}, {3 * bloomKeys, 4000, 7}} {
		n := c.n
		in := map[uint64]bool{}
		keys := make([]uint64, 0, n)
		for len(keys) < n-c.crowd {
			// Mixed keys of positions of up to 40 holes, as the searches
			// make them.
			k := Mix(engine.Position(rng.Uint64() >> 24))
			if k != 0 && !in[k] {
				in[k] = true
				keys = append(keys, k)
			}
		}
		// The crowd: consecutive keys, all of one home slot, from just
		// below the middle key (where two workers' runs meet).
		if c.crowd > 0 {
			slices.Sort(keys)
			k := keys[len(keys)/2] - uint64(c.crowd)/2
			for len(keys) < n {
				if k != 0 && !in[k] {
					in[k] = true
					keys = append(keys, k)
				}
				k++
			}
		}
		slices.Sort(keys)
		s := NewSet(keys, c.workers)
		if got, want := s.bloom != nil, n >= bloomKeys; got != want {
			t.Errorf("%d keys: filter kept %v, want %v", n, got, want)
		}
		// The budget is charged by SetBytes before a set is made.
		if got, want := SetBytes(n), int64(len(s.slots)+len(s.bloom))*8; got != want {
			t.Errorf("%d keys: SetBytes says %d, the set takes %d", n, got, want)
		}
		for _, k := range keys {
			if !s.Has(k) {
				t.Fatalf("%d keys: key %#x is in the set, has says not", n, k)
			}
		}
		passed := 0
		for range n {
			k := Mix(engine.Position(rng.Uint64() >> 24))
			if got := s.Has(k); got != in[k] {
				t.Fatalf("%d keys: has(%#x) = %v, want %v", n, k, got, in[k])
			}
			if s.bloom != nil && !in[k] {
				if w, m := s.bloomBits(k); s.bloom[w]&m == m {
					passed++
				}
			}
		}
		// About one in 250 at 16 bits a key; a filter that rules out
		// nothing would pass them all.
		if passed > n/100 {
			t.Errorf("%d keys: %d of %d keys outside the set passed the filter", n, passed, n)
		}
	}
}

// TestRank checks that Unrank inverts Rank, that ranks of k pegs on n
// holes are below Ranks(n, k), and that ranks follow colex order.
func TestRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		n := 1 + rng.IntN(64)
		p := engine.Position(rng.Uint64())
		if n < 64 {
			p &= 1<<uint(n) - 1
		}
		k := p.Pegs()
		r := Rank(p)
		if got := Unrank(r, k); got != p {
			t.Fatalf("Unrank(Rank(%#x), %d) = %#x", p, k, got)
		}
		if r >= Ranks(n, k) && !(k == 0 && r == 0) {
			t.Fatalf("Rank(%#x) = %d, not below C(%d, %d) = %d", p, r, n, k, Ranks(n, k))
		}
	}
	// Colex: among positions of two pegs on 4 holes, {0,1} < {0,2} < {1,2} < {0,3}.
	order := []engine.Position{0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100}
	for i, p := range order {
		if got := Rank(p); got != uint64(i) {
			t.Errorf("Rank(%04b) = %d, want %d", p, got, i)
		}
	}
}

// TestRankList checks coded ranks against the list they code: Has for
// every rank and its neighbours, Decode, AppendRange at every block edge,
// and DecodeRankList's checks.
func TestRankList(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, n := range []int{0, 1, 63, 64, 65, 1000} {
		set := map[uint64]bool{}
		var ranks []uint64
		for len(ranks) < n {
			r := rng.Uint64N(1 << 40)
			if !set[r] {
				set[r] = true
				ranks = append(ranks, r)
			}
		}
		slices.Sort(ranks)
		l := NewRankList(ranks)
		if l.Len() != n {
			t.Fatalf("Len = %d, want %d", l.Len(), n)
		}
		// The code is sized before it is written: Bytes charges what it
		// holds.
		if cap(l.data) != len(l.data) || cap(l.first) != len(l.first) || cap(l.off) != len(l.off) {
			t.Errorf("%d ranks: %d/%d/%d (code, firsts, offsets) in room for %d/%d/%d", n, len(l.data), len(l.first), len(l.off), cap(l.data), cap(l.first), cap(l.off))
		}
		for _, r := range ranks {
			for _, q := range []uint64{r - 1, r, r + 1} {
				if got := l.Has(q); got != set[q] {
					t.Fatalf("%d ranks: Has(%d) = %v, want %v", n, q, got, set[q])
				}
			}
		}
		got := make([]uint64, n)
		l.Decode(got)
		if !slices.Equal(got, ranks) {
			t.Errorf("%d ranks: Decode differs", n)
		}
		for _, lo := range []int{0, 1, 63, 64, 65, n - 1} {
			if lo < 0 || lo >= n {
				continue
			}
			for _, hi := range []int{lo + 1, min(n, lo+70), n} {
				if got := AppendRange(l, []uint64(nil), lo, hi); !slices.Equal(got, ranks[lo:hi]) {
					t.Errorf("%d ranks: AppendRange(%d, %d) = %v, want %v", n, lo, hi, got, ranks[lo:hi])
				}
			}
		}
		d, err := DecodeRankList(n, 1<<40, l.Code())
		if err != nil {
			t.Fatalf("%d ranks: DecodeRankList: %v", n, err)
		}
		if n > 0 && (!d.Has(ranks[n/2]) || d.Has(ranks[n/2]+1) && !set[ranks[n/2]+1]) {
			t.Errorf("%d ranks: the decoded list answers differently", n)
		}
		if n > 1 {
			if _, err := DecodeRankList(n, ranks[n-1], l.Code()); err == nil {
				t.Errorf("%d ranks: a rank at the limit decoded", n)
			}
			if _, err := DecodeRankList(n-1, 1<<40, l.Code()); err == nil {
				t.Errorf("%d ranks: code with a rank left over decoded", n)
			}
		}
	}
}

// TestIndex checks an index against the places of its keys, and keys it
// lacks.
func TestIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{0, 1, 1000, 100000} {
		in := map[uint64]bool{}
		var keys []uint64
		for len(keys) < n {
			k := Mix(engine.Position(rng.Uint64() >> 24))
			if k != 0 && !in[k] {
				in[k] = true
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		x := NewIndex(keys)
		for i, k := range keys {
			if got, ok := x.Find(k); !ok || got != i {
				t.Fatalf("%d keys: Find(%#x) = %d, %v; want %d", n, k, got, ok, i)
			}
		}
		for range 1000 {
			k := Mix(engine.Position(rng.Uint64() >> 24))
			if _, ok := x.Find(k); ok != in[k] {
				t.Fatalf("%d keys: Find(%#x) found %v, want %v", n, k, ok, in[k])
			}
		}
		if got, want := IndexBytes(n), int64(len(x.slots))*12; got != want {
			t.Errorf("%d keys: IndexBytes %d, the index takes %d", n, got, want)
		}
	}
}

// narrowKeys returns n distinct keys, sorted, whose top bits are those
// of partitions lo..hi of parts (a power of two, at most 256): the
// winnable positions of a range of a spilled layer's partitions.
func narrowKeys(rng *rand.Rand, n, lo, hi, parts int) []uint64 {
	b := uint(bits.TrailingZeros(uint(parts)))
	in := map[uint64]bool{}
	keys := make([]uint64, 0, n)
	for len(keys) < n {
		k := rng.Uint64()>>b | uint64(lo+rng.IntN(hi-lo))<<((64-b)%64)
		if k != 0 && !in[k] {
			in[k] = true
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// longestRun returns the most consecutive occupied slots (0 is empty),
// counting a run that wraps around the end: the longest probe a linear
// probing table can take.
// indexKeys returns the keys of x's slots, 0 for an empty one.
func indexKeys(x *Index) []uint64 {
	keys := make([]uint64, len(x.slots))
	for i := range x.slots {
		keys[i] = x.slots[i].key()
	}
	return keys
}

func longestRun(slots []uint64) int {
	run, most := 0, 0
	for i := range 2 * len(slots) {
		if slots[i%len(slots)] == 0 {
			run = 0
			continue
		}
		run++
		most = max(most, min(run, len(slots)))
	}
	return most
}

// TestSpreadKeys checks that a Set and an Index of keys from a narrow
// range of the key space, such as a range of a spilled layer's partitions
// (all alike in their top bits), spread them over all their slots: with
// home slots taken from the keys' top bits alone, such keys crowded into
// a share of the slots, in runs that every probe walked (a spilled random
// player's pass from 13 to 14 pegs on the 28-hole triangle took 48
// minutes), and into a share of a set's filter, which then ruled out
// nothing.
func TestSpreadKeys(t *testing.T) {
	const maxRun = 64 // the longest run at half load is a few dozen
	for _, c := range []struct {
		name                  string
		n, lo, hi, parts, wks int
	}{
		{"whole", 100000, 0, 1, 1, 1},
		{"quarter", 100000, 8, 24, 64, 1},
		{"quarter-workers", bloomKeys, 8, 24, 64, 3},
		{"one-of-256", bloomKeys, 255, 256, 256, 2},
		{"small", 5000, 0, 1, 256, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.n), uint64(c.lo)))
			keys := narrowKeys(rng, c.n, c.lo, c.hi, c.parts)
			x := NewIndex(keys)
			if got := longestRun(indexKeys(x)); got > maxRun {
				t.Errorf("index: longest run of slots %d, want at most %d", got, maxRun)
			}
			for i, k := range keys {
				if got, ok := x.Find(k); !ok || got != i {
					t.Fatalf("index: Find(%#x) = %d, %v; want %d", k, got, ok, i)
				}
			}
			s := NewSet(keys, c.wks)
			if got := longestRun(s.slots); got > maxRun {
				t.Errorf("set: longest run of slots %d, want at most %d", got, maxRun)
			}
			for _, k := range keys {
				if !s.Has(k) {
					t.Fatalf("set: key %#x is in the set, Has says not", k)
				}
			}
			// Keys of the same range outside the set: few pass the filter.
			in := map[uint64]bool{}
			for _, k := range keys {
				in[k] = true
			}
			passed, tried := 0, 0
			for _, k := range narrowKeys(rng, c.n, c.lo, c.hi, c.parts) {
				if in[k] {
					continue
				}
				tried++
				if s.Has(k) {
					t.Fatalf("set: Has(%#x) = true, the key is not in the set", k)
				}
				if s.bloom != nil && s.passes(k) {
					passed++
				}
			}
			if s.bloom != nil && passed > tried/100 {
				t.Errorf("set: %d of %d keys outside the set passed the filter, want at most 1%%", passed, tried)
			}
		})
	}
}

// passes reports whether k passes s's filter.
func (s *Set) passes(k uint64) bool {
	w, m := s.bloomBits(k)
	return s.bloom[w]&m == m
}

// TestMixSpreads checks that the top bits of mixed keys pick buckets
// evenly for the children of a run of a layer, as the searches expand
// them: the parents of a round are a range of the layer sorted by mixed
// key. Multiplying alone was not enough: a jump adds or takes away a few
// powers of two, so its child's product is the parent's plus a constant
// of the jump, and a round of neighbouring parents had children crowding
// some buckets (on the English board from 0.46 to 1.58 times the mean in
// a bucket, here; on the French, 0.45 to 1.79). The fold breaks that sum.
func TestMixSpreads(t *testing.T) {
	b, err := engine.Lookup("english")
	if err != nil {
		t.Fatal(err)
	}
	start, err := b.Vacate("d4")
	if err != nil {
		t.Fatal(err)
	}
	g := b.GameSymmetry(start, engine.Goal{Kind: engine.OnePeg})
	layer := map[uint64]engine.Position{Mix(g.Canonical(start)): g.Canonical(start)}
	var moves []engine.Jump
	for range 11 { // to 21 pegs: 229,614 positions
		next := map[uint64]engine.Position{}
		for _, p := range layer {
			moves = b.Moves(moves[:0], p)
			for _, j := range moves {
				c := g.Canonical(p.Apply(j))
				next[Mix(c)] = c
			}
		}
		layer = next
	}
	keys := slices.Sorted(maps.Keys(layer))
	const bits = 9
	var count [1 << bits]int
	n := 0
	for _, k := range keys[:len(keys)/8] {
		p := layer[k]
		for _, j := range b.Moves(moves[:0], p) {
			count[Mix(g.Canonical(p.Apply(j)))>>(64-bits)]++
			n++
		}
	}
	mean := float64(n) / float64(len(count))
	lo, hi := float64(slices.Min(count[:]))/mean, float64(slices.Max(count[:]))/mean
	if lo < 0.6 || hi > 1.4 {
		t.Errorf("%d children of the first eighth of %d positions: from %.2f to %.2f times the mean in a bucket, want 0.6 to 1.4", n, len(layer), lo, hi)
	}
}
