package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/report"
	"pegs/search"
)

// explored returns the JSON of analysis a of prob, its time and memory
// left out (they differ from run to run).
func explored(t *testing.T, prob search.Problem, a *search.Analysis) string {
	t.Helper()
	c := *a
	c.Elapsed, c.PeakBytes = 0, 0
	var buf bytes.Buffer
	if err := report.WriteExplore(&buf, report.JSON, prob, &c); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func problem(t *testing.T, board, start string) search.Problem {
	t.Helper()
	b, err := engine.Lookup(board)
	if err != nil {
		t.Fatal(err)
	}
	p := b.Start()
	if start != "" {
		if p, err = b.Vacate(start); err != nil {
			t.Fatal(err)
		}
	}
	g := engine.Goal{Kind: engine.OnePeg}
	if _, ok := b.Centre(); ok {
		g, _ = b.ParseGoal("center")
	}
	return search.Problem{Board: b, Start: p, Goal: g}
}

func TestExploreSameAsInProcess(t *testing.T) {
	tests := []struct {
		name, board, start string
		parts              int
		notShort, long     bool
	}{
		{name: "triangle15", board: "triangle"},
		{name: "triangle21", board: "triangle:6", notShort: true},
		// In two partitions and in one, to compare their peaks: about 20
		// times triangle21's time.
		{name: "triangle28", board: "triangle:7", parts: 2, long: true},
		// pegs-beam explore --board english: 121 s on 2 cores under a
		// load of 8, beside 31-37 s in memory and 83-90 s with --spill
		// (the same hour).
		{name: "english", board: "english", long: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.long {
				enginetest.Long(t, "a long run through Prism")
			}
			if tt.notShort && testing.Short() {
				t.Skip("a run through Prism of seconds")
			}
			prob := problem(t, tt.board, tt.start)
			ctx := context.Background()
			want, err := search.Explore(ctx, prob, search.ExploreOptions{})
			if err != nil {
				t.Fatal(err)
			}
			// Where the peaks of two runs are compared, each step's
			// expansion runs on one worker: on several, its lists grow as
			// the chunks happen to fall to them, and the peaks of the same
			// run spread over a third of their size (triangle28 in one
			// partition: 245-336 MB).
			var opt search.ExploreOptions
			if tt.parts > 1 {
				opt.Workers = 1
			}
			t0 := time.Now()
			got, err := Explore(ctx, prob, Options{ExploreOptions: opt, Storage: t.TempDir(), Parts: tt.parts})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: in-process %v, Prism %v", tt.name, want.Elapsed, time.Since(t0))
			if g, w := explored(t, prob, got), explored(t, prob, want); g != w {
				t.Errorf("Prism run:\n%s\nwant (in-process):\n%s", g, w)
			}
			if got.PeakBytes <= 0 {
				t.Errorf("peak bytes %d, want more than none", got.PeakBytes)
			}
			if tt.parts > 1 {
				// A partition's expansion holds less than a whole
				// layer's.
				one, err := Explore(ctx, prob, Options{ExploreOptions: opt, Storage: t.TempDir(), Parts: 1})
				if err != nil {
					t.Fatal(err)
				}
				if got.PeakBytes >= one.PeakBytes {
					t.Errorf("peak bytes %d in %d partitions, want less than in one, %d", got.PeakBytes, tt.parts, one.PeakBytes)
				}
			}
		})
	}
}

// TestSpecRebuildsBoard checks that a step rebuilds the run's board from
// its spec: a built-in one by name, one read from a picture (of any
// geometry) from the picture the spec carries.
func TestSpecRebuildsBoard(t *testing.T) {
	tests := []struct {
		name, picture string
		geom          engine.Geometry
		builtIn       bool
	}{
		{name: "english", builtIn: true},
		{name: "triangle:6", builtIn: true},
		{name: "square", picture: "  ooo\n  o.o\nooooooo\no..o..o\nooooooo\n  o.o\n  ooo\n", geom: engine.Square},
		{name: "diagonal", picture: "ooo\no.o\nooo\n", geom: engine.Diagonal},
		{name: "hexagon", picture: "  o o o\n o o . o\no o o o o\n o o o o\n  o . o\n", geom: engine.Triangular},
		{name: "triangle leaning", picture: "o\n o\no o o\n o . o\n    o o\n", geom: engine.Triangular},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := engine.Lookup(tt.name)
			if !tt.builtIn {
				b, err = engine.Parse(tt.name, tt.picture, tt.geom)
			}
			if err != nil {
				t.Fatal(err)
			}
			g, _ := b.ParseGoal("any")
			prob := search.Problem{Board: b, Start: b.Start(), Goal: g}
			spec, err := newSpec(prob, Options{}, "dir", 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := spec.Picture != ""; got == tt.builtIn {
				t.Errorf("spec carries a picture: %v, want %v (%q)", got, !tt.builtIn, spec.Picture)
			}
			got, _, err := spec.problem()
			if err != nil {
				t.Fatal(err)
			}
			if !sameBoard(got.Board, b) || got.Start != prob.Start || got.Goal != prob.Goal {
				t.Errorf("rebuilt %s (start %x), want %s (start %x)", got.Board.Name(), got.Start, b.Name(), prob.Start)
			}
		})
	}
}

// TestInjectedFailureRetried checks that a run whose step fails once (at
// a layer midway) runs it again, to the analysis in process; under -short
// on the 15-hole triangle.
func TestInjectedFailureRetried(t *testing.T) {
	board, pegs := "triangle:6", 12
	if testing.Short() {
		board, pegs = "triangle", 8
	}
	prob := problem(t, board, "")
	ctx := context.Background()
	want, err := search.Explore(ctx, prob, search.ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "failed")
	r, err := Run(ctx, prob, Options{Storage: t.TempDir(), Parts: 4, failOnce: marker, failPegs: pegs})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the failure was not injected: %v", err)
	}
	if r.Attempts != 2 {
		t.Errorf("attempts = %d, want 2 (one failed, one run again)", r.Attempts)
	}
	if g, w := explored(t, prob, r.Analysis), explored(t, prob, want); g != w {
		t.Errorf("after the failure:\n%s\nwant:\n%s", g, w)
	}
}

// TestInterruptedEarly checks that a run interrupted as it starts, before
// the job server knows its job, still cancels the job: Run returns soon
// after, rather than when the job would end (the English board's takes
// minutes through Prism, and many gigabytes).
func TestInterruptedEarly(t *testing.T) {
	enginetest.Long(t, "a run through Prism")
	prob := problem(t, "english", "")
	// Prism knows the job about 0.1-0.2 s after Run starts (less once
	// warm): the first delays fall before, the last after.
	for _, after := range []time.Duration{10 * time.Millisecond, 80 * time.Millisecond, 300 * time.Millisecond} {
		t.Run(after.String(), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			time.AfterFunc(after, cancel)
			storage := t.TempDir()
			t0 := time.Now()
			_, err := Run(ctx, prob, Options{Storage: storage})
			took := time.Since(t0)
			// Returned, the run's steps have finished their files.
			before := listing(t, storage)
			time.Sleep(2 * time.Second)
			if after := listing(t, storage); after != before {
				t.Errorf("files changed after Run returned:\n%s\nthen\n%s", before, after)
			}
			t.Logf("interrupted after %v: returned after %v: %v", after, took, err)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Run: %v, want context.Canceled", err)
			}
			// The job's steps in flight may finish first: seconds, not
			// the minute the job would run on.
			if took > 30*time.Second {
				t.Errorf("Run returned %v after it was interrupted, want the job cancelled", took-after)
			}
		})
	}
}

// TestWinnableSameAsInProcess checks that a run of the winnable positions
// alone finds search.Winnable's positions, layer by layer, and counts the
// reachable positions of the layers search.Winnable went through as it
// does (it goes through all of them but where it meets in the middle, as
// on the 15-hole triangle from its corner to its corner).
func TestWinnableSameAsInProcess(t *testing.T) {
	tests := []struct {
		name, board, goal string
		notShort          bool
	}{
		{name: "triangle15 corner", board: "triangle", goal: "1"},
		{name: "triangle15 any", board: "triangle", notShort: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.notShort && testing.Short() {
				t.Skip("a run through Prism of seconds")
			}
			prob := problem(t, tt.board, "")
			if tt.goal != "" {
				g, err := prob.Board.ParseGoal(tt.goal)
				if err != nil {
					t.Fatal(err)
				}
				prob.Goal = g
			}
			ctx := context.Background()
			want, err := search.Winnable(ctx, prob, search.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := Winnable(ctx, prob, Options{Storage: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Layers) != len(want.Layers) || got.Winnable != want.Winnable {
				t.Fatalf("%d layers, %d winnable; want %d, %d", len(got.Layers), got.Winnable, len(want.Layers), want.Winnable)
			}
			for i, g := range got.Layers {
				w := want.Layers[i]
				if g.Pegs != w.Pegs || g.Winnable != w.Winnable || w.Reachable > 0 && g.Reachable != w.Reachable {
					t.Errorf("layer %+v, want %+v (reachable where counted)", g, w)
				}
				ps := got.Positions(g.Pegs)
				if len(ps) != int(w.Winnable) {
					t.Errorf("%d pegs: %d positions, want %d", g.Pegs, len(ps), w.Winnable)
				}
				for _, p := range ps {
					if !want.Contains(p) {
						t.Fatalf("%d pegs: %s is not winnable in process", g.Pegs, prob.Board.Line(p))
					}
				}
				for _, p := range want.Positions(g.Pegs) {
					if !got.Contains(p) {
						t.Fatalf("%d pegs: %s winnable in process, not found", g.Pegs, prob.Board.Line(p))
					}
				}
			}
			if got.PeakBytes <= 0 {
				t.Errorf("peak bytes %d, want more than none", got.PeakBytes)
			}
		})
	}
}

// listing lists the files under dir with their sizes.
func listing(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d\n", path, info.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
