package movegen

import (
	"unsafe"

	"pegs/engine"
)

// kernel is what movesRanksAVX512 reads to find a position's legal jumps:
// its layout is the assembly's (TestKernelLayout checks it).
type kernel struct {
	latFull uint64         // every hole, in lattice order
	groups  uint64         // shift groups in use
	images8 unsafe.Pointer // &Gen.images8[0]
	_       [3]uint64
	group   [8]kernelGroup
}

// kernelGroup is a ShiftGroup for movesRanksAVX512: Shift(x, d) is x >>
// shr << shl, one of the two zero; idx[b] is the index of the group's jump
// from lattice bit b.
type kernelGroup struct {
	from       uint64
	shr1, shl1 uint64 // over = from + d1
	shr2, shl2 uint64 // to = from + d2
	idx        [64]byte
}

// kernelJumps is the most jumps a board with a kernel has (see newKernel).
const kernelJumps = 256

// kernelScratch is the room for one position's jumps, a byte each (at
// most all of a board's), and 64 bytes more: MOVES stores each shift
// group's jumps as a whole vector register, the legal ones first.
const kernelScratch = kernelJumps + 64

// newKernel returns m's kernel, or nil where movesRanksAVX512 cannot run:
// no lattice order, more than eight symmetries or shift groups, more
// than 256 jumps, or a processor without its instructions.
func newKernel(m *Gen) *kernel {
	if m.lattice == nil || m.images8 == nil || len(m.Groups) > 8 || len(m.Jumps) > kernelJumps || !haveMovesAVX512() {
		return nil
	}
	k := &kernel{latFull: uint64(m.latFull), groups: uint64(len(m.Groups)), images8: unsafe.Pointer(&m.images8[0])}
	shifts := func(d int) (shr, shl uint64) {
		if d >= 0 {
			return uint64(d), 0
		}
		return 0, uint64(-d)
	}
	for i := range m.Groups {
		g, kg := &m.Groups[i], &k.group[i]
		kg.from = uint64(g.From)
		kg.shr1, kg.shl1 = shifts(g.d1)
		kg.shr2, kg.shl2 = shifts(g.d2)
		for b := range 64 {
			if g.From&(1<<b) != 0 {
				kg.idx[b] = byte(g.jump[b])
			}
		}
	}
	return k
}

// newImageIndex returns, for imagesBITALG, each symmetry of g (the
// identity past its last, to eight) as the hole whose bit becomes each bit
// of an image, a byte a bit, or nil where it cannot run: more than eight
// symmetries, 64 holes (a bit no hole has stands for the others), or a
// processor without it.
func newImageIndex(g *engine.Group, holes int) *[8][64]byte {
	if g.Len() > 8 || holes >= 64 || !haveImagesBITALG() {
		return nil
	}
	idx := new([8][64]byte)
	for s := range 8 {
		for j := range 64 {
			idx[s][j] = 63 // never a peg
		}
		perm := g.Perm(0)
		if s < g.Len() {
			perm = g.Perm(s)
		}
		for h, to := range perm {
			idx[s][to] = byte(h)
		}
	}
	return idx
}
