package generate

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"pegs/engine"
)

// Shape says what layouts Generate draws (see the package doc's Shapes
// section).
type Shape int

const (
	// ShapeDesigned draws layouts a designer would ship: one group of pegs,
	// compact, and symmetric where the board and the size allow.
	ShapeDesigned Shape = iota
	// ShapeConnected draws compact layouts of one group, with or without a
	// symmetry.
	ShapeConnected
	// ShapeSymmetric draws layouts that a symmetry of the board maps onto
	// themselves, in as many groups as they fall into.
	ShapeSymmetric
	// ShapeAny draws what random backward play from the goal leaves.
	ShapeAny
)

var shapeNames = []string{"designed", "connected", "symmetric", "any"}

func (s Shape) String() string {
	if s >= 0 && int(s) < len(shapeNames) {
		return shapeNames[s]
	}
	return fmt.Sprintf("Shape(%d)", int(s))
}

// ParseShape reads a shape's name: designed, connected, symmetric or any.
func ParseShape(name string) (Shape, error) {
	for i, n := range shapeNames {
		if name == n {
			return Shape(i), nil
		}
	}
	return 0, fmt.Errorf("unknown shape %q (want designed, connected, symmetric or any)", name)
}

// symmetricShare is the share of designed candidates drawn symmetric; the
// rest are drawn with no symmetry, so that sizes and boards where few
// symmetric layouts solve still get levels, and a pool is not only the
// few symmetric layouts of each small size.
const symmetricShare = 0.8

// growTries is how many layouts one candidate draws before it gives up:
// most draws fail the position class of the goal.
const growTries = 64

// grownCandidate grows a layout of one group from a random hole: it adds,
// orbit by orbit, the holes next to it, choosing an orbit with a weight
// that grows as the square of its links to the layout, so that the layout
// stays compact. The orbits are those of a symmetry σ of the board that
// keeps a one-hole goal in place, drawn at random for a symmetric layout
// (the identity otherwise), so that σ maps the layout onto itself. It
// returns a layout of one group that the position classes allow, or 0.
func grownCandidate(b *engine.Board, nb neighbours, opt Options, rng *rand.Rand, target int, symmetric bool) engine.Position {
	g := b.Symmetry()
	if opt.Goal.Kind == engine.OnePegAt {
		g = g.Stabilizer(1 << uint(opt.Goal.Hole))
	}
	n := b.Holes()
	orbit := make([]engine.Position, n)
	sigma := g.Perm(0)
	if symmetric && g.Len() > 1 {
		sigma = g.Perm(1 + rng.IntN(g.Len()-1))
	}
	for h := range n {
		for x := h; !orbit[h].Has(x); x = sigma[x] {
			orbit[h] |= 1 << uint(x)
		}
	}
	weights := make([]int, n)
	for range growTries {
		p := orbit[rng.IntN(n)]
		for p.Pegs() < target {
			// weights[h] is the squared links of hole h's orbit to p,
			// counted at the orbit's least hole.
			total := 0
			for h := range n {
				weights[h] = 0
				if p.Has(h) || lowest(orbit[h]) != h || (p|orbit[h]).Pegs() > opt.MaxPegs {
					continue
				}
				links := 0
				for o := orbit[h]; o != 0; o &= o - 1 {
					for _, y := range nb[lowest(o)] {
						if p.Has(y) {
							links++
						}
					}
				}
				weights[h] = links
				total += weights[h]
			}
			if total == 0 {
				break
			}
			r := rng.IntN(total)
			for h, w := range weights {
				if r < w {
					p |= orbit[h]
					break
				}
				r -= w
			}
		}
		if p.Pegs() >= opt.MinPegs && p.Pegs() <= opt.MaxPegs && nb.groups(p) == 1 && b.Feasible(p, opt.Goal) {
			return p
		}
	}
	return 0
}

// lowest returns the lowest hole of a nonempty position.
func lowest(p engine.Position) int { return bits.TrailingZeros64(uint64(p)) }
