package exact

import "math/big"

// Fixed is a nonnegative real computed in fixed point by sums and
// divisions that round down: the true value lies in [V, V+Err]·2^-Bits.
// Its float64 is proven correctly rounded when both ends of that interval
// round to the same float64.
type Fixed struct {
	V    U128
	Err  uint64 // units of 2^-Bits the computation may have lost
	Bits uint
}

// Prob returns the probability p (see ProbOne) short of the true one by at
// most units of 2^-118.
func Prob(p U128, units uint64) Fixed { return Fixed{V: p, Err: units, Bits: probBits} }

// boundPrec is the precision of the bounds: enough for any U128 and a
// quotient of two, far past float64's 53 bits.
const boundPrec = 320

// bounds returns the interval's ends, exactly.
func (x Fixed) bounds() (lo, hi *big.Float) {
	up, of := x.V.Add(U128{Lo: x.Err})
	lo = new(big.Float).SetPrec(boundPrec).SetInt(x.V.Big())
	hi = new(big.Float).SetPrec(boundPrec).SetInt(up.Big())
	if of {
		hi.Add(hi, new(big.Float).SetInt(new(big.Int).Lsh(big.NewInt(1), 128)))
	}
	e := -int(x.Bits)
	return lo.SetMantExp(lo, e), hi.SetMantExp(hi, e)
}

// Float64 returns the float64 nearest to x's true value, and whether x's
// interval proves it so (it fails only when a float64 rounding boundary
// lies within the interval).
func (x Fixed) Float64() (float64, bool) {
	lo, hi := x.bounds()
	f, _ := lo.Float64()
	g, _ := hi.Float64()
	return f, f == g
}

// QuoFloat64 returns the float64 nearest to the quotient of the true
// values of x and y, and whether their intervals prove it so. y's interval
// must not hold 0.
func QuoFloat64(x, y Fixed) (float64, bool) {
	xlo, xhi := x.bounds()
	ylo, yhi := y.bounds()
	if ylo.Sign() == 0 {
		return 0, false
	}
	// The quotient's interval, each end rounded outward.
	lo := new(big.Float).SetPrec(boundPrec).SetMode(big.ToNegativeInf).Quo(xlo, yhi)
	hi := new(big.Float).SetPrec(boundPrec).SetMode(big.ToPositiveInf).Quo(xhi, ylo)
	f, _ := lo.Float64()
	g, _ := hi.Float64()
	return f, f == g
}
