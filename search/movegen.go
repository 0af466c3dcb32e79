package search

import (
	"math/bits"

	"pegs/engine"
)

// moveGen finds legal jumps with a few word operations: jumps whose over and
// to holes lie at the same bit offsets from their from hole share one shift
// expression, so every legal jump of a group comes out of one AND. Hole
// indices run row by row over holes only, so rows of different lengths make
// a column's offset differ from row to row; moves are therefore found in
// lattice order, bit row*width+column (when that fits in 64 bits), where
// each jump direction is one offset: four shift groups on square boards,
// six on triangles.
type moveGen struct {
	board  *engine.Board
	jumps  []engine.Jump
	masks  []engine.Position // holes each jump touches
	groups []shiftGroup
	// lattice[k][v] is byte k of a position (holes 8k..8k+7 as the bits of
	// v) in lattice order; nil when hole order is used.
	lattice [][256]engine.Position
	latFull engine.Position // every hole, in lattice order
	group   *engine.Group
	// images[j*g+s] is the image of jumps[j]'s mask under symmetry s of
	// group, so a child's images are its parent's XOR these.
	images []engine.Position
	nsym   int
	// images8 is images padded to eight symmetries per jump (repeating the
	// identity) for groups of at most eight, so childKey8 finds a child's
	// canonical form in registers.
	images8 [][8]engine.Position
}

type shiftGroup struct {
	from   engine.Position // from holes that have a jump in this group
	d1, d2 int             // over = from + d1, to = from + d2
	jump   [engine.MaxHoles]int16
}

func shift(p engine.Position, d int) engine.Position {
	if d >= 0 {
		return p >> uint(d)
	}
	return p << uint(-d)
}

func newMoveGen(b *engine.Board, g *engine.Group) *moveGen {
	m := &moveGen{board: b, jumps: b.Jumps(), group: g, nsym: g.Len()}
	bit := latticeOrder(b)
	if bit != nil {
		n := b.Holes()
		m.lattice = make([][256]engine.Position, (n+7)/8)
		for k := range m.lattice {
			for v := range 256 {
				for i := range 8 {
					if h := 8*k + i; v&(1<<i) != 0 && h < n {
						m.lattice[k][v] |= 1 << uint(bit[h])
					}
				}
			}
		}
		m.latFull = m.toLattice(b.Full())
	} else {
		bit = make([]int, b.Holes())
		for h := range bit {
			bit[h] = h
		}
	}
	idx := map[[2]int]int{}
	for k, j := range m.jumps {
		m.masks = append(m.masks, j.Mask())
		from := bit[j.From]
		key := [2]int{bit[j.Over] - from, bit[j.To] - from}
		gi, ok := idx[key]
		if !ok {
			gi = len(m.groups)
			idx[key] = gi
			m.groups = append(m.groups, shiftGroup{d1: key[0], d2: key[1]})
		}
		m.groups[gi].from |= 1 << uint(from)
		m.groups[gi].jump[from] = int16(k)
	}
	m.images = make([]engine.Position, len(m.jumps)*m.nsym)
	for k, mask := range m.masks {
		for s := range m.nsym {
			m.images[k*m.nsym+s] = g.Apply(s, mask)
		}
	}
	if m.nsym <= 8 {
		m.images8 = make([][8]engine.Position, len(m.jumps))
		for k := range m.images8 {
			for s := range 8 {
				if s < m.nsym {
					m.images8[k][s] = m.images[k*m.nsym+s]
				} else {
					m.images8[k][s] = m.images[k*m.nsym]
				}
			}
		}
	}
	return m
}

// latticeOrder returns each hole's bit in lattice order (row*width+column),
// or nil if the board's lattice is too wide for 64 bits.
func latticeOrder(b *engine.Board) []int {
	width := 0
	for h := range b.Holes() {
		_, c := b.Coord(h)
		width = max(width, c+1)
	}
	bit := make([]int, b.Holes())
	for h := range bit {
		r, c := b.Coord(h)
		if bit[h] = r*width + c; bit[h] >= 64 {
			return nil
		}
	}
	return bit
}

// toLattice returns p in the bit order of the shift groups: lattice order,
// or p itself when the generator uses hole order.
func (m *moveGen) toLattice(p engine.Position) engine.Position {
	if m.lattice == nil {
		return p
	}
	var q engine.Position
	for k := range m.lattice {
		q |= m.lattice[k][byte(p>>(8*uint(k)))]
	}
	return q
}

// appendMoves appends the indices of the legal jumps in p to dst. The
// hottest loops (a layer's expansion into plain keys, meetingKeys) take the
// same steps themselves and work on each jump as it is found, rather than
// write a list of jumps and read it again (English --winnable-only: 0.97 s
// -> 0.89 s).
func (m *moveGen) appendMoves(dst []int16, p engine.Position) []int16 {
	q, empty := m.latticeOf(p)
	for i := range m.groups {
		g := &m.groups[i]
		for f := g.legal(q, empty); f != 0; f &= f - 1 {
			dst = append(dst, g.first(f))
		}
	}
	return dst
}

// latticeOf returns p and its empty holes in the shift groups' bit order
// (see toLattice), for shiftGroup.legal.
func (m *moveGen) latticeOf(p engine.Position) (q, empty engine.Position) {
	if m.lattice == nil {
		return p, ^p
	}
	q = m.toLattice(p)
	return q, m.latFull &^ q
}

// legal returns the from holes of g's jumps that are legal in a position,
// given it and its empty holes as latticeOf returns them.
func (g *shiftGroup) legal(q, empty engine.Position) engine.Position {
	return q & g.from & shift(q, g.d1) & shift(empty, g.d2)
}

// first returns the index of g's jump from the lowest hole of f, a set of
// from holes that legal returned.
func (g *shiftGroup) first(f engine.Position) int16 {
	return g.jump[bits.TrailingZeros64(uint64(f))&(engine.MaxHoles-1)]
}

// canonical returns the least of the images in imgs.
func canonical(imgs []engine.Position) engine.Position {
	c := imgs[0]
	for _, x := range imgs[1:] {
		c = min(c, x)
	}
	return c
}

// childImages writes the images of p ^ jump k into dst given p's images.
func (m *moveGen) childImages(dst, imgs []engine.Position, k int16) {
	im := m.images[int(k)*m.nsym : int(k)*m.nsym+m.nsym]
	for s := range dst {
		dst[s] = imgs[s] ^ im[s]
	}
}

// images8Of writes p's images into dst padded to eight (see moveGen.images8);
// the group must have at most eight symmetries.
func (m *moveGen) images8Of(p engine.Position, dst *[8]engine.Position) {
	m.group.Images(p, dst[:m.nsym])
	for s := m.nsym; s < 8; s++ {
		dst[s] = dst[0]
	}
}

// childKey8 returns the canonical form of p ^ jump k given p's padded
// images.
func (m *moveGen) childKey8(imgs *[8]engine.Position, k int16) engine.Position {
	im := &m.images8[k]
	c := imgs[0] ^ im[0]
	for s := 1; s < 8; s++ {
		c = min(c, imgs[s]^im[s])
	}
	return c
}
