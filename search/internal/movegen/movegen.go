package movegen

import (
	"math/bits"
	"sync"
	"unsafe"

	"pegs/engine"
	"pegs/search/internal/key"
)

// Gen finds legal jumps with a few word operations: jumps whose over and
// to holes lie at the same bit offsets from their from hole share one shift
// expression, so every legal jump of a group comes out of one AND. Hole
// indices run row by row over holes only, so rows of different lengths make
// a column's offset differ from row to row; moves are therefore found in
// lattice order, bit row*width+column (when that fits in 64 bits), where
// each jump direction is one offset: four shift groups on square boards,
// six on triangles.
type Gen struct {
	Board *engine.Board
	Jumps []engine.Jump     // the board's jumps; jump k is Jumps[k]
	Masks []engine.Position // holes each jump touches
	// LatMasks are Masks in the bit order of the shift groups (see
	// ToLattice), so a search that keeps a position in that order plays a
	// jump with one XOR.
	LatMasks []engine.Position
	Groups   []ShiftGroup
	// lattice[k][v] is byte k of a position (holes 8k..8k+7 as the bits of
	// v) in lattice order; nil when hole order is used.
	lattice [][256]engine.Position
	latFull engine.Position // every hole, in lattice order
	Group   *engine.Group   // the symmetries children are reduced by
	// images[j*g+s] is the image of Jumps[j]'s mask under symmetry s of
	// Group, so a child's images are its parent's XOR these.
	images []engine.Position
	NSym   int // Group.Len()
	// images8 is images padded to eight symmetries per jump (repeating the
	// identity) for groups of at most eight, so Parent.Child finds a child's
	// canonical form in registers.
	images8 [][8]engine.Position
	// kernel, if set, finds a position's jumps for Parent.MoveRanks in
	// assembly; imageIndex, if set, has Images8Of find the images there.
	kernel     *kernel
	imageIndex *[8][64]byte
	// ranker numbers the board's positions for dense layers, made once
	// for the searches that share the generator (key.NewRanker takes a
	// millisecond, and a walk back asked for one a layer).
	rankerOnce sync.Once
	ranker     *key.Ranker
}

// Ranker returns the key.Ranker of the generator's board, nil where the
// board is too large for one, made at the first call.
func (m *Gen) Ranker() *key.Ranker {
	m.rankerOnce.Do(func() { m.ranker = key.NewRanker(m.Board) })
	return m.ranker
}

// ShiftGroup is the jumps whose over and to holes lie at the same bit
// offsets from their from hole.
type ShiftGroup struct {
	From   engine.Position // from holes that have a jump in this group
	d1, d2 int             // over = from + d1, to = from + d2
	jump   [engine.MaxHoles]int16
}

// Shift returns p shifted right by d bits (left by -d).
func Shift(p engine.Position, d int) engine.Position {
	if d >= 0 {
		return p >> uint(d)
	}
	return p << uint(-d)
}

// New returns the move generator of board b whose children are reduced by
// the symmetries of g.
func New(b *engine.Board, g *engine.Group) *Gen {
	m := &Gen{Board: b, Jumps: b.Jumps(), Group: g, NSym: g.Len()}
	bit := latticeOrder(b)
	if bit != nil {
		n := b.Holes()
		m.lattice = make([][256]engine.Position, (n+7)/8)
		for k := range m.lattice {
			// As engine.Group's tables: an entry is the one without
			// its lowest bit and that bit's place.
			t := &m.lattice[k]
			t[0] = 0 // written before it is read, as in engine.Group's
			for v := 1; v < 256; v++ {
				t[v] = t[v&(v-1)]
				if h := 8*k + bits.TrailingZeros(uint(v)); h < n {
					t[v] |= 1 << uint(bit[h])
				}
			}
		}
		m.latFull = m.ToLattice(b.Full())
	} else {
		bit = make([]int, b.Holes())
		for h := range bit {
			bit[h] = h
		}
	}
	idx := map[[2]int]int{}
	for k, j := range m.Jumps {
		m.Masks = append(m.Masks, j.Mask())
		m.LatMasks = append(m.LatMasks, 1<<uint(bit[j.From])|1<<uint(bit[j.Over])|1<<uint(bit[j.To]))
		from := bit[j.From]
		key := [2]int{bit[j.Over] - from, bit[j.To] - from}
		gi, ok := idx[key]
		if !ok {
			gi = len(m.Groups)
			idx[key] = gi
			m.Groups = append(m.Groups, ShiftGroup{d1: key[0], d2: key[1]})
		}
		m.Groups[gi].From |= 1 << uint(from)
		m.Groups[gi].jump[from] = int16(k)
	}
	m.images = make([]engine.Position, len(m.Jumps)*m.NSym)
	for k, mask := range m.Masks {
		for s := range m.NSym {
			m.images[k*m.NSym+s] = g.Apply(s, mask)
		}
	}
	if m.NSym <= 8 {
		m.images8 = make([][8]engine.Position, len(m.Jumps))
		for k := range m.images8 {
			for s := range 8 {
				if s < m.NSym {
					m.images8[k][s] = m.images[k*m.NSym+s]
				} else {
					m.images8[k][s] = m.images[k*m.NSym]
				}
			}
		}
	}
	m.kernel = newKernel(m)
	m.imageIndex = newImageIndex(g, b.Holes())
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

// ToLattice returns p in the bit order of the shift groups: lattice order,
// or p itself when the generator uses hole order.
func (m *Gen) ToLattice(p engine.Position) engine.Position {
	if m.lattice == nil {
		return p
	}
	var q engine.Position
	for k := range m.lattice {
		q |= m.lattice[k][byte(p>>(8*uint(k)))]
	}
	return q
}

// AppendMoves appends the indices of the legal jumps in p to dst. The
// hottest loops (a layer's expansion into keys, the lookups where two searches meet) take the
// same steps themselves and work on each jump as it is found, rather than
// write a list of jumps and read it again (English --winnable-only: 0.97 s
// -> 0.89 s).
func (m *Gen) AppendMoves(dst []int16, p engine.Position) []int16 {
	q, empty := m.LatticeOf(p)
	for i := range m.Groups {
		g := &m.Groups[i]
		for f := g.Legal(q, empty); f != 0; f &= f - 1 {
			dst = append(dst, g.First(f))
		}
	}
	return dst
}

// LatticeOf returns p and its empty holes in the shift groups' bit order
// (see ToLattice), for ShiftGroup.Legal.
func (m *Gen) LatticeOf(p engine.Position) (q, empty engine.Position) {
	if m.lattice == nil {
		return p, ^p
	}
	q = m.ToLattice(p)
	return q, m.latFull &^ q
}

// Legal returns the from holes of g's jumps that are legal in a position,
// given it and its empty holes as LatticeOf returns them.
func (g *ShiftGroup) Legal(q, empty engine.Position) engine.Position {
	return q & g.From & Shift(q, g.d1) & Shift(empty, g.d2)
}

// First returns the index of g's jump from the lowest hole of f, a set of
// from holes that Legal returned.
func (g *ShiftGroup) First(f engine.Position) int16 {
	return g.jump[bits.TrailingZeros64(uint64(f))&(engine.MaxHoles-1)]
}

// Canonical returns the least of the images in imgs.
func Canonical(imgs []engine.Position) engine.Position {
	c := imgs[0]
	for _, x := range imgs[1:] {
		c = min(c, x)
	}
	return c
}

// ChildImages writes the images of p ^ jump k into dst given p's images.
func (m *Gen) ChildImages(dst, imgs []engine.Position, k int16) {
	im := m.images[int(k)*m.NSym : int(k)*m.NSym+m.NSym]
	for s := range dst {
		dst[s] = imgs[s] ^ im[s]
	}
}

// Images8Of writes p's images into dst padded to eight (see Gen.images8);
// the group must have at most eight symmetries.
func (m *Gen) Images8Of(p engine.Position, dst *[8]engine.Position) {
	if m.imageIndex != nil {
		imagesBITALG(m.imageIndex, uint64(p), (*[8]uint64)(unsafe.Pointer(dst)))
		return
	}
	m.Group.Images(p, dst[:m.NSym])
	for s := m.NSym; s < 8; s++ {
		dst[s] = dst[0]
	}
}
