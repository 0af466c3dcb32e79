package search

import "pegs/search/internal/layered"

// Test knobs: thresholds that tests move to reach, on small boards, the
// paths that large boards take.

// storingEvery returns o with every layer of a forward pass stored coded
// as soon as it is expanded.
func storingEvery(o Options) Options {
	o.knobs.layered.StoreShare = 1 << 40
	return o
}

// wide returns o with every path count carried in 128-bit records.
func wide(o Options) Options {
	o.knobs.layered.NarrowBelow = 1
	return o
}

// withLoneBase returns o with depth first's budget before a layered search
// (see dfs.LoneNodes) base for 20 pegs or fewer.
func withLoneBase(o Options, base int64) Options {
	o.knobs.loneBase = base
	return o
}

// storeEveryTuning is the layered search's tuning that storingEvery sets.
var storeEveryTuning = layered.Tuning{StoreShare: 1 << 40}

// spilledIn returns o spilling into dir with partitions of at most
// positions positions, so that small boards split their layers too, and
// its files unsynced: the tests spill thousands of small files, and a
// killed process leaves them in the page cache.
func spilledIn(o Options, dir string, positions int) Options {
	o.Spill.Dir = dir
	o.knobs.spillPartition = positions
	o.knobs.spillNoSync = true
	return o
}
