package generate

import (
	"math/bits"
	"strconv"

	"pegs/engine"
)

// Design is what a level's layout looks like to a designer (see the package
// doc's Design section): its connected groups of pegs, its symmetry and its
// compactness. Whether its first winning jump is unique is measured with
// the rest of its metrics (Metrics.UniqueFirst).
type Design struct {
	// Groups counts the connected groups of pegs, pegs being connected
	// when they are neighbours along one of the board's jump directions.
	Groups int `json:"groups"`
	// Symmetry names the subgroup of the board's symmetries that maps the
	// layout onto itself (SymmetryName).
	Symmetry string `json:"symmetry"`
	// Compactness is the share of the pegs' neighbouring holes that hold a
	// peg, from 0 (no two pegs are neighbours) to 1.
	Compactness float64 `json:"compactness"`
}

// neighbours lists each hole's neighbours along the board's jump
// directions: the holes next to it on a line of three that a jump runs
// along.
type neighbours [][]int

func newNeighbours(b *engine.Board) neighbours {
	nb := make(neighbours, b.Holes())
	link := func(x, y int) {
		for _, z := range nb[x] {
			if z == y {
				return
			}
		}
		nb[x] = append(nb[x], y)
		nb[y] = append(nb[y], x)
	}
	for _, j := range b.Jumps() {
		link(j.From, j.Over)
		link(j.Over, j.To)
	}
	return nb
}

// groups counts the connected groups of pegs of p.
func (nb neighbours) groups(p engine.Position) int {
	n := 0
	var seen engine.Position
	stack := make([]int, 0, 64)
	for rest := p; rest != 0; rest &= rest - 1 {
		h := bits.TrailingZeros64(uint64(rest))
		if seen.Has(h) {
			continue
		}
		n++
		seen |= 1 << uint(h)
		stack = append(stack[:0], h)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, y := range nb[x] {
				if p.Has(y) && !seen.Has(y) {
					seen |= 1 << uint(y)
					stack = append(stack, y)
				}
			}
		}
	}
	return n
}

// links returns the pairs of neighbouring pegs of p and the neighbouring
// holes of its pegs, counted once from each peg.
func (nb neighbours) links(p engine.Position) (pegPairs, holes int) {
	for rest := p; rest != 0; rest &= rest - 1 {
		h := bits.TrailingZeros64(uint64(rest))
		holes += len(nb[h])
		for _, y := range nb[h] {
			if p.Has(y) {
				pegPairs++
			}
		}
	}
	return pegPairs / 2, holes
}

// compactness is the Design's: twice the neighbouring peg pairs over the
// pegs' neighbouring holes.
func (nb neighbours) compactness(p engine.Position) float64 {
	pairs, holes := nb.links(p)
	if holes == 0 {
		return 0
	}
	return float64(2*pairs) / float64(holes)
}

// DesignOf returns the design properties of the layout p on board b.
func DesignOf(b *engine.Board, p engine.Position) Design {
	nb := newNeighbours(b)
	return Design{Groups: nb.groups(p), Symmetry: SymmetryName(b, b.Symmetry().Stabilizer(p)), Compactness: nb.compactness(p)}
}

// SymmetryName names a subgroup h of board b's symmetries: "none" for the
// identity alone, "full" for all of the board's symmetries (a board with
// more than one), else by its rotations and mirrors: "mirror", "two
// mirrors" (and the half turn between them), "three mirrors" and so on,
// or without mirrors "half turn", "third turn", "quarter turn", "sixth
// turn" (the smallest turn that maps the layout onto itself).
func SymmetryName(b *engine.Board, h *engine.Group) string {
	n := h.Len()
	switch {
	case n == 1:
		return "none"
	case n == b.Symmetry().Len():
		return "full"
	}
	mirrors := 0
	for s := range n {
		if reflects(b, h.Perm(s)) {
			mirrors++
		}
	}
	switch {
	case mirrors == 1:
		return "mirror"
	case mirrors > 1:
		return numberWord(mirrors) + " mirrors"
	}
	switch n {
	case 2:
		return "half turn"
	case 3:
		return "third turn"
	case 4:
		return "quarter turn"
	case 6:
		return "sixth turn"
	}
	return strconv.Itoa(n) + " turns"
}

func numberWord(n int) string {
	if n < 10 {
		return [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}[n]
	}
	return strconv.Itoa(n)
}

// reflects reports whether the symmetry perm of board b turns the board
// over: it reverses the orientation of a triangle of holes not on a line.
func reflects(b *engine.Board, perm []int) bool {
	x0, y0 := b.Place(0)
	for i := 1; i < len(perm); i++ {
		x1, y1 := b.Place(i)
		for j := i + 1; j < len(perm); j++ {
			x2, y2 := b.Place(j)
			before := (x1-x0)*(y2-y0) - (y1-y0)*(x2-x0)
			if before == 0 {
				continue
			}
			u0, v0 := b.Place(perm[0])
			u1, v1 := b.Place(perm[i])
			u2, v2 := b.Place(perm[j])
			after := (u1-u0)*(v2-v0) - (v1-v0)*(u2-u0)
			return (before > 0) != (after > 0)
		}
	}
	return false
}
