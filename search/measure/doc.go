// Package measure measures a level (a start and a goal of one peg on a
// board) on its whole state space: how many positions it reaches and how
// many can still win, its solutions and complete games, how players of
// bounded foresight fare, its critical decisions and its par. Package
// generate turns the measures into a difficulty and a grade.
//
// # The walk
//
// Level measures a level's state space layer by layer, a layer being the
// positions of one peg count (every jump removes one peg), each position
// canonical under the symmetries that keep the goal in place. It first
// finds the layers from the start down (layered.Forward, the forward pass
// of search.Explore), each waiting as the bitset of position numbers
// (key.Dense) it was found in, then measures them from the last layer up:
// a position's measures come from its children's, found in the layer
// below, so a position is measured once however many lines reach it.
//
// A layer measured, its positions are read from its bitset in the order
// of their numbers (no key made, see positions), and the layer above
// finds a child there by its number (movegen.Parent.MoveRanksBatch numbers
// the children of 32 parents in one loop) and a count of the set bits before it in that
// bitset, each word of which is held beside its count (a cache line a
// child, in tables of 18 MB at most on the English board that mostly stay
// in the shared cache); where positions are not numbered (boards past
// key.MaxDenseHoles, or a layer of several classes), its positions are
// made keys and a child found by a key.Index of them. The parents are
// measured a batch at a time, two batches in a pipeline (see Batches in a
// pipeline): a batch's children placed, then their measures asked for
// together, then each parent summed, so that the cache misses of a batch
// overlap with each other and with the work on the batch before. What every position has is held in two arrays, in its layer's
// order: a cell of the P1 player's expected jumps (11 bytes), a byte for
// its longest game and whether it is won or stuck, and the complete games
// (4 bytes, the few counts past 2^32 apart in 16, placed by a count of
// bits as the winnable positions are), read in one cache line, and that
// byte again in an array of its own; what
// only a winnable one has (P0, P1,
// solutions, the foresight vector), for the winnable positions alone, in
// their order, a position's place among them a count of the bits of a
// bitset of the layer's winnable ones. A layer's measures are held until
// the layer above has read them (its expected jumps, games and winnable
// positions' measures until the layer above's first pass, the rest until
// its second), its positions until its winnable ones are kept: what
// the measures that follow lines from the start need (Critical,
// UniqueFirst, the par) is kept of every layer, its winnable positions
// with their P1, indexed once every layer is measured. In a level of 21 pegs or more, the
// layers are found on GOMAXPROCS goroutines and a layer of 4096 positions
// or more is measured in contiguous chunks on as many, each goroutine
// taking the next as it finishes one, the chunks shrinking as the pass
// goes (see chunkBounds); a chunk sets its positions' win bits as it
// ends. A position's measures do not depend on the chunks, so neither do
// the results. What is made between two layers' passes (the arrays' pages,
// the placer, the games past 32 bits set in their places, the winnable
// positions' P1, and at the end their indexes, a layer each) is made on
// as many goroutines too: made on one, it kept the other cores waiting
// (the English Full level's trace had both cores busy 93.9 % of the time
// before, 95.4 % after, on a loaded machine). Past
// its memory budget Level stops with a *search.MemoryError; the budget is
// charged with every array above as it is made.
//
// One method serves every level. The levels package generate makes by the
// thousand (6 to 20 pegs, on its own pool of workers) are measured on one
// goroutine, where two cost more CPU time than they save; so they take
// less time than by a depth-first walk memoized in a hash table of nodes,
// what Level did before (BenchmarkLevel's 80 drawn English levels and
// Pyramid at GOMAXPROCS 1, once: 12.6 s of CPU against 15.2 s). The
// English board's 32-peg start, 23.5 million positions, peaks at 228 MiB
// of its budget, and its grade (pegs grade) at 281-285 MB of resident
// memory (generate's BenchmarkGrade level=Full: 260-272 MiB), on a busy
// machine (279-282 MB with four chunks a goroutine, their outputs held
// together till the layer's end): a layer's measures live in memory mapped outside the Go heap
// (memory.Budget.TakeMapped, its pages written in by the kernel on the
// level's goroutines at once, as a layer's placer is made, not on one
// between layers while the others wait), which goes back to the system as soon as the
// layer above has read them, and the heap is trimmed once, before the
// largest pair of layers is measured. Before, 370-392 MB (peak 257 MiB:
// its arrays on the heap, which kept what they let go of, its games in 8
// bytes where some passed 32 bits, its positions made keys); 510-540 MiB
// before a layer let go of what the layer above had read as soon as it
// had, its expected jumps took 12 bytes, the layers past the widest waited
// packed and the winnable positions were indexed after the walk; the node
// arrays and key indexes this walk used before took 1.1 GB, the
// depth-first walk 4.5 GB.
//
// # Idle cores and repeated work
//
// The English Full level's walk was traced (BenchmarkLevel level=full32
// with -full and -test.trace, with runtime/trace regions around its
// steps for the analysis only, read with golang.org/x/exp/trace: the
// goroutines running in each step). One run of 7.5 s on a loaded machine
// left a core idle for 0.89 s in all: 0.45 s while fresh arrays' pages
// were written in (fill's, the placers', the forward pass's bitsets; see
// package memory), 0.14 s in the par search and what follows the walk,
// 0.13 s at the ends of the measure and foresight passes, where one
// worker finished its last chunk while the other waited, and the rest in
// short steps between the passes: the win bits set in a pass of their
// own after the chunks (7 ms), their places counted (4 ms), the chunks'
// cursors found (7 ms), the trim, the games past 32 bits, the P1s kept.
// The chunks now shrink as a pass goes (chunkBounds: the last of the
// widest layers ran 0.2-0.6 ms, against 12-57 ms), a chunk sets its own
// win bits (setWins), and their places are counted beside the chunks'
// outputs moved, as the P1s kept are written; the chunks' cursors are
// found on the level's goroutines. The foresight pass no longer numbers and places the
// children of the winnable positions again (1.13-1.22 s of CPU samples
// against 1.83-1.99 in two profiles each; see foreKids), and the layer
// below's placer, expected jumps, games and winVals go as soon as the
// measure pass is done, before the chunks' outputs are moved, where the
// most was held (VmRSS at the end of that step, layer of 17 pegs: 205 MB
// against 287 MB; the peak is now the measure pass's). The chunks'
// output blocks and scratch are reused from chunk to chunk (see spare and
// scratches): the walk allocated 352 MB on the heap against 626 (B/op),
// 16-17 collections against about 22 (gc/op; the grade, at GOGC 25, 37
// against 58, GODEBUG=gctrace=1). The grade
//
//	pegs grade --board english --position oooooooooooooooo.oooooooooooooooo --format csv
//
// under /usr/bin/time, alternated with the base's (44a40cb) on a loaded
// machine, the same CSV each time: five pairs at load 5-6 on 2 cores
// (midway, once the blocks and scratch were reused)
// 8.1-9.5 s of CPU (user and system) against 8.6-10.2 s and 269-276 MB
// of RSS against 282-286; six pairs at load 5-9 at the end, 9.2-11.1 s
// of CPU against 9.3-12.9 (within the noise), 0.55-0.76 s of it in the
// kernel against 0.87-1.14, 276-277 MB of RSS against 283-292. The
// benchmark's trace had a core idle for 6.9-7.9 % of the run against
// 9.9-11.5 % (two runs each, alternated, loaded machine). Left as they
// were: the pages written in (package memory) and the par search.
//
// # Batches in a pipeline
//
// A measure chunk takes its parents in batches of about 512 children (of
// up to 32 parents), each batch numbered, placed, its children's cells
// read, and its parents measured. Two batches are in hand at once: once
// the next batch is numbered, its children's placer blocks are asked for,
// the batch before it measured, then the next one's children placed and
// their cells asked for, which come while the batch after it is numbered.
// The lines are asked for by prefetch instructions (package
// search/internal/prefetch, PREFETCHT0), which are done as soon as they
// have asked, where the loads that asked before (a sum of the cells'
// first words) held their places in the core's queue until their lines
// came and stopped the work behind them. And a cell is written field by
// field in place (len88.put): made whole on the stack and copied, the
// copy read back bytes just stored and waited on them. The grade
//
//	pegs grade --board english --position oooooooooooooooo.oooooooooooooooo --format csv
//
// under /usr/bin/time, alternated with the base's (6e7823c), the same CSV
// each time, on a machine loaded by other work: with the pipeline alone,
// five pairs at load 4.3-4.8 took 7.3-9.1 s against 8.4-10.7 s (ratios
// 0.77-0.90, median 0.86); with the cells written in place too, five
// pairs at load 3.4-4.3 took 3.7-12.0 s against 4.3-11.7 (ratios
// 0.68-1.03, median 0.71) and 6.4-7.7 s of user time against 7.4-8.9
// (ratios 0.81-0.86, median 0.86), 275-277 MB of RSS against 276-278;
// five more at load 1.4-3.4, user time ratios 0.72-0.94 (median 0.83),
// and BenchmarkLevel level=full32 (-full -benchtime 1x, five runs
// alternated with the base's, load 9 falling to 1) 0.65-0.96 (median
// 0.77). Of the perf samples (perf record -F 999 -g, whole grade),
// measureOne and the batch step (placer blocks, cells) took 46 % before
// (26 and 21), 38 % after (28, 5, and 6 in the prefetch loop, which
// waits when the core's line fill buffers are all taken). Left out, within
// the noise or worse in alternated pairs at load 5-10 (user time ratios'
// medians): the cells asked for a whole step before they are read (three
// batches in hand, 0.99 over 16 pairs), the winnable children's winVals
// asked for a stage, a parent or a loop ahead (their places among the
// winnable ones found once: 1.04, 1.04 and 1.08; the misses moved to the
// cells' meta bytes, read earlier), the foresight pass in batches of 16
// positions with their children's vectors asked for a batch ahead (their
// first lines 1.02, every line 1.04), batches of 256 or 1024 children (1.04, 0.98), the placer blocks
// asked for a parent's share at a time as the batch before is measured
// (1.10), PREFETCHT1 for PREFETCHT0 (1.01 over four rounds at load 4.4);
// PREFETCHNTA was worse (1.42-1.59; a child's cell is read again by its
// other parents, and NTA keeps lines out of the outer caches). Left out
// too, against d23528b (the same grade, alternated pairs, user time
// ratios' medians; perf record -F 999 -g samples, two runs each): a
// winnable position's place among the winnable ones held in its cell and
// its games in its winVals, padded to 64 bytes, a cache line each, so
// that a winnable child cost no win bits or count (0.97 over 5 pairs at
// load 4.3, 1.05 over 5 at load 1.8; with the winnable children's
// winVals read in a loop of their own, 0.99 over 5 at load 1.3-2.0, but
// measureOne took 3243-3284 samples against 3053-3058 and the step that
// writes the places in the cells 125 against 57-64; 280 MB of RSS
// against 275), the winnable children's winVals read in the loop over
// their cells (1.11-1.14 over 3 pairs), the games summed in a loop of
// their own (1.00 over 4), those of 32 bits summed in a word (0.96 over 5
// at load 2.0, but measureOne took 2547-2750 samples against 2302-2395:
// within the noise), and a division by a number of jumps made by
// multiplying with its reciprocal (Möller and Granlund's algorithm 4, a
// table of the board's numbers of jumps) rather than two DIV
// instructions, slower on this CPU (a testing.B benchmark, since
// dropped: 9.3-9.7 ns a division against 6.6-6.8; the grade 1.07 over 5
// pairs at load 1.1-1.6).
//
// # The tail
//
// What follows the walk in the grade was traced the same way (pegs grade
// of the Full level built with runtime/trace started in main and regions
// around each step, for the analysis only; the goroutines running over
// each region counted with golang.org/x/exp/trace). Six runs of the base
// (6e7823c) at load 5-7 on 2 cores: the winnable positions indexed in
// 15-57 ms, one goroutine alone for 9-57 % of it; the trim 8-65 ms; the
// par 280-1220 ms, one goroutine alone for 6-16 % of it, most in its
// levels' merges (28-76 ms in all, see package search/internal/bfs);
// then, on one goroutine, the grade's search.Solve, 25-59 ms, most of
// it building the depth-first search's endgame tables. The solve now
// runs beside the par (package generate, "Grading a level"), and the
// par's merges, 4-10 % of its wall, beside its expansions (package
// search/internal/bfs, "The merge"): what is left of the tail is mostly
// the par's own work, on both cores. No step is done twice: the
// walk numbers a position's children in their class (movegen's ranks)
// and keeps no canonical position nor link of them, so the par's
// canonical positions, of moves of one or more jumps, are its own; and
// Critical and UniqueFirst read the indexes the par reads. Tried and
// dropped: the layers indexed the largest first (commit 3c04829,
// reverted: six runs, 12-41 ms, one goroutine alone 9-23 % of it, within
// the noise) and the par's merges split between the workers once its
// chunks were expanded (package search/internal/bfs, "The merge").
//
// # Players of bounded foresight
//
// The player who looks k jumps ahead sees every line of at most k jumps
// that starts with one of its jumps. It knows that a jump loses when
// every such line ends in a lost position (one with no jump left that is
// not the goal) within those k jumps: when the position the jump leads to
// cannot win and its longest game has fewer than k jumps. It never plays
// such a jump while another exists, and chooses among the rest uniformly
// at random, jump by jump. It uses no rule of thumb: the rules beginners
// are taught (keep pegs together, do not strand a peg) would need weights
// that nothing here could measure, and a strict rule is wrong too often (a
// solution of a level often strands a peg for a while).
//
//   - k = 0 looks at nothing: the random player, whose win probability P0
//     is that of search.Explore's RandomWin.
//   - k = 1 sees only the jumps that leave it stuck at once: P1.
//   - k ≥ pegs − 1 sees every game to its end and never loses a level that
//     can be won.
//
// W_k, the probability that this player wins one attempt, never falls as k
// rises: a larger k only removes jumps that lose whatever is played after
// them, and at the other positions the players who look further win as
// often or more. 1/W_k is the number of attempts it expects to need. Level
// computes W_k at every winnable position for every k at once: a
// position's longest game and whether it can win tell which of its jumps
// each player avoids, and W_k of a position is the mean of W_k over the
// jumps the player may play. A position that cannot win has W_k = 0, and
// one whose longest game is at most k jumps has W_k = 1 if it can win, so
// only the others are stored: W_1 … W_{L−1} for a winnable position of
// longest game L, in one array a layer. A layer's vectors are written by
// a second pass over its winnable positions (7 % of the positions of the
// English board's Full level), once the first has measured the rest and
// so sized that array: the first keeps, for each of them, its children's
// meta bytes and the winnable ones' places as it finds them (a chunk's,
// in blocks of its own, see foreKids), and the second sums the winnable
// children's vectors a child at a time (a run of the layer below's array
// each) and counts the 1s of shorter games and the jumps each player
// avoids apart, then divides; it neither numbers nor places the children
// again, so the layer below's placer goes once the first pass is done.
// A layer's vectors are let go once the layer above is measured.
//
// # Exact to the last digit
//
// Every probability and expectation (P0, P1, W_k, 1/W_k, the mean attempt,
// J1) is the exact value correctly rounded to float64. The walk keeps them
// in fixed point (probabilities in 128 bits, units of 2^-118; numbers of
// jumps in 88, units of 2^-82), where a sum is exact and a mean over a
// position's jumps rounds down by less than one unit; a value is thus
// short of the true one by less than one unit per jump of the longest
// game below it. Metrics gives a value only once the float64 nearest to
// the bottom of that interval is also nearest to its top (for 1/W_k and
// J1, to the quotient's interval, found in 320-bit arithmetic), so it is
// the float64 nearest to the true value; should an interval straddle a
// rounding point (about as likely as a value falling within 2^-77 of
// one), Level says so with ErrRounding rather than guess. (Sums and
// divisions in float64 drift in the last digit or two: J1 of a triangle
// level comes out 53.00000000000001 where it is 53.)
//
// # Foresight needed
//
// The foresight a level needs (Metrics.ForesightNeeded) is the smallest k
// with W_k ≥ 1/2: how far a player must look to win at least half of its
// attempts. It is read between integers on a log scale of W: where W_{k−1}
// < 1/2 ≤ W_k, it is k − 1 + (log ½ − log W_{k−1}) / (log W_k − log
// W_{k−1}). It grows with the size of a level, since every jump is one
// more chance to go wrong and a lost position often shows itself only a
// few jumps before the end; among levels of one size it varies by a few
// jumps.
//
// # The other measures
//
// P1's expected attempt length over P1 gives J1, the expected number of
// jumps to a win with restarts. Critical counts the positions on the P1
// player's likeliest winning line at which some jump loses; UniqueFirst
// reports a start where exactly one jump keeps the level winnable.
// Branching is the mean number of jumps at the positions (up to symmetry)
// that have one. The par, the fewest moves (chains of jumps by one peg) of
// a solution, comes from a search by moves from both ends over the
// winnable positions (package search/internal/bfs).
package measure
