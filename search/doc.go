// Package search decides peg solitaire problems exactly: it solves or
// refutes one position, and searches whole state spaces layer by layer to
// count what they hold.
//
// A Problem is a start position and a goal on a board. Every search reduces
// positions by symmetry through engine.Group.Canonical, restricted to the
// symmetries that keep the start and goal in place (Problem.Group). A "no
// solution" is always the end of a complete search or a proof by position
// class, never a guess after a limit; a search that would pass its memory
// budget (Budget.Memory) stops with a *MemoryError before it allocates.
//
// Which function answers which question:
//
//   - Solve: is this position solvable, and how? Depth first.
//   - Decide: the same, turning to layered searches where depth first is
//     slow (what `pegs solve` uses).
//   - FewestMoves: a solution with the fewest moves (chains of jumps by
//     one peg), with the proof that none is shorter.
//   - Explore: everything about a start's whole state space: reachable,
//     winnable and dead-end positions, solutions by finishing hole,
//     complete games, the random player's chance.
//   - Winnable, WinnableGoals: the positions that can still meet a goal.
//   - RandomChance: the random player's chance alone, over the winnable
//     positions as Winnable finds them (no games, dead ends or paths).
//   - Starts, StartPairs: every single-vacancy start of a board and where
//     its last peg can finish.
//
// Every search takes a Budget: its workers, its memory and whom it tells
// of its progress. Solve, Decide and StartPairs take it within
// SolveOptions, beside the depth-first solver's strategy, node limit and
// shared tables; Explore and Starts within ExploreOptions, beside what the
// exhaustive search counts and where it keeps its layers; Winnable,
// WinnableGoals, RandomChance and FewestMoves take it alone.
//
// Hints for games (package search/hint) and the metrics of a level
// (package search/measure) are built on these.
//
// # Solving
//
// Solve searches depth first with a table of the canonical positions it
// has refuted, so that no position is refuted twice. The position class
// (Conway's 3-colourings: the parities no jump changes) refutes a start at
// once when no goal position shares it; a pagoda function (hole weights
// that no jump raises in total) toward the goal hole cuts children that
// cannot reach it; jumps are tried in an order that leaves the fewest
// isolated pegs and brings pegs toward the centre or goal. Positions of few
// pegs are decided by an endgame table: the first layers of a forward
// search from the complements of the goal's positions, since backward play
// is forward play with pegs and holes swapped. Give many small searches one
// Tables (SolveOptions.Tables) so that they share these tables.
//
// Depth first commits to its first choices, and on boards larger than the
// English one a wrong early jump can hold it for minutes. So past a budget
// of positions it alternates with beam searches, which expand a layer at a
// time but keep only the best few positions, scored by isolated pegs, pegs
// on holes few jumps pass over (edges, arms' ends) and distance from the
// centre; widths and depth-first budgets grow fourfold a round. A beam can
// only find a solution; depth first, which resumes with what it has
// refuted, finishes any proof. The strategies (SolveOptions.Strategy) turn
// these techniques off one at a time, for `pegs bench` to compare.
//
// For a FewestPegs goal, Solve searches every position the start reaches
// for the fewest pegs, stopping at a proven floor: one peg, or two where
// the position class rules one out.
//
// # Deciding
//
// Depth first finds the solutions of most positions within a few thousand
// positions, but refutes a lost position of many pegs slowly. Decide gives
// depth first a budget (2^14 positions up to 20 pegs, doubling with each
// peg past 20); past it, it searches layer by layer from the start and from
// the goal until the two sides meet (see Meeting in the middle), and takes
// a solution through the winnable positions found. For a FewestPegs goal a
// meeting for one peg anywhere comes first; then depth first from a floor
// of two; then the last layer of everything the start reaches gives the
// fewest, and depth first stops at the first position with that many.
//
// # Layered search
//
// The exhaustive searches hold the positions of one peg count at a time as
// a layer: a sorted array of canonical positions, each stored as a mixed
// key (its high bits folded into its low ones, then multiplied by an odd
// constant, so that keys spread evenly and their top bits split a layer,
// and the children of any run of it, into even shards). A layer is
// expanded into the next on a pool of workers (Budget.Workers): each
// worker appends every child, with what it carries, to a list for its
// bucket (the key's top bits); then each bucket's children go into its
// own table, folding the counts of repeats, buckets in parallel. No locks
// are taken, and the counts are exact integers whose sums do not depend on
// the order workers add them in: the output is the same for any number of
// workers. A wide layer of keys alone (no counts) goes into bitsets
// instead, each child a bit at its position's dense number among those of
// its peg count and class, with no table or list between them (see package
// search/internal/layered, "Dense layers").
//
// # Whole state-space analysis
//
// Explore finds the reachable positions forward, layer by layer, keys or
// bitsets alone (no counts). Complete games are then counted backward,
// from the last layer up: the games from a position are the sum of its
// children's (one for a dead end), each child looked up by its place in
// the layer below, a bit's place among the set bits of the layer's bitset
// where it is held so; only two layers' counts are held at a time, in 32
// or 64 bits where they fit (128-bit otherwise: the
// English board's complete games pass 2^64). (On a board too large for
// bitsets, past key.MaxDenseHoles holes, whose layers are all keys, the
// forward pass carries the paths into each position through its tables
// instead, and counts the games as it goes: a child looked up by key cost
// more than its record in a table.) The winnable positions are then found
// walking back up from the goal: the parents of a winnable position are
// found by undoing jumps, and those that are reachable are winnable.
//
// The solutions and the chance that a random player (choosing uniformly
// among the legal jumps) wins are found last, layer by layer from one peg
// up over the winnable positions alone: a position's paths to the goal are
// its winnable children's summed, its chance the mean of its children's
// over all its jumps, a child that cannot win having none. Where the goal's
// finishes are of several orbits (one peg anywhere), the solutions by
// finish are counted forward instead, through the winnable positions.
// Chances are held in 128-bit fixed point (one is 2^118); each division
// rounds down by less than 2^-118, so the start's chance is known within
// as many units as it has pegs, and Explore checks that this interval has
// one nearest float64: Analysis.RandomWin is correctly rounded, not
// approximately right.
//
// With NoGames the backward count of complete games is left out. With
// ReachableOnly only two layers are held at a time. Layers that wait for
// the walk back as keys are coded once their keys pass a share of the
// budget: packed within the board's bits, sorted, as varint gaps (about a
// quarter of the bytes). WholeGroup counts up to every symmetry of the
// board even where it moves the start (for one peg anywhere): a start on
// a corner then searches up to 8 times fewer positions, its solutions
// still exact.
//
// # Layers on disk
//
// With ExploreOptions.Spill, Explore holds its layers as files in a directory
// (the format is package search/internal/spill's) instead of in memory,
// in the manner of Korf's disk-based breadth-first searches. A layer is
// split into partitions by the top bits of its positions' mixed keys, a
// power of two of them chosen, from the layers before, so that one
// partition's expansion fits half the budget. Forward, each partition is
// read and expanded by the same expansion as in memory; its distinct
// children, sorted, are split into runs by group of the next layer's
// partitions; then each group's runs are merged, a k-way merge that folds
// the path counts of a position reached from several partitions, into the
// next layer's partitions. A partition that comes out too large for the
// budget (the layer grew more than estimated) is expanded in chunks, cut
// in two until each fits, each writing runs of its own. A layer that fits
// the budget beside its expansion skips the runs: it is held in memory and
// its children written as the next layer's partitions at once (in parts,
// the layer expanded once for each, where they do not fit beside it), and
// the next layer is held in turn. The walk back, where a layer's keys and
// the winnable positions below fit, undoes the jumps into those as in
// memory; else it streams the layers from one peg up, a partition at a
// time: a position
// is winnable when one of its children is in the set of the layer below's
// winnable positions, which are written as files of their own; the random
// player's chances are found likewise, layer by layer, into chance files.
// Where the layer below's set (or its chances) does not fit in half of
// what the budget has left, it is held a range of its partitions at a
// time, the layer walked once for each range. Every file is written under a temporary name, synced and
// renamed, and a manifest, written the same way after the files it
// counts, says which partitions are complete: Spill.Resume continues a
// run killed at any point from there, to the same counts. Before a new
// run writes a file, the disk it needs at its fullest (every layer's
// partitions and the widest layer's runs) is estimated from its first
// layers, run in memory for a couple of seconds or until the estimate is
// half the free space or less, their growth extrapolated and their file
// measured, and a run that would not fit the free space is refused with a
// DiskError (Bound set: the estimate is a bound, which Spill.NoEstimate
// skips); each layer's need (its runs and partitions, at the bytes a
// position the layer above took) is checked again before it is expanded.
//
// # Winnable positions
//
// Winnable finds the positions that can still meet the goal without
// counting paths. When the start is the complement of the goal's position
// (the centre game), a position of k pegs is winnable exactly when it and
// its complement (of n-k pegs on a board of n holes) are both reachable,
// so the search goes forward only to the middle layer and complements the
// layers past it (counted at once, made only if asked for); on a board of
// an odd number of holes the middle's children are looked up in a set of
// their complements rather than found. The forward layers stay as the
// bitsets they are found in, and each, once the next is found, is packed
// to the bytes of its bitset that are not zero (layered.Layer.Pack): the
// walk back ands the parents it marks with them, and the middle's lookups
// read the middle layer's bitset.
//
// # Meeting in the middle
//
// A meeting searches forward from the start and forward from the
// complements of the goal's positions, each step growing the side whose
// last layer is smaller, until the start's side has m pegs and the goal's
// n-m: a start's position whose complement the goal's side reached is
// winnable, and walking back from those gives the winnable positions of
// every layer the start's side found. Neither side reaches the other's
// widest layers.
//
// # Starts
//
// Starts analyses every single-vacancy start of a board up to symmetry in
// one search over the union of their state spaces, each position tagged
// with the starts that reach it (tags share the position's 64-bit word).
// A position can end with one peg anywhere exactly when its complement is
// reachable from some single-vacancy start, so the union holds the answer
// without a walk back. Boards whose union passes the budget are searched
// one start at a time; a start whose own search passes it has each of its
// class-feasible finishes solved depth first (StartPairs).
//
// # Fewest moves
//
// FewestMoves searches by moves over the winnable positions, from both
// ends (package search/internal/bfs): forward from the start, level k
// holding the winnable positions first reached by k moves (a move from a
// position being every chain of jumps by one of its pegs), and backward
// from the goal, level k holding those from which k moves first reach it;
// each step grows the smaller side by a level, and the first position the
// two share gives the fewest moves, the complete levels before it the
// proof (Pohl's bidirectional search). Every position of a solution is
// winnable, so the restriction loses nothing, and the winnable set bounds
// both sides. On the English centre game the sides meet after eleven
// moves forward and seven back, about an eighth of the positions one side
// alone expanded.
//
// # Memory
//
// Every large array is charged to the search's budget before it is made;
// a search that would pass it stops with a *MemoryError carrying the
// numbers. The commands print it with the flag that sets the budget, and
// `pegs explore` names the flag that needs less memory.
package search
