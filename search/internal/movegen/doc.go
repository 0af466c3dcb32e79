// Package movegen finds the legal jumps of a position with a few word
// operations, and the canonical forms of a position's children from its
// parent's symmetric images.
//
// A child's images are its parent's XOR the jump's, and its canonical form
// the least of them. Where a group has eight symmetries or fewer and the
// processor AVX-512, Parent.Ranks and Parent.Children do that for all the
// children of a parent in assembly (ranks_amd64.s), the eight images in two
// 256-bit registers, and Ranks numbers each child as key.Dense.Rank does.
// Parent.MoveRanks finds the legal jumps too: the position put in lattice
// order by one PDEP, each shift group's legal jumps written out by one
// VPCOMPRESSB under its legal from holes, with no branch on which are legal
// (the loops of AppendMoves end at a different jump each time).
// Parent.MoveRanksBatch does that for up to MaxBatch parents in one call:
// their images, then their jumps, then all their children (see Children
// of a batch), whose end is the one mispredicted branch of the batch (a
// parent at a time, each parent's loop ended in one, and the next parent's
// jumps waited on it); MoveChildrenBatch, the same children not numbered,
// for an expansion into tables of keys. Elsewhere the same is done in Go;
// TestRanksAgree, TestMoveRanksAgree and TestMoveRanksBatch check that the
// two agree, the last also that the batch writes nothing past its
// children.
//
// # Children of a batch
//
// MoveRanksBatch makes its children eight at a time: each child's eight
// images (its parent's, one 512-bit load, XOR its jump's) in one of eight
// registers, and the least of each found by halving the eight registers
// into one: one lane shuffle, one blend and one minimum a pair of
// registers (each pair's halves' least, four words a child), two
// shuffles and a minimum a pair of those (two words a child), then the
// two words of each 128-bit lane interleaved (VPUNPCKLQDQ, VPUNPCKHQDQ)
// and their minimum, the children loaded so that it leaves them in order.
// That is 21 vector instructions for eight children where the reduction
// a child at a time took six a child (two of them shuffles). The eight
// are then numbered by two gathers, cum by the high part and lowRank by
// the low part (see key.Dense), and stored under a mask, which the last
// eight of a batch need.
//
// BenchmarkRanks code=avx512-batch (18 pegs of the English board numbered
// among those of 17), the base binary and this one alternated on a
// machine loaded four to eight times over its two cores:
//
//	go test ./search/internal/movegen -run XXX -bench Ranks/code=avx512-batch
//
// 6 pairs at 2 s each: 4.68/4.23, 5.43/4.47, 5.72/4.59, 4.94/3.38,
// 5.85/4.31, 3.88/4.64 ns a child (ratios 0.68 to 1.20, median 0.81); 6
// runs each at 0.5 s and one worker, sorted: 4.04 4.47 4.96 5.05 5.29 7.49
// against 3.53 3.56 3.73 4.24 4.40 5.14. In the English centre game's
// analysis (pegs explore --board english --start d4, perf record -F 999,
// 4 runs each alternated) the function's samples over those of two
// functions it leaves alone (layered's placesBMI2 and sumDenseOut's
// closure) went from 1.72 2.20 1.85 1.95 to 1.84 1.52 1.61 1.66, and in
// the Full level's grade (pegs grade --board english --position
// oooooooooooooooo.oooooooooooooooo, 3 runs each alternated) from
// 2269 1530 1634 samples (17.2, 16.7, 15.0 % of the process's) to 1379
// 1380 1399 (16.2, 14.5, 14.7 %): about 15 % less of a function that is
// a sixth of the grade.
//
// # The tables of a number
//
// On the English board a numbering's cum is 2^16 words of 32 bits and
// lowRank 2^17 of 16 bits, 256 KiB each: together in a core's second
// cache (2 MiB here), not in its first (48 KiB). The widest layer's
// numbers run to 72.9 million (16 or 17 pegs, one class), a bitset of
// 8.7 MiB that the children's bits are set in at random, which evicts
// them in part. Children of random positions of 14 to 22 pegs touch 1,300
// to 1,800 of cum's 4,096 lines, nine in ten of their lookups in 29 to 57
// KiB of them (the canonical form, the least image, has a small high
// part), and all of lowRank's lines, nine in ten of their lookups in 101
// to 191 KiB. Under perf the two gathers take about a third of
// MoveRanksBatch's samples, in the benchmark (the tables in the second
// cache, nothing else there) as in the analysis, so their cost is the
// gathers' latency more than misses. Tried and left out, with the
// figures above's commands: lowRank split in two tables of 16 KiB each
// (a low piece of 12 bits whose entry holds its place and its group, its
// pegs and class, and a table by the rest and that group), the same
// numbers from three gathers, the third waiting on the second: 6.04 6.06
// 6.46 ... ns a child against 4.97 5.23 5.27 for two (10 alternated runs
// each), and the analysis's ratio above 1.79 1.68 1.69 1.72 against 1.84
// 1.52 1.61 1.66; and the numbers gathered in a second loop over the
// batch's children, for more lookups in flight at once, 3.65 3.76 4.05
// ns a child against 3.53 3.56 3.73 and ratios 1.47 1.25 1.69 1.46
// against 1.52 1.61 1.45 1.49, within the noise and one more pass. Nor
// did the kernel's shift groups laid 128 bytes apart, each one's jump
// indices first on a cache line (at 104 bytes apart nearly every 64-byte
// read of them spans two lines): ratios 1.46 1.61 1.53 1.45 1.66 against
// 1.81 1.50 1.49 1.64 1.68, within the noise.
package movegen
