package layered

import (
	"context"
	"math/bits"

	"pegs/search/internal/memory"
	"pegs/search/internal/pool"
)

// packedSet is a bitset held as the bytes of it that are not zero: sum has
// a bit for each byte of the bitset, set where the byte is not zero, and
// bytes holds those bytes in order. A layer read only once more, by a walk
// back that ands it with the parents it marks, waits so (Layer.Pack): the
// English forward layers above the middle have 1-3 % of their numbers
// set, a twentieth to a fifth of their bytes not zero, and pack into about a
// fifth of their bitsets' memory (17-22 % on the layers of 18 to 22 pegs).
//
// A compressed bitmap such as a roaring bitmap holds sets this sparse in
// arrays of 16-bit numbers, 2 bytes a position, where the English layers
// of 18 to 20 pegs take 1 to 1.6 here; and it is made and read by one
// goroutine, where these are by blocks in parallel, straight from and
// into the bitsets the search holds.
type packedSet struct {
	words int      // the bitset's
	sum   []uint64 // bit i of sum[s]: byte 64s+i of the bitset is not zero
	// bytes holds the bytes that are not zero in order, by block of
	// packBlock words of sum.
	bytes [][]byte
}

// packBlock is how many words of sum a block is: a worker's task, 8,192
// words of the bitset, 64 KiB, which stay in a core's cache while it is
// summed and its bytes taken.
const packBlock = 1 << 10

// nonzeroBytes returns a bit for each byte of x, bit i set where byte i
// (bits 8i..8i+7) is not zero.
func nonzeroBytes(x uint64) uint64 {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	m := ((x&low7 + low7) | x) & high // the high bit of each byte not zero
	// Bit 8i+7 to bit i: the multiplier's terms 2^(56-7i) carry bit 8i
	// of m>>7 to bit 56+i, and no two terms meet.
	return (m >> 7) * 0x0102040810204080 >> 56
}

// packSet returns set packed, on workers goroutines.
func packSet(set []uint64, workers int) *packedSet {
	p := &packedSet{words: len(set), sum: make([]uint64, (len(set)+7)/8)}
	p.bytes = make([][]byte, (len(p.sum)+packBlock-1)/packBlock)
	pool.Chunks(len(p.bytes), workers, func(_, lo, hi int) {
		for blk := lo; blk < hi; blk++ {
			sums := p.sum[blk*packBlock : min(len(p.sum), (blk+1)*packBlock)]
			words := blockWords(set, blk)
			n := 0
			for s := range sums {
				var f uint64
				for j, x := range words[8*s : min(len(words), 8*s+8)] {
					f |= nonzeroBytes(x) << (8 * j)
				}
				sums[s] = f
				n += bits.OnesCount64(f)
			}
			out := make([]byte, 0, n)
			for s, f := range sums {
				for ; f != 0; f &= f - 1 {
					i := 64*s + bits.TrailingZeros64(f) // the byte's place in the block
					out = append(out, byte(words[i/8]>>(8*(i%8))))
				}
			}
			p.bytes[blk] = out
		}
	})
	return p
}

// size returns the bytes p holds.
func (p *packedSet) size() int64 {
	n := int64(len(p.sum))*8 + int64(len(p.bytes))*24
	for _, b := range p.bytes {
		n += int64(len(b))
	}
	return n
}

// block writes the words of block blk of p's bitset to dst (from its
// first), each anded with dst's word if and.
func (p *packedSet) block(blk int, dst []uint64, and bool) {
	in := p.bytes[blk]
	at := 0
	sums := p.sum[blk*packBlock : min(len(p.sum), (blk+1)*packBlock)]
	for s, sum := range sums {
		for j := range min(8, len(dst)-8*s) {
			var x uint64
			for b := sum >> (8 * j) & 0xff; b != 0; b &= b - 1 {
				x |= uint64(in[at]) << (8 * bits.TrailingZeros64(b))
				at++
			}
			if and {
				x &= dst[8*s+j]
			}
			dst[8*s+j] = x
		}
	}
}

// blockWords returns the words of set that block blk covers.
func blockWords(set []uint64, blk int) []uint64 {
	return set[8*blk*packBlock : min(len(set), 8*(blk+1)*packBlock)]
}

// unpack writes p's bitset to set (of p.words words), on workers
// goroutines.
func (p *packedSet) unpack(set []uint64, workers int) {
	pool.Chunks(len(p.bytes), workers, func(_, lo, hi int) {
		for blk := lo; blk < hi; blk++ {
			p.block(blk, blockWords(set, blk), false)
		}
	})
}

// mergePacked is mergeSets with a packed mask: it ors the bitsets sets
// into the first, ands it with mask, and returns the first alone.
func mergePacked(sets [][]uint64, mask *packedSet, workers int) [][]uint64 {
	set := sets[0]
	pool.Chunks(len(mask.bytes), workers, func(_, lo, hi int) {
		for blk := lo; blk < hi; blk++ {
			dst := blockWords(set, blk)
			for _, s := range sets[1:] {
				for i, x := range blockWords(s, blk) {
					dst[i] |= x
				}
			}
			mask.block(blk, dst, true)
		}
	})
	return sets[:1]
}

// Pack holds l's bitsets packed (see packedSet) where that takes less than
// half their memory, moving their charge in mem to the packed sets' and
// letting the bitsets go. (Not to mem for reuse: the layers packed are
// those a search has gone past, narrower than the next ones toward the
// middle, whose bitsets they could not hold; kept, they were charged at
// the peak.) A packed layer is only read by ParentsOf, which ands it with
// the parents it marks or unpacks it, and released; Pack reports false if
// l was left as it was.
func (l *Layer) Pack(workers int, mem *memory.Budget) bool {
	bl := l.dense
	if bl == nil || bl.packed != nil || bl.bytes() < minPack {
		return false
	}
	packed := make([]*packedSet, len(bl.sets))
	var size int64
	for s, set := range bl.sets {
		packed[s] = packSet(set, workers)
		size += packed[s].size()
	}
	if size > bl.bytes()/2 || mem.Take(size, "a packed layer") != nil {
		return false
	}
	mem.Give(bl.bytes())
	bl.sets, bl.packed = nil, packed
	return true
}

// minPack is the fewest bytes of bitsets that Pack packs: smaller layers
// would save less than their packing costs.
const minPack = 1 << 20

// unpack makes a packed layer's bitsets again, charged to mem in place of
// the packed sets.
func (l *Layer) unpack(ctx context.Context, workers int, mem *memory.Budget) error {
	bl := l.dense
	if bl == nil || bl.packed == nil {
		return nil
	}
	var size int64
	for _, p := range bl.packed {
		size += p.size()
	}
	sets := make([][]uint64, len(bl.packed))
	for s, p := range bl.packed {
		set, err := mem.TakeWords(p.words, "an unpacked layer")
		if err != nil {
			for _, set := range sets[:s] {
				mem.GiveWords(set)
			}
			return err
		}
		sets[s] = set
		p.unpack(set, workers)
	}
	bl.sets, bl.packed = sets, nil
	mem.Give(size)
	return ctx.Err()
}
