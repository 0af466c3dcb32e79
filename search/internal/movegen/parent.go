package movegen

import (
	"slices"
	"unsafe"

	"pegs/engine"
	"pegs/search/internal/key"
)

// Parent holds a position's symmetric images, from which the canonical
// forms of its children come without computing each child's images from
// scratch: a child's images are its parent's XOR the jump's image masks.
// A Parent belongs to one goroutine.
type Parent struct {
	gen     *Gen
	images8 [][8]engine.Position // gen.images8, at hand for Child
	imgs    []engine.Position
	cimgs   []engine.Position
	img8    [8]engine.Position // the parent's images when images8 is set
	// avx512: Ranks runs ranksAVX512 (images8 is set and the processor
	// has AVX-512); kernel: MoveRanks runs movesRanksAVX512 (see
	// newKernel).
	avx512  bool
	kernel  *kernel
	jumps   []int16              // MoveRanks's, in Go
	scratch *[kernelScratch]byte // MoveRanks's, in assembly
	batch   *batchRoom           // MoveRanksBatch's, where it runs in assembly
	// borbit holds the sizes of the orbits of the last MoveRanksBatch's
	// parents where it runs in Go; batched, whether it ran in assembly.
	borbit  []int64
	batched bool
}

// MaxBatch is the most parents MoveRanksBatch takes at once.
const MaxBatch = 32

// batchJumps is the most jumps a board may have for MoveRanksBatch to run
// in assembly: the assembly stores each parent's index under its jumps as
// two vectors, 128 bytes.
const batchJumps = 128

// batchRoom is what movesRanksBatchAVX512 writes besides its children:
// the parents' images, and the jumps of all of them (a byte each, and the
// vector stored past the last) with each one's parent.
type batchRoom struct {
	imgs [MaxBatch][8]engine.Position
	// fixed[i] is how many of parent i's eight images are itself, and
	// orbit[f] the size of the orbit of a parent with f.
	fixed [MaxBatch]byte
	orbit [9]int64
	jids  [MaxBatch*batchJumps + 64]byte
	pids  [MaxBatch*batchJumps + 128]byte
}

// NewParent returns a Parent for gen's positions.
func (m *Gen) NewParent() *Parent {
	w := &Parent{gen: m, images8: m.images8, imgs: make([]engine.Position, m.NSym), cimgs: make([]engine.Position, m.NSym),
		avx512: m.images8 != nil && haveAVX512(), kernel: m.kernel}
	if w.kernel != nil {
		w.scratch = new([kernelScratch]byte)
		if m.imageIndex != nil && len(m.Jumps) <= batchJumps {
			w.batch = new(batchRoom)
			// The images past the group's are the identity's, the
			// parent itself.
			for f := 9 - m.NSym; f <= 8; f++ {
				w.batch.orbit[f] = int64(m.NSym / (f - (8 - m.NSym)))
			}
		}
	}
	return w
}

// Set loads p's images and returns them.
func (w *Parent) Set(p engine.Position) []engine.Position {
	if w.images8 != nil {
		w.gen.Images8Of(p, &w.img8)
		return w.img8[:w.gen.NSym]
	}
	return w.gen.Group.Images(p, w.imgs)
}

// Child returns the canonical form of the child by jump k of the position
// last Set.
func (w *Parent) Child(k int16) engine.Position {
	if w.images8 == nil {
		w.gen.ChildImages(w.cimgs, w.imgs, k)
		return Canonical(w.cimgs)
	}
	// In registers: the images of jump k's holes, eight of them, their
	// least found as a tree of minimums (three deep, where one after
	// another made a chain of seven dependent compares).
	im, p := &w.images8[k], &w.img8
	a := min(p[0]^im[0], p[1]^im[1])
	b := min(p[2]^im[2], p[3]^im[3])
	c := min(p[4]^im[4], p[5]^im[5])
	d := min(p[6]^im[6], p[7]^im[7])
	return min(min(a, b), min(c, d))
}

// Ranks appends to dst the numbers by d of the canonical children by
// jumps of the position last Set, in order: d.Rank(w.Child(k)) for each
// jump k. Where the processor has AVX-512 and the group at most eight
// symmetries it runs in assembly, a child's eight images XORed and their
// least found in two 256-bit registers (BenchmarkRanks, positions of 18
// pegs on the English board: 3.0 ns a child against 5.5 in Go); the two
// agree (TestRanksAgree).
func (w *Parent) Ranks(dst []uint64, jumps []int16, d *key.Dense) []uint64 {
	if !w.avx512 || len(jumps) == 0 {
		for _, k := range jumps {
			dst = append(dst, d.Rank(w.Child(k)))
		}
		return dst
	}
	n := len(dst)
	dst = slices.Grow(dst, len(jumps))[:n+len(jumps)] // written below, not cleared
	cum, lowRank, low := d.Tables()
	ranksAVX512((*[8]uint64)(unsafe.Pointer(&w.img8)), (*[8]uint64)(unsafe.Pointer(&w.images8[0])),
		&jumps[0], len(jumps), &cum[0], &lowRank[0], uint64(low), &dst[n])
	return dst
}

// Children appends to dst the canonical children by jumps of the position
// last Set, in order: w.Child(k) for each jump k, in assembly where Ranks
// is.
func (w *Parent) Children(dst []engine.Position, jumps []int16) []engine.Position {
	if !w.avx512 || len(jumps) == 0 {
		for _, k := range jumps {
			dst = append(dst, w.Child(k))
		}
		return dst
	}
	n := len(dst)
	dst = slices.Grow(dst, len(jumps))[:n+len(jumps)] // written below, not cleared
	ranksAVX512((*[8]uint64)(unsafe.Pointer(&w.img8)), (*[8]uint64)(unsafe.Pointer(&w.images8[0])),
		&jumps[0], len(jumps), nil, nil, 0, (*uint64)(unsafe.Pointer(&dst[n])))
	return dst
}

// MoveRanks appends to dst the numbers by d of the canonical children of
// the position last Set by the legal jumps of mover (that position, or its
// complement to undo jumps, or any whose jumps are wanted), in the order
// of AppendMoves, as Ranks would, and returns them with how many there
// are. Where the generator has a kernel (see newKernel) it runs in
// assembly, the legal jumps found with no branch on which are legal.
func (w *Parent) MoveRanks(dst []uint64, mover engine.Position, d *key.Dense) ([]uint64, int) {
	if w.kernel == nil {
		w.jumps = w.gen.AppendMoves(w.jumps[:0], mover)
		return w.Ranks(dst, w.jumps, d), len(w.jumps)
	}
	n := len(dst)
	dst = slices.Grow(dst, kernelScratch)
	cum, lowRank, low := d.Tables()
	c := movesRanksAVX512(w.kernel, uint64(mover), (*[8]uint64)(unsafe.Pointer(&w.img8)),
		&cum[0], &lowRank[0], uint64(low), w.scratch, unsafe.SliceData(dst[n:n+1]))
	return dst[:n+c], c
}

// MoveChildren appends to dst the canonical children of the position last
// Set by the legal jumps of mover, as MoveRanks finds them but not
// numbered: AppendMoves and Children.
func (w *Parent) MoveChildren(dst []engine.Position, mover engine.Position) []engine.Position {
	if w.kernel == nil {
		w.jumps = w.gen.AppendMoves(w.jumps[:0], mover)
		return w.Children(dst, w.jumps)
	}
	n := len(dst)
	dst = slices.Grow(dst, kernelScratch)
	c := movesRanksAVX512(w.kernel, uint64(mover), (*[8]uint64)(unsafe.Pointer(&w.img8)), nil, nil, 0, w.scratch, (*uint64)(unsafe.Pointer(unsafe.SliceData(dst[n:n+1]))))
	return dst[:n+c]
}

// MoveRanksBatch appends to dst the numbers by d of the canonical children
// of each of ps (at most MaxBatch) by the legal jumps of movers[i] (ps[i]
// where movers is nil), parent after parent, as Set(ps[i]) and
// MoveRanks(dst, movers[i], d) would, and writes to ends[i] how many
// children ps[:i+1] have; BatchOrbit(i) then returns the size of ps[i]'s
// orbit. Where it runs in assembly the children of all the
// parents are made in one loop, eight at a time (see the package doc):
// made a parent at a time, each parent's loop ended with a mispredicted
// branch, and the next parent's jumps and images waited for it.
func (w *Parent) MoveRanksBatch(dst []uint64, ps, movers []engine.Position, d *key.Dense, ends []int32) []uint64 {
	return w.moveBatch(dst, ps, movers, d, ends)
}

// MoveChildrenBatch is MoveRanksBatch with the canonical children
// themselves, not numbered, as MoveChildren finds them: for an expansion
// into tables of keys, not bitsets.
func (w *Parent) MoveChildrenBatch(dst, ps, movers []engine.Position, ends []int32) []engine.Position {
	return asPositions(w.moveBatch(asWords(dst), ps, movers, nil, ends))
}

// moveBatch is MoveRanksBatch, and with d nil MoveChildrenBatch (the
// assembly's cum nil).
func (w *Parent) moveBatch(dst []uint64, ps, movers []engine.Position, d *key.Dense, ends []int32) []uint64 {
	if len(ps) > MaxBatch || len(movers) > 0 && len(movers) != len(ps) || len(ends) < len(ps) {
		panic("movegen: a batch of more than MaxBatch parents, or movers or ends not as many")
	}
	if movers == nil {
		movers = ps
	}
	n := len(dst)
	if w.batched = w.batch != nil && len(ps) > 0; !w.batched {
		w.borbit = w.borbit[:0]
		for i, p := range ps {
			w.borbit = append(w.borbit, OrbitSize(w.Set(p), p))
			if d != nil {
				dst, _ = w.MoveRanks(dst, movers[i], d)
			} else {
				dst = asWords(w.MoveChildren(asPositions(dst), movers[i]))
			}
			ends[i] = int32(len(dst) - n)
		}
		return dst
	}
	var cum *uint32
	var lowRank *uint16
	var low uint
	if d != nil {
		c, lr, l := d.Tables()
		if cap(lr) == len(lr) {
			panic("movegen: a lowRank table with no room past its last entry for the assembly's 32-bit reads")
		}
		cum, lowRank, low = &c[0], &lr[0], l
	}
	dst = slices.Grow(dst, len(ps)*len(w.gen.Jumps))
	r := w.batch
	c := movesRanksBatchAVX512(w.kernel, w.gen.imageIndex, (*uint64)(unsafe.Pointer(&ps[0])), (*uint64)(unsafe.Pointer(&movers[0])), len(ps),
		(*[8]uint64)(unsafe.Pointer(&r.imgs[0])), cum, lowRank, uint64(low), &r.jids[0], &r.pids[0], &ends[0], unsafe.SliceData(dst[n:n+1]), &r.fixed[0])
	return dst[:n+c]
}

// asWords and asPositions view a slice of positions as the words they are
// and back, its length and capacity kept.
func asWords(s []engine.Position) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.SliceData(s)), cap(s))[:len(s)]
}

func asPositions(s []uint64) []engine.Position {
	return unsafe.Slice((*engine.Position)(unsafe.SliceData(s)), cap(s))[:len(s)]
}

// BatchOrbit returns the size of the orbit of parent i of the last
// MoveRanksBatch (see OrbitSize), found with its images.
func (w *Parent) BatchOrbit(i int) int64 {
	if w.batched {
		return w.batch.orbit[w.batch.fixed[i]]
	}
	return w.borbit[i]
}

// OrbitSize returns how many distinct positions imgs, the images of p
// under a group, are: the group's size over the symmetries that fix p.
func OrbitSize(imgs []engine.Position, p engine.Position) int64 {
	fixed := 0
	for _, img := range imgs {
		if img == p {
			fixed++
		}
	}
	return int64(len(imgs) / fixed)
}
