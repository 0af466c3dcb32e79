package layered

import (
	"unsafe"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/movegen"
)

// record is one child found by a worker when the search carries path
// counts, waiting to be added to its bucket.
type record struct {
	key uint64
	m   exact.U128
}

// paths is a record whose path count fits in 64 bits, which holds for
// every child when the parents' counts are below 2^51 (see narrowEnough):
// two thirds of the bytes to move and hold.
type paths struct {
	key uint64
	m   uint64
}

// packed is a child in a search from several starts: a packed word,
// position and tags (see key.Packing).
type packed uint64

// narrowEnough reports whether every child of l can count its paths in 64
// bits. A child's count sums its parents' counts over the jumps that lead
// to its orbit: at most one per jump undone in each of its images, and no
// board has more than 64 holes x 8 directions x 12 symmetries < 2^13 of
// those, so parents below 2^51 keep every child below 2^64.
func narrowEnough(l *Layer, below uint64) bool {
	for _, m := range l.narrow {
		if m >= below {
			return false
		}
	}
	for _, m := range l.m {
		if m.Hi != 0 || m.Lo >= below {
			return false
		}
	}
	return true
}

// rec is what a bucket holds: a record, a paths record (a 64-bit count), a
// bare mixed key when the search carries no counts (half the bytes of a
// paths record to sort and hold), or a packed word with tags.
// The key is the first word of each, so keyOf reads it without knowing
// which (for a packed word, with its tags: the tables mask them).
type rec interface {
	uint64 | paths | record | packed
}

func keyOf[R rec](r *R) uint64 { return *(*uint64)(unsafe.Pointer(r)) }

// workerState holds one worker's children, one list per bucket, in the
// layer's kind: recs (128-bit counts), paths (64-bit counts), keys (no
// counts) or packs (tagged). Only that kind's lists are set while a layer
// is expanded.
type workerState struct {
	recs  [][]record
	paths [][]paths
	keys  [][]uint64
	packs [][]packed
	par   movegen.Parent // the parent being expanded (a value: the hot loop reaches it without a pointer)
	moves []int16
	// parents holds a chunk of a stored layer's positions, decoded.
	parents []engine.Position
	// ranks holds the numbers of children waiting for their bits (see
	// denseChunk).
	ranks []uint64
	// keptRanks and keptN hold a chunk's children's numbers and each
	// parent's count of them until the chunk is kept (see keptRanks).
	keptRanks []uint32
	keptN     []uint8
	// kids holds the children of the parent being expanded into bitsets
	// (see childrenOf).
	kids []engine.Position
	// undone holds the complements of a batch of parents, whose jumps
	// undone make their parents (see movers).
	undone []engine.Position
	// lows holds the children waiting for their bits by bucket, the bits
	// of their positions below the bucket's (see scatter).
	lows  *blockLists
	stats Stats
}

func newWorkerState(gen *movegen.Gen) *workerState {
	return &workerState{par: *gen.NewParent()}
}

// childrenOf returns the canonical children of p by gen (with undo, its
// parents: the jumps of its complement undone), in w's buffer, and counts
// p's orbit in w's stats and, if it has none, a dead end.
func (w *workerState) childrenOf(gen *movegen.Gen, p engine.Position, undo bool) []engine.Position {
	w.kids = w.par.MoveChildren(w.kids[:0], w.load(gen, p, undo))
	if len(w.kids) == 0 {
		w.stats.DeadEnds++
	}
	return w.kids
}

// movers returns the positions whose jumps make the children of ps, as
// load does for one: ps itself (nil), or with undo their complements on
// board b.
func (w *workerState) movers(ps []engine.Position, b *engine.Board, undo bool) []engine.Position {
	if !undo {
		return nil
	}
	w.undone = w.undone[:0]
	for _, p := range ps {
		w.undone = append(w.undone, b.Full()&^p)
	}
	return w.undone
}

// load loads p into w.par, counts its orbit in w's stats, and returns the
// position whose jumps make its children: p, or with undo its complement
// (whose jumps undone make its parents).
func (w *workerState) load(gen *movegen.Gen, p engine.Position, undo bool) (mover engine.Position) {
	w.stats.Raw += movegen.OrbitSize(w.par.Set(p), p)
	if undo {
		return gen.Board.Full() &^ p
	}
	return p
}

// fold adds r's counts into x (same key) and reports whether the path
// count passed 128 bits.
func (x *record) fold(r *record) (overflow bool) {
	x.m, overflow = x.m.Add(r.m)
	return overflow
}
