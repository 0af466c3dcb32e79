package bfs

import (
	"math/rand/v2"
	"slices"
	"testing"

	"pegs/engine"
)

// TestMergeParts checks that merging a level's children on several
// goroutines (mergeParts) gives the level, the meeting and, where there
// is none, the marks of merging them on one (merge): random children,
// many reached twice or before the level, some reached by the other side.
func TestMergeParts(t *testing.T) {
	const n = 1 << 16 // positions
	for _, c := range []struct {
		name  string
		parts int
		meet  float64 // share of the positions the other side reached
	}{
		{"parts=2/no-meeting", 2, 0},
		{"parts=4/no-meeting", 4, 0},
		{"parts=2/meeting", 2, 1e-4},
		{"parts=4/meeting", 4, 1e-4},
		{"parts=2/meeting-first", 2, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(60, uint64(c.parts)))
			marks := make([]uint64, n)
			for id := range marks {
				if rng.Float64() < 0.2 {
					marks[id] |= uint64(rng.IntN(n)+1) << 32 // reached by s before
				}
				if rng.Float64() < c.meet {
					marks[id] |= uint64(rng.IntN(n) + 1) // reached by other
				}
			}
			last := make([]node, 3000)
			for i := range last {
				last[i] = node{engine.Position(i), int32(rng.IntN(n))}
			}
			lists := make([][]reached, 40)
			for k := range lists {
				for range rng.IntN(3000) {
					id := int32(rng.IntN(n))
					lists[k] = append(lists[k], reached{node{engine.Position(id) << 1, id}, int32(rng.IntN(len(last)))})
				}
			}
			run := func(parts int) ([]node, reached, bool, []uint64) {
				m := slices.Clone(marks)
				s := &side{marks: m, shift: 32}
				other := &side{marks: m}
				ls := make([][]reached, len(lists))
				most := 0
				for k := range lists {
					ls[k] = slices.Clone(lists[k])
					most += len(ls[k])
				}
				var next []node
				var meet reached
				var found bool
				if parts == 1 {
					next, meet, found = s.merge(ls, last, other, make([]node, 0, most))
				} else {
					next, meet, found = s.mergeParts(ls, last, other, parts, most)
				}
				return next, meet, found, m
			}
			want, wantMeet, wantFound, wantMarks := run(1)
			got, gotMeet, gotFound, gotMarks := run(c.parts)
			if gotFound != wantFound || gotMeet != wantMeet {
				t.Errorf("meeting %v at %+v, want %v at %+v", gotFound, gotMeet, wantFound, wantMeet)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d children kept, want %d (or others)", len(got), len(want))
			}
			if !wantFound && !slices.Equal(gotMarks, wantMarks) {
				t.Errorf("marks differ")
			}
			if c.meet > 0 && c.meet < 1 && !wantFound {
				t.Errorf("no meeting: the test misses what it checks")
			}
		})
	}
}
