package engine

import (
	"math/bits"
	"slices"
)

// Group is a group of symmetries of a board: permutations of its holes that
// map jumps to jumps. Its first element is the identity. Canonical is the one
// way positions are reduced by symmetry throughout pegs.
type Group struct {
	perms  [][]int
	tables [][][256]Position // tables[s][k][v]: image under s of byte k equal to v
	// On a board that a half turn maps onto itself, the half turn reverses
	// the holes' reading order: the image under s followed by the half
	// turn is the image under s reversed, a few instructions instead of a
	// table lookup a byte. When the group holds the half turn, half lists
	// one symmetry of each such pair and turned[s] the other; else half
	// is nil.
	half   []int
	turned []int
	// trio, for a group of eight that pairs by half turns, holds the images
	// of the three symmetries half lists past the identity side by side:
	// trio[k][v][i] is the image under half[1+i] of byte k equal to v, so
	// that Images reads one row a byte (BenchmarkSymmetry, op=images,
	// English board: 14 ns a position, 28 with a table a symmetry).
	trio [][256][3]Position
}

// newGroup builds a group from hole permutations; perms[0] must be the
// identity.
//
// Its tables fill an entry at a time from entries before, the first
// written, never read, before the rest: memory fresh from the system that
// is read before it is written faults twice, the second time flushing the
// page from every core's TLB (an interrupt to each, through the hypervisor
// on a VM), and reading each table's zero entry first made up about two
// fifths of the time `pegs solve` took to build the English board (perf,
// 400 runs: 5,767 samples in engine.Lookup before, 3,352 after).
func newGroup(perms [][]int) *Group {
	g := &Group{perms: perms}
	n := len(perms[0])
	nb := (n + 7) / 8
	g.tables = make([][][256]Position, len(perms))
	for s, perm := range perms {
		g.tables[s] = make([][256]Position, nb)
		for k := range nb {
			// Each entry is the one without its lowest bit and that
			// bit's image: one step an entry.
			t := &g.tables[s][k]
			t[0] = 0 // written before it is read (see newGroup)
			for v := 1; v < 256; v++ {
				bit := bits.TrailingZeros(uint(v))
				img := t[v&(v-1)]
				if h := 8*k + bit; h < n {
					img |= 1 << uint(perm[h])
				}
				t[v] = img
			}
		}
	}
	g.pairTurns()
	if len(perms) == 8 && len(g.half) == 4 && g.half[0] == 0 {
		g.trio = make([][256][3]Position, nb)
		for k := range nb {
			for v := range 256 {
				for i, s := range g.half[1:] {
					g.trio[k][v][i] = g.tables[s][k][v]
				}
			}
		}
	}
	return g
}

// pairTurns sets g.half and g.turned (see Group) if every symmetry of g
// has its half-turned image in g.
func (g *Group) pairTurns() {
	g.half, g.turned = nil, nil
	n := len(g.perms[0])
	turned := make([]int, len(g.perms))
	var half []int
	for s := range turned {
		turned[s] = -1
	}
	for s, ps := range g.perms {
		if turned[s] >= 0 {
			continue
		}
		for t, pt := range g.perms {
			same := true
			for h := range pt {
				if pt[h] != n-1-ps[h] {
					same = false
					break
				}
			}
			if same && t != s && turned[t] < 0 {
				turned[s], turned[t] = t, s
				half = append(half, s)
				break
			}
		}
		if turned[s] < 0 {
			return
		}
	}
	g.half, g.turned = half, turned
}

// turn returns the image under the half turn of an image img (see Group).
func (g *Group) turn(img Position) Position {
	return Position(bits.Reverse64(uint64(img)) >> uint(64-len(g.perms[0])))
}

// Len returns the number of symmetries, the identity included.
func (g *Group) Len() int { return len(g.perms) }

// Perm returns symmetry s as a permutation: hole h goes to Perm(s)[h]. The
// caller must not modify it.
func (g *Group) Perm(s int) []int { return g.perms[s] }

// Apply returns the image of p under symmetry s.
func (g *Group) Apply(s int, p Position) Position {
	var img Position
	t := g.tables[s]
	for k := range t {
		img |= t[k][byte(p>>(8*uint(k)))]
	}
	return img
}

// trioImages returns the images of p under the three symmetries of half
// past the identity (see Group.trio).
func (g *Group) trioImages(p Position) (a, b, c Position) {
	for k := range g.trio {
		e := &g.trio[k][byte(p>>(8*uint(k)))]
		a, b, c = a|e[0], b|e[1], c|e[2]
	}
	return a, b, c
}

// Canonical returns the least image of p under the group: two positions are
// symmetric images of each other exactly when their canonical forms are
// equal.
func (g *Group) Canonical(p Position) Position {
	if g.trio != nil {
		a, b, c := g.trioImages(p)
		return min(p, g.turn(p), a, g.turn(a), b, g.turn(b), c, g.turn(c))
	}
	best := p
	if g.half != nil {
		for _, s := range g.half {
			img := p
			if s != 0 {
				img = g.Apply(s, p)
			}
			best = min(best, img, g.turn(img))
		}
		return best
	}
	for s := 1; s < len(g.tables); s++ {
		best = min(best, g.Apply(s, p))
	}
	return best
}

// Images writes the image of p under each symmetry into dst, which must have
// room for Len positions, and returns dst[:Len].
func (g *Group) Images(p Position, dst []Position) []Position {
	dst = dst[:len(g.perms)]
	if g.trio != nil {
		a, b, c := g.trioImages(p)
		h, t := g.half[:4], g.turned[:8]
		dst[0], dst[t[0]] = p, g.turn(p)
		dst[h[1]], dst[t[h[1]]] = a, g.turn(a)
		dst[h[2]], dst[t[h[2]]] = b, g.turn(b)
		dst[h[3]], dst[t[h[3]]] = c, g.turn(c)
		return dst
	}
	if g.half != nil {
		for _, s := range g.half {
			img := p
			if s != 0 {
				img = g.Apply(s, p)
			}
			dst[s], dst[g.turned[s]] = img, g.turn(img)
		}
		return dst
	}
	for s := range g.perms {
		dst[s] = g.Apply(s, p)
	}
	return dst
}

// OrbitSize returns the number of distinct images of p under the group.
func (g *Group) OrbitSize(p Position) int {
	var seen [48]Position
	imgs := seen[:0]
	for s := range g.perms {
		q := g.Apply(s, p)
		if !slices.Contains(imgs, q) {
			imgs = append(imgs, q)
		}
	}
	return len(imgs)
}

// Orbit returns the holes that the group's symmetries map hole h to,
// sorted.
func (g *Group) Orbit(h int) []int {
	var in [MaxHoles]bool
	for k := range g.Len() {
		in[g.Perm(k)[h]] = true
	}
	var out []int
	for x, ok := range in {
		if ok {
			out = append(out, x)
		}
	}
	return out
}

// Trivial returns the group holding only the identity, for searches that
// do not reduce by symmetry.
func (g *Group) Trivial() *Group {
	return &Group{perms: g.perms[:1], tables: g.tables[:1]} // no half turn
}

// Stabilizer returns the subgroup of symmetries that map the set of holes in
// p onto itself.
func (g *Group) Stabilizer(p Position) *Group {
	var keep []int
	for s := range g.perms {
		if g.Apply(s, p) == p {
			keep = append(keep, s)
		}
	}
	if len(keep) == len(g.perms) {
		return g
	}
	sub := &Group{}
	for _, s := range keep {
		sub.perms = append(sub.perms, g.perms[s])
		sub.tables = append(sub.tables, g.tables[s])
	}
	sub.pairTurns()
	return sub
}

// symmetries finds the board's symmetries: the linear maps of the lattice
// that permute its jump directions, followed by the translation that brings
// the board back onto itself.
func (b *Board) symmetries() [][]int {
	dirs := b.geom.directions()
	var perms [][]int
	for m := range 81 {
		// m encodes a 2x2 matrix with entries in {-1, 0, 1}; code 68 is the
		// identity, which the rotation below puts first.
		code := (m + 68) % 81
		a, bb, c, d := code%3-1, code/3%3-1, code/9%3-1, code/27%3-1
		if a*d-bb*c != 1 && a*d-bb*c != -1 {
			continue
		}
		mat := func(p point) point { return point{a*p.r + bb*p.c, c*p.r + d*p.c} }
		ok := true
		for _, dir := range dirs {
			if !slices.Contains(dirs, mat(dir)) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		img := make([]point, len(b.holes))
		minR, minC := 1<<30, 1<<30
		oR, oC := 1<<30, 1<<30
		for h, p := range b.holes {
			img[h] = mat(p)
			minR, minC = min(minR, img[h].r), min(minC, img[h].c)
			oR, oC = min(oR, p.r), min(oC, p.c)
		}
		perm := make([]int, len(b.holes))
		for h := range img {
			q := point{img[h].r - minR + oR, img[h].c - minC + oC}
			perm[h] = b.holeAt(q)
			if perm[h] < 0 {
				ok = false
				break
			}
		}
		if ok {
			perms = append(perms, perm)
		}
	}
	return perms
}
