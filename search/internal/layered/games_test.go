package layered

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"testing"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// topHalf is an English position of 20 pegs (the top half full but the
// centre, and d5) whose widest layers, of 60 thousand positions, go into
// bitsets.
const topHalf = "ooo ooo ooooooo ooo.ooo ...o... ... ..."

// gameOf returns the board, the start and a generator for one of the
// games the tests of Games and Win play: on board name from start (a
// hole to vacate, or on the English board a picture), to goal, its
// positions up to the game's symmetries or, with whole, the board's.
func gameOf(t testing.TB, name, start, goal string, whole bool) (*movegen.Gen, engine.Position, engine.Goal) {
	t.Helper()
	b, err := engine.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.Vacate(start)
	if name == "english" {
		p, err = b.ParsePosition(start)
	}
	if err != nil {
		t.Fatal(err)
	}
	g, err := b.ParseGoal(goal)
	if err != nil {
		t.Fatal(err)
	}
	group := b.GameSymmetry(p, g)
	if whole {
		group = b.Symmetry()
	}
	return movegen.New(b, group), p, g
}

// forwardOf returns the forward layers of the game from start that e
// finds, and what each layer's expansion found, by peg count.
func forwardOf(t testing.TB, e *Expander, start engine.Position) ([]*Layer, map[int]Stats) {
	t.Helper()
	first := &Layer{pegs: start.Pegs(), keys: []uint64{key.Mix(e.gen.Group.Canonical(start))}}
	if e.counts {
		first.m = []exact.U128{{Lo: 1}}
	}
	stats := map[int]Stats{}
	fwd, err := Forward(context.Background(), e, first, nil, func(l *Layer, st Stats) {
		stats[l.pegs] = st
	})
	if err != nil {
		t.Fatal(err)
	}
	return fwd, stats
}

// TestGames checks Games against the complete games a forward pass counts
// as it carries path counts (Stats.Games), on layers held as bitsets (of
// one class, and of several where the board's symmetries move the
// start's), as keys and coded, with counts narrow and wide, on one worker
// and two. It also checks that Games gives back what it takes from the
// budget.
func TestGames(t *testing.T) {
	tests := []struct {
		name, board, start, goal string
		whole                    bool
		classes                  int // of the widest layer held as bitsets; 0 for none
	}{
		{name: "triangle15", board: "triangle", start: "1", goal: "any"},
		{name: "triangle21", board: "triangle:6", start: "1", goal: "any", classes: 1},
		{name: "english-top", board: "english", start: topHalf, goal: "center", classes: 1},
		// Off the centre line, so that the board's symmetries move its
		// class.
		{name: "english-top-whole", board: "english", start: "ooo ooo ooooooo oooo.oo ...o... ... ...", goal: "any", whole: true, classes: 4},
	}
	for _, tt := range tests {
		gen, start, _ := gameOf(t, tt.board, tt.start, tt.goal, tt.whole)
		counted := &Expander{gen: gen, counts: true, mem: memory.New(1 << 32)}
		_, stats := forwardOf(t, counted, start)
		var want exact.U128
		for _, st := range stats {
			want, _ = want.Add(st.Games)
		}
		if want.Hi == 0 && want.Lo < 1000 {
			t.Fatalf("%s: %v games, too few to test with", tt.name, want)
		}
		for _, held := range []string{"bitsets", "keys", "coded"} {
			// The default; every count past the first layers' wide; every
			// small count past 2 widened to 64 bits (see gamesOf).
			for k, tune := range []Tuning{{}, {NarrowBelow: 2}, {SmallAbove: 2}} {
				for _, w := range []int{1, 2} {
					if testing.Short() && (w == 2) != (k == 1) {
						continue // -short: each count width once, each worker count once
					}
					t.Run(fmt.Sprintf("%s/held=%s/narrowBelow=%d/smallAbove=%d/workers=%d", tt.name, held, tune.NarrowBelow, tune.SmallAbove, w), func(t *testing.T) {
						mem := memory.New(1 << 32)
						e := &Expander{gen: gen, workers: w, mem: mem, unsortedKeys: true, bitsets: held == "bitsets"}
						if held == "coded" {
							e.store, e.tuning = true, Tuning{StoreShare: 1 << 40}
						}
						fwd, _ := forwardOf(t, e, start)
						classes := 0
						for _, l := range fwd {
							switch {
							case held == "coded" && l.stored == nil && l.Size() > 1:
								t.Fatalf("layer of %d pegs not coded", l.pegs)
							case l.dense != nil:
								classes = max(classes, len(l.dense.num.ds))
							}
						}
						if held == "bitsets" && classes != tt.classes {
							t.Fatalf("the layers held as bitsets have %d classes at most, want %d", classes, tt.classes)
						}
						before := inUse(mem)
						got, err := Games(context.Background(), gen, fwd, Config{Workers: w}, tune, mem)
						if err != nil {
							t.Fatal(err)
						}
						if got != want {
							t.Errorf("games %v, the forward pass counts %v", got.Big(), want.Big())
						}
						if after := inUse(mem); after != before {
							t.Errorf("the budget holds %d bytes after Games, %d before", after, before)
						}
					})
				}
			}
		}
	}
}

// TestGamesErrors checks that Games reports layers that are not a
// forward pass's (a child missing below) and a budget too small for its
// counts.
func TestGamesErrors(t *testing.T) {
	gen, start, _ := gameOf(t, "english", topHalf, "center", false)
	for _, bitsets := range []bool{false, true} {
		fwd, _ := forwardOf(t, &Expander{gen: gen, mem: memory.New(1 << 32), unsortedKeys: true, bitsets: bitsets}, start)
		// The widest layer less its first position, found by every
		// parent above that has it as a child.
		i := 0
		for j, l := range fwd {
			if l.Size() > fwd[i].Size() {
				i = j
			}
		}
		short := slices.Clone(fwd)
		l := *fwd[i]
		if l.dense != nil {
			bl := *l.dense
			bl.sets = [][]uint64{slices.Clone(bl.sets[0])}
			p := l.parentsAt(nil, 0, 1)[0]
			r := bl.num.ds[0].Rank(p)
			bl.sets[0][r/64] &^= 1 << (r % 64)
			l.dense = &bl
		} else {
			l.keys = l.keys[1:]
		}
		short[i] = &l
		if _, err := Games(context.Background(), gen, short, Config{}, Tuning{}, memory.New(1<<32)); err != errLost {
			t.Errorf("bitsets %v: a position missing: %v, want %v", bitsets, err, errLost)
		}
		mem := memory.New(int64(fwd[i].Size()) * 8)
		if _, err := Games(context.Background(), gen, fwd, Config{}, Tuning{}, mem); !errors.Is(err, memory.ErrExceeded) {
			t.Errorf("bitsets %v: within %d bytes: %v, want the budget exceeded", bitsets, mem.Limit(), err)
		}
	}
}

// TestWin checks Win on the winnable positions of games whose widest
// winnable layers go into bitsets (of one class, and of several where the
// board's symmetries move the start's): each position's chance against
// Chances, its paths against those Win finds with an index of keys
// instead of bitsets, and the paths through each layer (the paths from
// the start to a position, counted forward, times those from it to the
// goal) against the solutions, which every layer must give. The whole
// English board's games with the long runs (enginetest.LongRuns), smaller
// ones of the same kinds without.
func TestWin(t *testing.T) {
	type game struct {
		name, start, goal string
		whole             bool
		classes           int // most classes of a layer in bitsets
	}
	tests := []game{
		{"centre", "ooo ooo ooooooo ooo.ooo ooooooo ooo ooo", "center", false, 1},
		{"off-centre-whole", "ooo ooo ooooooo oooo.oo ooooooo ... ...", "any", true, 4},
	}
	if !enginetest.LongRuns() {
		// Smaller games of the same kinds: one class, and four under
		// the whole group.
		tests = []game{
			{"no-bottom-centre", "ooo ooo ooooooo ooo.ooo ooooooo ... ...", "center", false, 1},
			{"top-off-centre-whole", "ooo ooo ooooooo oooo.oo ...o... ... ...", "any", true, 4},
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			testWin(t, tt.start, tt.goal, tt.whole, tt.classes)
		})
	}
}

func testWin(t *testing.T, picture, goalText string, whole bool, classes int) {
	gen, start, goal := gameOf(t, "english", picture, goalText, whole)
	mem := memory.New(1 << 33)
	fwd, _ := forwardOf(t, &Expander{gen: gen, mem: mem, unsortedKeys: true, bitsets: true}, start)
	byPegs := map[int]*Layer{}
	for _, l := range fwd {
		byPegs[l.pegs] = l
	}
	winners := map[int][]uint64{}
	if err := WalkBack(context.Background(), goal, gen, byPegs, start.Pegs(), true, false, Config{}, mem, func(pegs int, keys []uint64) error {
		winners[pegs] = keys
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	widest := 0
	for _, keys := range winners {
		widest = max(widest, len(keys))
	}
	if widest < minDenseParents {
		t.Fatalf("the widest winnable layer has %d positions: too few for bitsets", widest)
	}
	// Paths from the start to each winnable position, counted forward
	// through the winnable positions alone.
	from := map[engine.Position]exact.U128{}
	e := &Expander{gen: gen, counts: true, mem: mem}
	cur := &Layer{pegs: start.Pegs(), keys: winners[start.Pegs()], m: []exact.U128{{Lo: 1}}}
	for {
		for i, k := range cur.keys {
			from[key.Unmix(k)] = cur.Count(i)
		}
		if cur.pegs == 1 {
			break
		}
		e.within = winners[cur.pegs-1]
		next, _, err := e.Next(context.Background(), cur)
		if err != nil {
			t.Fatal(err)
		}
		cur = next
	}
	var below, belowIndexed, belowChances *Winning
	var prevKeys []uint64
	var prevChance []exact.U128
	var solutions exact.U128
	most := 0 // classes of a layer in bitsets
	for pegs := 1; pegs <= start.Pegs(); pegs++ {
		keys := slices.Sorted(slices.Values(winners[pegs]))
		got, err := Win(context.Background(), gen, keys, below, 2, mem)
		if err != nil {
			t.Fatal(err)
		}
		indexed, err := win(context.Background(), gen, keys, belowIndexed, 1, mem, false, false)
		if err != nil {
			t.Fatal(err)
		}
		chances, err := WinChances(context.Background(), gen, keys, belowChances, 2, mem)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range chances.Counts {
			if chances.Pos[i] != got.Pos[i] || c.Chance != got.Counts[i].Chance || pegs > 1 && c.Paths != (exact.U128{}) {
				t.Fatalf("%d pegs, %s: WinChances %v, %v paths; Win %s: %v", pegs, gen.Board.Picture(chances.Pos[i]), c.Chance.Big(), c.Paths.Big(), gen.Board.Picture(got.Pos[i]), got.Counts[i].Chance.Big())
			}
		}
		if got.pl.bl != nil {
			most = max(most, len(got.pl.bl.num.ds))
		}
		// Chances wants the positions in keys' order.
		chance := Chances(context.Background(), gen, keys, prevKeys, prevChance, 2)
		place := map[engine.Position]int{}
		for i, p := range indexed.Pos {
			place[p] = i
		}
		var through exact.U128
		for i, p := range got.Pos {
			j, ok := place[p]
			if !ok {
				t.Fatalf("%d pegs: %s among the positions of the bitsets, not the index's", pegs, gen.Board.Picture(p))
			}
			if got.Counts[i].Paths != indexed.Counts[j].Paths {
				t.Fatalf("%d pegs, %s: %v paths with bitsets, %v with an index", pegs, gen.Board.Picture(p), got.Counts[i].Paths.Big(), indexed.Counts[j].Paths.Big())
			}
			k, _ := slices.BinarySearch(keys, key.Mix(p))
			if got.Counts[i].Chance != chance[k] {
				t.Fatalf("%d pegs, %s: chance %v, Chances %v", pegs, gen.Board.Picture(p), got.Counts[i].Chance.Big(), chance[k].Big())
			}
			hi, lo := bits.Mul64(from[p].Lo, got.Counts[i].Paths.Lo)
			through, _ = through.Add(exact.U128{Lo: lo, Hi: hi})
		}
		if pegs == 1 {
			solutions = through
		} else if through != solutions {
			t.Errorf("%d pegs: %v paths through the layer, %v solutions", pegs, through.Big(), solutions.Big())
		}
		if below != nil {
			below.Free(mem)
			belowIndexed.Free(mem)
			belowChances.Free(mem)
		}
		below, belowIndexed, belowChances, prevKeys, prevChance = got, indexed, chances, keys, chance
	}
	if most != classes {
		t.Errorf("the layers in bitsets have %d classes at most, want %d", most, classes)
	}
	if solutions.Hi != 0 || solutions.Lo == 0 {
		t.Errorf("%v solutions, want some, fewer than 2^64", solutions.Big())
	}
}

// BenchmarkGames measures Games on the English centre game's forward
// layers, held as bitsets as the full analysis holds them, the forward
// pass left out.
func BenchmarkGames(b *testing.B) {
	gen, start, _ := gameOf(b, "english", "ooo ooo ooooooo ooo.ooo ooooooo ooo ooo", "center", false)
	fwd, _ := forwardOf(b, &Expander{gen: gen, workers: 2, mem: memory.New(1 << 33), unsortedKeys: true, bitsets: true}, start)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("board=english/workers=%d", w), func(b *testing.B) {
			for b.Loop() {
				if _, err := Games(context.Background(), gen, fwd, Config{Workers: w}, Tuning{}, memory.New(1<<33)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
