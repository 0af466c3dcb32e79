package measure

import (
	"math"

	"pegs/search/internal/kernel"
)

// foresightOf writes W_1 .. W_{longest−1} of a winnable position to dst
// (of longest−1 values) from its children: wk its winnable ones (in
// below), lost[l] how many of the others have a longest game of l jumps,
// jumps how many it has. The player who looks k jumps ahead sees that a
// jump loses when its child cannot win and its longest game has fewer
// than k jumps (the jump and that game make at most k); it plays the
// other jumps uniformly at random. One can win, so there always are some.
// Each W_k is rounded down, short of the true one by less than longest
// units (see values). W_0 needs no room (it is P0), nor W_k for k ≥
// longest (it is 1), nor any W_k of a position that cannot win (it is 0).
//
// The sums of W_k over the winnable children are made in dst a child at
// a time, its vector added whole (a run of its layer's fore), and the 1s
// of the children whose longest game is shorter counted apart.
func foresightOf(dst []kernel.U128, below *values, wk []winKid, lost *[longestMask + 1]int32, jumps int) {
	clear(dst)
	var ones [longestMask + 2]int32 // ones[k]: children whose W_j is 1 from j = k on
	for _, c := range wk {
		l := int(c.longest)
		if m := min(l-1, len(dst)); m > 0 {
			at := int(below.foreAt[c.at])
			for i, x := range below.fore[at : at+m] {
				dst[i], _ = dst[i].Add(x)
			}
		}
		ones[max(l, 1)]++
	}
	allowed := jumps
	var one kernel.U128 // the 1s so far
	for i := range dst {
		k := i + 1
		allowed -= int(lost[k-1])
		for range ones[k] {
			one, _ = one.Add(kernel.ProbOne)
		}
		sum, _ := dst[i].Add(one)
		dst[i] = kernel.DivFloor(sum, uint64(allowed))
	}
}

// curve returns W_k of position i of v for k from 0 to the first k at
// which W_k is 1, or nil if it cannot win.
func curve(v *values, i int) []kernel.U128 {
	if !v.win(i) {
		return nil
	}
	at, longest := v.winAt(i), v.longest(i)
	var w []kernel.U128
	for k := 0; ; k++ {
		w = append(w, v.w(at, longest, k))
		if w[k] == kernel.ProbOne {
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
