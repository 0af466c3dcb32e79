package measure

import (
	"context"
	"math/bits"
	"slices"

	"pegs/engine"
	"pegs/search/internal/kernel"
)

// positions is a layer's positions in their order: its keys, or, for a
// layer a forward pass found in the bitset of one class's numbering (see
// layered.Scanned), the numbers set in that bitset, read as they are
// rather than made keys (a bit a number against 8 bytes a position: 26
// MB of keys at the English board's layer of 16 pegs, against its 8.5 MB
// bitset, which the forward layer holds anyway).
type positions struct {
	keys []uint64
	d    *kernel.Dense
	set  []uint64
	n    int
}

// layerPositions returns l's positions: its bitset where it is held as
// the bitset of one class's numbering that the group keeps and of at most
// sixteen words a position (see bitsPlacer), else its keys (made from
// its bitsets by Keyed where it is held so).
func layerPositions(ctx context.Context, gen *kernel.Gen, l *kernel.Layer, workers int, mem *kernel.Budget) (positions, error) {
	d, set, err := l.Bits(ctx, workers, mem)
	if err != nil {
		return positions{}, err
	}
	n := l.Size()
	if d != nil && n > 0 && uint64(len(set)) <= 16*uint64(n) && kernel.ClassKept(gen.Board, gen.Group, d.Unrank(0)) {
		return positions{d: d, set: set, n: n}, nil
	}
	if err := l.Keyed(ctx, workers, mem); err != nil {
		return positions{}, err
	}
	return positions{keys: l.Keys(), n: len(l.Keys())}, nil
}

// cursor reads a layer's positions in order, from one on.
type cursor struct {
	ps *positions
	i  int // the next position's place in ps
	// for a bitset: the number to look for the next set bit from, and
	// the high part of the last number read, its range and low parts.
	r      uint64
	h      int
	lo, hi uint64
	high   engine.Position
	lows   []uint32
}

// cursors returns a cursor at each position of at, which ascend (a
// layer's chunks start so, see chunkBounds), found on workers goroutines:
// the bits set in each run of ps's bitset's words counted first, then
// each run's cursors found in it (in one scan of the bitset on one
// goroutine, the English Full level's grade kept the other core idle for
// 7 ms, traced on a loaded machine).
func (ps *positions) cursors(at []int, workers int) []cursor {
	cs := make([]cursor, len(at))
	for k, i := range at {
		cs[k] = cursor{ps: ps, i: i}
	}
	if ps.d == nil || len(at) == 0 {
		return cs
	}
	words := len(ps.set)
	runs := kernel.ChunkCount(words, workers)
	before := make([]int, runs+1) // the bits set before each run
	kernel.Split(words, workers, runs, func(r, lo, hi int) {
		n := 0
		for _, x := range ps.set[lo:hi] {
			n += bits.OnesCount64(x)
		}
		before[r+1] = n
	})
	for r := range runs {
		before[r+1] += before[r]
	}
	kernel.Split(words, workers, runs, func(r, w, _ int) {
		n := before[r] // the bits set before word w
		for k, _ := slices.BinarySearch(at, n); k < len(at) && at[k] < before[r+1]; k++ {
			// The number of position i: the set bit with i before it.
			i := at[k]
			for ; n+bits.OnesCount64(ps.set[w]) <= i; w++ {
				n += bits.OnesCount64(ps.set[w])
			}
			x := ps.set[w]
			for range i - n {
				x &= x - 1
			}
			c := &cs[k]
			c.r = uint64(w)*64 + uint64(bits.TrailingZeros64(x))
			c.h = ps.d.Part(c.r)
			c.lo, c.hi = ps.d.Range(c.h)
			c.high, c.lows = ps.d.Lows(c.h)
		}
	})
	return cs
}

// next returns the cursor's position and moves it to the next; there
// must be one.
func (c *cursor) next() engine.Position {
	ps := c.ps
	c.i++
	if ps.d == nil {
		return kernel.Unmix(ps.keys[c.i-1])
	}
	w := c.r / 64
	x := ps.set[w] & (^uint64(0) << (c.r % 64))
	for x == 0 {
		w++
		x = ps.set[w]
	}
	r := w*64 + uint64(bits.TrailingZeros64(x))
	c.r = r + 1
	for r >= c.hi {
		c.h++
		c.lo, c.hi = ps.d.Range(c.h)
		c.high, c.lows = ps.d.Lows(c.h)
	}
	return c.high | engine.Position(c.lows[r-c.lo])
}

// bitsPlacer returns the placer of the positions ps holds as a bitset,
// its words each beside the count of the set bits before it, charged to
// mem, made on workers goroutines: the bits set in each run of words
// counted first, then the runs' blocks written (between two layers, where
// one goroutine alone kept the others idle).
func bitsPlacer(ps *positions, mem *kernel.Budget, workers int) (*placer, error) {
	pl := &placer{d: ps.d}
	var err error
	if pl.blocks, pl.words, err = fill[block](len(ps.set), mem, "a layer's numbers", workers); err != nil {
		return nil, err
	}
	words := len(ps.set)
	chunks := kernel.ChunkCount(words, workers)
	before := make([]uint64, chunks+1) // the bits set before each run
	kernel.Split(words, workers, chunks, func(c, lo, hi int) {
		n := uint64(0)
		for _, set := range ps.set[lo:hi] {
			n += uint64(bits.OnesCount64(set))
		}
		before[c+1] = n
	})
	for c := range chunks {
		before[c+1] += before[c]
	}
	kernel.Split(words, workers, chunks, func(c, lo, hi int) {
		n := before[c]
		for w, set := range ps.set[lo:hi] {
			pl.blocks[lo+w] = block{set: set, before: n}
			n += uint64(bits.OnesCount64(set))
		}
	})
	return pl, nil
}
