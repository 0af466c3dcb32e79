package dfs

import (
	"math"
	"math/bits"
	"slices"

	"pegs/engine"
	"pegs/search/internal/movegen"
)

// The depth-first solver commits to its first choices: on boards larger
// than the English one a wrong early jump can hold it for minutes (the
// Wiegleb board's centre game). So past beamAfter positions find
// alternates it with beam searches, which look at every choice of a layer
// at once but keep only the best; widths and depth-first budgets grow four
// times a round. A beam search can only find a solution; the depth-first
// search, which resumes with what it has refuted so far, finishes the proof
// when there is none.
//
// The first beams are narrow and come early: a beam 64 wide costs about a
// millisecond on the English board and finds a solution for 59 of the 81
// winnable positions of 20 pegs or more of ten random games, for which
// depth first and then a beam 1,024 wide took about 400,000 positions
// (40 ms); one peg from the French c1, d2 and d3 starts now takes 26,000
// positions (550,000 before). A lost position pays a few milliseconds of
// beams on top of its refutation.
const (
	beamAfter = 1 << 13 // depth-first positions before the first beam
	// coldBeamAfter is beamAfter for a search on tables of its own, with
	// the small endgame table (see smallEndgame): depth first decides
	// fewer positions at the end of its dives, and a beam is worth trying
	// sooner. BenchmarkFirstSolution, 6 alternated runs: the English
	// centre game 1.08 ms -> 0.72 ms, the Wiegleb board's 54 ms -> 41 ms;
	// pegs solve on the French c1 and d3 starts, one peg anywhere, 28,000
	// -> 22,000 positions. (Searches sharing the full table keep
	// beamAfter: with it there, the English centre game took 0.22 ms at
	// 1 << 13 and 0.42 ms at 1 << 11.)
	coldBeamAfter = 1 << 11
	// The fewest-pegs search waits longer: where it must be exhaustive (a
	// dead end that cannot reach its floor) each beam is pure cost. On
	// English dead ends of 14-26 pegs that kept it within 4% of depth first
	// alone (at 1 << 18: 39% slower).
	fewestBeamAfter = 1 << 20
	beamWidth       = 1 << 6  // the first beam's width
	fewestBeamWidth = 1 << 10 // the fewest search's
	beamMaxWidth    = 1 << 16 // past it, depth first goes on alone
)

// beamIsolated is what an isolated peg costs a beam's score (see
// beamScore), by round: the rounds alternate between two weights. Neither
// is best everywhere. Counting isolated pegs 4 (the balanced score alone)
// found the Wiegleb board's centre game after 2.5 million positions, and
// its starts a4, c4 and e1 after 29,000 to 153,000; counting them 8, after
// 0.6 million and 32,000 to 2.5 million. Alternating, starting with 8:
// 0.6 million, and 32,000 to 153,000 for the starts; the diamond board
// vacating e3 26,000 instead of 131,000; 281 winnable positions of 18-28
// pegs of 60 random English games 57 million instead of 63 million in all;
// 272 lost ones of 18-22 pegs (where beams are pure cost) 68 million
// either way. (Both weights every round cost lost positions 17% more.)
var beamIsolated = [2]int{8, 4}

// find reports whether start can meet the goal, leaving the jumps in
// s.path: depth first (win) alone unless Techniques.Beams, which
// alternates it with beam searches (see beamAfter).
func (s *solver) find(start engine.Position) bool {
	if !s.tech.Beams {
		return s.win(start, s.img[0], 0)
	}
	defer func() { s.probeEnd, s.cut = 0, false }()
	budget := int64(beamAfter)
	if s.gt != nil {
		budget = coldBeamAfter // the small endgame table (see coldBeamAfter)
	}
	for round, width := 0, beamWidth; width <= beamMaxWidth; round, width = round+1, width*4 {
		s.probeEnd, s.cut = s.nodes+budget, false
		if s.win(start, s.img[0], 0) {
			return true
		}
		if s.err != nil || !s.cut {
			return false // refuted, or stopped
		}
		if s.beam(start, width, beamIsolated[round%2]) || s.err != nil {
			return s.err == nil
		}
		budget *= 4
	}
	s.probeEnd, s.cut = 0, false
	return s.win(start, s.img[0], 0)
}

// lowest is fewest from start, alternated like find with beam searches,
// which look for a finish of s.floor pegs (a proven lower bound: reaching
// it ends the search).
func (s *solver) lowest(start engine.Position) {
	if !s.tech.Beams {
		s.fewest(start, s.img[0], 0)
		return
	}
	defer func() { s.probeEnd, s.cut = 0, false }()
	budget := int64(fewestBeamAfter)
	for round, width := 0, fewestBeamWidth; width <= beamMaxWidth; round, width = round+1, width*4 {
		s.probeEnd, s.cut = s.nodes+budget, false
		s.fewest(start, s.img[0], 0)
		if s.err != nil || !s.cut || s.best <= s.floor {
			return
		}
		if s.beam(start, width, beamIsolated[round%2]) {
			s.best = s.floor
			s.bestPath = append(s.bestPath[:0], s.path[:s.pegs0-s.floor]...)
			return
		}
		if s.err != nil {
			return
		}
		budget *= 4
	}
	s.probeEnd, s.cut = 0, false
	s.fewest(start, s.img[0], 0)
}

// beamNode is a canonical position of a beam layer, the index of its
// parent in the layer before and its beamScore.
type beamNode struct {
	p      engine.Position
	parent int32
	score  int32
}

// beam searches from start layer by layer, keeping of each layer the width
// positions with the fewest isolated pegs, then the pegs nearest the centre
// (or goal). It stops at the first layer the endgame table covers, where a
// position the table holds is followed to the goal, or at the target's
// pegs (one, or a FewestPegs goal's floor). On success it leaves the jumps in
// s.path.
func (s *solver) beam(start engine.Position, width, isolated int) bool {
	gen := s.gen
	w := gen.NewParent()
	var moves []int16
	imgs := make([]engine.Position, gen.NSym)
	layers := [][]beamNode{{{p: movegen.Canonical(s.img[0]), parent: -1}}}
	// One set of children and one list of them serve every layer: a
	// layer keeps a copy of the widest children alone.
	seen := NewPosSet(s.table.budget)
	var kids []beamNode
	for pegs := s.pegs0 - 1; pegs >= s.target(); pegs-- {
		if err := s.ctx.Err(); err != nil {
			s.err = err
			return false
		}
		cur := layers[len(layers)-1]
		// The distinct children, each with the first parent found.
		kids = kids[:0]
		seen.clear()
		for i, n := range cur {
			if s.maxNodes > 0 && s.nodes >= s.maxNodes {
				s.err = ErrNodeLimit
				return false
			}
			w.Set(n.p)
			moves = gen.AppendMoves(moves[:0], n.p)
			// A child's score from its parent's: the isolated pegs of
			// the child in n's own orientation, which a symmetry does
			// not change, and n's cost plus the jump's shift.
			q, cost, value := gen.ToLattice(n.p), 0, 0
			if s.shift != nil {
				cost = s.pegCost(n.p)
			}
			if s.pagodaSym {
				value = s.pagoda.Value(n.p)
			}
			for _, k := range moves {
				if s.pagodaSym && value+s.rise[k] < s.need {
					continue
				}
				c := w.Child(k)
				if s.pagoda != nil && !s.pagodaSym && s.pagoda.Value(c) < s.need {
					continue
				}
				s.nodes++
				added, err := seen.Add(c)
				if err != nil {
					s.err = err
					return false
				}
				if added {
					score := 0
					if s.shift != nil {
						score = isolated*gen.LatticeIsolated(q^gen.LatMasks[k]) + cost + s.shift[k]
					} else {
						score = s.beamScore(c, isolated)
					}
					kids = append(kids, beamNode{c, int32(i), int32(score)})
				}
			}
		}
		switch {
		case len(kids) == 0:
			return false
		case s.end != nil && pegs <= s.end.maxPegs:
			for i, n := range kids {
				if s.end.has(pegs, gen.Group.Images(n.p, imgs)) {
					return s.finish(start, append(layers, kids), i, true)
				}
			}
			return false
		case pegs == s.target():
			for i, n := range kids {
				if s.reached(n.p) {
					return s.finish(start, append(layers, kids), i, false)
				}
			}
			return false
		}
		layers = append(layers, widest(kids, width))
	}
	return false
}

// widest returns the width nodes of kids with the least score, in their
// order (which breaks ties: it depends only on the layer before), in a
// new slice.
func widest(kids []beamNode, width int) []beamNode {
	if len(kids) <= width {
		return slices.Clone(kids)
	}
	lo, hi := int32(math.MaxInt32), int32(math.MinInt32)
	for _, n := range kids {
		lo, hi = min(lo, n.score), max(hi, n.score)
	}
	// The cut score: the least t with at least width scores <= t; ties at
	// t go in the order of kids. Scores span little (pegs times a few
	// dozen), so counting them finds t in one pass.
	count := make([]int, hi-lo+1)
	for _, n := range kids {
		count[n.score-lo]++
	}
	t, below := lo, 0
	for ; below+count[t-lo] < width; t++ {
		below += count[t-lo]
	}
	out := make([]beamNode, 0, width)
	ties := width - below
	for _, n := range kids {
		if n.score < t || n.score == t && ties > 0 {
			if n.score == t {
				ties--
			}
			out = append(out, n)
		}
	}
	return out
}

// beamScore rates a position for the beam, least best: isolated for each
// isolated peg (see beamIsolated), plus each peg's cost (its distance from
// the centre or goal, and how few jumps can take it off; see newSolver).
// With isolated pegs counting 4 against the other ways: isolated pegs first,
// then distance alone, found the Wiegleb board's centre game only in a beam
// 65,536 wide, after 49.5 million positions (16 s); this way at 4,096, after
// 3.0 million (0.5 s; 2.5 million with the first beams narrower and
// sooner, below), and its starts a4, c4 and e1 after 0.6 million instead of
// 3, 13 and 49 million. The French and triangle problems of the
// benchmarks, found by the first beam either way, took as many positions.
func (s *solver) beamScore(p engine.Position, isolated int) int {
	return isolated*s.gen.Isolated(p) + s.pegCost(p)
}

// pegCost is the part of beamScore that does not count isolated pegs.
func (s *solver) pegCost(p engine.Position) int {
	c := 0
	for q := uint64(p); q != 0; q &= q - 1 {
		c += s.cost[bits.TrailingZeros64(q)]
	}
	return c
}

// finish turns the beam's chain of canonical positions ending at node i of
// the last layer into jumps from start, in s.path, replaying them on start's
// own orientation; from a position the endgame table holds (table) it
// follows the table to the goal.
func (s *solver) finish(start engine.Position, layers [][]beamNode, i int, table bool) bool {
	chain := make([]engine.Position, len(layers))
	for d := len(layers) - 1; d >= 0; d-- {
		chain[d] = layers[d][i].p
		i = int(layers[d][i].parent)
	}
	p := start
	for d := 1; d < len(chain); d++ {
		imgs, next := s.img[d-1], s.img[d]
		found := false
		for _, k := range s.gen.AppendMoves(nil, p) {
			s.gen.ChildImages(next, imgs, k)
			if movegen.Canonical(next) == chain[d] {
				s.path[d-1] = k
				p ^= s.gen.Masks[k]
				found = true
				break
			}
		}
		if !found {
			return false // cannot happen: each link is a jump up to symmetry
		}
	}
	if table {
		return s.follow(p, s.img[len(chain)-1], len(chain)-1)
	}
	return s.reached(p)
}

// target is the pegs the search is after: one, or the floor of a Fewest
// goal.
func (s *solver) target() int {
	if s.goal.Kind == engine.FewestPegs {
		return s.floor
	}
	return 1
}

// reached reports whether p meets the search's goal: the floor's pegs for
// a FewestPegs goal.
func (s *solver) reached(p engine.Position) bool {
	if s.goal.Kind == engine.FewestPegs {
		return p.Pegs() == s.floor
	}
	return s.goal.Reached(p)
}
