package layered

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
)

// TestBitsets grows whole games layer by layer with Bitsets and with
// tables, and checks that the layers hold the same positions and the
// same stats: the English centre game (one class) down to the last
// layers, which are too small for bitsets and are expanded from keys
// again, and the c1 game under the whole group (four classes) down to
// 19 pegs; directly and scattered (on two workers). Without the long runs
// (enginetest.LongRuns), the same kinds of game from the top half of the
// board.
func TestBitsets(t *testing.T) {
	type game struct {
		name, start string // start: a picture of the English board
		whole       bool
		last        int // the pegs of the last layer found
	}
	cases := []game{
		{"centre", "ooo ooo ooooooo ooo.ooo ooooooo ooo ooo", false, 0},
		{"c1-whole", ".oo ooo ooooooo ooooooo ooooooo ooo ooo", true, 19},
	}
	if !enginetest.LongRuns() {
		// The same two kinds of game (one class; four under the whole
		// group) from the top half of the board, tens of times smaller,
		// both down to the layers too small for bitsets.
		cases = []game{
			{"top-centre", topHalf, false, 0},
			{"top-whole", "ooo ooo ooooooo oooo.oo ...o... ... ...", true, 0},
		}
	}
	for _, c := range cases {
		gen, start, _ := gameOf(t, "english", c.start, "any", c.whole)
		first := func() *Layer {
			return &Layer{pegs: start.Pegs(), keys: []uint64{key.Mix(gen.Group.Canonical(start))}}
		}
		// The tables' layers, sorted, and their stats.
		tables := &Expander{gen: gen, mem: memory.New(1 << 33), noDense: true}
		var want [][]uint64
		var wantSt []Stats
		for l := first(); l.Size() > 0 && l.pegs > c.last; {
			next, st, err := tables.Next(context.Background(), l)
			if err != nil {
				t.Fatal(err)
			}
			want, wantSt = append(want, l.keys), append(wantSt, st)
			l = next
		}
		for _, w := range []int{1, 2} {
			for _, at := range []int64{0, 1} {
				if w == 1 && at == 1 {
					continue
				}
				t.Run(fmt.Sprintf("%s/workers=%d/scatter=%v", c.name, w, at == 1), func(t *testing.T) {
					mem := memory.New(1 << 32)
					e := &Expander{gen: gen, workers: w, mem: mem, unsortedKeys: true, bitsets: true, scatterAt: at,
						spent: func(l *Layer) { l.Release(mem) }}
					l := first()
					if err := mem.Take(l.Bytes(), "the first layer"); err != nil {
						t.Fatal(err)
					}
					bitLayers := 0
					for i := 0; l.Size() > 0 && l.pegs > c.last; i++ {
						if i >= len(want) {
							t.Fatalf("layer of %d pegs: %d positions, want none", l.pegs, l.Size())
						}
						if l.dense != nil {
							bitLayers++
						}
						if got := keysOf(l); !slices.Equal(got, want[i]) {
							t.Fatalf("layer of %d pegs: %d positions differ from the tables' %d", l.pegs, len(got), len(want[i]))
						}
						next, st, err := e.Next(context.Background(), l)
						if err != nil {
							t.Fatal(err)
						}
						if diff := cmp.Diff(wantSt[i], st, cmp.AllowUnexported(Stats{})); diff != "" {
							t.Errorf("layer of %d pegs: stats (-tables +bitsets):\n%s", l.pegs, diff)
						}
						l.Release(mem)
						l = next
					}
					if bitLayers < 3 {
						t.Errorf("%d layers held as bitsets, want 3 or more", bitLayers)
					}
					if c.last == 0 && l.Size() > 0 {
						t.Errorf("layer of %d pegs: %d positions, want none", l.pegs, l.Size())
					}
					l.Release(mem)
					if used := inUse(mem); used != 0 {
						t.Errorf("the budget holds %d bytes at the end, want 0", used)
					}
				})
			}
		}
	}
}

// keysOf returns the sorted mixed keys of l's positions, read unit by
// unit as an expansion reads them, and checks the units' counts.
func keysOf(l *Layer) []uint64 {
	var keys []uint64
	var buf []engine.Position
	for lo := 0; lo < l.units(); {
		hi := l.unitsUpTo(lo, 5000)
		buf = l.parentsAt(buf, lo, hi)
		if len(buf) != l.parentsIn(lo, hi) {
			return nil // the counts disagree: no layer matches
		}
		for _, p := range buf {
			keys = append(keys, key.Mix(p))
		}
		lo = hi
	}
	slices.Sort(keys)
	return keys
}
