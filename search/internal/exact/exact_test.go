package exact

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestDivFloor checks 128-bit division by small numbers against math/big.
func TestDivFloor(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		a := U128{Lo: rng.Uint64(), Hi: rng.Uint64()}
		n := 1 + rng.Uint64N(1023)
		want := new(big.Int).Quo(a.Big(), new(big.Int).SetUint64(n))
		if got := DivFloor(a, n).Big(); got.Cmp(want) != 0 {
			t.Fatalf("%v / %d = %v, want %v", a.Big(), n, got, want)
		}
	}
}

// TestDivisors checks division by reciprocals against DivFloor, for
// every divisor of the table and some past it, on random numerators of
// every size and the edges (0, the divisor's multiples and their
// neighbours, 2^128−1).
func TestDivisors(t *testing.T) {
	const max = 300
	div := NewDivisors(max)
	rng := rand.New(rand.NewPCG(3, 4))
	for n := uint64(1); n <= max+20; n++ {
		as := []U128{{}, {Lo: n}, {Lo: n - 1}, {Lo: n + 1}, {Lo: math.MaxUint64, Hi: math.MaxUint64}, {Hi: n}, {Lo: math.MaxUint64, Hi: n - 1}}
		for range 2000 {
			a := U128{Lo: rng.Uint64(), Hi: rng.Uint64() >> rng.UintN(65)}
			as = append(as, a)
			// The multiple of n at or below a, and the numbers beside it.
			q := DivFloor(a, n)
			hi, lo := bits.Mul64(q.Lo, n)
			m := U128{Lo: lo, Hi: hi + q.Hi*n}
			below, b := bits.Sub64(m.Lo, 1, 0)
			above, c := bits.Add64(m.Lo, 1, 0)
			as = append(as, m, U128{Lo: below, Hi: m.Hi - b}, U128{Lo: above, Hi: m.Hi + c})
		}
		for _, a := range as {
			if got, want := div.DivFloor(a, n), DivFloor(a, n); got != want {
				t.Fatalf("Divisors.DivFloor(%v, %d) = %v, want %v", a.Big(), n, got.Big(), want.Big())
			}
		}
	}
}

// TestProbFloat64 checks correct rounding: exact values round to their
// nearest float64, and an interval that straddles a rounding point is
// reported as undecided.
func TestProbFloat64(t *testing.T) {
	for _, c := range []struct {
		p     U128
		units uint64
		want  float64
		ok    bool
	}{
		{ProbOne, 0, 1, true},
		{DivFloor(ProbOne, 2), 0, 0.5, true},
		{U128{}, 0, 0, true},
		{U128{Lo: 1}, 0, math.Ldexp(1, -118), true},
		// 1/3, short by less than a unit: still rounds to float64(1.0/3).
		{DivFloor(ProbOne, 3), 1, 1.0 / 3, true},
	} {
		got, ok := ProbFloat64(c.p, c.units)
		if got != c.want || ok != c.ok {
			t.Errorf("ProbFloat64(%v, %d) = %v, %v; want %v, %v", c.p.Big(), c.units, got, ok, c.want, c.ok)
		}
	}
	// Just below the midpoint between 1 and the next float64 up: the
	// interval reaches past it.
	mid := new(big.Int).Lsh(big.NewInt(1), 118)
	mid.Add(mid, new(big.Int).Lsh(big.NewInt(1), 118-53))
	below := new(big.Int).Sub(mid, big.NewInt(1))
	p := U128{Lo: below.Uint64(), Hi: new(big.Int).Rsh(below, 64).Uint64()}
	if _, ok := ProbFloat64(p, 2); ok {
		t.Errorf("an interval across a rounding point was taken as decided")
	}
	if got, ok := ProbFloat64(p, 0); !ok || got != 1 {
		t.Errorf("just below the midpoint: %v, %v; want 1, true", got, ok)
	}
}

// BenchmarkDivFloor divides random numerators by the numbers of jumps a
// position has (1 to 16), by DIV instructions and by reciprocals.
func BenchmarkDivFloor(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	as := make([]U128, 1024)
	ns := make([]uint64, len(as))
	for k := range as {
		as[k] = U128{Lo: rng.Uint64(), Hi: rng.Uint64() >> 10}
		ns[k] = 1 + rng.Uint64N(16)
	}
	div := NewDivisors(76)
	for _, method := range []string{"div", "reciprocal"} {
		b.Run("method="+method, func(b *testing.B) {
			var sum U128
			for b.Loop() {
				for k, a := range as {
					var q U128
					if method == "reciprocal" {
						q = div.DivFloor(a, ns[k])
					} else {
						q = DivFloor(a, ns[k])
					}
					sum, _ = sum.Add(q)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(as)), "ns/division")
			if sum.Lo == 1 {
				b.Log(sum)
			}
		})
	}
}
