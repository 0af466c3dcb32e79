// Package layered is the engine of the exhaustive searches: it grows a
// game's positions layer by layer (one layer a peg count), each layer a
// sorted array of canonical mixed keys, on a pool of workers within a
// memory budget.
//
// # Expanding a layer
//
// An Expander turns a layer into the next: workers expand chunks of
// parents and append each child, with whatever it carries (a path count,
// random-play mass, the starts that reach it), to a per-worker list for its
// bucket (the top bits of its mixed key); then each bucket's children go
// into its table of distinct children, buckets in parallel, folding the
// counts of repeats. A bucket's table is in key order but for the short
// displacements of probing, so collecting it into the sorted layer is an
// insertion sort that finishes in about one pass.
//
// # Purposes
//
// An Expander is built for one purpose (NewExpander), which fixes what its
// layers carry and how they are held; a setup its purpose does not take
// is an error (ErrSetup), not a mode that is silently ignored:
//
//   - Positions: the positions alone, as sorted keys (hint's fewest-pegs
//     table, the endgame tables of the depth-first solver).
//   - Scanned: the positions alone, held as bitsets or keys in the order
//     of their numbers where that is cheaper (see Dense layers), for a
//     caller that only scans the layers or hands them to this package
//     (the reachable-only count, the winnable set, the forward pass before
//     Games, measure's layers).
//   - Paths: with the paths to each position (the forward count where the
//     board is not numbered, the count through the winnable positions,
//     the spilled and Beam passes).
//   - Tagged: packed words with the starts that reach them (Setup.Packing;
//     the search from several starts).
//   - Parents: the positions undoing a jump leads to (the walk back, the
//     Beam walk back's step).
//
// Besides its purpose, only what the caller hears of progress changes
// from layer to layer (SetProgress), and which layer the children are
// kept to when a count runs through known positions (NextWithin, for Paths
// and Parents). Setup.Store (coding the layers a forward pass waits with)
// is for Forward; Reach, the reachable-only pass, lets each layer go once
// expanded and codes one that would not fit as keys. The hooks these use
// (code, spent, seeded) are the package's own.
//
// A Layer's representation is the package's too: keys (with or without
// path counts, sorted or not), code, or bitsets, set only here, so that
// at most one form holds; other packages make layers with NewLayer,
// NewCounted and First and read them with Pegs, Keys, Count, Coded, Size
// and Len.
//
// # Dense layers
//
// A layer of bare keys whose children are numerous against the positions
// of their peg count goes into bitsets instead (expandDense): a
// key.Ranker numbers the positions of one peg count and position class
// densely in two table reads, and each worker sets the bit of each child's
// number in a bitset of its own, a batch of children at a time so that
// their cache misses overlap. The children of a batch of parents are made
// canonical and numbered together (movegen.Parent.MoveRanksBatch, in
// assembly with AVX-512), as they are where Games, Win and MeetingKeys
// look them up, and, not numbered (MoveChildrenBatch), where an
// expansion into tables makes them (expandChunk). The next layer is the set bits read in
// order, made mixed keys, and sorted unless the caller takes them in the
// order of their numbers (Scanned, Layer.Sort). On the English
// board the widest layer's bitset is 9 MB a worker. Where the symmetries
// keep the class of the layer's first position (key.ClassKept), its
// children are all of that class; where they move it, as in a game
// reduced by the whole board's symmetries from a start off the centre, a
// child's canonical form is of any class of the first position's images,
// and each of those classes has its own numbering and bitsets
// (denseChunkClasses finds each child's class). A layer with a child of
// another class goes back to the tables. MeetingKeys looks children up in
// such a bitset of the goal's side likewise, and ParentsOf marks parents
// in one and keeps the layer's positions whose bits are set; those two
// take one class only.
//
// Where the workers' bitsets together pass scatterBytes (the French
// board's off-centre games), a bit set as its child is found misses every
// cache: the children are first scattered, in rounds, into buckets by
// class and top bits (scatter), and each bucket's bits are then set in
// its region of one bitset a class, which stays in a core's cache.
//
// With an Expander of purpose Scanned, for a caller that only expands the
// layers, counts them and meets or walks back through them (the
// reachable-only count, the winnable set), a layer found in bitsets stays
// as them (bitLayer) and is expanded from its bits, run by run of high
// parts: no key is made, sorted or coded, and the layer takes a bit a
// number rather than eight bytes a position. A self-meeting (SelfMeetingKeys)
// reads its positions from those bits and looks their children up in
// them, and the walk back (ParentsOf) ands the parents it marks with
// them. A layer the walk back alone reads again can wait packed
// (Layer.Pack): the bytes of its bitsets that are not zero and a bit for
// each byte saying which, a fifth of the English forward layers' bitsets
// above the middle; the walk back ands with it block by block. Measure
// these with BenchmarkExplore (search=winnable and search=reachable,
// peak-MiB; board=french and the English c1 whole-group case) and
// BenchmarkNextLayer.
//
// # Stored layers
//
// A layer waiting for the walk back can be held coded (Stored): its
// positions packed within the board's bits, sorted, as varint gaps, about
// 2.25 bytes a position instead of 8. A coded layer is expanded as it is
// decoded, a chunk at a time, and seeds tables from its code.
//
// # Walking back
//
// The winnable positions of a reachable layer are its parents of winnable
// positions: WalkBack and ParentsOf undo jumps from the layer below's
// winnable positions into tables closed on the layer's keys. Backward play
// is forward play on complements, so a walk back on a mirrored game (the
// start the complement of the goal) goes only to the middle.
//
// # Counting backward
//
// Games counts the complete games of a forward pass's layers from the
// last layer up: a position's games are its children's summed (one for a
// dead end), so a worker reads only the layer below and writes its own
// parents' sums, and no count is carried forward, tabled or merged. A
// child is found at its place in the layer below, whose counts are held in
// the order its positions are expanded in: for a layer held as bitsets,
// its number's bit's place among the set bits (a count of the bits before
// each word, and the word's own below it: a loop in assembly with BMI2,
// which asks for the count's line as it finds the place), the children of
// a batch of parents placed before any count is read, so that their
// misses overlap; otherwise its key's place by a key.Index. Counts are 32
// bits where the board's jumps times the layer below's largest fit in
// them, or where the layer below is one bitset and its largest times
// their growth from the layer before does (the sums past 32 bits then
// kept aside, and the layer's counts widened if there are any), else 64
// where they leave room, moved down where a layer's all fit after all;
// two layers' are held at a time, each array written whole by the
// workers.
//
// Left out: the batches in a pipeline, as package search/measure's
// ("Batches in a pipeline"; commit 0a463ca, reverted): two batches in
// hand, a batch's bitset words and counts before them asked for
// (prefetchBits) while the batch before is summed, then the batch placed
// and its children's counts asked for (placesIn) while the batch after is
// numbered. Alternated with the base's (e4e85a0) at load 2.2-3.6 on 2
// cores, the JSON the same: BenchmarkGames board=english/workers=2
// (-benchtime 3x) took 0.98-1.43 s against 1.10-1.35 s, ratios
// 0.78-1.13 over 12 pairs (10 below 1), median 0.945; the English full
// analysis,
//
//	/usr/bin/time pegs explore --board english --start d4 --format json
//
// wall ratios 0.80-1.09 (median 0.96) and user time ratios 0.91-1.09
// (median 0.99) over 7 pairs, BenchmarkExplore
// board=english/search=full/workers=2 (-benchtime 1x) 0.77-1.08 (median
// 0.96) over 6: within the noise. Of the perf samples (perf record -F 999
// -g, one run each), the walk back's (sumDenseOut's sums, placesBMI2,
// prefetchBits, batches) were 1097 against 1180, but 0.84 of
// movesRanksBatchAVX512's against 0.73: the misses moved between them
// rather than went.
//
// Win counts, over the winnable positions alone and from one peg up, the
// paths from each to the goal and the random player's chance of reaching
// it; it holds a layer as a bitset of its positions' numbers for each of
// their classes, in their order, to place the children of the layer
// above as Games does (by key where the board is not numbered). Measure
// these with BenchmarkExplore (search=full, search=nogames).
//
// # Spilled layers
//
// Package partition runs the forward pass, the walk back and the chances
// on layers held as partition files, a partition at a time through an
// Expander over a Layer made of the partition (NewCounted, Slice), on
// local disk (--spill) and as a Beam pipeline (search/cluster).
//
// A layer whose children do not fit beside it is expanded in parts, each
// a range of the children's mixed keys (NextPart): every part expands
// the whole layer again, listing only its own children, and sizes its
// tables from the children of the parts before it. NextPartSorted takes
// any range of slices of the keys (cut by their top bits), so that a
// caller needs no more parts than its budget asks, and leaves a part's
// children in the buckets' tables for the caller to write out a bucket
// at a time in key order (Sorted), each table let go once taken, rather
// than collecting them into a layer beside the tables.
//
// A counted layer whose children are numbered as the dense pass numbers
// them (one class, bitsets set directly) folds their paths by number
// (expandFolded): its children's bits are marked, then each parent's
// children are made again, placed among the set bits as Games places
// them, and its count added at that place in an array of each worker's;
// only then does each distinct child go into its bucket's table, with
// its paths, to be sorted by key. The children folded are kept for each
// part of a layer expanded in parts (NextPart), which then costs a scan
// of their bitset rather than an expansion, and after the last part are
// the next layer whole, by number (TakeFolded): a spilled run holds
// them so, and expands them in the order of their numbers.
//
// # Meeting in the middle
//
// Meet searches from the start and from the goal (forward play from the
// complements of the goal's positions) until the two sides meet; where
// they are one jump apart, the smaller side's children are looked up in a
// set of the other (MeetingKeys) rather than found.
package layered

// Progress hears how far a layered search has come: its phase ("forward",
// "from the goal", "backward", "join", "count" or "fewest"), the peg count
// of the layer being expanded (for "from the goal", of the positions its
// complements stand for), and how many of that layer's positions are done
// of how many.
type Progress func(phase string, pegs, done, total int)

// Config is what a layered search runs with besides its memory budget.
type Config struct {
	Workers  int      // the pool's size; zero means GOMAXPROCS
	Progress Progress // nil for none
}

// report calls p if it is set.
func (p Progress) report(phase string, pegs, done, total int) {
	if p != nil {
		p(phase, pegs, done, total)
	}
}
