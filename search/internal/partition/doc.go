// Package partition is the exhaustive search on layers held as partition
// files rather than in memory: one pipeline, driven on local disk by
// Spilled (pegs explore --spill) and as an Apache Beam pipeline by
// search/cluster, each step on one partition at a time, so that memory
// bounds one partition's work.
//
// # Partitions and the store
//
// A layer, the positions of one peg count, is split into a power of two
// of partitions by the top bits of their mixed keys (spill.PartitionOf),
// so its partitions in order are its sorted keys. Every file is in
// package spill's format and named by its header: a layer's partition
// (with path counts), a run of children from one partition (or chunk) of
// the layer above for a group of partitions of the layer below, a
// partition's winnable positions, and their chances. A Store writes a file
// whole or not at all, opens one and removes one: Local over a spill
// directory, and search/cluster's over Beam's filesystems.
//
// # The steps
//
// Steps holds the steps on one partition, over a store, with an expander
// of purpose layered.Paths:
//
//   - Expand: a partition's children, found by the expander as in memory,
//     sorted and split by the group of the layer below that owns them into
//     runs, one a group; a partition too large for the budget is expanded
//     in chunks, cut in two until each fits, each chunk's runs apart.
//   - Merge: a group's runs merged, a k-way merge that folds the counts of
//     the positions reached from several partitions, into the group's
//     partitions; where the budget does not read them all at once, in
//     passes through intermediate runs.
//   - Walk: a partition's winnable positions, those with a child among the
//     winnable positions of the layer below (WinSet; at one peg, those
//     that meet the goal), its positions expanded and their children
//     looked up; where the set of the layer below does not fit, in passes
//     over ranges of its partitions, a bit a position marking those found.
//     The local run's walk back.
//   - Parents and Winnable: the same walk back by undoing jumps, which
//     costs an expansion of the winnable positions alone for a shuffle:
//     a partition's winnable positions undone into runs of parents, one a
//     partition of the layer above, and a partition's runs merged and
//     kept where they meet its reachable positions. A Beam run's walk
//     back, whose steps hold a partition at a time (with Walk, which
//     expands every reachable position, the 28-hole triangle's run took
//     a third more CPU: 26 s against 19 s).
//   - Chance: the random player's chance from each winnable position of a
//     partition, from the chances of the layer below (ChanceSet; see
//     layered.Chances), in passes as the walk.
//
// Add sums the stats of partitions, and of a partition's chunks: what a
// layer's expansion learns (positions, raw positions, dead ends, complete
// games).
//
// # Local runs
//
// Spilled drives the steps on a spill directory: a layer at a time, its
// partitions expanded in turn (each with the expander's whole worker
// pool), then its groups merged in parallel as far as the budget holds
// their readers; the walk back and the chances from one peg up.
//
// A layer that fits the budget beside its expansion skips the runs: it
// is held in memory whole and expanded as in memory, its children written
// at once as the next layer's partitions, each file written once and
// read back once. The children found in one part are held in turn, so
// that the next layer reads no file. Where they do not fit beside it,
// the layer is expanded again for each part of them, a range of the
// next layer's partitions, in as few parts as fit, not a power of two
// (Spilled.parts): each part's children are written from the
// expansion's tables, a bucket at a time in key order, each table let go
// once written (layered.Expander.NextPartSorted), never collected into a
// layer beside them, so that a part holds about 27 bytes a child (32
// reckoned) rather than 43 (48); each part lists only its own children,
// and sizes its tables from those of the parts before it. Where the
// expander kept the children of all parts whole, by number
// (layered.Expander.TakeFolded), those are held for the next layer. The
// English game from c1 under the whole board's symmetries (four classes
// of positions, so no fold), `pegs explore --board english --start c1
// --goal any --whole-group --spill DIR --mem 512MiB`, so took 32 parts
// where it took 63 (one of them past the budget), 169 s of CPU against
// 279 (one run each, the machine loaded); French d3 with complete games,
// `pegs explore --board french --start d3 --goal any --whole-group
// --spill DIR --mem 6GiB --no-disk-estimate`, took 17 min 45 s and
// 5.93 GiB of RSS against 25 min 34 s and 5.94 GiB (its layers of 18 and
// 17 pegs in three parts, not a quarter past the budget and then eight;
// one run each, quiet machine). Runs and the merge are for
// layers too large for that: the English analysis within 256 MiB holds every layer (in one part, its
// parents let go before its children are collected) and writes 307 MiB,
// where with runs it wrote 1,716 MiB (BenchmarkExplore's store=disk case,
// both within 256 MiB). The walk back likewise, where a
// layer's keys and the winnable positions below fit, undoes the jumps into
// those (layered.ParentsOf) rather than expanding the layer (Walk). The
// directory's manifest records each partition done, so that a killed run
// resumes from its last complete partition. A layer's files written at
// once are synced together, and the manifest that counts them saved, on
// a goroutine of the directory's while the next layer is expanded
// (spill.Dir.SaveLater), so that the disk's waits overlap the work;
// once the walk back is done, a run that clears its directory at its end
// removes the layers' files while it finds the chances (DropLayers). A
// layer's partition count is fixed from an estimate of its size, and
// before a run CheckRunDisk checks that its files fit the disk
// (Extrapolate, SampleLayers).
package partition
