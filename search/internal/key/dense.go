package key

import (
	"math"
	"math/bits"
	"sync"

	"pegs/engine"
)

// A Ranker numbers the positions of one peg count and one position class
// on a board densely, 0, 1, 2, ..., in two table reads a position: a
// layer's positions can then be the bits of a bitset (see Dense). The
// position is split into a low part, its low bits, and a high part. The
// positions of k pegs are ordered by high part, then by the low part's
// place among low parts of as many pegs and the same partial class; so a
// position's number is the count of those with a lower high part (a table
// by high part, made for each layer) plus its low part's place (a table by
// low part, made once for the board). The class is linear in the pegs (the
// parities of pegs on colours), so the class of a position is its high
// part's plus its low part's, and the low parts that complete a high part
// to the layer's class are those of one partial class.
type Ranker struct {
	holes   int
	low     uint     // bits of the low part
	lowRank []uint16 // by low part: its place among its pegs and class
	hiClass []uint16 // by high part: its class
	// lows[pegs*classes+class] holds the low parts of that many pegs and
	// that class, in order: lows[...][lowRank[l]] == l.
	lows    [][]uint32
	classes int
	board   *engine.Board
	// made holds the last numberings Layer made, which it hands out again:
	// a layered search asks for a layer's as it sizes the bitsets of the
	// layer before (see layered's roomFor) and again as it expands into
	// them, and each one made is a table of 256 KiB on the English board
	// whose pages fault in, on the search's one goroutine between layers.
	mu   sync.Mutex
	made [rankerKept]*Dense
	next int // the slot of made that Layer fills next
}

// rankerKept is how many numberings a Ranker keeps (see Ranker.made): a
// layer's and the next one's, in each class the search uses at once.
const rankerKept = 4

// MaxDenseHoles is the most holes a Ranker takes: its tables, read for
// every child, are then 2 MiB each or less. The low part is at most 18
// bits, so that its table (512 KiB or less) stays in a core's cache while
// the high part's, 2 MiB on the French board's 37 holes, is read in
// order where the children are scattered first (see the layered
// package); on the English board both are 256 KiB.
const MaxDenseHoles = 37

// NewRanker returns the ranker of board b's positions, or nil where b has
// more than MaxDenseHoles holes or too few classes for a low part's place
// to fit 16 bits.
func NewRanker(b *engine.Board) *Ranker {
	n := b.Holes()
	if n > MaxDenseHoles {
		return nil
	}
	low := uint(min(n, max(16, min(n-16, 18))))
	r := &Ranker{holes: n, low: low, classes: b.Classes(), board: b}
	// Class is linear in the pegs: a part's class is its lowest peg's
	// plus the rest's, found before it.
	unit := make([]uint16, n)
	for h := range unit {
		unit[h] = uint16(b.Class(engine.Position(1) << uint(h)))
	}
	lowClass := make([]uint16, 1<<low)
	count := make([]int, (int(low)+1)*r.classes)
	for l := 1; l < len(lowClass); l++ {
		lowClass[l] = lowClass[l&(l-1)] ^ unit[bits.TrailingZeros(uint(l))]
	}
	for l, c := range lowClass {
		count[bits.OnesCount(uint(l))*r.classes+int(c)]++
	}
	r.lows = make([][]uint32, len(count))
	for i, c := range count {
		if c > math.MaxUint16+1 {
			return nil
		}
		r.lows[i] = make([]uint32, 0, c)
	}
	// One entry more than the low parts, past the slice's length, so
	// that a 32-bit read of any entry (movegen's gathers) stays in it.
	r.lowRank = make([]uint16, 1<<low, 1<<low+1)
	for l, c := range lowClass {
		i := bits.OnesCount(uint(l))*r.classes + int(c)
		r.lowRank[l] = uint16(len(r.lows[i]))
		r.lows[i] = append(r.lows[i], uint32(l))
	}
	r.hiClass = make([]uint16, 1<<(uint(n)-low))
	for h := 1; h < len(r.hiClass); h++ {
		r.hiClass[h] = r.hiClass[h&(h-1)] ^ unit[int(low)+bits.TrailingZeros(uint(h))]
	}
	return r
}

// Dense numbers the positions of one peg count and class (see Ranker).
type Dense struct {
	r     *Ranker
	pegs  int
	class engine.Class
	// cum[h] is the number of the first position of high part h;
	// cum[len(cum)-1] is how many positions there are.
	cum []uint32
}

// Layer returns the numbering of the positions of pegs pegs in class c,
// or nil if they are 2^32 or more.
func (r *Ranker) Layer(pegs int, c engine.Class) *Dense {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range r.made {
		if d != nil && d.pegs == pegs && d.class == c {
			return d
		}
	}
	d := r.layer(pegs, c)
	if d != nil {
		r.made[r.next] = d
		r.next = (r.next + 1) % rankerKept
	}
	return d
}

// layer is Layer, the numbering made.
func (r *Ranker) layer(pegs int, c engine.Class) *Dense {
	d := &Dense{r: r, pegs: pegs, class: c, cum: make([]uint32, len(r.hiClass)+1)}
	var n uint64
	for h := range r.hiClass {
		if n > math.MaxUint32 {
			return nil
		}
		d.cum[h] = uint32(n)
		if need := pegs - bits.OnesCount(uint(h)); need >= 0 && need <= int(r.low) {
			n += uint64(len(r.lows[need*r.classes+int(c^engine.Class(r.hiClass[h]))]))
		}
	}
	if n > math.MaxUint32 {
		return nil
	}
	d.cum[len(r.hiClass)] = uint32(n)
	return d
}

// Class returns the class of the positions d numbers.
func (d *Dense) Class() engine.Class { return d.class }

// Pegs returns the pegs of the positions d numbers.
func (d *Dense) Pegs() int { return d.pegs }

// Board returns the board whose positions d numbers.
func (d *Dense) Board() *engine.Board { return d.r.board }

// Size returns how many positions d numbers: their numbers are below it.
func (d *Dense) Size() uint64 { return uint64(d.cum[len(d.cum)-1]) }

// Rank returns the number of p, a position of d's pegs and class.
func (d *Dense) Rank(p engine.Position) uint64 {
	return uint64(d.cum[p>>d.r.low]) + uint64(d.r.lowRank[p&(1<<d.r.low-1)])
}

// Parts returns the number of high parts: Range and Lows go by them.
func (d *Dense) Parts() int { return len(d.cum) - 1 }

// Range returns the numbers of the positions of high part h: lo to hi-1.
func (d *Dense) Range(h int) (lo, hi uint64) { return uint64(d.cum[h]), uint64(d.cum[h+1]) }

// Lows returns the low parts of the positions of high part h in the order
// of their numbers, and h shifted up into place: the position numbered
// Range(h)'s lo + i is high | lows[i].
func (d *Dense) Lows(h int) (high engine.Position, lows []uint32) {
	lo, hi := d.Range(h)
	if lo == hi {
		return 0, nil
	}
	need := d.pegs - bits.OnesCount(uint(h))
	return engine.Position(h) << d.r.low, d.r.lows[need*d.r.classes+int(d.class^engine.Class(d.r.hiClass[h]))]
}

// Unrank returns the position numbered i (below Size).
func (d *Dense) Unrank(i uint64) engine.Position {
	h := d.Part(i)
	high, lows := d.Lows(h)
	return high | engine.Position(lows[i-uint64(d.cum[h])])
}

// Part returns the high part of the position numbered i (below Size): the
// last h whose Range starts at i or before.
func (d *Dense) Part(i uint64) int {
	lo, hi := 0, d.Parts()
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if uint64(d.cum[m]) <= i {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// ClassKept reports whether every symmetry of g takes the positions of
// p's class on board b into that class, so that their canonical forms
// under g keep it. Class is linear in the pegs, and so is the class of a
// symmetric image: each symmetry's change of class, D(q) = Class(s(q)) xor
// Class(q), must be zero on p's class. It is where D's rows (the holes
// that flip each bit of the class) are sums of Class's rows, D a function
// of the class alone, and D(p) is zero.
func ClassKept(b *engine.Board, g *engine.Group, p engine.Position) bool {
	n := b.Holes()
	classBits := bits.Len(uint(b.Classes() - 1))
	rows := func(f func(engine.Position) engine.Class) []uint64 {
		r := make([]uint64, classBits)
		for h := range n {
			c := f(engine.Position(1) << uint(h))
			for j := range r {
				if c>>uint(j)&1 != 0 {
					r[j] |= 1 << uint(h)
				}
			}
		}
		return r
	}
	basis := reduced(rows(b.Class))
	for s := range g.Len() {
		d := func(q engine.Position) engine.Class { return b.Class(g.Apply(s, q)) ^ b.Class(q) }
		if d(p) != 0 {
			return false
		}
		for _, row := range rows(d) {
			if reduce(basis, row) != 0 {
				return false
			}
		}
	}
	return true
}

// reduced returns rows (vectors over GF(2)) in echelon form: each with a
// leading bit that no later row has.
func reduced(rows []uint64) []uint64 {
	var basis []uint64
	for _, r := range rows {
		if r = reduce(basis, r); r != 0 {
			basis = append(basis, r)
		}
	}
	return basis
}

// reduce returns r less the rows of basis that share its leading bits:
// zero when r is a sum of them.
func reduce(basis []uint64, r uint64) uint64 {
	for _, b := range basis {
		if top := uint64(1) << (63 - bits.LeadingZeros64(b)); r&top != 0 {
			r ^= b
		}
	}
	return r
}

// Tables returns what Rank reads: cum by high part, the low parts' places
// (lowRank) and the bits of a low part, for a caller that ranks in
// assembly. lowRank has room for one entry past its length, so that a
// 32-bit read of its last entry stays inside it.
func (d *Dense) Tables() (cum []uint32, lowRank []uint16, low uint) {
	return d.cum, d.r.lowRank, d.r.low
}
