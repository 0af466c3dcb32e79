package partition

import (
	"slices"
	"testing"
)

func TestExtrapolate(t *testing.T) {
	tests := []struct {
		name                  string
		holes, symmetries, p0 int
		sizes                 []int64
		check                 func(t *testing.T, got []int64)
	}{
		{"ends where the exact sizes do", 15, 1, 14, []int64{1, 2, 8, 0}, func(t *testing.T, got []int64) {
			if want := []int64{1, 2, 8}; !slices.Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		}},
		{"keeps the exact sizes and reaches one peg", 33, 8, 32, []int64{1, 1, 2, 8, 39}, func(t *testing.T, got []int64) {
			if len(got) != 32 || !slices.Equal(got[:5], []int64{1, 1, 2, 8, 39}) {
				t.Errorf("got %v, want 32 layers starting 1 1 2 8 39", got)
			}
		}},
		{"no layer past the board's positions", 10, 1, 9, []int64{1, 1000}, func(t *testing.T, got []int64) {
			// C(10, k) + 1 positions of k pegs at most.
			binom := []int64{1, 10, 45, 120, 210, 252, 210, 120, 45, 10}
			for i, n := range got[2:] {
				pegs := 9 - 2 - i
				if n > binom[pegs]+1 {
					t.Errorf("%d pegs: %d positions, more than the board's %d", pegs, n, binom[pegs])
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, Extrapolate(tt.holes, tt.symmetries, tt.p0, tt.sizes))
		})
	}
}
