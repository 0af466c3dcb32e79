package layered

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"pegs/search/internal/exact"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
)

// counted returns a copy of l's keys with path counts (any, below 2^51),
// charged to a budget of its own.
func counted(l *Layer) (*Layer, *memory.Budget) {
	c := &Layer{pegs: l.pegs, keys: slices.Clone(l.keys), narrow: make([]uint64, l.Len())}
	for i := range c.narrow {
		c.narrow[i] = uint64(i%997+1) << (i % 40)
	}
	mem := memory.New(1 << 32)
	mem.Take(c.Bytes(), "the test's layer")
	return c, mem
}

// TestExpandFolded checks that a counted layer whose paths are folded by
// number is the layer the tables find, counts and stats, on one worker
// and two: whole, in two parts, and the children of the parts taken whole
// as their bitset (TakeFolded), which are expanded again by number
// as the tables expand them. The English centre game's layer of 23 pegs.
func TestExpandFolded(t *testing.T) {
	gen, layers := englishLayers(t, 23)
	ctx := context.Background()
	for _, w := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", w), func(t *testing.T) {
			if testing.Short() && w == 1 {
				t.Skip("-short: two workers only")
			}
			tablesOf := func() *Expander {
				return &Expander{gen: gen, workers: w, mem: memory.New(1 << 32), counts: true, noDense: true}
			}
			cur, _ := counted(layers[23])
			want, wantSt, err := tablesOf().Next(ctx, cur)
			if err != nil {
				t.Fatal(err)
			}
			check := func(what string, got *Layer, gotSt Stats) {
				t.Helper()
				if diff := cmp.Diff(want.keys, got.keys); diff != "" {
					t.Errorf("%s: keys (-tables +folded):\n%s", what, diff)
				}
				if diff := cmp.Diff(want.narrow, got.narrow); diff != "" {
					t.Errorf("%s: counts (-tables +folded):\n%s", what, diff)
				}
				if diff := cmp.Diff(wantSt, gotSt, cmp.AllowUnexported(Stats{})); diff != "" {
					t.Errorf("%s: stats (-tables +folded):\n%s", what, diff)
				}
			}

			cur, mem := counted(layers[23])
			e := &Expander{gen: gen, workers: w, mem: mem, counts: true}
			if e.foldFor(cur) == nil {
				t.Fatal("foldFor: no fold for this layer")
			}
			got, gotSt, err := e.Next(ctx, cur)
			if err != nil {
				t.Fatal(err)
			}
			check("whole", got, gotSt)
			if used := inUse(mem); used != got.Bytes()+cur.Bytes() {
				t.Errorf("whole: the budget holds %d bytes, want the layers' %d", used, got.Bytes()+cur.Bytes())
			}

			cur, mem = counted(layers[23])
			e = &Expander{gen: gen, workers: w, mem: mem, counts: true}
			parts := &Layer{pegs: 22}
			for q := range 2 {
				got, gotSt, err := e.NextPart(ctx, cur, q, 2, q == 1)
				if err != nil {
					t.Fatal(err)
				}
				if q == 0 && e.TakeFolded() != nil {
					t.Error("TakeFolded gave the children before the last part")
				}
				parts.keys, parts.narrow = append(parts.keys, got.keys...), append(parts.narrow, got.narrow...)
				mem.Give(got.Bytes())
				if q == 1 {
					check("parts", parts, gotSt)
				}
			}
			held := e.TakeFolded()
			if held == nil || held.dense == nil {
				t.Fatal("TakeFolded: no children after the last part")
			}
			if used := inUse(mem); used != held.Bytes() {
				t.Errorf("parts: the budget holds %d bytes with the children held, want their %d", used, held.Bytes())
			}
			// Held by number, the same positions and counts; expanded so,
			// the layer the tables find from the sorted one.
			byKey := map[uint64]uint64{}
			for i, k := range want.keys {
				byKey[k] = want.narrow[i]
			}
			asKeys := &Layer{pegs: 22, narrow: held.narrow}
			asKeys.dense = held.dense
			if err := asKeys.Keyed(ctx, w, memory.New(1<<32)); err != nil {
				t.Fatal(err)
			}
			if asKeys.Len() != len(byKey) {
				t.Fatalf("the children held are %d positions, want %d", asKeys.Len(), len(byKey))
			}
			for i, k := range asKeys.keys {
				if m, ok := byKey[k]; !ok || m != asKeys.narrow[i] {
					t.Fatalf("the child held with key %#x counts %d paths, want %d (found %v)", k, asKeys.narrow[i], m, ok)
				}
			}
			want, wantSt, err = tablesOf().Next(ctx, want)
			if err != nil {
				t.Fatal(err)
			}
			got, gotSt, err = e.Next(ctx, held)
			if err != nil {
				t.Fatal(err)
			}
			check("held", got, gotSt)
		})
	}
}

// TestDropParts checks that an expander lets go the children it keeps
// for a layer's next part when the caller gives the layer up.
func TestDropParts(t *testing.T) {
	gen, layers := englishLayers(t, 23)
	cur, mem := counted(layers[23])
	e := &Expander{gen: gen, workers: 2, mem: mem, counts: true}
	got, _, err := e.NextPart(context.Background(), cur, 0, 2, false)
	if err != nil {
		t.Fatal(err)
	}
	if e.fold == nil {
		t.Fatal("no children kept for the next part")
	}
	e.DropParts()
	if used := inUse(mem); used != got.Bytes()+cur.Bytes() {
		t.Errorf("the budget holds %d bytes, want the layers' %d", used, got.Bytes()+cur.Bytes())
	}
}

// BenchmarkNextCounted measures a counted expansion of the English centre
// game's 17-peg layer (sorted keys, path counts) by the tables and
// folded by number (see expandFolded), and of the same layer held by
// number (see TakeFolded), as a spilled run holds it.
func BenchmarkNextCounted(b *testing.B) {
	gen, layers := englishLayers(b, 17)
	cur, _ := counted(layers[17])
	byNumber := &Layer{pegs: 17, narrow: cur.narrow}
	byNumber.dense = asBitLayer(b, gen, cur).dense
	asKeys := &Layer{pegs: 17, dense: byNumber.dense}
	if err := asKeys.Keyed(context.Background(), 2, memory.New(1<<32)); err != nil {
		b.Fatal(err)
	}
	// The counts in the order of the numbers.
	at := map[uint64]uint64{}
	for i, k := range cur.keys {
		at[k] = cur.narrow[i]
	}
	byNumber.narrow = make([]uint64, asKeys.Len())
	for i, k := range asKeys.keys {
		byNumber.narrow[i] = at[k]
	}
	for _, store := range []string{"tables", "folded", "held"} {
		b.Run(fmt.Sprintf("from=17/store=%s/workers=2", store), func(b *testing.B) {
			l := cur
			if store == "held" {
				l = byNumber
			}
			for b.Loop() {
				e := &Expander{gen: gen, workers: 2, mem: memory.New(1 << 33), counts: true, noDense: store == "tables"}
				if _, _, err := e.Next(context.Background(), l); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(l.Size()), "parents")
		})
	}
}

// TestFoldKeptWithin checks that a fold whose budget has no room for all
// the children's numbers of its mark pass (see keptRanks), keeping some
// or letting them go for its sums, sums the paths a fold with room for
// them sums, and gives its memory back; at least one such budget folds
// below the peak of the fold that keeps them all.
func TestFoldKeptWithin(t *testing.T) {
	gen, layers := englishLayers(t, 23)
	ctx := context.Background()
	cur, mem := counted(layers[23])
	e := &Expander{gen: gen, workers: 2, mem: mem, counts: true}
	num := e.foldFor(cur)
	if num == nil {
		t.Fatal("foldFor: no fold for this layer")
	}
	base := mem.Used()
	want, ok, err := e.foldPaths(ctx, cur, num)
	if err != nil || !ok {
		t.Fatalf("foldPaths: ok %v, %v", ok, err)
	}
	full := mem.Peak() - base
	below := false
	for _, frac := range []float64{0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.6} {
		t.Run(fmt.Sprintf("budget=%.2f", frac), func(t *testing.T) {
			cur, _ := counted(layers[23])
			mem := memory.New(cur.Bytes() + int64(frac*float64(full)))
			mem.Take(cur.Bytes(), "the test's layer")
			e := &Expander{gen: gen, workers: 2, mem: mem, counts: true}
			got, ok, err := e.foldPaths(ctx, cur, num)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				return // the budget refused the fold's bitsets or sums
			}
			below = true
			if diff := cmp.Diff(want.set, got.set); diff != "" {
				t.Errorf("children (-kept +within):\n%s", diff)
			}
			if diff := cmp.Diff(want.sum, got.sum); diff != "" {
				t.Errorf("paths (-kept +within):\n%s", diff)
			}
			if diff := cmp.Diff(want.st, got.st, cmp.AllowUnexported(Stats{})); diff != "" {
				t.Errorf("stats (-kept +within):\n%s", diff)
			}
			got.free(mem)
			if used := inUse(mem); used != cur.Bytes() {
				t.Errorf("the budget holds %d bytes, want the layer's %d", used, cur.Bytes())
			}
		})
	}
	if !below {
		t.Errorf("no budget below a fold's peak of %d bytes folded", full)
	}
}

// BenchmarkNextPart measures the counted expansion of the English centre
// game's 17-peg layer by the tables (the path of a layer the fold does
// not take, as French d3's widest) in parts of its children (NextPart,
// each part expanding the whole layer again), every part an op.
func BenchmarkNextPart(b *testing.B) {
	gen, layers := englishLayers(b, 17)
	cur, _ := counted(layers[17])
	for _, parts := range []int{1, 4} {
		b.Run(fmt.Sprintf("from=17/parts=%d/workers=2", parts), func(b *testing.B) {
			for b.Loop() {
				e := &Expander{gen: gen, workers: 2, mem: memory.New(1 << 33), counts: true, noDense: true}
				for q := range parts {
					next, _, err := e.NextPart(context.Background(), cur, q, parts, false)
					if err != nil {
						b.Fatal(err)
					}
					next.Release(e.mem)
				}
			}
			b.ReportMetric(float64(cur.Size()), "parents")
		})
	}
}

// expandedWhole returns the English centre game's layers from 23 pegs,
// an expander that expanded the 23-peg layer (with counts; see counted)
// whole by the tables, and the layer it found.
func expandedWhole(t *testing.T) (*movegen.Gen, map[int]*Layer, *Expander, *Layer) {
	gen, layers := englishLayers(t, 23)
	cur, _ := counted(layers[23])
	whole := &Expander{gen: gen, workers: 2, mem: memory.New(1 << 32), counts: true, noDense: true}
	want, _, err := whole.Next(context.Background(), cur)
	if err != nil {
		t.Fatal(err)
	}
	return gen, layers, whole, want
}

// TestNextPartExpects checks that a layer expanded in parts sizes the
// tables of its later parts from the children its parts found so far,
// and that the expander learns the layer's ratio of children to parents
// from its parts, as from the layer expanded whole: where it learned
// none, the tables of a layer after one in parts were sized from the
// last layer expanded whole (French d3's of 18 pegs, at 1.48 times its
// children, passed the budget).
func TestNextPartExpects(t *testing.T) {
	gen, layers, whole, want := expandedWhole(t)
	ctx := context.Background()
	cur, _ := counted(layers[23])
	e := &Expander{gen: gen, workers: 2, mem: memory.New(1 << 32), counts: true, noDense: true}
	found := 0
	for q := range 4 {
		if q > 0 {
			e.slices, e.lo, e.hi = 4, q, q+1
			if got, want := e.expectChildren(cur, cur.Size()), found*4/q; got != want {
				t.Errorf("part %d: tables sized for %d children, want %d (found %d in %d parts)", q, got, want, found, q)
			}
			e.slices, e.lo, e.hi = 0, 0, 0
		}
		next, _, err := e.NextPart(ctx, cur, q, 4, q == 3)
		if err != nil {
			t.Fatal(err)
		}
		found += next.Size()
	}
	if found != want.Size() {
		t.Fatalf("the parts found %d children, want %d", found, want.Size())
	}
	if diff := cmp.Diff(whole.ratios, e.ratios); diff != "" {
		t.Errorf("ratios learned (-whole +parts):\n%s", diff)
	}
}

// TestNextPartSorted checks that the children of a layer's parts left in
// their tables (NextPartSorted), three uneven ranges of slices taken a
// bucket at a time, are the layer the tables find whole, keys in order
// and counts, by the tables and folded by number; that the tables' bytes
// go back to the budget as their buckets are taken, and the layer's once
// its last part is expanded; and that the layer's ratio is learned.
func TestNextPartSorted(t *testing.T) {
	gen, layers, whole, want := expandedWhole(t)
	ctx := context.Background()
	for _, fold := range []bool{false, true} {
		t.Run(fmt.Sprintf("fold=%v", fold), func(t *testing.T) {
			cur, mem := counted(layers[23])
			e := &Expander{gen: gen, workers: 2, mem: mem, counts: true, noDense: !fold}
			var keys, counts []uint64
			// Three parts of 16 slices, uneven.
			for q, r := range [][2]int{{0, 6}, {6, 11}, {11, 16}} {
				kids, _, err := e.NextPartSorted(ctx, cur, r[0], r[1], 16, q == 2)
				if err != nil {
					t.Fatal(err)
				}
				if kids.Buckets() < 16 {
					t.Fatalf("part %d: %d buckets, want 16 at least", q, kids.Buckets())
				}
				n, nb := kids.Len(), kids.Buckets()
				for b := range nb {
					if b == (r[0]+r[1])*nb/32 { // about half the part's buckets taken
						left, all := int64(r[1]*nb/16-b), int64((r[1]-r[0])*nb/16)
						if used, max := inUse(mem)-cur.Bytes(), int64(n)*HeldTableBytes*left/all; !fold && (used <= 0 || used > max) {
							t.Errorf("part %d: %d of %d buckets left, %d bytes held beside the layer, want some and at most %d", q, left, all, used, max)
						}
					}
					err := kids.Each(b, func(k uint64, m exact.U128) error {
						keys, counts = append(keys, k), append(counts, m.Lo)
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
				}
				kids.Release()
				if used := inUse(mem); !fold && used != cur.Bytes() {
					t.Errorf("part %d: the budget holds %d bytes with the part written, want the layer's %d", q, used, cur.Bytes())
				}
			}
			if held := e.TakeFolded(); held != nil {
				held.Release(mem) // the fold's children, whole
			}
			if used := inUse(mem); used != 0 {
				t.Errorf("the budget holds %d bytes with the parts written and the layer let go, want none", used)
			}
			if diff := cmp.Diff(whole.ratios, e.ratios); diff != "" {
				t.Errorf("ratios learned (-whole +parts):\n%s", diff)
			}
			if diff := cmp.Diff(want.keys, keys); diff != "" {
				t.Errorf("keys (-whole +parts):\n%s", diff)
			}
			if diff := cmp.Diff(want.narrow, counts); diff != "" {
				t.Errorf("counts (-whole +parts):\n%s", diff)
			}
		})
	}
}
