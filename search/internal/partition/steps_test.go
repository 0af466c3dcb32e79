package partition

import (
	"context"
	"slices"
	"testing"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/spill"
)

// TestStepsGiveBack runs the steps over the 15-hole triangle's layers in
// one partition each, as a caller that knows each file's records does
// (the local run) and as one that does not (a Beam step), and checks that
// every step gives back all it took of its budget, that both callers write
// the same winnable and chance files, that the walk back by undoing jumps
// (Parents, Winnable) finds the same winnable positions as Walk, and that
// the start's chance is what layered.Chances finds over the same winnable
// positions.
func TestStepsGiveBack(t *testing.T) {
	ctx := context.Background()
	b, err := engine.Lookup("triangle")
	if err != nil {
		t.Fatal(err)
	}
	goal := engine.Goal{Kind: engine.OnePeg}
	gen := movegen.New(b, b.Symmetry())
	d, err := spill.Start(t.TempDir(), map[string]string{"test": t.Name()})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.NoSync = true
	mem := memory.New(1 << 30)
	e, err := layered.NewExpander(layered.Paths, layered.Setup{Gen: gen, Mem: mem, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	s := NewSteps(Local{Dir: d}, e, Knobs{})
	given := func(step string, pegs int) {
		t.Helper()
		// The workers' lists the expander keeps for its next expansion
		// stay charged, as spare memory (see layered.Expander.KeptLists).
		if used := mem.Used() - mem.Spared(); used != 0 {
			t.Fatalf("%s at %d pegs: %d bytes not given back", step, pegs, used)
		}
	}
	first := layered.First(gen.Group, b.Start(), true)
	p0 := first.Pegs()
	if _, err := s.write(ctx, first, Header(spill.LayerFile, p0, 0, 1, 0)); err != nil {
		t.Fatal(err)
	}
	records := map[int]int64{p0: 1}
	for pegs := p0; pegs > 1; pegs-- {
		keys, counts, err := Read(ctx, s.st, Header(spill.LayerFile, pegs, 0, 1, 0))
		if err != nil {
			t.Fatal(err)
		}
		_, chunks, err := s.Expand(ctx, layered.NewCounted(pegs, keys, counts), 0, 1, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		given("Expand", pegs)
		var sources []int
		for c := range chunks {
			sources = append(sources, RunSource(0, c, 1))
		}
		n, _, err := s.Merge(ctx, pegs-1, 0, 1, 1, sources, 2)
		if err != nil {
			t.Fatal(err)
		}
		given("Merge", pegs-1)
		records[pegs-1] = n[0]
	}
	// Walk back and chances as the local run (records known) and as a
	// Beam step (-1), the second over the first's files.
	var files [2]map[string][]uint64
	var chance [2]exact.U128
	for i, known := range []bool{true, false} {
		files[i] = map[string][]uint64{}
		winnable := map[int]int64{}
		for pegs := 1; pegs <= p0; pegs++ {
			r := [2]int{0, 1}
			if pegs == 1 {
				r = [2]int{0, 0}
			}
			var sizes []int64
			if known && pegs > 1 {
				sizes = []int64{winnable[pegs-1]}
			}
			set, held, err := s.WinSet(ctx, pegs-1, 1, r, sizes)
			if err != nil {
				t.Fatal(err)
			}
			n := int64(-1)
			if known {
				n = records[pegs]
			}
			w, err := s.Walk(ctx, goal, pegs, 0, 1, n, set, nil, true)
			if err != nil {
				t.Fatal(err)
			}
			mem.Give(held)
			given("Walk", pegs)
			winnable[pegs] = w
			keys, _, err := Read(ctx, s.st, Header(spill.WinnableFile, pegs, 0, 1, 0))
			if err != nil {
				t.Fatal(err)
			}
			files[i][fmtKey("win", pegs)] = keys
		}
		for pegs := 1; pegs <= p0; pegs++ {
			r := [2]int{0, 1}
			if pegs == 1 {
				r = [2]int{0, 0}
			}
			var sizes []int64
			if known && pegs > 1 {
				sizes = []int64{winnable[pegs-1]}
			}
			prev, vals, held, err := s.ChanceSet(ctx, pegs-1, 1, r, sizes)
			if err != nil {
				t.Fatal(err)
			}
			var index *key.Index
			if pegs > 1 {
				index = key.NewIndex(prev)
			}
			n := int64(-1)
			if known {
				n = winnable[pegs]
			}
			if err := s.Chance(ctx, pegs, 0, 1, n, index, vals, true, true); err != nil {
				t.Fatal(err)
			}
			mem.Give(held)
			given("Chance", pegs)
			if winnable[pegs] == 0 {
				continue // no file where the caller knows it would be empty
			}
			keys, vals, err := Read(ctx, s.st, Header(spill.ChanceFile, pegs, 0, 1, 0))
			if err != nil {
				t.Fatal(err)
			}
			files[i][fmtKey("chance", pegs)] = keys
			if pegs == p0 {
				chance[i] = vals[0]
			}
			if pegs > 1 {
				want := layered.Chances(ctx, gen, keys, prev, vals0(t, s, pegs-1), 1)
				if !slices.Equal(vals, want) {
					t.Errorf("%d pegs: chances differ from layered.Chances over the same positions", pegs)
				}
			}
		}
	}
	// The walk back by undoing jumps (a Beam run's) finds the same.
	for pegs := 2; pegs <= p0; pegs++ {
		win, _, err := Read(ctx, s.st, Header(spill.WinnableFile, pegs-1, 0, 1, 0))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Parents(ctx, win, pegs-1, 0, 1); err != nil {
			t.Fatal(err)
		}
		given("Parents", pegs-1)
		n, err := s.Winnable(ctx, pegs, 0, 1, []int{0})
		if err != nil {
			t.Fatal(err)
		}
		given("Winnable", pegs)
		keys, _, err := Read(ctx, s.st, Header(spill.WinnableFile, pegs, 0, 1, 0))
		if err != nil {
			t.Fatal(err)
		}
		if want := files[0][fmtKey("win", pegs)]; n != int64(len(keys)) || !slices.Equal(keys, want) {
			t.Errorf("%d pegs: %d winnable positions undoing jumps (%d said), %d walking", pegs, len(keys), n, len(want))
		}
	}
	if len(files[0]) != 2*p0 {
		t.Errorf("%d files, want %d (every layer winnable from the start)", len(files[0]), 2*p0)
	}
	for name, keys := range files[0] {
		if !slices.Equal(files[1][name], keys) {
			t.Errorf("%s: %d positions with the records unknown, %d known", name, len(files[1][name]), len(keys))
		}
	}
	if chance[0] != chance[1] || chance[0] == (exact.U128{}) {
		t.Errorf("the start's chance %v with the records known, %v unknown: want them equal and not zero", chance[0], chance[1])
	}
}

func fmtKey(kind string, pegs int) string { return kind + string(rune('a'+pegs)) }

// vals0 reads the chances of layer pegs.
func vals0(t *testing.T, s *Steps, pegs int) []exact.U128 {
	t.Helper()
	_, vals, err := Read(context.Background(), s.st, Header(spill.ChanceFile, pegs, 0, 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	return vals
}
