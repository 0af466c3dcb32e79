package key

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"pegs/engine"
)

// TestSorted checks Sorted against a map: every position indexed is found
// at its place, and others, between them, below and above them, are not;
// SortedOf of them shuffled is the same index; NewSorted refuses positions
// out of order.
func TestSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 60))
	for _, c := range []struct {
		n    int
		bits uint
	}{{0, 33}, {1, 33}, {2, 3}, {7, 33}, {1000, 33}, {1000, 12}, {5000, 64}} {
		t.Run(fmt.Sprintf("n=%d/bits=%d", c.n, c.bits), func(t *testing.T) {
			at := map[engine.Position]int{}
			var ps []engine.Position
			for len(ps) < c.n {
				p := engine.Position(rng.Uint64() >> (64 - c.bits))
				if c.bits < 64 && rng.IntN(3) == 0 {
					p &= 1<<(c.bits/2) - 1 // crowd some at the bottom
				}
				if _, ok := at[p]; !ok {
					at[p] = 0
					ps = append(ps, p)
				}
			}
			slices.Sort(ps)
			for k, p := range ps {
				at[p] = k
			}
			s, ok := NewSorted(ps)
			if !ok {
				t.Fatal("NewSorted refused positions in order")
			}
			if s.Len() != c.n {
				t.Errorf("Len = %d, want %d", s.Len(), c.n)
			}
			for k, p := range ps {
				if got, ok := s.Find(p); !ok || got != k {
					t.Fatalf("Find(%#x) = %d, %v, want %d, true", uint64(p), got, ok, k)
				}
			}
			for range 20000 {
				p := engine.Position(rng.Uint64() >> (64 - c.bits))
				want, in := at[p]
				for _, q := range []engine.Position{p, p + 1, p - 1, ^engine.Position(0)} {
					want, in := want, in
					if q != p {
						want, in = at[q]
					}
					if got, ok := s.Find(q); ok != in || (ok && got != want) {
						t.Fatalf("Find(%#x) = %d, %v, want %d, %v", uint64(q), got, ok, want, in)
					}
					// Run is where Find starts: the first place past
					// every position below q's run.
					if r := s.Run(q); r > len(ps) || (in && r > want) || (r > 0 && r < len(ps) && ps[r-1]>>s.shift >= q>>s.shift) {
						t.Fatalf("Run(%#x) = %d, not where its run starts (%d positions)", uint64(q), r, len(ps))
					} else if r < len(ps) && s.At(r) != ps[r] {
						t.Fatalf("At(%d) = %#x, want %#x", r, uint64(s.At(r)), uint64(ps[r]))
					}
				}
			}
			if s.At(len(ps)) != 0 {
				t.Errorf("At(%d), past the positions, = %#x, want 0", len(ps), uint64(s.At(len(ps))))
			}
			shuffled := slices.Clone(ps)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			if of := SortedOf(shuffled); !slices.Equal(of.ps, s.ps) || !slices.Equal(of.start, s.start) || of.shift != s.shift {
				t.Errorf("SortedOf of the positions shuffled is not NewSorted of them in order")
			}
			if c.n >= 2 {
				ps[0], ps[1] = ps[1], ps[0]
				if _, ok := NewSorted(ps); ok {
					t.Error("NewSorted took positions out of order")
				}
			}
		})
	}
}

// TestNumbers checks that Numbers reads each position's run and its
// first position, passes over those of gives no Sorted for, and numbers
// every position by number.
func TestNumbers(t *testing.T) {
	ps := []engine.Position{3, 5, 9, 17, 33, 65, 129, 1 << 20, 1<<20 | 1}
	s := SortedOf(ps)
	qs := []engine.Position{5, 6, 1 << 20, 1 << 40, 2}
	of := func(p engine.Position) *Sorted {
		if p == 2 {
			return nil
		}
		return s
	}
	number := s.Find
	ids := make([]int32, len(qs))
	got := Numbers(qs, ids, of, number)
	var want engine.Position
	for k, q := range qs {
		if q != 2 {
			want += s.At(s.Run(q))
		}
		wantID := int32(-1)
		if j, ok := number(q); ok {
			wantID = int32(j)
		}
		if ids[k] != wantID {
			t.Errorf("Numbers' id of %#x = %d, want %d", uint64(q), ids[k], wantID)
		}
	}
	if got != uint64(want) {
		t.Errorf("Numbers = %d, want the sum of the runs' first positions, %d", got, uint64(want))
	}
}
