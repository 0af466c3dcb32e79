// Package exact holds the exact counts of the layered searches: unsigned
// 128-bit integers, for path counts that pass 2^64 on the English board,
// and probabilities in 128-bit fixed point whose float64 is proven
// correctly rounded.
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

// Less reports whether a < b.
func (a U128) Less(b U128) bool {
	return a.Hi < b.Hi || a.Hi == b.Hi && a.Lo < b.Lo
}
