package layered

import (
	"fmt"
	"math/bits"
	"sort"
	"unsafe"

	"golang.org/x/sync/errgroup"

	"pegs/engine"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/pool"
)

// bucketTable holds the distinct children of one bucket found so far while
// a layer is expanded: an open-addressing hash table with linear probing,
// which folds the counts of a child found again into its slot. A key's home
// slot is the fraction of the table its bits below the bucket's give
// (multiply-high), so the table is in key order but for the short
// displacements of probing, and an insertion sort finishes the order. Any
// number of slots keeps that order, so a table is sized to the children
// expected rather than to a power of two.
//
// A child is found about seven times on average. A bucket's table stays in
// cache while the bucket's children of a round go in, and answers a repeat
// with a probe or two, where sorting each round's children into runs and
// merging the runs moved every repeat through memory several times.
type bucketTable[R rec] struct {
	slots []R    // size home slots, then tableSlack more; key 0 is empty
	size  int    // home slots
	bb    uint   // top key bits that pick the bucket
	low   uint64 // bits below a packed word's key: its tags (see key.Packing)
	n     int    // keys held
	mem   *memory.Budget
	// closed tables hold a fixed set of keys, seeded before any child
	// comes (see seed): a child whose key is not among them is dropped.
	closed bool
	// reached marks the slots of a closed table of bare keys that a child
	// has found (one bit a slot): such a table keeps only those, and n
	// counts them.
	reached []uint64
}

// tableSlack slots follow the home slots, so probes from the last homes
// need not wrap. The last slot always stays empty, so every probe ends.
// (Key 0, the mixed key of the empty position, is never a child's: it marks
// an empty slot.)
const tableSlack = 64

// Loads in tenths: a table doubles past maxLoad; a layer's tables are sized
// for tableFill at the children expected (see Expander.expect), which
// leaves room for an estimate up to a sixth short; a closed table is sized
// for seedFill, as children that miss its keys probe to an empty slot, or
// for maxLoad where a layer's tables would pass an eighth of the budget
// (French d3 within 6 GiB stopped in its walk back at seedFill).
// (English and French layers came out at 0.59-0.60 load, where tables of a
// power of two had 0.35-0.7: on the French d3 layers 7.1 GiB against
// 10.3 GiB of tables at the widest.)
const (
	maxLoad   = 7
	tableFill = 6
	seedFill  = 5
)

// limit is the most keys t holds before it doubles.
func (t *bucketTable[R]) limit() int { return t.size * maxLoad / 10 }

// slotsFor returns the home slots that hold n keys at about fill tenths
// load (at least 64).
func slotsFor(n, fill int) int { return max(64, n*10/fill+1) }

// home returns the home slot of key k (of its position, for a packed word).
func (t *bucketTable[R]) home(k uint64) int {
	hi, _ := bits.Mul64((k&^t.low)<<t.bb, uint64(t.size))
	return int(hi)
}

// alloc gives t size home slots, charged to its budget, and moves its keys
// there.
func (t *bucketTable[R]) alloc(size int) error {
	rsize := int64(unsafe.Sizeof(*new(R)))
	old := t.slots
	for {
		bytes := int64(size+tableSlack) * rsize
		if err := t.mem.Take(bytes, "the next layer's positions"); err != nil {
			return err // t is as it was
		}
		nt := *t
		nt.slots, nt.size, nt.n = memory.Touched[R](size+tableSlack), size, 0
		if nt.place(old) {
			*t = nt
			break
		}
		// A probe reached the last slot, so unlikely at this load that
		// doubling wastes nothing worth saving.
		t.mem.Give(bytes)
		size *= 2
	}
	if old != nil {
		freed := int64(len(old)) * rsize
		t.mem.Give(freed)
	}
	return nil
}

// place puts the keys of old, which are distinct, in t, reporting false if
// a probe reached the last slot.
func (t *bucketTable[R]) place(old []R) bool {
	for j := range old {
		k := keyOf(&old[j])
		if k == 0 {
			continue
		}
		i := t.home(k)
		for keyOf(&t.slots[i]) != 0 {
			i++
		}
		if i == len(t.slots)-1 {
			return false
		}
		t.slots[i] = old[j]
		t.n++
	}
	return true
}

// seed gives t room for keys (distinct mixed keys of t's bucket, no tags)
// and puts them in it with nothing counted, then closes it: later children
// fold into these keys or are dropped. A table of counted records keeps
// every seeded key (one no child found, with no paths); a table of bare
// keys, which cannot tell, keeps the keys children found.
func (t *bucketTable[R]) seed(keys []uint64) error {
	if err := t.alloc(t.seedSize(len(keys))); err != nil {
		return err
	}
	for _, k := range keys {
		if err := t.put(k); err != nil {
			return err
		}
	}
	return t.close()
}

// seedSize returns the home slots for n seeded keys.
func (t *bucketTable[R]) seedSize(n int) int {
	size := slotsFor(n, seedFill)
	if int64(size)<<t.bb*int64(unsafe.Sizeof(*new(R))) > t.mem.Limit()/8 {
		// Tables this large for a layer (all its buckets' alike) are
		// filled as far as tables that grow ever are.
		size = slotsFor(n, maxLoad)
	}
	return size
}

// put puts key k (not yet in t, no tags) in t with nothing counted.
func (t *bucketTable[R]) put(k uint64) error {
	i := t.home(k)
	for keyOf(&t.slots[i]) != 0 {
		i++
	}
	if i == len(t.slots)-1 {
		// A probe reached the last slot, so unlikely at this load:
		// the table doubles.
		if err := t.alloc(2 * t.size); err != nil {
			return err
		}
		return t.put(k)
	}
	*(*uint64)(unsafe.Pointer(&t.slots[i])) = k
	t.n++
	return nil
}

// close closes t on the keys put in it (see seed).
func (t *bucketTable[R]) close() error {
	t.closed = true
	if _, bare := any(t).(*bucketTable[uint64]); bare {
		words := (len(t.slots) + 63) / 64
		if err := t.mem.Take(int64(words)*8, "the next layer's positions"); err != nil {
			t.free()
			return err
		}
		t.reached = memory.Touched[uint64](words)
		t.n = 0
	}
	return nil
}

// free gives t's slots back to the budget.
func (t *bucketTable[R]) free() {
	bytes := int64(len(t.slots))*int64(unsafe.Sizeof(*new(R))) + int64(len(t.reached))*8
	t.mem.Give(bytes)
	t.slots, t.reached = nil, nil
}

// add puts items in t, folding repeats, and reports whether a path count
// passed 128 bits. The loop is generated for each kind (see addKeys): a
// generic loop calling a fold function for each child was 25-40% slower.
func (t *bucketTable[R]) add(items []R) (overflow bool, err error) {
	switch x := any(t).(type) {
	case *bucketTable[uint64]:
		return false, addKeys(x, any(items).([]uint64))
	case *bucketTable[paths]:
		return false, addPaths(x, any(items).([]paths))
	case *bucketTable[record]:
		return addRecords(x, any(items).([]record))
	case *bucketTable[packed]:
		return false, addPacked(x, any(items).([]packed))
	}
	panic(fmt.Sprintf("bucketTable of %T", t))
}

// sorted compacts t's keys to the front of its slots, in order, and returns
// them (packed words, whose positions are distinct, sort by position). The
// slots are in order but for the short displacements of probing, which an
// insertion sort undoes in about one pass. A closed table of bare keys
// keeps only the slots its reached bits mark, so those bits are read a
// word at a time rather than every slot: a walk back's table is sized for
// a whole reachable layer and keeps its winnable part (on the English
// centre game a sixteenth of the slots at 18 pegs; the walk back from 17
// to 20 pegs took 4% less time).
func (t *bucketTable[R]) sorted() []R {
	n := 0
	if t.reached != nil {
		for w, word := range t.reached {
			for ; word != 0; word &= word - 1 {
				t.slots[n] = t.slots[64*w+bits.TrailingZeros64(word)]
				n++
			}
		}
	} else {
		for i := range t.slots {
			if keyOf(&t.slots[i]) != 0 {
				t.slots[n] = t.slots[i]
				n++
			}
		}
	}
	s := t.slots[:n]
	for i := 1; i < n; i++ {
		x := s[i]
		k, j := keyOf(&x), i
		for ; j > 0 && keyOf(&s[j-1]) > k; j-- {
			s[j] = s[j-1]
		}
		s[j] = x
	}
	return s
}

// addKeys, addPaths, addRecords and addPacked (zbuckets.go) are one
// probing loop, generated once per record type from the template in
// gen_buckets.go: it is the expansion's hottest loop, and a generic
// version would call its type's fold through the type parameter's
// dictionary, which the compiler does not inline (BenchmarkExplore shows
// the difference). TestBucketsGenerated checks that zbuckets.go is
// current.
//
//go:generate go run gen_buckets.go

// reachKeys marks the slots of closed table t that keys find.
func reachKeys(t *bucketTable[uint64], ks []uint64) {
	slots, reached := t.slots, t.reached
	for _, k := range ks {
		i := t.home(k)
		for slots[i] != k && slots[i] != 0 {
			i++
		}
		if bit := uint64(1) << (i % 64); slots[i] == k && reached[i/64]&bit == 0 {
			reached[i/64] |= bit
			t.n++
		}
	}
}

// seedCoded seeds and closes the tables of a layer's buckets with the keys
// of stored layer s (see bucketTable.seed), each key its mixed key shifted
// up by shift, decoding them a chunk at a time so that they are never held
// whole. One pass counts each bucket's keys. Then, where the tables are
// keyed by packed word (shift is the packing's; see Expander.withinCode),
// the code's order, each bucket's keys come in a run and in the order of
// their home slots: each worker decodes the runs of its own buckets and
// fills their tables front to back. Keyed by mixed key, each worker
// decodes every key and puts those of its own buckets, each in a random
// slot of what may be gigabytes of tables (on the French board that took
// most of the walk back). (A layer decoded whole took 1.7 GB beside its
// tables at the French walk back's widest.)
func seedCoded[R rec](tabs []bucketTable[R], s *Stored, shift uint, workers int) error {
	nb, bb := len(tabs), tabs[0].bb
	const step = 1 << 14 // positions decoded at once
	counts := make([][]int, pool.ChunkCount(s.N, workers))
	pool.Chunks(s.N, workers, func(c, lo, hi int) {
		count := make([]int, nb)
		var buf []engine.Position
		for at := lo; at < hi; at += step {
			buf = s.Positions(buf[:0], at, min(hi, at+step))
			for _, p := range buf {
				count[bucketOf(key.Mix(p)<<shift, bb)]++
			}
		}
		counts[c] = count
	})
	// start[b]: where bucket b's run begins when the code is in runs.
	start := make([]int, nb+1)
	for b := range nb {
		start[b+1] = start[b]
		for _, count := range counts {
			start[b+1] += count[b]
		}
	}
	var g errgroup.Group
	g.SetLimit(pool.Size(workers))
	for b := range tabs {
		g.Go(func() error {
			return tabs[b].alloc(tabs[b].seedSize(start[b+1] - start[b]))
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	runs := shift == s.pk.Shift
	nw := pool.Size(workers)
	for w := range nw {
		g.Go(func() error {
			// Runs of buckets of about equal keys, or equal buckets.
			lo, hi := w*nb/nw, (w+1)*nb/nw
			from, to := 0, s.N
			if runs {
				lo = sort.SearchInts(start[:nb], w*s.N/nw)
				if hi = nb; w+1 < nw {
					hi = sort.SearchInts(start[:nb], (w+1)*s.N/nw)
				}
				from, to = start[lo], start[hi]
			}
			var buf []engine.Position
			for at := from; at < to; at += step {
				buf = s.Positions(buf[:0], at, min(to, at+step))
				for _, p := range buf {
					k := key.Mix(p) << shift
					if b := bucketOf(k, bb); b >= lo && b < hi {
						if err := tabs[b].put(k); err != nil {
							return err
						}
					}
				}
			}
			for b := lo; b < hi; b++ {
				if err := tabs[b].close(); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}
