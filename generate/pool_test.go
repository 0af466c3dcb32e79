package generate

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"pegs/engine"
)

// poolSeed draws the test pool: not the calibration pool's seed, so the
// grade checks below are out of sample.
const poolSeed = 2

// englishPool is a pool of English levels made with the default options
// and poolSeed, shared by the tests of this file: 300 levels, or as many
// as PEGS_POOL_LEVELS says (the checks are on 1,000, which take
// about two minutes on two cores: PEGS_POOL_LEVELS=1000). -short skips the
// tests that need it.
var englishPool = sync.OnceValues(func() ([]Level, error) {
	n := 300
	if s := os.Getenv("PEGS_POOL_LEVELS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			return nil, fmt.Errorf("PEGS_POOL_LEVELS=%q: %w", s, err)
		}
	}
	b := engine.English()
	g, _ := b.ParseGoal("center")
	lo, hi := DefaultPegs(b.Holes())
	return Generate(context.Background(), b, n, Options{Goal: g, MinPegs: lo, MaxPegs: hi, Seed: poolSeed, Workers: 2})
})

func pool(t *testing.T) []Level {
	t.Helper()
	if testing.Short() {
		t.Skip("making a pool of 300 levels takes about half a minute; run without -short")
	}
	if seed := calibrationSeed(t); seed == poolSeed {
		t.Fatalf("the test pool's seed %d is the calibration pool's", seed)
	}
	levels, err := englishPool()
	if err != nil {
		t.Fatal(err)
	}
	return levels
}

// calibrationSeed reads the seed from the calibration's command.
func calibrationSeed(t *testing.T) uint64 {
	t.Helper()
	f := strings.Fields(Scale().Command)
	i := slices.Index(f, "--seed")
	if i < 0 || i+1 == len(f) {
		t.Fatalf("calibration command %q names no seed", Scale().Command)
	}
	seed, err := strconv.ParseUint(f[i+1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return seed
}

// TestPoolDesign checks that the default levels look designed: at least
// 95% one group of pegs, at least half with a symmetry, all distinct up to
// the board's symmetry.
func TestPoolDesign(t *testing.T) {
	levels := pool(t)
	b := engine.English()
	one, symmetric := 0, 0
	seen := map[engine.Position]bool{}
	bySymmetry := map[string]int{}
	for _, l := range levels {
		if l.Metrics.Groups == 1 {
			one++
		}
		if l.Metrics.Symmetry != "none" {
			symmetric++
		}
		bySymmetry[l.Metrics.Symmetry]++
		k := b.Symmetry().Canonical(l.Position())
		if seen[k] {
			t.Errorf("level %s repeats an earlier one up to symmetry", l.Picture)
		}
		seen[k] = true
	}
	t.Logf("%d levels: %d one group, %d symmetric %v", len(levels), one, symmetric, bySymmetry)
	if 100*one < 95*len(levels) {
		t.Errorf("%d of %d levels are one group, want at least 95%%", one, len(levels))
	}
	if 2*symmetric < len(levels) {
		t.Errorf("%d of %d levels have a symmetry, want at least half", symmetric, len(levels))
	}
}

// TestPoolGrades checks that the grade scale carries over to a pool drawn
// with another seed than the calibration pool's: every grade holds between
// a tenth and a third of the levels, at three peg counts or more.
func TestPoolGrades(t *testing.T) {
	levels := pool(t)
	var byGrade [6]int
	byPegs := map[int][]int{} // pegs → levels by grade
	for _, l := range levels {
		byGrade[l.Grade]++
		if byPegs[l.Pegs] == nil {
			byPegs[l.Pegs] = make([]int, 6)
		}
		byPegs[l.Pegs][l.Grade]++
	}
	var lines []string
	for _, pegs := range slices.Sorted(maps.Keys(byPegs)) {
		lines = append(lines, fmt.Sprintf("%2d pegs: %v", pegs, byPegs[pegs][1:]))
	}
	t.Logf("levels by grade 1..5 at each size:\n%s", strings.Join(lines, "\n"))
	for gr := 1; gr <= 5; gr++ {
		if n := byGrade[gr]; n < len(levels)/10 || n > len(levels)/3 {
			t.Errorf("grade %d holds %d of %d levels, want a tenth to a third", gr, n, len(levels))
		}
		sizes := 0
		for _, n := range byPegs {
			if n[gr] > 0 {
				sizes++
			}
		}
		if sizes < 3 {
			t.Errorf("grade %d appears at %d peg counts, want at least 3", gr, sizes)
		}
	}
}

// TestPoolDominance checks every pair of levels of one size where one
// dominates the other (each look-ahead player wins it at least as often):
// the dominating level never scores, grades, ranks or orders (Harder) as
// the harder.
func TestPoolDominance(t *testing.T) {
	levels := pool(t)
	pairs, ranked := 0, 0
	for i, x := range levels {
		for _, y := range levels[i+1:] {
			if x.Pegs != y.Pegs {
				continue
			}
			easy, hard := x, y
			if !dominates(easy, hard) {
				easy, hard = y, x
				if !dominates(easy, hard) {
					continue
				}
			}
			pairs++
			if easy.Score > hard.Score || easy.Grade > hard.Grade || Harder(easy, hard) > 0 {
				t.Errorf("%s dominates %s but scores %.3f (grade %d) against %.3f (grade %d)",
					easy.Picture, hard.Picture, easy.Score, easy.Grade, hard.Score, hard.Grade)
			}
			if easy.Rank == nil || hard.Rank == nil {
				continue
			}
			ranked++
			if easy.Rank.Percentile > hard.Rank.Percentile {
				t.Errorf("%s dominates %s but ranks %q against %q", easy.Picture, hard.Picture, easy.Rank.Words, hard.Rank.Words)
			}
		}
	}
	t.Logf("%d same-size pairs where one level dominates, %d of them ranked", pairs, ranked)
	if pairs == 0 {
		t.Error("no dominated pair to check")
	}
}

// dominates reports whether every look-ahead player wins x at least as
// often as y.
func dominates(x, y Level) bool {
	for k := range max(len(x.Metrics.Foresight), len(y.Metrics.Foresight)) {
		if winAt(x.Metrics.Foresight, k) < winAt(y.Metrics.Foresight, k) {
			return false
		}
	}
	return true
}
