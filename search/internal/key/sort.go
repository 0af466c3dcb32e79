package key

import (
	"slices"

	"golang.org/x/sync/errgroup"

	"pegs/search/internal/pool"
)

// TopBits is the number of top key bits by which Sort and the searches
// that match found keys against a layer split mixed keys (which spread
// evenly over them) into parts.
const TopBits = 8

// Parts is the number of parts of TopBits.
const Parts = 1 << TopBits

// splitTops moves keys, in place, into parts by their top bits, each
// swapped into its part's next open slot, and returns where each part
// begins (see CountTops).
func splitTops(keys []uint64) [Parts + 1]int {
	count := CountTops(keys)
	next := count // next[b]: part b's first slot not yet settled
	for b := range 1 << TopBits {
		end := count[b+1]
		for i := next[b]; i < end; i = next[b] {
			k := keys[i]
			// Swap k into its part until one of part b's comes here.
			for t := k >> (64 - TopBits); t != uint64(b); t = k >> (64 - TopBits) {
				j := next[t]
				next[t]++
				keys[j], k = k, keys[j]
			}
			keys[i] = k
			next[b]++
		}
	}
	return count
}

// CountTops returns where each part of keys by top bits begins in a split
// of keys: count[b] is the number of keys with top bits below b.
func CountTops(keys []uint64) (count [Parts + 1]int) {
	for _, k := range keys {
		count[k>>(64-TopBits)+1]++
	}
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	return count
}

// sortPart sorts mixed keys that share their top bits: radix passes on as
// many bytes below them as the part's size needs, with tmp (as long as
// part) for scratch. It returns part or tmp, whichever holds the result.
func sortPart(part, tmp []uint64) []uint64 {
	return SortParts([][]uint64{part}, tmp, part)
}

// SortParts sorts the mixed keys of parts, which share their top bits, into
// a or b (each as long as all parts together; b may be the one part) and
// returns the one that holds them: radix passes as sortPart's, the first
// reading the parts where they are.
func SortParts(parts [][]uint64, a, b []uint64) []uint64 {
	return SortShared(parts, a, b, TopBits)
}

// SortShared is SortParts for words that share their top top bits and
// spread evenly below them.
func SortShared(parts [][]uint64, a, b []uint64, top uint) []uint64 {
	if len(a) < 64 {
		a = a[:0]
		for _, p := range parts {
			a = append(a, p...)
		}
		slices.Sort(a)
		return a
	}
	// Enough digits that a few keys at most share them.
	passes := 1
	for len(a)>>(8*passes) > 4 && passes < 7 {
		passes++
	}
	return radixSort(parts, a, b, 64-top-uint(8*passes), passes)
}

// Intersect returns the keys in both a and b, which are sorted; a's keys
// are distinct, b's may repeat.
func Intersect(a, b []uint64) []uint64 {
	var out []uint64
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// Sort sorts mixed keys in place: it splits them by their top bits
// where they lie (each key swapped into its part's next open slot), then
// radix sorts the parts in parallel, each worker with scratch for one part,
// so a layer is sorted in its own memory and a little more (a split into
// scratch as long as the keys took 1.7 GB more on the French widest
// layers).
func Sort(keys []uint64, workers int) {
	if len(keys) < 1<<12 {
		slices.Sort(keys)
		return
	}
	count := splitTops(keys)
	largest := 0
	for b := range 1 << TopBits {
		largest = max(largest, count[b+1]-count[b])
	}
	nw := pool.Size(workers)
	scratch := make(chan []uint64, nw)
	for range nw {
		scratch <- make([]uint64, largest)
	}
	var g errgroup.Group
	g.SetLimit(nw)
	for b := range 1 << TopBits {
		g.Go(func() error {
			tmp := <-scratch
			defer func() { scratch <- tmp }()
			part := keys[count[b]:count[b+1]]
			copy(tmp, part)
			if sorted := sortPart(tmp[:len(part)], part); len(sorted) > 0 && &sorted[0] != &part[0] {
				copy(part, sorted)
			}
			return nil
		})
	}
	g.Wait()
}

// radixSort sorts the keys of parts into one of a or b (each as long as
// all parts together): radix passes on 8-bit digits of the key from bit
// shift up, passes of them (mixed keys are uniform there), the first
// reading the parts directly, then an insertion sort that only fixes keys
// sharing those digits.
func radixSort(parts [][]uint64, a, b []uint64, shift uint, passes int) []uint64 {
	a = radixPasses(parts, a, b, shift, passes)
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
	return a
}

// radixPasses is radixSort without the final insertion sort: the result
// is in order by the digits the passes sorted.
func radixPasses(parts [][]uint64, a, b []uint64, shift uint, passes int) []uint64 {
	var count [257]int
	for _, p := range parts {
		for i := range p {
			count[(p[i]>>shift)&0xff+1]++
		}
	}
	for i := 1; i < 257; i++ {
		count[i] += count[i-1]
	}
	for _, p := range parts {
		for i := range p {
			d := (p[i] >> shift) & 0xff
			a[count[d]] = p[i]
			count[d]++
		}
	}
	for range passes - 1 {
		shift += 8
		count = [257]int{}
		for i := range a {
			count[(a[i]>>shift)&0xff+1]++
		}
		for i := 1; i < 257; i++ {
			count[i] += count[i-1]
		}
		for i := range a {
			d := (a[i] >> shift) & 0xff
			b[count[d]] = a[i]
			count[d]++
		}
		a, b = b, a
	}
	return a
}

// Without returns the keys of a that are not in b; both are sorted.
func Without(a, b []uint64) []uint64 {
	var out []uint64
	j := 0
	for _, k := range a {
		for j < len(b) && b[j] < k {
			j++
		}
		if j == len(b) || b[j] != k {
			out = append(out, k)
		}
	}
	return out
}
