package exact

import (
	"math"
	"math/big"
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
