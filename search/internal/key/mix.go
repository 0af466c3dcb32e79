// Package key holds the layered searches' positions as 64-bit keys:
// mixed and packed forms, their radix sorts, read-only hash sets with a
// Bloom filter, set operations on sorted keys, positions in ascending
// order indexed by their high bits (Sorted), and combinatorial ranks coded
// as gaps.
//
// # Mixed keys
//
// Positions in a layer are stored mixed: their high bits folded into their
// low ones by an xor-shift, then multiplied by an odd constant; each step
// is a bijection of uint64. Mixed keys spread evenly, so their top bits
// pick a bucket and a layer sorted by mixed key splits into even shards.
// The multiply alone does not, for the children of a run of neighbouring
// keys (a round of parents): a jump adds or takes away a few powers of
// two, so the product of a child was its parent's plus a constant of the
// jump, and a round's children crowded some buckets (on the French board
// from 0.45 to 1.79 times the mean in a bucket of 512). Folding first
// breaks that sum (see TestMixSpreads).
//
// # Packed words
//
// A packing keeps a position and a few tag bits in one word: the position,
// mixed within the board's n bits, in the word's top n bits and the tags
// below them. A search from several starts tags each position with the
// starts that reach it (bit i: start i), and a packed word holds both in
// half the bytes of a key and a tag word. Packed words sort by position.
// The plain mixed key (Mix) is the packing with no room for tags.
package key

import "pegs/engine"

// MixMul is the odd multiplier that mixes a position into its key.
const MixMul = 0x9E3779B97F4A7C15

// unmixMul is the inverse of MixMul modulo 2^64.
const unmixMul = 0xF1DE83E19937733D

// mixShift is how far Mix folds a position's bits down before the
// multiply.
const mixShift = 9

// fold is the xor-shift of Mix: it keeps a position's bits below any power
// of two within it.
func fold(x uint64) uint64 { return x ^ x>>mixShift }

// unfold inverts fold.
func unfold(y uint64) uint64 {
	y ^= y >> mixShift
	y ^= y >> (2 * mixShift)
	y ^= y >> (4 * mixShift)
	return y
}

// Mix returns the mixed key of p.
func Mix(p engine.Position) uint64 { return fold(uint64(p)) * MixMul }

// Unmix returns the position of mixed key k.
func Unmix(k uint64) engine.Position { return engine.Position(unfold(k * unmixMul)) }

// Packing is how positions of a board of n holes and tags share a word.
type Packing struct {
	Shift uint            // 64 - n: the key's top n bits hold the position
	Tags  uint64          // the tag bits
	Full  engine.Position // the board's holes
}

// Mixed returns the packing of plain mixed keys: Key is Mix, Pos is Unmix.
func Mixed() Packing { return Packing{Full: ^engine.Position(0)} }

// PackingFor returns the packing of a board of n holes with tags for
// starts starts, or false if they do not fit in a word.
func PackingFor(n, starts int) (Packing, bool) {
	if n+starts > 64 {
		return Packing{}, false
	}
	return Packing{Shift: uint(64 - n), Tags: 1<<uint(starts) - 1, Full: engine.Position(1)<<uint(n) - 1}, true
}

// Key returns the packed word of p, without tags.
func (pk Packing) Key(p engine.Position) uint64 { return Mix(p) << pk.Shift }

// Pos returns the position of a packed word.
func (pk Packing) Pos(w uint64) engine.Position {
	// The top n bits hold Mix(p) modulo 2^n, and unmixMul inverts
	// MixMul modulo every power of two; fold keeps p below 2^n.
	return engine.Position(unfold((w >> pk.Shift) * unmixMul & uint64(pk.Full)))
}
