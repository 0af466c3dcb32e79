package layered

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"pegs/engine"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// englishLayers returns the English centre game's generator and its
// forward layers from the start down to pegs pegs, found with tables.
// Down to 20 pegs, as the tests ask, the layers are found once and each
// call has copies of them to change as it likes.
func englishLayers(t testing.TB, pegs int) (*movegen.Gen, map[int]*Layer) {
	if pegs < englishShared {
		gen, layers, err := findEnglishLayers(pegs)
		if err != nil {
			t.Fatal(err)
		}
		return gen, layers
	}
	shared, err := sharedEnglishLayers()
	if err != nil {
		t.Fatal(err)
	}
	layers := map[int]*Layer{}
	for n, l := range shared.layers {
		if n >= pegs {
			c := *l
			c.keys = slices.Clone(l.keys)
			layers[n] = &c
		}
	}
	return shared.gen, layers
}

// englishShared is the fewest pegs of the layers englishLayers finds once.
const englishShared = 20

var sharedEnglishLayers = sync.OnceValues(func() (englishGame, error) {
	gen, layers, err := findEnglishLayers(englishShared)
	return englishGame{gen, layers}, err
})

type englishGame struct {
	gen    *movegen.Gen
	layers map[int]*Layer
}

func findEnglishLayers(pegs int) (*movegen.Gen, map[int]*Layer, error) {
	bd := engine.English()
	g, err := bd.ParseGoal("center")
	if err != nil {
		return nil, nil, err
	}
	gen := movegen.New(bd, bd.GameSymmetry(bd.Start(), g))
	layers := map[int]*Layer{}
	e := &Expander{gen: gen, mem: memory.New(1 << 33), noDense: true}
	l := &Layer{pegs: bd.Start().Pegs(), keys: []uint64{key.Mix(gen.Group.Canonical(bd.Start()))}}
	layers[l.pegs] = l
	for l.pegs > pegs {
		next, _, err := e.Next(context.Background(), l)
		if err != nil {
			return nil, nil, err
		}
		l = next
		layers[l.pegs] = l
	}
	return gen, layers, nil
}

// asBitLayer returns l (sorted keys of one class) held as its bitset
// alone, as an Expander with Bitsets leaves a layer.
func asBitLayer(t testing.TB, gen *movegen.Gen, l *Layer) *Layer {
	b := gen.Board
	p0 := key.Unmix(l.keys[0])
	d := key.NewRanker(b).Layer(p0.Pegs(), b.Class(p0))
	set, _, ok := fillSet(l.keys, d, p0.Pegs(), 2, memory.New(1<<32))
	if !ok {
		t.Fatal("fillSet refused the layer")
	}
	bl, err := newBitLayer(context.Background(), numberingOf(d), [][]uint64{set}, l.pegs, 2)
	if err != nil {
		t.Fatal(err)
	}
	if bl.Size() != l.Len() {
		t.Fatalf("the bitset holds %d positions, want %d", bl.Size(), l.Len())
	}
	return bl
}

// TestExpandDense checks that a layer expanded into bitsets is the layer
// the tables find, with the same stats, on one worker and two: the
// English centre game's layers of 24 to 21 pegs, and a layer of two
// classes (the 23-peg layer with the children of another start's), which
// the bitsets give back to the tables.
func TestExpandDense(t *testing.T) {
	gen, layers := englishLayers(t, 21)
	bd := gen.Board
	other := bd.Start() &^ (1 << 0) // a corner vacated too: another class
	if bd.Class(other) == bd.Class(bd.Start()) {
		t.Fatal("the test's second start is of the centre game's class")
	}
	mixed := slices.Clone(layers[23].keys)
	for _, j := range bd.Moves(nil, other) {
		mixed = append(mixed, key.Mix(gen.Group.Canonical(other.Apply(j))))
	}
	slices.Sort(mixed)
	mixed = slices.Compact(mixed)
	cases := map[string]*Layer{
		"pegs=24": layers[24], "pegs=23": layers[23], "pegs=22": layers[22],
		"pegs=23/classes=2": {pegs: 23, keys: mixed},
	}
	for name, cur := range cases {
		for _, w := range []int{1, 2} {
			if testing.Short() && w == 1 && name != "pegs=24" {
				continue // -short: one worker on the smallest layer
			}
			t.Run(fmt.Sprintf("%s/workers=%d", name, w), func(t *testing.T) {
				tables := &Expander{gen: gen, workers: w, mem: memory.New(1 << 32), noDense: true}
				want, wantSt, err := tables.Next(context.Background(), cur)
				if err != nil {
					t.Fatal(err)
				}
				dense := &Expander{gen: gen, workers: w, mem: memory.New(1 << 32)}
				if dense.denseFor(cur) == nil {
					t.Fatal("denseFor: no bitset for this layer")
				}
				got, gotSt, err := dense.Next(context.Background(), cur)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.keys, got.keys); diff != "" {
					t.Errorf("keys (-tables +bitsets):\n%s", diff)
				}
				if diff := cmp.Diff(wantSt, gotSt, cmp.AllowUnexported(Stats{})); diff != "" {
					t.Errorf("stats (-tables +bitsets):\n%s", diff)
				}
				if mixedClasses := name == "pegs=23/classes=2"; dense.noDense != mixedClasses {
					t.Errorf("noDense = %v after the layer, want %v", dense.noDense, mixedClasses)
				}
				if used := inUse(dense.mem); used != got.Bytes() {
					t.Errorf("the budget holds %d bytes after the layer, want its %d", used, got.Bytes())
				}
				// Left in the order of its numbers, the same layer once
				// sorted.
				loose := &Expander{gen: gen, workers: w, mem: memory.New(1 << 32), unsortedKeys: true}
				got, _, err = loose.Next(context.Background(), cur)
				if err != nil {
					t.Fatal(err)
				}
				if mixedClasses := name == "pegs=23/classes=2"; got.unsorted == mixedClasses {
					t.Errorf("Unsorted = %v, want %v", got.unsorted, !mixedClasses)
				}
				if got.unsorted && slices.IsSorted(got.keys) {
					t.Errorf("an Unsorted layer of %d keys is sorted", got.Len())
				}
				got.Sort(w)
				if diff := cmp.Diff(want.keys, got.keys); diff != "" {
					t.Errorf("keys (-tables +unsorted bitsets):\n%s", diff)
				}
			})
		}
	}
}

// TestExpandDenseClasses checks the bitsets of several classes against
// the tables on layers whose canonical forms are of four classes: the
// English board's game from c1, reduced by the whole board's symmetries,
// which move c1's class.
func TestExpandDenseClasses(t *testing.T) {
	bd := engine.English()
	start, err := bd.Vacate("c1")
	if err != nil {
		t.Fatal(err)
	}
	gen := movegen.New(bd, bd.Symmetry())
	if key.ClassKept(bd, gen.Group, start) {
		t.Fatal("the board's symmetries keep c1's class: the test needs a game whose canonical forms are of several")
	}
	layers := map[int]*Layer{}
	tables := &Expander{gen: gen, mem: memory.New(1 << 33), noDense: true}
	l := &Layer{pegs: start.Pegs(), keys: []uint64{key.Mix(gen.Group.Canonical(start))}}
	for l.pegs > 22 {
		next, _, err := tables.Next(context.Background(), l)
		if err != nil {
			t.Fatal(err)
		}
		l = next
		layers[l.pegs] = l
	}
	for _, pegs := range []int{24, 23} {
		cur := layers[pegs]
		for _, w := range []int{1, 2} {
			for _, unsorted := range []bool{false, true} {
				if testing.Short() && (w == 2) != unsorted {
					continue // -short: each order once, each worker count once
				}
				t.Run(fmt.Sprintf("pegs=%d/workers=%d/unsorted=%v", pegs, w, unsorted), func(t *testing.T) {
					tables := &Expander{gen: gen, workers: w, mem: memory.New(1 << 32), noDense: true}
					want, wantSt, err := tables.Next(context.Background(), cur)
					if err != nil {
						t.Fatal(err)
					}
					dense := &Expander{gen: gen, workers: w, mem: memory.New(1 << 32), unsortedKeys: unsorted}
					num := dense.denseFor(cur)
					if num == nil || len(num.ds) < 2 {
						t.Fatalf("denseFor: %v, want a numbering of several classes", num)
					}
					got, gotSt, err := dense.Next(context.Background(), cur)
					if err != nil {
						t.Fatal(err)
					}
					if dense.noDense {
						t.Error("the bitsets gave the layer back to the tables")
					}
					if got.unsorted != unsorted {
						t.Errorf("Unsorted = %v, want %v", got.unsorted, unsorted)
					}
					got.Sort(w)
					if diff := cmp.Diff(want.keys, got.keys); diff != "" {
						t.Errorf("keys (-tables +bitsets):\n%s", diff)
					}
					if diff := cmp.Diff(wantSt, gotSt, cmp.AllowUnexported(Stats{})); diff != "" {
						t.Errorf("stats (-tables +bitsets):\n%s", diff)
					}
					if used := inUse(dense.mem); used != got.Bytes() {
						t.Errorf("the budget holds %d bytes after the layer, want its %d", used, got.Bytes())
					}
				})
			}
		}
	}
}

// TestMeetingDense checks MeetingKeys with the goal as a bitset against
// the definition: the English centre game's 21-peg positions with a child
// whose complement, made canonical, is in goal, a sample of complements
// of 13 pegs.
func TestMeetingDense(t *testing.T) {
	gen, layers := englishLayers(t, 21)
	bd := gen.Board
	keys := layers[21].keys
	var goal []uint64
	for i, k := range keys {
		if i%3 != 0 {
			continue
		}
		p := key.Unmix(k)
		if js := bd.Moves(nil, p); len(js) > 0 {
			goal = append(goal, key.Mix(gen.Group.Canonical(bd.Complement(p.Apply(js[len(js)-1])))))
		}
	}
	slices.Sort(goal)
	goal = slices.Compact(goal)
	in := map[uint64]bool{}
	for _, k := range goal {
		in[k] = true
	}
	var want []uint64
	for _, k := range keys {
		p := key.Unmix(k)
		for _, j := range bd.Moves(nil, p) {
			if in[key.Mix(gen.Group.Canonical(bd.Complement(p.Apply(j))))] {
				want = append(want, k)
				break
			}
		}
	}
	goalBitsets := asBitLayer(t, gen, &Layer{pegs: key.Unmix(goal[0]).Pegs(), keys: goal})
	fromBitsets := asBitLayer(t, gen, layers[21])
	for _, w := range []int{1, 2} {
		for _, held := range []string{"keys", "bitsets"} {
			t.Run(fmt.Sprintf("workers=%d/held=%s", w, held), func(t *testing.T) {
				mem := memory.New(1 << 32)
				from, g, gl := &Layer{pegs: 21, keys: keys}, goal, (*Layer)(nil)
				if held == "bitsets" {
					// Both sides as bitsets alone: the positions found
					// come in the order of their numbers.
					from, g, gl = fromBitsets, nil, goalBitsets
				}
				got, ok, err := meetingDense(context.Background(), from, g, gl, gen, Config{Workers: w}, mem)
				if err != nil || !ok {
					t.Fatalf("meetingDense: ok %v, %v", ok, err)
				}
				if held == "bitsets" {
					slices.Sort(got)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("winnable keys (-want +got):\n%s", diff)
				}
				if inUse(mem) != 0 {
					t.Errorf("the budget holds %d bytes after, want 0", inUse(mem))
				}
			})
		}
	}
}

// BenchmarkNextLayer measures the widest expansions of the English centre
// game's forward search, 18 pegs to 17 and 17 to 16, into tables and into
// bitsets (see expandDense).
func BenchmarkNextLayer(b *testing.B) {
	gen, layers := englishLayers(b, 17)
	for _, pegs := range []int{18, 17} {
		for _, store := range []string{"tables", "bitset"} {
			for _, w := range []int{1, 2} {
				b.Run(fmt.Sprintf("from=%d/store=%s/workers=%d", pegs, store, w), func(b *testing.B) {
					var n int
					for b.Loop() {
						e := &Expander{gen: gen, workers: w, mem: memory.New(1 << 33), noDense: store == "tables"}
						next, _, err := e.Next(context.Background(), layers[pegs])
						if err != nil {
							b.Fatal(err)
						}
						n = next.Len()
					}
					b.ReportMetric(float64(n), "positions")
				})
			}
		}
	}
}

// TestParentsDense checks ParentsOf with the parents marked in bitsets
// against the tables closed on the layer's keys: the English centre
// game's 21-peg positions with a child among a third of its 20-peg ones,
// from the keys, the layer coded, and its bitsets, plain and packed.
func TestParentsDense(t *testing.T) {
	gen, layers := englishLayers(t, 20)
	var next []uint64
	for i, k := range layers[20].keys {
		if i%3 == 0 {
			next = append(next, k)
		}
	}
	l := layers[21]
	tables := &Expander{gen: gen, mem: memory.New(1 << 32), within: l.keys, undo: true}
	want, _, err := tables.Grow(context.Background(), &Layer{pegs: l.pegs + 1, keys: next})
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range []string{"sorted", "stored", "unsorted", "bitsets", "packed"} {
		for _, w := range []int{1, 2} {
			if testing.Short() && w == 1 && order != "sorted" {
				continue // -short: one worker on one order
			}
			t.Run(fmt.Sprintf("order=%s/workers=%d", order, w), func(t *testing.T) {
				cur := &Layer{pegs: l.pegs, keys: slices.Clone(l.keys)}
				mem := memory.New(1 << 32)
				if err := mem.Take(cur.Bytes(), "the layer"); err != nil {
					t.Fatal(err)
				}
				switch order {
				case "stored":
					cur.Store(gen.Board.Holes(), w, mem)
				case "unsorted":
					rand.New(rand.NewPCG(1, 2)).Shuffle(cur.Len(), func(i, j int) {
						cur.keys[i], cur.keys[j] = cur.keys[j], cur.keys[i]
					})
					cur.unsorted = true
				case "bitsets", "packed":
					mem.Give(cur.Bytes())
					cur = asBitLayer(t, gen, cur)
					if err := mem.Take(cur.Bytes(), "the bitsets"); err != nil {
						t.Fatal(err)
					}
					if order == "packed" && !cur.Pack(w, mem) {
						t.Fatal("Pack left the layer")
					}
				}
				if order == "bitsets" || order == "packed" {
					// The layer through the tables too (a packed one
					// unpacked first), on a copy.
					again := *cur
					bl := *cur.dense
					again.dense = &bl
					if err := mem.Take(again.Bytes(), "the copy"); err != nil {
						t.Fatal(err)
					}
					got, err := parentsOf(context.Background(), &again, next, gen, w, mem, false, false)
					if err != nil {
						t.Fatalf("parentsOf through the tables: %v", err)
					}
					if diff := cmp.Diff(want.keys, got); diff != "" {
						t.Errorf("parents through the tables (-from keys +from %s):\n%s", order, diff)
					}
					if again.dense != nil && again.dense.packed != nil {
						t.Errorf("the %s layer is still packed after the tables read it", order)
					}
					mem.Give(again.Bytes())
				}
				got, ok, err := parentsDense(context.Background(), cur, next, gen, w, mem, false)
				if err != nil || !ok {
					t.Fatalf("parentsDense: ok %v, %v", ok, err)
				}
				if diff := cmp.Diff(want.keys, got); diff != "" {
					t.Errorf("parents (-tables +bitsets):\n%s", diff)
				}
				if inUse(mem) != cur.Bytes() {
					t.Errorf("the budget holds %d bytes after, want the layer's %d", inUse(mem), cur.Bytes())
				}
			})
		}
	}
}

// TestParentsOfUnsorted checks that ParentsOf sorts an Unsorted layer
// before its tables are closed on it, where the layer is too small for
// bitsets.
func TestParentsOfUnsorted(t *testing.T) {
	gen, layers := englishLayers(t, 25)
	l, next := layers[26], layers[25].keys
	want, err := ParentsOf(context.Background(), &Layer{pegs: l.pegs, keys: slices.Clone(l.keys)}, next, gen, 2, memory.New(1<<30), false)
	if err != nil {
		t.Fatal(err)
	}
	cur := &Layer{pegs: l.pegs, keys: slices.Clone(l.keys), unsorted: true}
	slices.Reverse(cur.keys)
	got, err := ParentsOf(context.Background(), cur, next, gen, 2, memory.New(1<<30), false)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < l.Len()/2 {
		t.Errorf("%d of the %d-peg layer's %d positions have a child, want nearly all", len(want), l.pegs, l.Len())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parents (-sorted layer +unsorted):\n%s", diff)
	}
	// A layer held as bitsets, too small for the parents' bitsets, has its
	// keys made for the tables.
	mem := memory.New(1 << 30)
	only := asBitLayer(t, gen, l)
	if err := mem.Take(only.Bytes(), "the layer"); err != nil {
		t.Fatal(err)
	}
	got, err = ParentsOf(context.Background(), only, next, gen, 2, mem, false)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parents (-sorted layer +bitset alone):\n%s", diff)
	}
}

// BenchmarkMeetingKeys measures the English centre game's join: the
// 17-peg positions with a child whose complement is among them too (what
// Winnable does there), the goal's side in a bitset.
func BenchmarkMeetingKeys(b *testing.B) {
	gen, layers := englishLayers(b, 17)
	keys := layers[17].keys
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			var n int
			for b.Loop() {
				won, err := MeetingKeys(context.Background(), keys, keys, gen, Config{Workers: w}, memory.New(1<<33))
				if err != nil {
					b.Fatal(err)
				}
				n = len(won)
			}
			b.ReportMetric(float64(n), "positions")
		})
	}
}

// TestScatter checks the bits that markDense sets by scatter (see
// scatter) against those it sets directly: children of the English
// centre game's 22-peg layer (one class), of the c1 game's under the
// whole group (four classes), and, undoing jumps, parents of the centre
// game's 21-peg layer.
func TestScatter(t *testing.T) {
	gen, layers := englishLayers(t, 21)
	bd := gen.Board
	start, err := bd.Vacate("c1")
	if err != nil {
		t.Fatal(err)
	}
	whole := movegen.New(bd, bd.Symmetry())
	l := &Layer{pegs: start.Pegs(), keys: []uint64{key.Mix(whole.Group.Canonical(start))}}
	tables := &Expander{gen: whole, mem: memory.New(1 << 33), noDense: true}
	for l.pegs > 24 {
		if l, _, err = tables.Next(context.Background(), l); err != nil {
			t.Fatal(err)
		}
	}
	classOf := func(l *Layer) engine.Class { return bd.Class(key.Unmix(l.keys[0])) }
	r := gen.Ranker()
	cases := []struct {
		name string
		gen  *movegen.Gen
		cur  *Layer
		num  *numbering
		undo bool
	}{
		{"centre/pegs=22", gen, layers[22], numberingOf(r.Layer(21, classOf(layers[22]))), false},
		{"c1-whole/pegs=24", whole, l, nil, false},
		{"centre/undo/pegs=21", gen, layers[21], numberingOf(r.Layer(22, classOf(layers[21]))), true},
	}
	for _, c := range cases {
		for _, w := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/workers=%d", c.name, w), func(t *testing.T) {
				mark := func(at int64) ([][]uint64, Stats) {
					e := &Expander{gen: c.gen, workers: w, mem: memory.New(1 << 32), undo: c.undo, scatterAt: at}
					num := c.num
					if num == nil {
						if num = e.denseFor(c.cur); num == nil || len(num.ds) < 2 {
							t.Fatalf("denseFor: %v, want several classes", num)
						}
					}
					if sc := e.scatterFor(num, e.nworkers()); (sc != nil) != (at == 1) {
						t.Fatalf("scatterFor with bitsets past %d bytes: %v", at, sc)
					}
					sets, held, st, ok, err := e.markDense(context.Background(), c.cur, num)
					if err != nil || !ok {
						t.Fatalf("markDense: ok %v, %v", ok, err)
					}
					if used := inUse(e.mem); used != held {
						t.Errorf("the budget holds %d bytes, want the bitsets' %d", used, held)
					}
					merged := make([][]uint64, len(sets))
					for s := range sets {
						merged[s] = mergeSets(slices.Clone(sets[s]), nil, w)[0]
					}
					return merged, st
				}
				want, wantSt := mark(1 << 40)
				got, gotSt := mark(1)
				for s := range want {
					if !slices.Equal(want[s], got[s]) {
						t.Errorf("class %d: the scattered bits differ from those set directly", s)
					}
				}
				if diff := cmp.Diff(wantSt, gotSt, cmp.AllowUnexported(Stats{})); diff != "" {
					t.Errorf("stats (-direct +scattered):\n%s", diff)
				}
			})
		}
	}
}

// inUse returns the bytes mem holds for a search's work: those it has
// taken less the spare arrays it keeps for reuse (see
// memory.Budget.Spare).
func inUse(mem *memory.Budget) int64 { return mem.Used() - mem.Spared() }

// TestRoomFor checks the room that markDense makes the workers' bitsets
// with: the words of the next layer's bitsets, going on from the English
// centre game's 22-peg layer (its children's, of 21 pegs, then 20) and,
// undoing jumps, from its 21-peg layer (22 pegs, then 23); none where the
// next layer's bitsets would be scattered or pass half what the budget
// has left.
func TestRoomFor(t *testing.T) {
	bd := engine.English()
	gen := movegen.New(bd, bd.Symmetry())
	r := gen.Ranker()
	class := bd.Class(bd.Start())
	words := func(pegs int) int { return int((r.Layer(pegs, class).Size() + 63) / 64) }
	cases := []struct {
		name      string
		pegs      int
		undo      bool
		limit     int64
		scatterAt int64
		want      int
	}{
		{"pegs=22", 22, false, 1 << 32, 0, words(20)},
		{"undo/pegs=21", 21, true, 1 << 32, 0, words(23)},
		{"pegs=22/scattered", 22, false, 1 << 32, 1, 0},
		{"pegs=22/budget", 22, false, 8 * int64(words(20)), 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &Expander{gen: gen, workers: 2, mem: memory.New(c.limit), undo: c.undo, scatterAt: c.scatterAt}
			child := c.pegs - 1
			if c.undo {
				child = c.pegs + 1
			}
			num := numberingOf(r.Layer(child, class))
			if got := e.roomFor(num, e.nworkers()); len(got) != 1 || got[0] != c.want {
				t.Errorf("roomFor = %v, want [%d]", got, c.want)
			}
		})
	}
}
