// Package exact holds the exact counts of the layered searches: unsigned
// 128-bit integers, for path counts that pass 2^64 on the English board.
package exact

import (
	"math/big"
	"math/bits"
)

// U128 is an unsigned 128-bit count.
type U128 struct{ Lo, Hi uint64 }

// Add returns a+b and whether the sum passed 2^128.
func (a U128) Add(b U128) (sum U128, overflow bool) {
	lo, c := bits.Add64(a.Lo, b.Lo, 0)
	hi, c := bits.Add64(a.Hi, b.Hi, c)
	return U128{lo, hi}, c != 0
}

// Big returns a as a big.Int.
func (a U128) Big() *big.Int {
	x := new(big.Int).SetUint64(a.Hi)
	x.Lsh(x, 64)
	return x.Or(x, new(big.Int).SetUint64(a.Lo))
}

// FixedOne is probability 1 in the fixed-point form used for random play:
// integer sums are exact whatever order workers add them in, so results do
// not depend on scheduling. Each division rounds down by less than 2^-63.
const FixedOne = 1 << 63
