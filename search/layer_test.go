package search

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSortKeys checks the radix sort of mixed keys against slices.Sort, at
// sizes that take the small path, one radix pass and several, with repeats.
func TestSortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 100, 5000, 1 << 16, 1 << 20, 3 << 20} {
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = rng.Uint64()
			if i > 0 && i%7 == 0 {
				keys[i] = keys[i-1]
			}
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		sortKeys(keys, 2)
		if !slices.Equal(keys, want) {
			t.Errorf("sortKeys of %d keys: not sorted like slices.Sort", n)
		}
	}
}

// TestAggregate checks that records come out sorted, that records with equal
// keys fold their counts and that bare keys are deduplicated.
func TestAggregate(t *testing.T) {
	recs := []record{{key: 5, m: u128{lo: 1}, q: 1}, {key: 1, m: u128{lo: 2}, q: 3}, {key: 1, m: u128{lo: ^uint64(0)}, q: 4}}
	got, overflow := aggregate(recs)
	want := []record{{key: 1, m: u128{lo: 1, hi: 1}, q: 7}, {key: 5, m: u128{lo: 1}, q: 1}}
	if overflow || !slices.Equal(got, want) {
		t.Errorf("aggregate(records) = %v, %v; want %v, false", got, overflow, want)
	}
	nars, _ := aggregate([]narrow{{1, 2, 3}, {2, 1, 1}, {1, 5, 4}})
	if want := []narrow{{1, 7, 7}, {2, 1, 1}}; !slices.Equal(nars, want) {
		t.Errorf("aggregate(narrow) = %v, want %v", nars, want)
	}
	keys, _ := aggregate([]uint64{3, 1, 1, 2, 3, 3})
	if want := []uint64{1, 2, 3}; !slices.Equal(keys, want) {
		t.Errorf("aggregate(keys) = %v, want %v", keys, want)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	many := make([]uint64, 5000)
	for i := range many {
		many[i] = rng.Uint64N(1000)
	}
	sorted := slices.Compact(slices.Sorted(slices.Values(many)))
	if got, _ := aggregate(slices.Clone(many)); !slices.Equal(got, sorted) {
		t.Errorf("aggregate of 5000 random keys: not slices.Sort then Compact")
	}
}

// TestWideRecords checks that a search carrying counts in 128-bit records
// finds exactly what the narrow 64-bit records find.
func TestWideRecords(t *testing.T) {
	prob := cornerAny(t)
	narrowed, err := Explore(context.Background(), prob, ExploreOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer func(n uint64) { narrowBelow = n }(narrowBelow)
	narrowBelow = 0
	wide, err := Explore(context.Background(), prob, ExploreOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if narrowed.Solutions.Cmp(wide.Solutions) != 0 || narrowed.Games.Cmp(wide.Games) != 0 || narrowed.RandomWin != wide.RandomWin || narrowed.Reachable != wide.Reachable {
		t.Errorf("wide records: %v solutions, %v games, %v random win, %d reachable; narrow: %v, %v, %v, %d",
			wide.Solutions, wide.Games, wide.RandomWin, wide.Reachable, narrowed.Solutions, narrowed.Games, narrowed.RandomWin, narrowed.Reachable)
	}
}

// TestWinnableBudget checks that the walk back from the goal charges what it
// holds to the budget: one byte under a search's peak, the search stops
// there with ErrMemory instead of running on past its budget.
func TestWinnableBudget(t *testing.T) {
	prob := cornerAny(t)
	ws, err := Winnable(context.Background(), prob, ExploreOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Winnable(context.Background(), prob, ExploreOptions{Workers: 2, Memory: ws.PeakBytes - 1})
	if !errors.Is(err, ErrMemory) || !strings.Contains(err.Error(), "winnable positions") {
		t.Errorf("budget one byte under the peak of %d: err = %v, want ErrMemory in the walk back", ws.PeakBytes, err)
	}
}

// cornerAny is the 21-hole triangle with its top corner vacated, to end with
// one peg anywhere: a whole state space searched in a fraction of a second.
func cornerAny(t *testing.T) Problem {
	b := lookup(t, "triangle:6")
	start, err := b.Vacate("1")
	if err != nil {
		t.Fatal(err)
	}
	return Problem{b, start, goal(t, b, "any")}
}

// TestMergeRuns checks that merging sorted, folded runs gives what folding
// all their records at once gives, for every kind of record.
func TestMergeRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, nruns := range []int{1, 2, 3, 7} {
		var runs [][]narrow
		var all []narrow
		for range nruns {
			var run []narrow
			for range rng.IntN(300) {
				r := narrow{key: rng.Uint64N(500), m: rng.Uint64N(1 << 40), q: rng.Uint64N(1 << 40)}
				run = append(run, r)
				all = append(all, r)
			}
			run, _ = aggregate(run)
			runs = append(runs, run)
		}
		want, _ := aggregate(all)
		got, _ := mergeRuns(runs)
		if !slices.Equal(got, want) {
			t.Errorf("%d narrow runs: merged %d records, want %d as one fold", nruns, len(got), len(want))
		}
		var keyRuns [][]uint64
		var recRuns [][]record
		for _, run := range runs {
			var ks []uint64
			var rs []record
			for _, r := range run {
				ks = append(ks, r.key)
				rs = append(rs, record{key: r.key, m: u128{lo: r.m}, q: r.q})
			}
			keyRuns, recRuns = append(keyRuns, ks), append(recRuns, rs)
		}
		gotKeys, _ := mergeRuns(keyRuns)
		gotRecs, _ := mergeRuns(recRuns)
		if len(gotKeys) != len(want) || len(gotRecs) != len(want) {
			t.Fatalf("%d runs: %d keys and %d records merged, want %d", nruns, len(gotKeys), len(gotRecs), len(want))
		}
		for i, w := range want {
			if gotKeys[i] != w.key || gotRecs[i] != (record{key: w.key, m: u128{lo: w.m}, q: w.q}) {
				t.Fatalf("%d runs: merged keys or records differ from the narrow fold at %d", nruns, i)
			}
		}
	}
}
