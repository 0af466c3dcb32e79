package layered

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// TestRecordFold checks that folding wide records carries into the high
// word of the path count.
func TestRecordFold(t *testing.T) {
	x := record{key: 1, m: exact.U128{Lo: ^uint64(0)}}
	if of := x.fold(&record{key: 1, m: exact.U128{Lo: 2}}); of || x.m != (exact.U128{Lo: 1, Hi: 1}) {
		t.Errorf("fold = %+v, overflow %v; want m 2^64+1, no overflow", x, of)
	}
	y := record{key: 1, m: exact.U128{Lo: 1, Hi: ^uint64(0)}}
	if of := y.fold(&record{key: 1, m: exact.U128{Hi: 1}}); !of {
		t.Errorf("fold past 2^128 did not report overflow")
	}
}

// TestBucketTable checks that a bucket's table, filled in batches and
// grown from a size not a power of two, holds what folding all its records
// at once gives, in order, for every kind of record; and that growing past the
// budget fails with ErrMemory.
func TestBucketTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const bb = 3 // every key in bucket 5 of 8
	for _, n := range []int{1, 100, 5000} {
		var all []paths
		for _, k := range bucketKeys(rng, n, bb, 5) {
			all = append(all, paths{key: k, m: rng.Uint64N(1 << 40)})
		}
		// The fold of all records, by key, in order; and of packed words,
		// whose keys are the records' less their low six bits, which hold
		// tags.
		const low = 1<<6 - 1
		sums := map[uint64]paths{}
		ors := map[uint64]packed{}
		for _, r := range all {
			x := sums[r.key]
			sums[r.key] = paths{r.key, x.m + r.m}
			ors[r.key&^low] |= packed(r.key&^low | 1<<(r.m%6))
		}
		var want []paths
		for _, k := range slices.Sorted(maps.Keys(sums)) {
			want = append(want, sums[k])
		}
		var wantPacked []packed
		for _, k := range slices.Sorted(maps.Keys(ors)) {
			wantPacked = append(wantPacked, ors[k])
		}
		mem := memory.New(1 << 30)
		nt := bucketTable[paths]{size: 100, bb: bb, mem: mem}
		kt := bucketTable[uint64]{size: 100, bb: bb, mem: mem}
		rt := bucketTable[record]{size: 100, bb: bb, mem: mem}
		tt := bucketTable[packed]{size: 100, bb: bb, low: low, mem: mem}
		for _, tb := range []interface{ alloc(int) error }{&nt, &kt, &rt, &tt} {
			if err := tb.alloc(100); err != nil {
				t.Fatal(err)
			}
		}
		for lo := 0; lo < n; lo += 97 {
			batch := all[lo:min(n, lo+97)]
			var ks []uint64
			var rs []record
			var ts []packed
			for _, r := range batch {
				ks = append(ks, r.key)
				rs = append(rs, record{key: r.key, m: exact.U128{Lo: r.m}})
				ts = append(ts, packed(r.key&^low|1<<(r.m%6)))
			}
			if _, err := tt.add(ts); err != nil {
				t.Fatal(err)
			}
			if _, err := nt.add(slices.Clone(batch)); err != nil {
				t.Fatal(err)
			}
			if _, err := kt.add(ks); err != nil {
				t.Fatal(err)
			}
			if _, err := rt.add(rs); err != nil {
				t.Fatal(err)
			}
		}
		if got := nt.sorted(); !slices.Equal(got, want) {
			t.Errorf("%d records: paths table holds %d, want %d as one fold", n, len(got), len(want))
		}
		if got := tt.sorted(); !slices.Equal(got, wantPacked) {
			t.Errorf("%d records: packed table holds %d words, want %d as one fold", n, len(got), len(wantPacked))
		}
		gotKeys, gotRecs := kt.sorted(), rt.sorted()
		if len(gotKeys) != len(want) || len(gotRecs) != len(want) {
			t.Fatalf("%d records: tables hold %d keys and %d records, want %d", n, len(gotKeys), len(gotRecs), len(want))
		}
		for i, w := range want {
			if gotKeys[i] != w.key || gotRecs[i] != (record{key: w.key, m: exact.U128{Lo: w.m}}) {
				t.Fatalf("%d records: keys or records differ from the fold at %d", n, i)
			}
		}
		nt.free()
		kt.free()
		rt.free()
		tt.free()
		if inUse(mem) != 0 {
			t.Errorf("%d records: %d bytes in use after free, want 0", n, inUse(mem))
		}
	}
	small := bucketTable[uint64]{size: 64, mem: memory.New(4096)}
	if err := small.alloc(64); err != nil {
		t.Fatal(err)
	}
	var ks []uint64
	for i := range 1000 {
		ks = append(ks, key.Mix(engine.Position(i+1)))
	}
	if _, err := small.add(ks); !errors.Is(err, memory.ErrExceeded) {
		t.Errorf("1000 keys in 4 KiB: err = %v, want memory.ErrExceeded", err)
	}
}

// bucketKeys returns n keys of children in bucket b of 1<<bb: mixed keys
// spread evenly, of which about n/2 distinct repeat, as children do, and
// some land next to each other.
func bucketKeys(rng *rand.Rand, n int, bb uint, b uint64) []uint64 {
	keys := make([]uint64, n)
	for i := range keys {
		k := key.Mix(engine.Position(1 + rng.IntN(n/2+1)))
		if rng.IntN(4) == 0 {
			k++
		}
		keys[i] = k>>bb | b<<(64-bb)
	}
	return keys
}

// TestExpect checks the estimate the tables of a layer are sized by, on the
// English layers of a thousand positions or more (before them the growth
// is uneven, and doubling a small table costs little): within a sixth short
// (the tables, sized for 0.6 load at it, stay under maxLoad) and a quarter
// over (no more slots wasted than that) of the children the layer turns out
// to have.
func TestExpect(t *testing.T) {
	b := engine.English()
	gen := movegen.New(b, b.Symmetry())
	e := &Expander{gen: gen, workers: 2, mem: memory.New(1 << 30)}
	cur := &Layer{pegs: 32, keys: []uint64{key.Mix(b.Symmetry().Canonical(b.Start()))}}
	for cur.pegs > 19 {
		known := len(e.ratios)
		want := e.expect(cur.Len())
		next, _, err := e.Next(context.Background(), cur)
		if err != nil {
			t.Fatal(err)
		}
		got := next.Len()
		if known >= 2 && got >= 1000 && (want*7 < got*6 || want*4 > got*5) {
			t.Errorf("%d pegs: expected %d children, found %d", next.pegs, want, got)
		}
		cur = next
	}
	if len(e.ratios) != 13 {
		t.Errorf("%d layer ratios kept, want 13", len(e.ratios))
	}
}

// TestClosedTable checks a table seeded with a fixed set of keys (as a
// count through the winnable positions seeds each layer's): children with
// those keys fold into them, the others are dropped, and a seeded key no
// child has stays with nothing counted; a table of bare keys keeps only the
// seeded keys children found.
func TestClosedTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const bb = 2 // every key in bucket 1 of 4
	for _, n := range []int{1, 100, 5000} {
		var all []paths
		for _, k := range bucketKeys(rng, n, bb, 1) {
			all = append(all, paths{key: k, m: rng.Uint64N(1 << 40)})
		}
		// Seed every other distinct key, and one no child has.
		sums := map[uint64]uint64{}
		for _, r := range all {
			sums[r.key] += r.m
		}
		var seed []uint64
		for i, k := range slices.Sorted(maps.Keys(sums)) {
			if i%2 == 0 {
				seed = append(seed, k)
			}
		}
		absent := key.Mix(engine.Position(n+7))>>bb | 1<<(64-bb)
		seed = append(seed, absent)
		slices.Sort(seed)
		var want []paths
		for _, k := range seed {
			want = append(want, paths{k, sums[k]})
		}
		mem := memory.New(1 << 30)
		pt := bucketTable[paths]{size: 64, bb: bb, mem: mem}
		kt := bucketTable[uint64]{size: 64, bb: bb, mem: mem}
		if err := pt.seed(seed); err != nil {
			t.Fatal(err)
		}
		if err := kt.seed(seed); err != nil {
			t.Fatal(err)
		}
		for lo := 0; lo < n; lo += 97 {
			batch := all[lo:min(n, lo+97)]
			var ks []uint64
			for _, r := range batch {
				ks = append(ks, r.key)
			}
			if _, err := pt.add(slices.Clone(batch)); err != nil {
				t.Fatal(err)
			}
			if _, err := kt.add(ks); err != nil {
				t.Fatal(err)
			}
		}
		if got := pt.sorted(); !slices.Equal(got, want) {
			t.Errorf("%d children: closed table holds %v, want %v", n, got, want)
		}
		found := slices.DeleteFunc(slices.Clone(seed), func(k uint64) bool { return k == absent })
		if got := kt.sorted(); !slices.Equal(got, found) || kt.n != len(found) {
			t.Errorf("%d children: closed key table holds %d keys (n %d), want the %d seeded that children have", n, len(got), kt.n, len(found))
		}
		pt.free()
		kt.free()
		if inUse(mem) != 0 {
			t.Errorf("%d children: %d bytes in use after free, want 0", n, inUse(mem))
		}
		// Seeded at seedFill load, or at maxLoad where the tables of all
		// the buckets would pass an eighth of the budget.
		for _, c := range []struct {
			limit int64
			fill  int
		}{{1 << 30, seedFill}, {int64(slotsFor(len(seed), seedFill))<<bb*8*8 - 1, maxLoad}} {
			tt := bucketTable[uint64]{bb: bb, mem: memory.New(c.limit)}
			if err := tt.seed(seed); err != nil {
				t.Fatal(err)
			}
			if want := slotsFor(len(seed), c.fill); tt.size != want {
				t.Errorf("%d keys seeded within %d bytes: %d slots, want %d", len(seed), c.limit, tt.size, want)
			}
		}
	}
}

// TestStoredKeys checks that keys coded for the walk back (storeKeys)
// decode to themselves, in about a quarter of their bytes or less when
// dense.
func TestStoredKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const holes = 33
	for _, n := range []int{0, 1, 100, 5000, 1 << 20} {
		var keys []uint64
		for range n {
			keys = append(keys, key.Mix(engine.Position(rng.Uint64N(1<<holes))))
		}
		slices.Sort(keys)
		keys = slices.Compact(keys)
		want := slices.Clone(keys)
		s := StoreKeys(keys, holes, 2)
		if got := s.Keys(2); !slices.Equal(got, want) {
			t.Errorf("%d keys: stored and decoded, %d keys differ from the %d stored", n, len(got), len(want))
		}
		// The positions in stored order, whole and in ranges.
		var order []engine.Position
		for _, k := range want {
			order = append(order, key.Unmix(k))
		}
		pk, _ := key.PackingFor(holes, 0)
		slices.SortFunc(order, func(a, b engine.Position) int { return cmp.Compare(pk.Key(a), pk.Key(b)) })
		if got := s.Positions(nil, 0, len(want)); !slices.Equal(got, order) {
			t.Errorf("%d keys: %d positions decoded in stored order, want the %d stored", n, len(got), len(order))
		}
		for range 50 {
			lo := rng.IntN(len(want) + 1)
			hi := lo + rng.IntN(len(want)-lo+1)
			if got := s.Positions(nil, lo, hi); !slices.Equal(got, order[lo:hi]) {
				t.Errorf("%d keys: positions %d..%d decoded differ from those stored there", n, lo, hi)
			}
		}
		if n == 1<<20 && s.Bytes() > int64(n)*8/3 {
			t.Errorf("%d keys of %d holes: stored in %d bytes, want at most a third of %d", n, holes, s.Bytes(), n*8)
		}
	}
}

// TestCodeTables checks that a layer coded from its tables (codeTables)
// is the layer storeKeys codes from its sorted keys, in the same order,
// and that the tables and scratch go back to the budget, the code alone
// left charged.
func TestCodeTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const holes = 37
	for _, c := range []struct{ n, bits int }{{0, 0}, {1, 0}, {300, 2}, {5000, 4}, {1 << 19, 9}, {3 << 20, 9}} {
		if testing.Short() && c.n > 1<<20 {
			continue // -short: the code's size against storeKeys's is checked on millions of keys
		}
		var keys []uint64
		for range c.n {
			keys = append(keys, key.Mix(engine.Position(1+rng.Uint64N(1<<holes-1))))
		}
		slices.Sort(keys)
		keys = slices.Compact(keys)
		mem := memory.New(1 << 32)
		nb := 1 << c.bits
		tabs := make([]bucketTable[uint64], nb)
		lists := make([][]uint64, nb)
		// Each key twice, as children come.
		for _, k := range append(slices.Clone(keys), keys...) {
			b := bucketOf(k, uint(c.bits))
			lists[b] = append(lists[b], k)
		}
		for b := range tabs {
			tabs[b] = bucketTable[uint64]{size: slotsFor(len(keys)/nb, tableFill), bb: uint(c.bits), mem: mem}
			if len(lists[b]) == 0 {
				continue
			}
			if err := tabs[b].alloc(tabs[b].size); err != nil {
				t.Fatal(err)
			}
			if _, err := tabs[b].add(lists[b]); err != nil {
				t.Fatal(err)
			}
		}
		s, err := codeTables(context.Background(), tabs, holes, 2, mem)
		if err != nil {
			t.Fatal(err)
		}
		want := StoreKeys(slices.Clone(keys), holes, 2)
		if got := s.Keys(2); !slices.Equal(got, keys) {
			t.Errorf("%d keys: coded from tables, %d keys decode, want the %d put", len(keys), len(got), len(keys))
		}
		if got, want := s.Positions(nil, 0, s.N), want.Positions(nil, 0, want.N); !slices.Equal(got, want) {
			t.Errorf("%d keys: %d positions in stored order, want storeKeys's %d in its order", len(keys), len(got), len(want))
		}
		for range 20 {
			lo := rng.IntN(s.N + 1)
			hi := lo + rng.IntN(s.N-lo+1)
			if got, want := s.Positions(nil, lo, hi), want.Positions(nil, lo, hi); !slices.Equal(got, want) {
				t.Errorf("%d keys: positions %d..%d differ from storeKeys's", len(keys), lo, hi)
			}
		}
		for b := range tabs {
			if tabs[b].slots != nil {
				t.Errorf("%d keys: table %d not freed", len(keys), b)
			}
		}
		if got := inUse(mem); got != s.Bytes() {
			t.Errorf("%d keys: %d bytes charged after coding, want the code's %d", len(keys), got, s.Bytes())
		}
		if len(keys) > 1<<20 && s.Bytes() > want.Bytes()*21/20 {
			t.Errorf("%d keys: coded from tables in %d bytes, storeKeys %d", len(keys), s.Bytes(), want.Bytes())
		}
	}
}

// TestSeedCoded checks that tables seeded from a stored layer (seedCoded)
// hold its keys, each in its bucket's table and closed, whether keyed by
// mixed key or by packed word (where each worker fills the runs of its
// own buckets), for any number of workers.
func TestSeedCoded(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const holes = 37
	pk, _ := key.PackingFor(holes, 0)
	for _, c := range []struct{ n, bits int }{{1, 0}, {300, 2}, {5000, 4}, {1 << 18, 9}} {
		var keys []uint64
		for range c.n {
			keys = append(keys, key.Mix(engine.Position(1+rng.Uint64N(1<<holes-1))))
		}
		slices.Sort(keys)
		keys = slices.Compact(keys)
		s := StoreKeys(slices.Clone(keys), holes, 2)
		for _, shift := range []uint{0, pk.Shift} {
			want := make([]uint64, len(keys))
			for i, k := range keys {
				want[i] = k << shift
			}
			slices.Sort(want)
			for _, workers := range []int{1, 2, 3} {
				mem := memory.New(1 << 32)
				tabs := make([]bucketTable[uint64], 1<<c.bits)
				for b := range tabs {
					tabs[b] = bucketTable[uint64]{bb: uint(c.bits), mem: mem}
				}
				if err := seedCoded(tabs, s, shift, workers); err != nil {
					t.Fatal(err)
				}
				var got []uint64
				for b := range tabs {
					if !tabs[b].closed {
						t.Errorf("%d keys, shift %d, %d workers: table %d not closed", len(keys), shift, workers, b)
					}
					for _, k := range tabs[b].slots {
						if k == 0 {
							continue
						}
						if bucketOf(k, uint(c.bits)) != b {
							t.Errorf("%d keys, shift %d, %d workers: key %#x in table %d, want %d", len(keys), shift, workers, k, b, bucketOf(k, uint(c.bits)))
						}
						got = append(got, k)
					}
				}
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("%d keys, shift %d, %d workers: tables hold %d keys, want the %d stored", len(keys), shift, workers, len(got), len(want))
				}
			}
		}
	}
}

// BenchmarkAddKeys measures a bucket's table taking children: distinct
// keys, each come copies times in random order, into a table sized for
// them (as an expansion sizes it), small enough for the first caches or
// past the second. ns/key is per child added.
func BenchmarkAddKeys(b *testing.B) {
	for _, distinct := range []int{4 << 10, 160 << 10} {
		for _, copies := range []int{1, 7} {
			b.Run(fmt.Sprintf("distinct=%d/copies=%d", distinct, copies), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 2))
				const bb = 9
				var keys []uint64
				for range distinct {
					keys = append(keys, rng.Uint64()>>bb|1)
				}
				var list []uint64
				for range copies {
					list = append(list, keys...)
				}
				rng.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
				mem := memory.New(1 << 32)
				for b.Loop() {
					t := bucketTable[uint64]{size: slotsFor(distinct, tableFill), bb: bb, mem: mem}
					if err := t.alloc(t.size); err != nil {
						b.Fatal(err)
					}
					if err := addKeys(&t, list); err != nil {
						b.Fatal(err)
					}
					t.free()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(list)), "ns/key")
			})
		}
	}
}
