package measure

import (
	"math"

	"pegs/search/internal/exact"
)

// foresight holds the win probabilities W_k of the players of bounded
// foresight (see the package doc) at the winnable positions of a level:
// W_1 .. W_{L−1} of a winnable position whose longest game has L jumps,
// as a vector in fixed-size chunks, so that growing never copies one. The
// other values need no room: W_0 is the node's p0, W_k is 1 for k ≥ L, and
// at a position that cannot win every W_k is 0.
type foresight struct {
	chunks [][]exact.U128
	used   int // in the last chunk
}

// foresightChunk holds many vectors; a vector has fewer than
// engine.MaxHoles values, each a probability in fixed point (see
// exact.ProbOne).
const foresightChunk = 1 << 14

// bytes is the memory the vectors take.
func (f *foresight) bytes() int64 { return int64(len(f.chunks)) * foresightChunk * 16 }

// alloc returns room for a vector of n values and its locator (never 0).
func (f *foresight) alloc(n int) (uint32, []exact.U128) {
	if len(f.chunks) == 0 || f.used+n > foresightChunk {
		f.chunks = append(f.chunks, make([]exact.U128, foresightChunk))
		f.used = 1 // locator 0 means none
	}
	c := len(f.chunks) - 1
	at := f.used
	f.used += n
	return uint32(c*foresightChunk + at), f.chunks[c][at : at+n : at+n]
}

// at returns W_k of the winnable node n, whose longest game has
// n.longest jumps.
func (f *foresight) at(n *levelNode, k int) exact.U128 {
	switch {
	case k >= int(n.longest):
		return exact.ProbOne
	case k == 0:
		return n.p0
	}
	i := int(n.fore) + k - 1
	return f.chunks[i/foresightChunk][i%foresightChunk]
}

// measure computes W_1 .. W_{longest−1} of a winnable position from its
// children (one per jump, measured) and returns the vector's locator, 0
// if the vector is empty. The player who looks k jumps ahead sees that a
// jump loses when its child cannot win and its longest game has fewer
// than k jumps (the jump and that game make at most k); it plays the other
// jumps uniformly at random. One can win, so there always are some. Each
// W_k is rounded down, short of the true one by less than longest units
// (see levelNode).
func (f *foresight) measure(kids []*levelNode, longest int) uint32 {
	if longest < 2 {
		return 0
	}
	// lost[l]: children that cannot win and whose longest game has l jumps.
	var lost [64]int32
	for _, c := range kids {
		if !c.win {
			lost[c.longest]++
		}
	}
	allowed := len(kids)
	loc, vec := f.alloc(longest - 1)
	for k := 1; k < longest; k++ {
		allowed -= int(lost[k-1])
		var sum exact.U128
		for _, c := range kids {
			if c.win {
				sum, _ = sum.Add(f.at(c, k))
			}
		}
		vec[k-1] = exact.DivFloor(sum, uint64(allowed))
	}
	return loc
}

// curve returns W_k of the root for k from 0 to the first k at which W_k
// is 1, or nil if the root cannot win.
func (f *foresight) curve(root *levelNode) []exact.U128 {
	if !root.win {
		return nil
	}
	var w []exact.U128
	for k := 0; ; k++ {
		w = append(w, f.at(root, k))
		if w[k] == exact.ProbOne {
			return w
		}
	}
}

// ForesightNeeded is the look-ahead a player needs to win half of its
// attempts: the smallest k with W_k ≥ 1/2, read between integers on a log
// scale of W (between k−1 and k, where log W_{k−1} and log W_k straddle
// log 1/2). It is 0 if a random player wins half the time, and +Inf if the
// level cannot be won.
func (m Metrics) ForesightNeeded() float64 {
	w := m.Foresight
	for k, wk := range w {
		switch {
		case wk < 0.5:
			continue
		case k == 0:
			return 0
		case w[k-1] == 0:
			return float64(k)
		}
		lo, hi := math.Log(w[k-1]), math.Log(wk)
		return float64(k-1) + (math.Log(0.5)-lo)/(hi-lo)
	}
	return math.Inf(1)
}
