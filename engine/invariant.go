package engine

import "math/bits"

// Class is a position class: the parities that no jump can change. A jump
// removes pegs from two holes in a line and fills the third, so on any
// 3-colouring of the lattice in which three holes in a line have three
// different colours (Conway's colourings, (row+col) mod 3 and (row-col) mod 3
// on square boards) every jump flips the parity of the peg count of every
// colour. The pairwise sums of those parities are invariant. A position can
// reach another only if both have the same Class.
type Class uint16

// colour finds the board's 3-colourings: linear forms a*row + b*col mod 3
// that are non-zero along every jump direction.
func (b *Board) colour() {
	dirs := b.geom.directions()
	for a := range 3 {
		for c := range 3 {
			// One form of each pair {f, 2f}: the first non-zero coefficient is 1.
			if a == 0 && c != 1 || a == 2 {
				continue
			}
			ok := true
			for _, d := range dirs {
				if ((a*d.r+c*d.c)%3+3)%3 == 0 {
					ok = false
				}
			}
			if !ok {
				continue
			}
			var m [3]Position
			for h, p := range b.holes {
				col := ((a*p.r+c*p.c)%3 + 3) % 3
				m[col] |= 1 << uint(h)
			}
			b.parity[2*b.nclass] = m[0] | m[1]
			b.parity[2*b.nclass+1] = m[1] | m[2]
			b.nclass++
		}
	}
}

// Class returns the position class of p: for each 3-colouring, the
// parities of its pegs on two of the colours together and on the other
// two, a popcount each (see Board.parity).
func (b *Board) Class(p Position) Class {
	m := &b.parity
	if b.nclass == 2 { // every board of orthogonal jumps
		return Class(bits.OnesCount64(uint64(p&m[0]))&1 |
			bits.OnesCount64(uint64(p&m[1]))&1<<1 |
			bits.OnesCount64(uint64(p&m[2]))&1<<2 |
			bits.OnesCount64(uint64(p&m[3]))&1<<3)
	}
	var c Class
	for j := range 2 * b.nclass {
		c |= Class(bits.OnesCount64(uint64(p&m[j]))&1) << uint(j)
	}
	return c
}

// Classes returns how many position classes the board has (1 when it has no
// 3-colouring, as on boards with diagonal jumps).
func (b *Board) Classes() int { return 1 << (2 * uint(b.nclass)) }

// Pagoda is a pagoda function: a weight per hole such that for every jump
// weight(From) + weight(Over) >= weight(To). The total weight of the pegs
// never rises, so a position whose value is below its goal's cannot reach it.
type Pagoda struct {
	weights []int
	tables  [][256]int32
}

// NewPagoda builds a pagoda function from hole weights, or reports false if
// the weights break the pagoda condition on some jump.
func (b *Board) NewPagoda(weights []int) (*Pagoda, bool) {
	if len(weights) != len(b.holes) {
		return nil, false
	}
	for _, j := range b.jumps {
		if weights[j.From]+weights[j.Over] < weights[j.To] {
			return nil, false
		}
	}
	pg := &Pagoda{weights: weights, tables: make([][256]int32, (len(weights)+7)/8)}
	for k := range pg.tables {
		// Each entry is the one without its lowest bit plus that bit's
		// weight: one step an entry.
		t := &pg.tables[k]
		t[0] = 0 // written before it is read (see newGroup)
		for v := 1; v < 256; v++ {
			t[v] = t[v&(v-1)]
			if h := 8*k + bits.TrailingZeros(uint(v)); h < len(weights) {
				t[v] += int32(weights[h])
			}
		}
	}
	return pg, true
}

// Value returns the total weight of the pegs in p.
func (pg *Pagoda) Value(p Position) int {
	var s int32
	for k := range pg.tables {
		s += pg.tables[k][byte(p>>(8*uint(k)))]
	}
	return int(s)
}

// Weight returns the weight of hole h.
func (pg *Pagoda) Weight(h int) int { return pg.weights[h] }

// DistancePagoda returns the pagoda function that weighs each hole by a
// Fibonacci number falling with its lattice distance d from target:
// F(K-d), with F(1) = F(2) = 1 and K one more than the largest distance. Along
// any line the distance is convex and changes by at most one per step, and
// F(n) + F(n+1) = F(n+2), so every jump satisfies the pagoda condition.
func (b *Board) DistancePagoda(target int) *Pagoda {
	t := b.holes[target]
	dist := make([]int, len(b.holes))
	far := 0
	for h, p := range b.holes {
		dist[h] = b.geom.distance(p.r-t.r, p.c-t.c)
		far = max(far, dist[h])
	}
	fib := make([]int, far+3)
	fib[1], fib[2] = 1, 1
	for i := 3; i < len(fib); i++ {
		fib[i] = fib[i-1] + fib[i-2]
	}
	w := make([]int, len(b.holes))
	for h := range w {
		w[h] = fib[far+2-dist[h]]
	}
	pg, ok := b.NewPagoda(w)
	if !ok {
		panic("engine: distance pagoda breaks the pagoda condition")
	}
	return pg
}

// distance is the lattice distance for a step (dr, dc).
func (g Geometry) distance(dr, dc int) int {
	abs := func(x int) int { return max(x, -x) }
	switch g {
	case Diagonal:
		return max(abs(dr), abs(dc))
	case Triangular:
		return (abs(dr) + abs(dc) + abs(dr-dc)) / 2
	default:
		return abs(dr) + abs(dc)
	}
}

// Top returns a hole of greatest weight.
func (pg *Pagoda) Top() int {
	t := 0
	for h, w := range pg.weights {
		if w > pg.weights[t] {
			t = h
		}
	}
	return t
}
