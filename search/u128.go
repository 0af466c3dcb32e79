package search

import (
	"math/big"
	"math/bits"
)

// u128 is an unsigned 128-bit count: path counts on the English board pass
// 2^64.
type u128 struct{ lo, hi uint64 }

func (a u128) add(b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return u128{lo, hi}
}

// big returns a as a big.Int.
func (a u128) big() *big.Int {
	x := new(big.Int).SetUint64(a.hi)
	x.Lsh(x, 64)
	return x.Or(x, new(big.Int).SetUint64(a.lo))
}
