package search

import (
	"pegs/search/internal/dfs"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/spill"
)

// Default memory budgets, for Budget.Memory zero and for the commands'
// --mem flags.
const (
	// DefaultMemory is the budget of a search of one problem: solving,
	// hints, measuring a level.
	DefaultMemory = 4 << 30
	// DefaultExhaustiveMemory is the budget the commands give the searches
	// of whole state spaces (explore, starts, oracle, report).
	DefaultExhaustiveMemory = 8 << 30
)

// Budget is what a search may spend, the options every search takes: its
// workers and its memory, and whom it tells how far it has come. The zero
// value runs GOMAXPROCS workers within DefaultMemory. Winnable,
// WinnableGoals, RandomChance and FewestMoves take a Budget alone;
// SolveOptions and ExploreOptions embed one.
type Budget struct {
	// Workers is the number of goroutines of a layered search; zero means
	// GOMAXPROCS.
	Workers int
	// Memory is the budget in bytes for the search's tables; zero means
	// DefaultMemory. A search that would pass it stops with a
	// *MemoryError.
	Memory int64
	// Progress, if set, is called as each layer of a layered search
	// advances.
	Progress func(Progress)

	// knobs move thresholds for tests (see export_test.go).
	knobs knobs
}

// SolveOptions tune the depth-first solver and the searches built on it
// (Solve, Decide, StartPairs). The zero value solves with every technique
// within DefaultMemory.
type SolveOptions struct {
	Budget
	// Strategy says which techniques the depth-first solver uses; the zero
	// value, Best, uses them all.
	Strategy Strategy
	// MaxNodes, if positive, stops the depth-first solver with
	// ErrNodeLimit once it has visited about that many positions (it looks
	// every 65,536), so a caller can turn to another way in time.
	MaxNodes int64
	// Tables, if set, keeps what solving builds once per board and goal
	// (endgame tables, pagodas) for every search given the same Tables.
	// Without it each search builds its own: a few milliseconds on the
	// English board, which many small searches should share.
	Tables *Tables
}

// ExploreOptions tune the exhaustive searches of whole state spaces
// (Explore, Starts). The zero value counts everything, reduced by the
// problem's symmetry, in memory within DefaultMemory.
type ExploreOptions struct {
	Budget
	// WholeGroup reduces an exhaustive search by the board's whole
	// symmetry group even where it moves the start (for a goal of one peg
	// anywhere). Every count stays exact, but positions are counted up to
	// the whole group and finishes only by orbit (SolutionsByFinish is left
	// empty): a single-vacancy start on a corner then searches about |G|
	// times fewer positions.
	WholeGroup bool
	// NoSymmetry searches raw positions, for cross-checks.
	NoSymmetry bool
	// NoGames leaves complete games uncounted (Analysis.Games is nil), the
	// one count that needs a value on every reachable position: their
	// backward pass over every layer is left out, and what it holds (two
	// layers' counts at a time).
	NoGames bool
	// ReachableOnly counts the reachable positions and dead ends alone,
	// layer by layer, holding only the layer it expands and the next: no
	// winnable positions, no path counts. It is for state spaces whose full
	// analysis passes the budget, which keeps every layer for the way back.
	ReachableOnly bool
	// Spill, with a Dir, holds an exhaustive search's layers on disk (see
	// Spill).
	Spill Spill
}

// knobs are thresholds that tests move to reach, on small boards, the
// paths that large boards take; the zero value is the default.
type knobs struct {
	layered  layered.Tuning
	loneBase int64 // see dfs.LoneNodes
	// spillPartition caps a spilled layer's partitions' positions (see
	// partition.Knobs.MaxPartition).
	spillPartition int
	// spillChunk and spillWalkRoom make a spilled run split partitions on
	// the fly and walk back in passes (see partition.Knobs.MaxChunk and
	// WalkRoom).
	spillChunk    int
	spillWalkRoom int64
	// spillFree, if positive, stands for the free space of a spilled
	// run's file system, so that a test can make its disk too small.
	spillFree int64
	// spillFanIn, if positive, caps the runs a spilled merge reads at
	// once (see partition.Knobs.MaxFanIn).
	spillFanIn int
	// spillParts, if positive, makes a spilled layer held in memory
	// expand in at least as many parts (see partition.Knobs.Parts).
	spillParts int
	// spillNoSync leaves a spilled run's files unsynced (see
	// spill.Dir.NoSync): tests spill thousands of small files.
	spillNoSync bool
}

// Bytes returns the budget in bytes: Memory, or DefaultMemory if Memory
// is not positive.
func (b Budget) Bytes() int64 {
	if b.Memory > 0 {
		return b.Memory
	}
	return DefaultMemory
}

// config returns the layered search's configuration.
func (b Budget) config() layered.Config {
	c := layered.Config{Workers: b.Workers}
	if b.Progress != nil {
		c.Progress = func(phase string, pegs, done, total int) {
			b.Progress(Progress{Phase: phase, Pegs: pegs, Done: done, Total: total})
		}
	}
	return c
}

// Strategy says which techniques the depth-first solver uses: the
// strategies `pegs bench` compares.
type Strategy int

// The strategies, from every technique down to bare backtracking.
const (
	// Best uses everything: the table of refuted positions keyed by
	// canonical form, the position class, a pagoda bound, move ordering,
	// the endgame table, and beam searches beside depth first once it has
	// taken long.
	Best Strategy = iota
	// Backtrack is bare backtracking on raw positions: no table, no
	// symmetry, no pruning, jumps in the board's order (Board.Jumps).
	Backtrack
	// DeadTable adds the table of refuted positions, keyed by raw
	// position.
	DeadTable
	// SymmetryTable keys the table by canonical position.
	SymmetryTable
	// Pruned is Best without the beam searches: depth first alone.
	Pruned
)

// techniques returns the solver's techniques for s.
func (s Strategy) techniques() dfs.Techniques {
	switch s {
	case Backtrack:
		return dfs.Techniques{}
	case DeadTable:
		return dfs.Techniques{Table: true}
	case SymmetryTable:
		return dfs.Techniques{Table: true, Symmetry: true}
	case Pruned:
		return dfs.Techniques{Table: true, Symmetry: true, Prune: true}
	}
	return dfs.All()
}

// Tables keeps what depth-first searches on the same boards share: move
// generators and pagodas by board and goal, endgame tables by board, goal
// and position class. It is safe for concurrent use; the zero value is
// ready. Give the same *Tables (SolveOptions.Tables) to many small
// searches.
type Tables struct{ t dfs.Tables }

// dfsTables returns the solver's tables of o, or nil.
func (o SolveOptions) dfsTables() *dfs.Tables {
	if o.Tables == nil {
		return nil
	}
	return &o.Tables.t
}

// Progress reports how far a layered search has come.
type Progress struct {
	Phase       string // "forward", "from the goal", "backward", "join", "count", "chance" or "fewest"
	Pegs        int    // peg count of the layer being expanded ("from the goal": of the positions its complements stand for)
	Done, Total int    // positions of that layer expanded so far, and in all
}

// MemoryError reports a search that would pass its memory budget, with the
// numbers: What the memory was for, how much more it would Need, how much
// was InUse and the Budget, and where it applies what the search was Doing
// (such as finding the positions of 28 pegs). A caller that sets Setting,
// the name of what sets the budget (a command's flag), has the message
// name it. errors.Is(err, ErrMemory) holds for it.
type MemoryError struct {
	What   string // what the memory was for, such as "the next layer's positions"
	Need   int64  // bytes more it needed
	InUse  int64  // bytes in use when it asked
	Budget int64  // the budget
	// Doing, if set, says what the search was doing, such as "finding
	// the positions of 28 pegs".
	Doing string
	// Setting, if set, names what sets the budget, such as a command's
	// flag "--mem"; the message names it beside the budget.
	Setting string
}

func (e *MemoryError) Error() string { return (*memory.Error)(e).Error() }

// Is reports whether target is ErrMemory.
func (e *MemoryError) Is(target error) bool { return target == ErrMemory }

// DiskError reports a spilled run refused for want of disk: the free
// space of its directory's file system (Path) and what the run (or its
// next layer) is estimated to Need for What. Bound is set where Need
// bounds the whole run, estimated before it starts (see
// Spill.NoEstimate): the run can stay well below it. Setting, if set with
// Bound, names what starts a run without that estimate, such as a
// command's flag; the message names it.
type DiskError struct {
	Path       string
	Free, Need int64
	What       string
	Bound      bool
	Setting    string
}

func (e *DiskError) Error() string { return (*spill.NoSpaceError)(e).Error() }

// Errors a search reports.
var (
	// ErrMemory is what every *MemoryError is.
	ErrMemory = memory.ErrExceeded
	// ErrNodeLimit reports a search stopped at SolveOptions.MaxNodes.
	ErrNodeLimit = dfs.ErrNodeLimit
	// ErrNoPegs reports a start position with no peg.
	ErrNoPegs = dfs.ErrNoPegs
	// ErrOverflow reports a path count that passed 128 bits.
	ErrOverflow = layered.ErrOverflow
	// ErrSpillCorrupt reports a spilled file damaged or truncated; the
	// error names the layer, the partition, the file and the block.
	ErrSpillCorrupt = spill.ErrCorrupt
)
