package movegen

import "pegs/engine"

// PegJump is a jump the peg at a hole may take next in a chain of jumps
// by one peg (FromHoles: from that hole, over a peg, into an empty hole)
// or undo (ToHoles: a jump that ended there undone, the peg going back
// over an empty hole to its empty from hole): position q allows it where
// q&Need == Want, and it leaves q^Mask, the peg then at Hole. K is its
// index in Gen.Jumps. One test a jump, where a test of each of two holes
// and the direction's branch were: the par search of package bfs, which
// grows moves a jump at a time, took 0.45-0.57 s of CPU an op against
// 0.49-0.61 (BenchmarkPar level=full32 in package search/measure, three
// alternated pairs, loaded machine).
type PegJump struct {
	Need, Want, Mask engine.Position
	K, Hole          int16
}

// FromHoles returns the board's jumps grouped by their from hole, for
// Chains.
func (m *Gen) FromHoles() [][]PegJump {
	byFrom := make([][]PegJump, m.Board.Holes())
	for k, j := range m.Jumps {
		over, to := engine.Position(1)<<uint(j.Over), engine.Position(1)<<uint(j.To)
		byFrom[j.From] = append(byFrom[j.From], PegJump{Need: over | to, Want: over, Mask: m.Masks[k], K: int16(k), Hole: int16(j.To)})
	}
	return byFrom
}

// Step is what a visit of Chains or ReverseChains asks for next.
type Step int

const (
	// Extend goes on: the moving peg's further jumps from the position
	// visited are visited next.
	Extend Step = iota
	// Prune visits no longer chain through the position visited.
	Prune
	// Stop ends the walk.
	Stop
)

// Chains calls visit with the position after every move from p, a move
// being a chain of one or more jumps by one peg, and the move's jumps
// (which visit must not keep); a chain is visited before its extensions.
// byFrom is FromHoles.
func (m *Gen) Chains(p engine.Position, byFrom [][]PegJump, visit func(engine.Position, []engine.Jump) Step) {
	var path []engine.Jump
	var extend func(q engine.Position, h int) bool
	extend = func(q engine.Position, h int) bool {
		for _, s := range byFrom[h] {
			if q&s.Need == s.Want {
				r := q ^ s.Mask
				path = append(path, m.Jumps[s.K])
				switch visit(r, path) {
				case Stop:
					return false
				case Extend:
					if !extend(r, int(s.Hole)) {
						return false
					}
				}
				path = path[:len(path)-1]
			}
		}
		return true
	}
	for _, k := range m.AppendMoves(nil, p) {
		j := m.Jumps[k]
		r := p ^ m.Masks[k]
		path = append(path[:0], j)
		switch visit(r, path) {
		case Stop:
			return
		case Extend:
			if !extend(r, j.To) {
				return
			}
		}
	}
}

// Isolated counts the pegs in p that have no peg beside them along a jump
// line.
func (m *Gen) Isolated(p engine.Position) int {
	return m.LatticeIsolated(m.ToLattice(p))
}

// LatticeIsolated is Isolated of a position given in lattice order (see
// ToLattice): a search that orders many children of one parent puts the
// parent in lattice order once and each child is an XOR of LatMasks away.
func (m *Gen) LatticeIsolated(q engine.Position) int {
	var paired engine.Position
	for i := range m.Groups {
		g := &m.Groups[i]
		paired |= g.From & Shift(q, g.d1)
	}
	return (q &^ paired).Pegs()
}

// ToHoles returns the board's jumps grouped by their to hole, each to be
// undone, for ReverseChains.
func (m *Gen) ToHoles() [][]PegJump {
	byTo := make([][]PegJump, m.Board.Holes())
	for k, j := range m.Jumps {
		over, from := engine.Position(1)<<uint(j.Over), engine.Position(1)<<uint(j.From)
		byTo[j.To] = append(byTo[j.To], PegJump{Need: over | from, Mask: m.Masks[k], K: int16(k), Hole: int16(j.From)})
	}
	return byTo
}

// ReverseChains calls visit with every position from which one move (a
// chain of jumps by one peg) leads to p: the position after undoing a
// jump that ended on a peg of p, then each further jump that peg undoes,
// back to its hole before; a chain is visited before its extensions.
// byTo is ToHoles.
func (m *Gen) ReverseChains(p engine.Position, byTo [][]PegJump, visit func(engine.Position) Step) {
	var extend func(q engine.Position, h int) bool
	extend = func(q engine.Position, h int) bool {
		for _, s := range byTo[h] {
			if q&s.Need == s.Want {
				r := q ^ s.Mask
				switch visit(r) {
				case Stop:
					return false
				case Extend:
					if !extend(r, int(s.Hole)) {
						return false
					}
				}
			}
		}
		return true
	}
	for h := range m.Board.Holes() {
		if p.Has(h) && !extend(p, h) {
			return
		}
	}
}
