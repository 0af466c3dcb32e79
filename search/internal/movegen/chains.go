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

// Chains calls visit with the position after every move from p, a move
// being a chain of one or more jumps by one peg, and the move's jumps
// (which visit must not keep). byFrom is FromHoles. visit returns false to
// stop.
func (m *Gen) Chains(p engine.Position, byFrom [][]int16, visit func(engine.Position, []engine.Jump) bool) {
	var path []engine.Jump
	var extend func(q engine.Position, h int) bool
	extend = func(q engine.Position, h int) bool {
		for _, k := range byFrom[h] {
			j := m.Jumps[k]
			if q.Has(j.Over) && !q.Has(j.To) {
				r := q ^ m.Masks[k]
				path = append(path, j)
				if !visit(r, path) || !extend(r, j.To) {
					return false
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
		if !visit(r, path) || !extend(r, j.To) {
			return
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
