package search

import (
	"testing"

	"pegs/engine"
	"pegs/search/internal/layered"
)

// Test knobs: thresholds that tests move to reach, on small boards, the
// paths that large boards take.

// storingEvery returns b with every layer of a forward pass stored coded
// as soon as it is expanded.
func storingEvery(b Budget) Budget {
	b.knobs.layered.StoreShare = 1 << 40
	return b
}

// wide returns b with every path count carried in 128-bit records.
func wide(b Budget) Budget {
	b.knobs.layered.NarrowBelow = 1
	return b
}

// withLoneBase returns b with depth first's budget before a layered search
// (see dfs.LoneNodes) base for 20 pegs or fewer.
func withLoneBase(b Budget, base int64) Budget {
	b.knobs.loneBase = base
	return b
}

// storeEveryTuning is the layered search's tuning that storingEvery sets.
var storeEveryTuning = layered.Tuning{StoreShare: 1 << 40}

// spilledIn returns o spilling into dir with partitions of at most
// positions positions, so that small boards split their layers too, and
// its files unsynced: the tests spill thousands of small files, and a
// killed process leaves them in the page cache.
func spilledIn(o ExploreOptions, dir string, positions int) ExploreOptions {
	o.Spill.Dir = dir
	o.knobs.spillPartition = positions
	o.knobs.spillNoSync = true
	return o
}

// oddBoard returns an 18-hole board that no symmetry maps to itself.
func oddBoard(t testing.TB) *engine.Board {
	t.Helper()
	b, err := engine.Parse("odd", "ooo\nooooo\nooooo\n ooo\n  oo", engine.Square)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
