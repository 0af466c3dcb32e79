package search

import (
	"context"
	"math/big"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"pegs/engine"
	"pegs/engine/enginetest"
)

func TestTriangleStarts(t *testing.T) {
	pub := loadPublished(t)
	b := enginetest.Board(t, "triangle")
	results, err := Starts(context.Background(), b, ExploreOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != len(pub.Triangle15Starts) {
		t.Fatalf("%d start classes, want %d", len(results), len(pub.Triangle15Starts))
	}
	ownFinish := 0
	for i, r := range results {
		want := pub.Triangle15Starts[i]
		var class []int
		for _, h := range r.Class {
			class = append(class, h+1)
		}
		if diff := cmp.Diff(want.Holes, class); diff != "" {
			t.Errorf("class %d (-want +got):\n%s", i, diff)
		}
		if got := r.Solutions.Int64(); got != want.Solutions {
			t.Errorf("vacate %d: %d solutions, want %d", r.Hole+1, got, want.Solutions)
		}
		own := int64(0)
		for _, f := range r.Finishes {
			if !f.Each {
				t.Errorf("vacate %d: finishes %v not split", r.Hole+1, f.Holes)
			}
			if slices.Contains(f.Holes, r.Hole) {
				own = f.Solutions.Int64()
			}
		}
		if own != want.OwnHole {
			t.Errorf("vacate %d: %d solutions finishing in the start hole, want %d", r.Hole+1, own, want.OwnHole)
		}
		if own > 0 {
			ownFinish += len(r.Class)
		}
	}
	if ownFinish != 12 {
		t.Errorf("%d start holes can finish where they started, want 12", ownFinish)
	}
}

// TestStartsTogetherAgrees checks the search from every start at once
// against a search from each start alone: every layer's counts, solutions
// and finishes (random-play odds, which it does not count, aside); and
// once with wide (128-bit) records.
func TestStartsTogetherAgrees(t *testing.T) {
	t.Parallel()
	// A board no symmetry maps to itself: 18 start classes, 18 tags.
	odd := oddBoard(t)
	for _, name := range []string{"triangle", "triangle:4", "triangle:6", "odd", "triangle/wide"} {
		b := odd
		if name != "odd" {
			b = enginetest.Board(t, strings.TrimSuffix(name, "/wide"))
		}
		opt := ExploreOptions{}
		if strings.HasSuffix(name, "/wide") {
			opt.Budget = wide(opt.Budget)
		}
		reps, _ := startClasses(b)
		got := map[int]*Analysis{}
		err := startsTogether(context.Background(), b, reps, opt, func(i int, a *Analysis) error {
			got[reps[i]] = a
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(reps) {
			t.Fatalf("%s: %d starts analysed, want %d", name, len(got), len(reps))
		}
		for _, h := range reps {
			prob := Problem{b, b.Full() &^ (1 << uint(h)), engine.Goal{Kind: engine.OnePeg}}
			want, err := Explore(context.Background(), prob, ExploreOptions{WholeGroup: true, NoGames: true})
			if err != nil {
				t.Fatal(err)
			}
			a := got[h]
			want.PeakBytes, want.Elapsed, a.PeakBytes, a.Elapsed = 0, 0, 0, 0
			want.RandomWin = 0
			if diff := cmp.Diff(want, a, cmp.Comparer(func(x, y *big.Int) bool { return x.Cmp(y) == 0 })); diff != "" {
				t.Errorf("%s vacate %s: together differs from alone (-alone +together):\n%s", name, b.Label(h), diff)
			}
		}
	}
}

// TestStartsFallback checks that Starts gives the same results one start at
// a time when the union of the starts' state spaces passes the budget: a
// start that fits is counted the same, one that does not is decided pair by
// pair. (Since the union keeps only the layers not yet paired, and packs
// tags into keys, it takes less than the largest start alone: with half
// its peak most starts here are decided pair by pair. Its peak counts the
// workers' lists kept between layers, which a budget found short lets go:
// with three quarters of it the union fits.) (Whether finishes that only the board's symmetry tells apart are
// split depends on the budget too, so they are compared by their totals.)
func TestStartsFallback(t *testing.T) {
	t.Parallel()
	name := "triangle:6"
	if testing.Short() {
		// Still starts counted one at a time and starts pair by pair.
		name = "triangle"
	}
	b := enginetest.Board(t, name)
	reps, _ := startClasses(b)
	var union int64
	err := startsTogether(context.Background(), b, reps, ExploreOptions{}, func(_ int, a *Analysis) error {
		union = max(union, a.PeakBytes)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	budget := union / 2
	if err := startsTogether(context.Background(), b, reps, ExploreOptions{Budget: Budget{Memory: budget}}, func(int, *Analysis) error { return nil }); !isMemory(err) {
		t.Fatalf("union with %d bytes: err = %v, want ErrMemory", budget, err)
	}
	want, err := Starts(context.Background(), b, ExploreOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Starts(context.Background(), b, ExploreOptions{Budget: Budget{Memory: budget}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d starts with %d bytes, %d without a limit", len(got), budget, len(want))
	}
	counted := 0
	for i, w := range want {
		g := got[i]
		perHole := map[int]*big.Int{}
		for _, f := range w.Finishes {
			if !f.Each {
				t.Fatalf("vacate %s: finishes %v not split without a limit", b.Label(w.Hole), f.Holes)
			}
			for _, h := range f.Holes {
				perHole[h] = f.Solutions
			}
		}
		if g.Hole != w.Hole {
			t.Fatalf("start %d: vacate %s, want %s", i, b.Label(g.Hole), b.Label(w.Hole))
		}
		if !g.Decided {
			for _, p := range g.Pairs {
				_, solvable := perHole[p.Finish]
				if !p.Decided || p.Solvable != solvable {
					t.Errorf("vacate %s, finish %s: pair decided %v, solvable %v; want solvable %v", b.Label(w.Hole), b.Label(p.Finish), p.Decided, p.Solvable, solvable)
				}
			}
			continue
		}
		counted++
		if g.Reachable != w.Reachable || g.Winnable != w.Winnable || g.Solutions.Cmp(w.Solutions) != 0 {
			t.Errorf("vacate %s: one at a time %+v, together %+v", b.Label(w.Hole), g, w)
			continue
		}
		for _, f := range g.Finishes {
			sum := new(big.Int)
			for _, h := range f.Holes {
				if n, ok := perHole[h]; ok {
					sum.Add(sum, n)
				}
			}
			n := f.Solutions
			if f.Each {
				n = new(big.Int).Mul(f.Solutions, big.NewInt(int64(len(f.Holes))))
			}
			if sum.Cmp(n) != 0 {
				t.Errorf("vacate %s, finish %v: %s solutions one at a time, %s together", b.Label(w.Hole), f.Holes, n, sum)
			}
		}
	}
	t.Logf("with %d bytes: %d of %d starts counted one at a time, the rest pair by pair", budget, counted, len(want))
}

// TestStartsSpilled checks that with ExploreOptions.Spill the starts that the
// budget cannot hold in memory are searched one at a time on disk, each in
// a directory of its own, to the counts found without a budget; and
// resumed from kept files to the same counts again.
func TestStartsSpilled(t *testing.T) {
	if testing.Short() {
		// No smaller board has a budget that leaves starts undecided in
		// memory and is enough to spill them.
		t.Skip("the 21-hole triangle's starts spilled twice: several seconds")
	}
	t.Parallel()
	b := enginetest.Board(t, "triangle:6")
	want, err := Starts(context.Background(), b, ExploreOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const budget = 4 << 20
	inMemory, err := Starts(context.Background(), b, ExploreOptions{Budget: Budget{Memory: budget}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if undecided := len(slices.DeleteFunc(inMemory, func(r StartResult) bool { return r.Decided })); undecided == 0 {
		t.Fatalf("every start counted within %d bytes in memory: the test needs a smaller budget", budget)
	}
	type counts struct {
		Hole                int
		Decided             bool
		Reachable, Winnable int64
		Solutions           string
	}
	countsOf := func(rs []StartResult) []counts {
		var out []counts
		for _, r := range rs {
			out = append(out, counts{r.Hole, r.Decided, r.Reachable, r.Winnable, r.Solutions.String()})
		}
		return out
	}
	dir := filepath.Join(t.TempDir(), "starts")
	for _, sp := range []Spill{{Dir: dir, Keep: true}, {Dir: dir, Resume: true}} {
		opt := ExploreOptions{Budget: Budget{Memory: budget}, Spill: sp}
		opt.knobs.spillNoSync = true
		got, err := Starts(context.Background(), b, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(countsOf(want), countsOf(got)); diff != "" {
			t.Errorf("resume %v: spilled starts differ from those without a budget (-want +got):\n%s", sp.Resume, diff)
		}
		runs, _ := filepath.Glob(filepath.Join(dir, "start-*", "manifest.json"))
		if sp.Keep && len(runs) == 0 {
			t.Errorf("no run kept in %s", dir)
		}
		if !sp.Keep && len(runs) != 0 {
			t.Errorf("%d runs left after a run that keeps none", len(runs))
		}
	}
}
