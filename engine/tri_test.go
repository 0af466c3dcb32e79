package engine

import "testing"

// TestTriangleClassFeasiblePairs counts the (vacancy, finish) pairs whose
// position classes agree, up to symmetry, against OEIS A130515 (G. Bell,
// "Solving Triangular Peg Solitaire", J. Integer Sequences 11 (2008)).
func TestTriangleClassFeasiblePairs(t *testing.T) {
	want := map[int]int{4: 3, 5: 17, 6: 29, 7: 27, 8: 80, 9: 125, 10: 108}
	for rows, w := range want {
		b, err := Triangle(rows)
		if err != nil {
			t.Fatal(err)
		}
		g := b.Symmetry()
		seen := map[[2]int]bool{}
		count := 0
		for s := range b.Holes() {
			for f := range b.Holes() {
				if b.Class(b.Full()&^(1<<uint(s))) != b.Class(1<<uint(f)) {
					continue
				}
				// Canonical pair: least image under the group.
				best := [2]int{s, f}
				for k := range g.Len() {
					p := [2]int{g.Perm(k)[s], g.Perm(k)[f]}
					if p[0] < best[0] || p[0] == best[0] && p[1] < best[1] {
						best = p
					}
				}
				if !seen[best] {
					seen[best] = true
					count++
				}
			}
		}
		if count != w {
			t.Errorf("triangle:%d: %d class-feasible pairs up to symmetry, want %d (A130515)", rows, count, w)
		}
	}
}
