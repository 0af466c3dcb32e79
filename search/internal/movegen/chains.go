package movegen

import "pegs/engine"

// FromHoles returns the board's jumps grouped by their from hole, for
// Chains.
func (m *Gen) FromHoles() [][]int16 {
	byFrom := make([][]int16, m.Board.Holes())
	for k, j := range m.Jumps {
		byFrom[j.From] = append(byFrom[j.From], int16(k))
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
func (m *Gen) Chains(p engine.Position, byFrom [][]int16, visit func(engine.Position, []engine.Jump) Step) {
	var path []engine.Jump
	var extend func(q engine.Position, h int) bool
	extend = func(q engine.Position, h int) bool {
		for _, k := range byFrom[h] {
			j := m.Jumps[k]
			if q.Has(j.Over) && !q.Has(j.To) {
				r := q ^ m.Masks[k]
				path = append(path, j)
				switch visit(r, path) {
				case Stop:
					return false
				case Extend:
					if !extend(r, j.To) {
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

// ToHoles returns the board's jumps grouped by their to hole, for
// ReverseChains.
func (m *Gen) ToHoles() [][]int16 {
	byTo := make([][]int16, m.Board.Holes())
	for k, j := range m.Jumps {
		byTo[j.To] = append(byTo[j.To], int16(k))
	}
	return byTo
}

// ReverseChains calls visit with every position from which one move (a
// chain of jumps by one peg) leads to p: the position after undoing a
// jump that ended on a peg of p, then each further jump that peg undoes,
// back to its hole before; a chain is visited before its extensions.
// byTo is ToHoles.
func (m *Gen) ReverseChains(p engine.Position, byTo [][]int16, visit func(engine.Position) Step) {
	var extend func(q engine.Position, h int) bool
	extend = func(q engine.Position, h int) bool {
		for _, k := range byTo[h] {
			j := m.Jumps[k]
			if !q.Has(j.Over) && !q.Has(j.From) {
				r := q ^ m.Masks[k]
				switch visit(r) {
				case Stop:
					return false
				case Extend:
					if !extend(r, j.From) {
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
