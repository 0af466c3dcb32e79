package search

import (
	"context"
	"testing"

	"pegs/engine"
)

// TestStartPairsAgreeWithStarts checks the depth-first pair decisions
// against the exhaustive counts of Starts on the 15-hole triangle.
func TestStartPairsAgreeWithStarts(t *testing.T) {
	b, err := engine.Lookup("triangle")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	starts, err := Starts(ctx, b, ExploreOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]int]bool{}
	for _, r := range starts {
		for _, f := range r.Finishes {
			if !f.Each {
				t.Fatalf("start %s: finishes counted together on the triangle", b.Label(r.Hole))
			}
			for _, h := range f.Holes {
				want[[2]int{r.Hole, h}] = f.Solutions.Sign() > 0
			}
		}
	}
	pairs, err := StartPairs(ctx, b, SolveOptions{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, wantN := len(pairs), len(starts)*b.Holes(); got != wantN {
		t.Fatalf("%d pairs, want %d (%d start classes x %d finishes)", got, wantN, len(starts), b.Holes())
	}
	solvable := 0
	for _, p := range pairs {
		if !p.Decided {
			t.Errorf("%s-%s undecided", b.Label(p.Start), b.Label(p.Finish))
		}
		if p.Solvable != want[[2]int{p.Start, p.Finish}] {
			t.Errorf("vacate %s finish %s: solvable %v, Starts says %v", b.Label(p.Start), b.Label(p.Finish), p.Solvable, !p.Solvable)
		}
		if p.Solvable {
			solvable++
			if !p.Feasible {
				t.Errorf("vacate %s finish %s: solvable but not class-feasible", b.Label(p.Start), b.Label(p.Finish))
			}
		}
	}
	if solvable == 0 {
		t.Error("no solvable pair")
	}
}

// TestStartsFallBackToPairs gives Starts too little memory for exhaustive
// searches but enough for the depth-first solver: every start that falls
// back must still have each finish decided, as the exhaustive search
// decides it.
func TestStartsFallBackToPairs(t *testing.T) {
	b, err := engine.Lookup("triangle")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	exact, err := Starts(ctx, b, ExploreOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tight, err := Starts(ctx, b, ExploreOptions{Budget: Budget{Memory: 65536}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fell := 0
	for i, r := range tight {
		if r.Decided {
			continue
		}
		fell++
		if len(r.Pairs) != b.Holes() {
			t.Fatalf("start %s: %d pairs, want %d", b.Label(r.Hole), len(r.Pairs), b.Holes())
		}
		want := map[int]bool{}
		for _, f := range exact[i].Finishes {
			for _, h := range f.Holes {
				want[h] = f.Solutions.Sign() > 0
			}
		}
		for _, p := range r.Pairs {
			if !p.Decided || p.Solvable != want[p.Finish] {
				t.Errorf("vacate %s finish %s: decided %v solvable %v, want solvable %v", b.Label(r.Hole), b.Label(p.Finish), p.Decided, p.Solvable, want[p.Finish])
			}
		}
	}
	if fell == 0 {
		t.Error("no start fell back to pairs under a 64 KiB budget")
	}
}
