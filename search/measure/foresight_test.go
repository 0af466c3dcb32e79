package measure_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/search"
	"pegs/search/measure"
)

// level is a start and a goal on a board, written as in the tests'
// tables.
type level struct{ board, start, goal string }

func (l level) String() string { return l.board + " " + l.start + " → " + l.goal }

// load returns the board, start and goal of l: its start a hole to vacate
// or a picture.
func (l level) load(t *testing.T) (*engine.Board, engine.Position, engine.Goal) {
	t.Helper()
	b := enginetest.Board(t, l.board)
	p, err := b.Vacate(l.start)
	if err != nil {
		if p, err = b.ParsePosition(l.start); err != nil {
			t.Fatalf("%v: %v", l, err)
		}
	}
	return b, p, enginetest.Goal(t, b, l.goal)
}

// The classic English levels Cross, Plus and Fireplace.
const (
	cross     = "....o...ooo.....o......o........."
	plus      = "....o....o....ooooo....o....o...."
	fireplace = "oooooo..ooo....o.o..............."
)

var foresightLevels = []level{
	{"triangle", "1", "any"},
	{"triangle", "4", "4"},
	{"triangle", "5", "any"},
	{"triangle:6", "1", "any"},
	{"english", cross, "center"},
	{"english", plus, "center"},
	{"english", fireplace, "center"},
}

// TestForesightEnds checks W_k against what is known independently: W_0
// is the random player's win probability, as search.Explore computes it
// (both correctly rounded, so equal); W_1 is P1; W_k never falls as k
// rises, and the curve ends at the first k that always wins, at most
// pegs − 1.
func TestForesightEnds(t *testing.T) {
	for _, l := range foresightLevels {
		t.Run(l.String(), func(t *testing.T) {
			b, p, g := l.load(t)
			m, err := measure.Level(context.Background(), b, p, g, search.DefaultMemory)
			if err != nil {
				t.Fatal(err)
			}
			a, err := search.Explore(context.Background(), search.Problem{Board: b, Start: p, Goal: g}, search.ExploreOptions{})
			if err != nil {
				t.Fatal(err)
			}
			w := m.Foresight
			if len(w) < 2 || len(w) > p.Pegs() {
				t.Fatalf("W = %v: %d values for %d pegs", w, len(w), p.Pegs())
			}
			if w[0] != a.RandomWin {
				t.Errorf("W_0 = %g, Explore's random win %g", w[0], a.RandomWin)
			}
			if w[0] != m.P0 || w[1] != m.P1 {
				t.Errorf("W_0, W_1 = %g, %g; P0, P1 = %g, %g", w[0], w[1], m.P0, m.P1)
			}
			for k := 1; k < len(w); k++ {
				if w[k] < w[k-1] {
					t.Errorf("W_%d = %g falls below W_%d = %g", k, w[k], k-1, w[k-1])
				}
			}
			if w[len(w)-1] != 1 || len(w) > 1 && w[len(w)-2] == 1 {
				t.Errorf("W = %v: want it to end at its first 1", w)
			}
			if f := m.ForesightNeeded(); f < 0 || f > float64(len(w)-1) {
				t.Errorf("foresight needed %g outside 0..%d", f, len(w)-1)
			}
		})
	}
}

// TestForesightBruteForce computes W_k, 1/W_k and J1 of small levels
// again by brute force, in exact rationals: the game tree with no memo and
// no symmetry, the player's knowledge found by searching every line of at
// most k jumps. The level's figures must be those values correctly
// rounded.
func TestForesightBruteForce(t *testing.T) {
	for _, l := range []level{{"english", cross, "center"}, {"english", plus, "center"}, {"english", fireplace, "center"}, {"triangle:4", "1", "any"}} {
		t.Run(l.String(), func(t *testing.T) {
			b, p, g := l.load(t)
			m, err := measure.Level(context.Background(), b, p, g, search.DefaultMemory)
			if err != nil {
				t.Fatal(err)
			}
			for k, got := range m.Foresight {
				w := (player{b, g, k}).win(p)
				if want, _ := w.Float64(); got != want {
					t.Errorf("W_%d = %v; by brute force %v (%v)", k, got, want, w)
				}
				if want, _ := new(big.Rat).Inv(w).Float64(); m.Attempts[k] != want {
					t.Errorf("1/W_%d = %v; by brute force %v", k, m.Attempts[k], want)
				}
			}
			p1 := player{b, g, 1}
			want := math.Inf(1) // a level that cannot be won
			if w := p1.win(p); w.Sign() > 0 {
				want, _ = new(big.Rat).Quo(p1.jumps(p), w).Float64()
			}
			if m.J1 != want {
				t.Errorf("J1 = %v; by brute force %v", m.J1, want)
			}
		})
	}
}

// TestForesightSimulated plays the players of foresight k = 0..6 many
// times on the 15-hole triangle (seeded, so the test is deterministic) and
// checks that they win as often as W_k says, within four standard errors.
func TestForesightSimulated(t *testing.T) {
	const games = 12000
	b, p, g := level{"triangle", "1", "any"}.load(t)
	m, err := measure.Level(context.Background(), b, p, g, search.DefaultMemory)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k <= 6; k++ {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			pl := player{b, g, k}
			rng := rand.New(rand.NewPCG(36, uint64(k)))
			wins := 0
			for range games {
				if pl.play(p, rng) {
					wins++
				}
			}
			want := m.Foresight[k]
			got := float64(wins) / games
			if se := math.Sqrt(want * (1 - want) / games); math.Abs(got-want) > 4*se {
				t.Errorf("won %d of %d games (%.4f); W_%d = %.4f, standard error %.4f", wins, games, got, k, want, se)
			}
		})
	}
}

// player is the player who looks k jumps ahead, played by brute force.
type player struct {
	b    *engine.Board
	goal engine.Goal
	k    int
}

// choices returns the jumps the player may play at p: those it does not
// see lose, or all if it sees every one lose.
func (pl player) choices(p engine.Position) []engine.Jump {
	moves := pl.b.Moves(nil, p)
	if pl.k == 0 {
		return moves
	}
	var ok []engine.Jump
	for _, j := range moves {
		if !pl.lost(p.Apply(j), pl.k-1) {
			ok = append(ok, j)
		}
	}
	if len(ok) == 0 {
		return moves
	}
	return ok
}

// lost reports whether every line of at most depth jumps from p ends in a
// position with no jump left that is not the goal.
func (pl player) lost(p engine.Position, depth int) bool {
	moves := pl.b.Moves(nil, p)
	if len(moves) == 0 {
		return !pl.goal.Reached(p)
	}
	if depth == 0 {
		return false
	}
	for _, j := range moves {
		if !pl.lost(p.Apply(j), depth-1) {
			return false
		}
	}
	return true
}

// win returns the probability that the player wins from p, over the whole
// game tree.
func (pl player) win(p engine.Position) *big.Rat {
	return pl.mean(p, func(p engine.Position) *big.Rat {
		if pl.goal.Reached(p) {
			return big.NewRat(1, 1)
		}
		return new(big.Rat)
	}, 0)
}

// jumps returns the expected number of jumps the player makes from p.
func (pl player) jumps(p engine.Position) *big.Rat {
	return pl.mean(p, func(engine.Position) *big.Rat { return new(big.Rat) }, 1)
}

// mean returns the expected value of a game from p of end at its last
// position plus step per jump.
func (pl player) mean(p engine.Position, end func(engine.Position) *big.Rat, step int64) *big.Rat {
	moves := pl.choices(p)
	if len(moves) == 0 {
		return end(p)
	}
	sum := new(big.Rat)
	for _, j := range moves {
		sum.Add(sum, pl.mean(p.Apply(j), end, step))
	}
	sum.Quo(sum, big.NewRat(int64(len(moves)), 1))
	return sum.Add(sum, big.NewRat(step, 1))
}

// play plays one game from p and reports a win.
func (pl player) play(p engine.Position, rng *rand.Rand) bool {
	for {
		moves := pl.choices(p)
		if len(moves) == 0 {
			return pl.goal.Reached(p)
		}
		p = p.Apply(moves[rng.IntN(len(moves))])
	}
}

func TestForesightNeeded(t *testing.T) {
	for _, c := range []struct {
		name string
		w    []float64
		want float64
	}{
		{"unwinnable", nil, math.Inf(1)},
		{"random wins half", []float64{0.5, 1}, 0},
		{"random wins more", []float64{0.75, 1}, 0},
		{"halfway on log W", []float64{0.25, 1}, 0.5},
		{"exactly at 1", []float64{0.1, 0.5, 1}, 1},
		{"between 1 and 2", []float64{0.01, 0.3, 0.6, 1}, 1 + math.Log(0.5/0.3)/math.Log(2)},
		{"from zero", []float64{0, 0.7, 1}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := measure.Metrics{Foresight: c.w}.ForesightNeeded()
			if math.Abs(got-c.want) > 1e-12 && got != c.want {
				t.Errorf("ForesightNeeded(%v) = %g, want %g", c.w, got, c.want)
			}
		})
	}
}
