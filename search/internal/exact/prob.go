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

// Divisors divides by the numbers 1 to len−1 by multiplying with their
// reciprocals (see NewDivisors): its DivFloor equals the package's, which
// takes two DIV instructions, each of a latency several times a
// multiplication's.
type Divisors []divisor

// divisor is a number d shifted left until its top bit is set (norm), by
// shift, and its reciprocal ⌊(2^128−1)/norm⌋ − 2^64, as in Möller and
// Granlund, "Improved division by invariant integers" (IEEE Transactions
// on Computers, 2011), algorithm 4.
type divisor struct {
	norm, inv uint64
	shift     uint
}

// NewDivisors returns the Divisors of the numbers 1 to max.
func NewDivisors(max int) Divisors {
	t := make(Divisors, max+1)
	for n := 1; n <= max; n++ {
		s := uint(bits.LeadingZeros64(uint64(n)))
		d := uint64(n) << s
		inv, _ := bits.Div64(^d, ^uint64(0), d)
		t[n] = divisor{norm: d, inv: inv, shift: s}
	}
	return t
}

// DivFloor returns a/n rounded down, as the package's DivFloor does, for
// any n greater than 0.
func (t Divisors) DivFloor(a U128, n uint64) U128 {
	if n >= uint64(len(t)) {
		return DivFloor(a, n)
	}
	d := &t[n]
	// a shifted by d.shift, in three words: the first below d.norm.
	u2 := a.Hi >> (64 - d.shift)
	u1 := a.Hi<<d.shift | a.Lo>>(64-d.shift)
	u0 := a.Lo << d.shift
	hi, r := d.div(u2, u1)
	lo, _ := d.div(r, u0)
	return U128{Lo: lo, Hi: hi}
}

// div returns the quotient and remainder of u1·2^64 + u0 by d.norm, u1
// being below it.
func (d *divisor) div(u1, u0 uint64) (q, r uint64) {
	qh, ql := bits.Mul64(d.inv, u1)
	ql, c := bits.Add64(ql, u0, 0)
	qh, _ = bits.Add64(qh, u1+1, c)
	r = u0 - qh*d.norm
	// The first correction, taken about half the time, without a branch.
	var over uint64
	if r > ql {
		over = 1
	}
	qh -= over
	r += d.norm & -over
	if r >= d.norm {
		qh++
		r -= d.norm
	}
	return qh, r
}
