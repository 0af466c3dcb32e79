package key

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"pegs/engine"
)

// TestDense checks that a layer's numbers are a bijection onto 0..Size-1:
// on the 15-hole triangle, every position of each peg count and class;
// on the English board, positions drawn at random, against Size counted
// as binomials split by class.
func TestDense(t *testing.T) {
	t.Run("board=triangle", func(t *testing.T) {
		b, err := engine.Lookup("triangle")
		if err != nil {
			t.Fatal(err)
		}
		r := NewRanker(b)
		n := b.Holes()
		for pegs := 0; pegs <= n; pegs++ {
			for c := range b.Classes() {
				d := r.Layer(pegs, engine.Class(c))
				seen := make([]bool, d.Size())
				for p := engine.Position(0); p <= b.Full(); p++ {
					if bits.OnesCount64(uint64(p)) != pegs || b.Class(p) != engine.Class(c) {
						continue
					}
					i := d.Rank(p)
					if i >= d.Size() || seen[i] {
						t.Fatalf("pegs=%d class=%d: %s numbered %d of %d, or twice", pegs, c, b.Line(p), i, d.Size())
					}
					seen[i] = true
					if got := d.Unrank(i); got != p {
						t.Fatalf("pegs=%d class=%d: Unrank(%d) = %s, want %s", pegs, c, i, b.Line(got), b.Line(p))
					}
				}
				for i, s := range seen {
					if !s {
						t.Fatalf("pegs=%d class=%d: number %d of %d has no position", pegs, c, i, d.Size())
					}
				}
			}
		}
	})
	for _, name := range []string{"english", "french"} {
		t.Run("board="+name, func(t *testing.T) { randomRanks(t, name) })
	}
}

// randomRanks checks a board's numbers on positions drawn at random,
// against Size counted as binomials split by class.
func randomRanks(t *testing.T, name string) {
	b, err := engine.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRanker(b)
	if r == nil {
		t.Fatalf("NewRanker(%s) = nil", name)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, pegs := range []int{1, 5, 16, 17, 30} {
		// Each class's numbering is built once: Layer's table has a
		// count per high part, 2^17 or more of them here.
		layers := make([]*Dense, b.Classes())
		var total uint64
		for c := range layers {
			layers[c] = r.Layer(pegs, engine.Class(c))
			total += layers[c].Size()
		}
		if want := Ranks(b.Holes(), pegs); total != want {
			t.Errorf("pegs=%d: the classes' sizes sum to %d, want C(%d,%d) = %d", pegs, total, b.Holes(), pegs, want)
		}
		for range 2000 {
			p := Unrank(rng.Uint64N(Ranks(b.Holes(), pegs)), pegs)
			d := layers[b.Class(p)]
			i := d.Rank(p)
			if i >= d.Size() {
				t.Fatalf("pegs=%d: %s numbered %d of %d", pegs, b.Line(p), i, d.Size())
			}
			if got := d.Unrank(i); got != p {
				t.Fatalf("pegs=%d: Unrank(Rank(%s)) = %s", pegs, b.Line(p), b.Line(got))
			}
		}
	}
}

// TestClassKept checks ClassKept against every position's images on the
// 15-hole triangle, and on the English board where the answer is known:
// the centre game's symmetries keep its class, and the whole group moves
// the class of a start off the centre lines.
func TestClassKept(t *testing.T) {
	tri, err := engine.Lookup("triangle")
	if err != nil {
		t.Fatal(err)
	}
	g := tri.Symmetry()
	for c := range tri.Classes() {
		kept, some := true, engine.Position(0)
		found := false
		for p := engine.Position(0); p <= tri.Full(); p++ {
			if tri.Class(p) != engine.Class(c) {
				continue
			}
			if !found {
				some, found = p, true
			}
			for s := range g.Len() {
				if tri.Class(g.Apply(s, p)) != engine.Class(c) {
					kept = false
				}
			}
		}
		if !found {
			continue
		}
		if got := ClassKept(tri, g, some); got != kept {
			t.Errorf("triangle class %d: ClassKept = %v, want %v", c, got, kept)
		}
	}
	en, err := engine.Lookup("english")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		hole string
		want bool
	}{{"d4", true}, {"c1", false}} {
		start, err := en.Vacate(c.hole)
		if err != nil {
			t.Fatal(err)
		}
		if got := ClassKept(en, en.Symmetry(), start); got != c.want {
			t.Errorf("english, all symmetries, %s vacated: ClassKept = %v, want %v", c.hole, got, c.want)
		}
	}
}

// TestLayerKept checks that Layer hands out a numbering it made again,
// asked for the same peg count and class, and that one handed out again
// or made after others pushed it out numbers as a fresh one does: the
// English board's layers asked for in a search's order, each twice, then
// the first again.
func TestLayerKept(t *testing.T) {
	b, err := engine.Lookup("english")
	if err != nil {
		t.Fatal(err)
	}
	centre, err := b.Hole("d4")
	if err != nil {
		t.Fatal(err)
	}
	r := NewRanker(b)
	c := b.Class(b.Full() &^ engine.Position(1) << centre)
	first := r.Layer(31, c)
	for pegs := 31; pegs >= 1; pegs-- {
		d := r.Layer(pegs, c)
		if again := r.Layer(pegs, c); again != d {
			t.Fatalf("pegs=%d: Layer made the numbering again rather than hand out the one it made", pegs)
		}
		if d.Pegs() != pegs || d.Class() != c {
			t.Fatalf("pegs=%d: Layer handed out the numbering of %d pegs, class %d", pegs, d.Pegs(), d.Class())
		}
	}
	again, fresh := r.Layer(31, c), r.layer(31, c)
	if again == first {
		t.Error("Layer kept the first numbering past rankerKept others")
	}
	for _, d := range []*Dense{first, again} {
		if d.Size() != fresh.Size() || d.Parts() != fresh.Parts() {
			t.Fatalf("a numbering handed out has %d positions in %d parts, a fresh one %d in %d", d.Size(), d.Parts(), fresh.Size(), fresh.Parts())
		}
		for h := range fresh.Parts() {
			if lo, hi := d.Range(h); lo != uint64(fresh.cum[h]) || hi != uint64(fresh.cum[h+1]) {
				t.Fatalf("part %d: numbers %d..%d, a fresh numbering's %d..%d", h, lo, hi, fresh.cum[h], fresh.cum[h+1])
			}
		}
	}
}
