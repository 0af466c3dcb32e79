package search

import (
	"math/big"
	"time"

	"pegs/engine"
	"pegs/search/internal/key"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
)

// LayerStats describes the positions with one peg count.
type LayerStats struct {
	Pegs         int   `json:"pegs"`
	Reachable    int64 `json:"reachable"`
	ReachableRaw int64 `json:"reachable_raw"`
	Winnable     int64 `json:"winnable"`
	DeadEnds     int64 `json:"dead_ends"`
}

// Analysis is the exact analysis of a problem's whole state space. Position
// counts are up to the problem's symmetry group (see Problem.Group) unless
// named raw; path counts count jump sequences on the real board.
type Analysis struct {
	Symmetries   int
	Reachable    int64
	ReachableRaw int64
	Winnable     int64
	DeadEnds     int64
	// Solutions counts the jump sequences from the start that meet the goal.
	Solutions *big.Int
	// SolutionsByFinish counts the one-peg finishes by hole (holes that
	// cannot be reached are absent); for a one-hole goal only that hole.
	SolutionsByFinish map[int]*big.Int
	// SolutionsByOrbit counts the one-peg finishes by orbit of finishing
	// holes under the search's group, keyed by the orbit's first hole.
	SolutionsByOrbit map[int]*big.Int
	// Orbits lists the holes of each finishing orbit, keyed like
	// SolutionsByOrbit.
	Orbits map[int][]int
	// Games counts the jump sequences from the start that end where no jump
	// is left, wins included.
	Games *big.Int
	// RandomWin is the probability that a player choosing uniformly among
	// the legal jumps meets the goal, correctly rounded.
	RandomWin float64
	Layers    []LayerStats
	PeakBytes int64
	Elapsed   time.Duration
	// Spilled says what a run with ExploreOptions.Spill did on disk; nil in
	// memory.
	Spilled *SpillStats
}

// NewAnalysis returns an empty analysis up to group, with zero counts to
// add to (no games counter with opt.NoGames), as Explore starts one.
func NewAnalysis(group *engine.Group, opt ExploreOptions) *Analysis {
	a := &Analysis{Symmetries: group.Len(), Solutions: new(big.Int),
		SolutionsByFinish: map[int]*big.Int{}, SolutionsByOrbit: map[int]*big.Int{}, Orbits: map[int][]int{}}
	if !opt.NoGames {
		a.Games = new(big.Int)
	}
	return a
}

// KeepReachable leaves in a what ExploreOptions.ReachableOnly counts, the
// positions and dead ends of its layers: its solutions, finishes, games
// and winnable positions go. A search stopped before its end keeps that
// much too (see Explore).
func (a *Analysis) KeepReachable() {
	a.Solutions, a.SolutionsByFinish, a.SolutionsByOrbit, a.Orbits, a.Games = nil, nil, nil, nil, nil
	for i := range a.Layers {
		a.Layers[i].Winnable = 0
	}
	a.Winnable = 0
}

// Fewest returns the fewest pegs of a position the analysis found: the peg
// count of its last layer that holds a position.
func (a *Analysis) Fewest() int {
	fewest := 0
	for _, l := range a.Layers {
		if l.Reachable > 0 && (fewest == 0 || l.Pegs < fewest) {
			fewest = l.Pegs
		}
	}
	return fewest
}

// total sums a's layers into its totals and notes the peak memory and the
// time since t0.
func (a *Analysis) total(mem *memory.Budget, t0 time.Time) {
	a.SumLayers()
	a.PeakBytes = mem.Peak()
	a.Elapsed = time.Since(t0)
}

// SumLayers sets a's totals of positions, winnable positions and dead ends
// to the sums of its layers'.
func (a *Analysis) SumLayers() {
	a.Reachable, a.ReachableRaw, a.Winnable, a.DeadEnds = 0, 0, 0, 0
	for _, l := range a.Layers {
		a.Reachable += l.Reachable
		a.ReachableRaw += l.ReachableRaw
		a.Winnable += l.Winnable
		a.DeadEnds += l.DeadEnds
	}
}

// countFinishes counts the solutions, by finishing hole and orbit, and the
// random-play win probability from the one-peg layer l with its counts.
func (a *Analysis) countFinishes(prob Problem, group *engine.Group, l *layered.Layer) {
	for i, k := range l.Keys() {
		a.CountFinish(prob, group, key.Unmix(k), l.Count(i).Big())
	}
}

// CountFinish counts paths, the paths from the start to the one-peg
// position p (canonical under group), among the solutions, by finishing
// hole and orbit, if p meets the goal.
func (a *Analysis) CountFinish(prob Problem, group *engine.Group, p engine.Position, paths *big.Int) {
	if !prob.Goal.Reached(p) {
		return
	}
	orbit := holeOrbits(group, []int{holeOf(p)})[0]
	a.Orbits[orbit[0]] = orbit
	a.SolutionsByOrbit[orbit[0]] = new(big.Int).Set(paths)
	if group.Stabilizer(prob.Start).Len() == group.Len() {
		// The count is for the orbit; with the start fixed by every
		// symmetry, each hole in it has an equal share.
		n := new(big.Int).Quo(paths, big.NewInt(int64(len(orbit))))
		for _, h := range orbit {
			a.SolutionsByFinish[h] = n
		}
	}
	a.Solutions.Add(a.Solutions, paths)
}

func holeOf(p engine.Position) int {
	for h := 0; h < 64; h++ {
		if p.Has(h) {
			return h
		}
	}
	return -1
}

// Finishes lists the one-peg finishes of an analysis of prob and their
// solutions: one hole each, or, when the search was reduced by symmetries
// that move the start (ExploreOptions.WholeGroup), groups of holes that
// only those symmetries tell apart, with their joint count (see
// StartResult.Finishes).
func (a *Analysis) Finishes(prob Problem) []Finish {
	if len(a.SolutionsByFinish) > 0 {
		return exactFinishes(a)
	}
	return splitFinishes(prob.Board, prob.Start, a)
}
