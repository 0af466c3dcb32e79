package partition

import (
	"context"
	"errors"
	"testing"
	"time"

	"pegs/engine"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/spill"
)

// TestEstimateStopsOnceItFits checks that the disk estimate before a run
// samples the whole forward pass of the 15-hole triangle where it has the
// time and nothing stops it, and only its first three expansions where
// the estimate from them fits (as CheckRunDisk's does once it is half the
// free space or less), and that a check with room to spare lets the run
// start.
func TestEstimateStopsOnceItFits(t *testing.T) {
	ctx := context.Background()
	b, err := engine.Lookup("triangle")
	if err != nil {
		t.Fatal(err)
	}
	gen := movegen.New(b, b.Symmetry())
	d, err := spill.Start(t.TempDir(), map[string]string{"test": t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	e, err := layered.NewExpander(layered.Paths, layered.Setup{Gen: gen, Mem: memory.New(1 << 30), Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	first := layered.First(gen.Group, b.Start(), true)
	tests := []struct {
		name     string
		fits     func(int64) bool
		exact    int
		complete bool
	}{
		{"no early stop", nil, first.Pegs(), true},
		{"fits from the first estimate", func(int64) bool { return true }, 4, false},
		{"never fits", func(int64) bool { return false }, first.Pegs(), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSpilled(d, e, Knobs{})
			est, err := s.estimateDisk(ctx, first, time.Hour, tt.fits)
			if err != nil {
				t.Fatal(err)
			}
			if est.Exact != tt.exact || est.Complete != tt.complete {
				t.Errorf("sampled %d layers (complete %v), want %d (%v)", est.Exact, est.Complete, tt.exact, tt.complete)
			}
		})
	}
	// Free space below the bound that needs no sample (842 KB on this
	// board) but twice the estimate (244 KB) or more lets the run start,
	// as an estimate from its first expansions says; too little refuses
	// it, by a bound.
	for _, free := range []int64{600 << 10, 100 << 10} {
		err := NewSpilled(d, e, Knobs{Free: free}).CheckRunDisk(ctx, first, time.Hour)
		var nospace *spill.NoSpaceError
		if refused := errors.As(err, &nospace); refused != (free < 200<<10) || refused && !nospace.Bound {
			t.Errorf("CheckRunDisk with %d KiB free: %v", free>>10, err)
		}
	}
}
