package key

import (
	"math/bits"
	"slices"

	"pegs/engine"
)

// Sorted indexes positions held in ascending order: a position's place is
// found from its high bits, which say where the run of the positions that
// share them starts, then among the few of that run. It keeps the
// positions and a word of 4 bytes for each run, one run for each position
// or two: 12 to 16 bytes a position, where an Index takes 24 to 48, and
// a lookup reads a word of its runs and a line of its positions, tables
// small enough to stay in the shared cache more often than an Index's
// slots do (an Index holds its keys' places, not the keys in order).
type Sorted struct {
	ps []engine.Position
	// start[h] is the place of the first position whose bits above
	// shift are h; start[len(start)-1] is len(ps).
	start []uint32
	shift uint
}

// SortedBytes returns the memory a Sorted of n positions takes.
func SortedBytes(n int) int64 { return int64(n)*8 + (int64(runs(n))+1)*4 }

// runs returns the number of runs a Sorted of n positions has: a power of
// two, n or more.
func runs(n int) int { return 1 << bits.Len(uint(n)) }

// NewSorted returns the index of ps, which it keeps, and true, or false if
// ps are not in strictly ascending order or number 2^32 or more.
func NewSorted(ps []engine.Position) (*Sorted, bool) {
	if uint64(len(ps)) >= 1<<32 {
		return nil, false
	}
	for k := 1; k < len(ps); k++ {
		if ps[k] <= ps[k-1] {
			return nil, false
		}
	}
	n := runs(len(ps))
	s := &Sorted{ps: ps, start: make([]uint32, n+1)}
	if len(ps) > 0 {
		s.shift = runShift(ps[len(ps)-1], n)
	}
	h := 0
	for k, p := range ps {
		for ; h <= int(uint64(p)>>s.shift); h++ {
			s.start[h] = uint32(k)
		}
	}
	for ; h <= n; h++ {
		s.start[h] = uint32(len(ps))
	}
	return s, true
}

// runShift returns the shift of a Sorted of n runs whose largest
// position is most: the bits above it number n at most.
func runShift(most engine.Position, n int) uint {
	return uint(max(0, bits.Len64(uint64(most))-bits.Len(uint(n-1))))
}

// SortedOf returns the index of ps, distinct and fewer than 2^32, in any
// order, which it leaves as they were: its positions sorted by their runs
// (a pass that moves each into its run's next place, counted first), then
// each run, short, sorted alone, far quicker than a comparison sort of
// them all (pdqsort took 0.14 s of the English centre game's 1.6 million
// winnable positions).
func SortedOf(ps []engine.Position) *Sorted {
	n := runs(len(ps))
	s := &Sorted{ps: make([]engine.Position, len(ps)), start: make([]uint32, n+1)}
	if len(ps) == 0 {
		return s
	}
	s.shift = runShift(slices.Max(ps), n)
	for _, p := range ps {
		s.start[uint64(p)>>s.shift+1]++
	}
	for h := 1; h <= n; h++ {
		s.start[h] += s.start[h-1]
	}
	next := slices.Clone(s.start[:n])
	for _, p := range ps {
		h := uint64(p) >> s.shift
		s.ps[next[h]] = p
		next[h]++
	}
	for h := range n {
		run := s.ps[s.start[h]:s.start[h+1]]
		if len(run) > 16 {
			slices.Sort(run)
			continue
		}
		for i := 1; i < len(run); i++ { // a few: no call a run
			for j := i; j > 0 && run[j] < run[j-1]; j-- {
				run[j], run[j-1] = run[j-1], run[j]
			}
		}
	}
	return s
}

// Len returns the number of positions s indexes.
func (s *Sorted) Len() int { return len(s.ps) }

// Find returns the place of p among s's positions, or false if it is not
// among them.
func (s *Sorted) Find(p engine.Position) (int, bool) {
	h := uint64(p) >> s.shift
	if h >= uint64(len(s.start)-1) {
		return 0, false
	}
	for k, end := s.start[h], s.start[h+1]; k < end; k++ {
		if q := s.ps[k]; q >= p {
			return int(k), q == p
		}
	}
	return 0, false
}

// Run returns where the run of p's high bits starts among s's positions
// (len of them where p is past the last run): Find's first read. A batch
// of positions looked up a step at a time (each one's run, then each
// run's first position, then each found) has its cache misses overlap,
// where each Find's come one after another.
func (s *Sorted) Run(p engine.Position) int {
	h := uint64(p) >> s.shift
	if h >= uint64(len(s.start)-1) {
		return len(s.ps)
	}
	return int(s.start[h])
}

// At returns the position at place k among s's positions, or 0 where k is
// past them: what Find reads next from Run's place.
func (s *Sorted) At(k int) engine.Position {
	if k < len(s.ps) {
		return s.ps[k]
	}
	return 0
}

// Numbers sets ids[k] to number(ps[k]), or -1 where number finds none,
// having first asked for what Find reads of each of ps (its run's start,
// then that run's first position), a step for all of them at once, so
// that their cache misses overlap before each is numbered: of gives the
// Sorted that p would be found in, or nil to pass p over (its read is
// not asked for; number still decides its id). It returns a sum of what
// it read ahead, for the caller to keep (so that the reads are not
// optimized away).
func Numbers(ps []engine.Position, ids []int32, of func(engine.Position) *Sorted, number func(engine.Position) (int, bool)) uint64 {
	for k, p := range ps {
		ids[k] = -1
		if s := of(p); s != nil {
			ids[k] = int32(s.Run(p))
		}
	}
	var sum engine.Position
	for k, p := range ps {
		if ids[k] >= 0 {
			sum += of(p).At(int(ids[k]))
		}
	}
	for k, p := range ps {
		ids[k] = -1
		if j, ok := number(p); ok {
			ids[k] = int32(j)
		}
	}
	return uint64(sum)
}
