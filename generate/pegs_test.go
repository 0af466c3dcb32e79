package generate

import "testing"

func TestDefaultPegs(t *testing.T) {
	tests := []struct {
		name           string
		holes          int
		wantLo, wantHi int
	}{
		{"english keeps 6-20", 33, 6, 20},
		{"triangle:6, 20 pegs fit", 21, 6, 20},
		{"triangle", 15, 5, 13},
		{"triangle:4", 10, 3, 8},
		{"smallest board with a jump", 3, 2, 2},
		{"four holes", 4, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := DefaultPegs(tt.holes)
			if lo != tt.wantLo || hi != tt.wantHi {
				t.Errorf("DefaultPegs(%d) = %d-%d, want %d-%d", tt.holes, lo, hi, tt.wantLo, tt.wantHi)
			}
			if lo < 2 || hi < lo || hi >= tt.holes {
				t.Errorf("DefaultPegs(%d) = %d-%d does not fit the board", tt.holes, lo, hi)
			}
		})
	}
}
