package search

import (
	"context"
	"math/big"
	"testing"

	"pegs/engine"
	"pegs/engine/enginetest"
)

// exactRandomWin returns the chance that a player choosing uniformly among
// the legal jumps meets goal from p, as an exact fraction, by a memoized
// walk of every raw position p reaches.
func exactRandomWin(b *engine.Board, p engine.Position, goal engine.Goal, memo map[engine.Position]*big.Rat) *big.Rat {
	if r, ok := memo[p]; ok {
		return r
	}
	moves := b.Moves(nil, p)
	r := new(big.Rat)
	if len(moves) == 0 {
		if goal.Reached(p) {
			r.SetInt64(1)
		}
	} else {
		for _, j := range moves {
			r.Add(r, exactRandomWin(b, p.Apply(j), goal, memo))
		}
		r.Quo(r, big.NewRat(int64(len(moves)), 1))
	}
	memo[p] = r
	return r
}

// TestRandomWinExact checks the random player's chance that Explore gives
// against an exact computation with fractions, rounded to the nearest
// float64 by math/big: they must be equal, not close. On the triangles of
// 10, 15 and 21 holes, from every start class the board's symmetry leaves,
// to one peg anywhere and to one peg in the start's own hole; with and
// without complete games counted, and up to the whole group.
func TestRandomWinExact(t *testing.T) {
	for _, name := range []string{"triangle:4", "triangle", "triangle:6"} {
		b := enginetest.Board(t, name)
		reps, _ := startClasses(b)
		for _, h := range reps {
			if name == "triangle:6" && h > 3 && testing.Short() {
				continue
			}
			start := b.Full() &^ (1 << uint(h))
			for _, g := range []engine.Goal{{Kind: engine.OnePeg}, {Kind: engine.OnePegAt, Hole: h}} {
				want, _ := exactRandomWin(b, start, g, map[engine.Position]*big.Rat{}).Float64()
				for _, opt := range []Options{{}, {NoGames: true}, {WholeGroup: true, NoGames: true}} {
					if opt.WholeGroup && g.Kind != engine.OnePeg {
						continue
					}
					a, err := Explore(context.Background(), Problem{b, start, g}, opt)
					if err != nil {
						t.Fatal(err)
					}
					if a.RandomWin != want {
						t.Errorf("%s vacate %s, goal %s, %+v: random win %v, want %v exactly", name, b.Label(h), b.FormatGoal(g), opt, a.RandomWin, want)
					}
				}
			}
		}
	}
}
