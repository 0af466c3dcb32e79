package cluster

import (
	"context"
	"testing"

	"pegs/search"
)

func TestPlan(t *testing.T) {
	prob := problem(t, "triangle:6", "")
	ctx := context.Background()
	a, err := search.Explore(ctx, prob, search.ExploreOptions{ReachableOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	const workerMem = 64 << 10
	tests := []struct {
		name   string
		sample int
		exact  int // layers found exactly
	}{
		{"all layers run", 30, len(a.Layers)},
		{"three layers run", 3, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl, err := NewPlan(ctx, prob, Options{}, workerMem, tt.sample)
			if err != nil {
				t.Fatal(err)
			}
			exact := 0
			for i, l := range pl.Layers {
				if !l.Exact {
					continue
				}
				exact++
				if got, want := l.Positions, a.Layers[i].Reachable; l.Pegs != a.Layers[i].Pegs || got != want {
					t.Errorf("layer %d pegs: %d positions, want %d", l.Pegs, got, want)
				}
			}
			if exact != tt.exact {
				t.Errorf("%d layers exact, want %d", exact, tt.exact)
			}
			if got, want := pl.Layers[len(pl.Layers)-1].Pegs, 1; tt.sample < len(a.Layers) && got != want {
				t.Errorf("the plan ends at %d pegs, want %d", got, want)
			}
			// A worker must hold a partition's share of the widest step.
			var widest int64
			for _, l := range pl.Layers {
				widest = max(widest, l.Step)
			}
			if float64(widest)/float64(pl.Parts) > workerMem*stepShare {
				t.Errorf("%d partitions leave %d bytes a step, past half of %d", pl.Parts, widest/int64(pl.Parts), workerMem)
			}
			if pl.Workers < 1 || pl.Parts < 2 {
				t.Errorf("workers %d, partitions %d: want more than one worker's memory on a 64 KiB worker", pl.Workers, pl.Parts)
			}
		})
	}
}
