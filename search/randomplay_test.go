package search

import (
	"context"
	"math"
	"math/big"
	"strings"
	"testing"

	"pegs/engine"
	"pegs/engine/enginetest"
)

// exactRandomWins returns, for each goal, the chance that a player
// choosing uniformly among the legal jumps meets it from start, as an
// exact fraction, by a memoized walk of every raw position start reaches.
//
// It counts in integers, not fractions: a position of k pegs stands for
// its chance times L^(k-1), L the least common multiple of the numbers of
// legal jumps met on the walk. A dead end's is L^(k-1) or 0, and a
// position with m jumps has L/m times the sum of its children's, each of
// k-1 pegs: whole numbers, with no fraction reduced on the way.
func exactRandomWins(b *engine.Board, start engine.Position, goals []engine.Goal) []*big.Rat {
	// The numbers of legal jumps met, for L.
	met := make([]bool, len(b.Jumps())+1)
	seen := map[engine.Position]bool{}
	var scan func(p engine.Position)
	scan = func(p engine.Position) {
		if seen[p] {
			return
		}
		seen[p] = true
		moves := b.Moves(nil, p)
		met[len(moves)] = true
		for _, j := range moves {
			scan(p.Apply(j))
		}
	}
	scan(start)
	clear(seen)
	l := big.NewInt(1)
	for m, ok := range met {
		if ok && m > 0 {
			var g big.Int
			n := big.NewInt(int64(m))
			l.Mul(l, n.Div(n, g.GCD(nil, nil, l, n)))
		}
	}
	// Each peg count's jumps, found into one array: a walk holds one
	// position of each at a time.
	moveBufs := make([][]engine.Jump, start.Pegs()+1)
	pow := make([]*big.Int, start.Pegs()) // pow[i] = L^i
	pow[0] = big.NewInt(1)
	for i := 1; i < len(pow); i++ {
		pow[i] = new(big.Int).Mul(pow[i-1], l)
	}
	memo := map[engine.Position][]*big.Int{}
	var walk func(p engine.Position) []*big.Int
	walk = func(p engine.Position) []*big.Int {
		if v, ok := memo[p]; ok {
			return v
		}
		v := make([]*big.Int, len(goals))
		moves := b.Moves(moveBufs[p.Pegs()][:0], p)
		moveBufs[p.Pegs()] = moves
		for i, g := range goals {
			v[i] = new(big.Int)
			if len(moves) == 0 && g.Reached(p) {
				v[i].Set(pow[p.Pegs()-1])
			}
		}
		for _, j := range moves {
			for i, c := range walk(p.Apply(j)) {
				v[i].Add(v[i], c)
			}
		}
		if len(moves) > 0 {
			f := new(big.Int).Div(l, big.NewInt(int64(len(moves))))
			for i := range v {
				v[i].Mul(v[i], f)
			}
		}
		memo[p] = v
		return v
	}
	out := make([]*big.Rat, len(goals))
	for i, v := range walk(start) {
		out[i] = new(big.Rat).SetFrac(v, pow[start.Pegs()-1])
	}
	return out
}

// TestRandomWinExact checks the random player's chance that Explore gives
// against an exact computation with fractions, rounded to the nearest
// float64 by math/big: they must be equal, not close. On the triangles of
// 10, 15 and 21 holes, from every start class the board's symmetry leaves,
// to one peg anywhere and to one peg in the start's own hole; with and
// without complete games counted, and up to the whole group; and that
// RandomChance gives (the chance alone) likewise. Without the
// long runs (enginetest.LongRuns), from one start class of the 21 holes;
// with -short, not the 21 holes.
func TestRandomWinExact(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"triangle:4", "triangle", "triangle:6"} {
		if name == "triangle:6" && testing.Short() {
			continue // the 21-hole triangle's exact chances take seconds
		}
		b := enginetest.Board(t, name)
		reps, _ := startClasses(b)
		if name == "triangle:6" && !enginetest.LongRuns() {
			reps = reps[:1] // its other starts take half a minute
		}
		for _, h := range reps {
			start := b.Full() &^ (1 << uint(h))
			goals := []engine.Goal{{Kind: engine.OnePeg}, {Kind: engine.OnePegAt, Hole: h}}
			exact := exactRandomWins(b, start, goals)
			for gi, g := range goals {
				want, _ := exact[gi].Float64()
				for _, opt := range []ExploreOptions{{}, {NoGames: true}, {WholeGroup: true, NoGames: true}} {
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
				r, err := RandomChance(context.Background(), Problem{b, start, g}, Budget{})
				if err != nil {
					t.Fatal(err)
				}
				if r.Win != want {
					t.Errorf("%s vacate %s, goal %s: RandomChance %v, want %v exactly", name, b.Label(h), b.FormatGoal(g), r.Win, want)
				}
			}
		}
	}
}

// TestRandomChance checks that RandomChance gives Explore's random-play
// chance, the same float64, and its winnable positions, on boards whose
// winnable positions it finds from the goal (one peg anywhere) or meeting
// in the middle (the start the goal's complement): triangles, a 5×5 square,
// a 4×4 board with diagonal jumps, and English problems. Without -short,
// also the English centre game, against the published figure (the peer
// computes it in floating point: 14 digits must agree).
func TestRandomChance(t *testing.T) {
	t.Parallel()
	diag, err := engine.Parse("diagonal4", strings.Repeat("oooo\n", 4), engine.Diagonal)
	if err != nil {
		t.Fatal(err)
	}
	sq5 := enginetest.Square(t, 5)
	eng := engine.English()
	cases := []struct {
		name string
		prob Problem
	}{
		{"triangle:4/2-any", startOrPicture(t, "triangle:4", "2", "any")},
		{"triangle/1-any", startOrPicture(t, "triangle", "1", "any")},
		{"triangle/1-1", startOrPicture(t, "triangle", "1", "1")},
		{"triangle:6/1-any", startOrPicture(t, "triangle:6", "1", "any")},
		{"square5/c1-any", Problem{sq5, enginetest.Vacate(t, sq5, "c1"), enginetest.Goal(t, sq5, "any")}},
		{"diagonal4/a1-any", Problem{diag, enginetest.Vacate(t, diag, "a1"), enginetest.Goal(t, diag, "any")}},
		{"english/diamond", startOrPicture(t, "english", ".o.ooo.ooooo.ooo.ooo.ooooo.ooo.o.", "center")},
		{"english/centre", Problem{eng, eng.Start(), enginetest.Goal(t, eng, "center")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "english/centre" && testing.Short() {
				t.Skip("the English centre game's chance and analysis take seconds")
			}
			a, err := Explore(context.Background(), c.prob, ExploreOptions{NoGames: true})
			if err != nil {
				t.Fatal(err)
			}
			r, err := RandomChance(context.Background(), c.prob, Budget{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if a.RandomWin == 0 {
				t.Fatalf("Explore finds no chance: pick a problem that has one")
			}
			if r.Win != a.RandomWin || r.Winnable != a.Winnable || r.Symmetries != a.Symmetries {
				t.Errorf("RandomChance: chance %v, %d winnable up to %d symmetries; Explore: %v, %d, %d", r.Win, r.Winnable, r.Symmetries, a.RandomWin, a.Winnable, a.Symmetries)
			}
			if c.name == "english/centre" {
				pub := loadPublished(t)
				if d := math.Abs(r.Win-pub.EnglishRandomWin) / pub.EnglishRandomWin; d > 1e-14 {
					t.Errorf("random-play win probability %.17g, the peer's %.17g: relative difference %.2g, want at most 1e-14", r.Win, pub.EnglishRandomWin, d)
				}
			}
		})
	}
}
