package exact

import (
	"math/bits"
)

// A probability is a U128 in fixed point: p stands for p / 2^118. One is
// 2^118, which leaves ten bits above it, so that a sum of up to 1023
// probabilities (a position's children, before the division by their
// number) cannot overflow.
const probBits = 118

// ProbOne is probability 1.
var ProbOne = U128{Hi: 1 << (probBits - 64)}

// DivFloor returns a/n rounded down: a quotient of a probability by a
// number of jumps is short of the true one by less than one unit,
// 2^-118.
func DivFloor(a U128, n uint64) U128 {
	hi, r := bits.Div64(0, a.Hi, n)
	lo, _ := bits.Div64(r, a.Lo, n)
	return U128{Lo: lo, Hi: hi}
}

// ProbFloat64 returns the float64 nearest to a probability known to lie
// in [p, p+units·2^-118], and whether that interval has one nearest
// float64: then the result is the true probability correctly rounded.
func ProbFloat64(p U128, units uint64) (float64, bool) { return Prob(p, units).Float64() }
