package search

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/search/internal/movegen"
)

// analysisJSON returns a's counts as JSON, without what differs between
// runs of the same problem (time, memory, the spill's own figures).
func analysisJSON(t testing.TB, a *Analysis) string {
	t.Helper()
	c := *a
	c.Elapsed, c.PeakBytes, c.Spilled = 0, 0, nil
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(c); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestSpillAgrees checks that spilled runs, their layers split into many
// partitions, give the same analysis as in memory, every count of every
// layer.
func TestSpillAgrees(t *testing.T) {
	for _, c := range []struct {
		board, start, goal string
		opt                ExploreOptions
		partition          int // most positions of a partition
		fanIn              int // most runs a merge reads at once (0: as the budget allows)
	}{
		{"triangle", "1", "any", ExploreOptions{}, 100, 0},
		{"triangle", "1", "1", ExploreOptions{}, 100, 0},
		{"triangle:6", "1", "any", ExploreOptions{}, 20000, 0},
		{"triangle:6", "4", "any", ExploreOptions{NoGames: true}, 20000, 0},
		{"triangle:7", "2", "any", ExploreOptions{WholeGroup: true}, 1 << 20, 0},
		// Merges that read two runs at once, in passes.
		{"triangle", "1", "any", ExploreOptions{}, 50, 2},
	} {
		t.Run(c.board+"/"+c.start+"/"+c.goal, func(t *testing.T) {
			if c.board == "triangle:7" {
				enginetest.Long(t, "the 28-hole triangle spilled takes about two minutes")
			}
			t.Parallel()
			b := enginetest.Board(t, c.board)
			prob := Problem{b, enginetest.Vacate(t, b, c.start), enginetest.Goal(t, b, c.goal)}
			want, err := Explore(context.Background(), prob, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "spill")
			opt := spilledIn(c.opt, dir, c.partition)
			opt.knobs.spillFanIn = c.fanIn
			got, err := Explore(context.Background(), prob, opt)
			if err != nil {
				t.Fatal(err)
			}
			if c.fanIn > 0 && got.Spilled.Intermediate == 0 {
				t.Errorf("no merge took a second pass: %+v", got.Spilled)
			}
			if got.Spilled == nil || got.Spilled.Widest < 2 || got.Spilled.Partitions <= int64(len(got.Layers)) {
				t.Fatalf("the spill was not taken, or no layer was split: %+v", got.Spilled)
			}
			if diff := cmp.Diff(analysisJSON(t, want), analysisJSON(t, got)); diff != "" {
				t.Errorf("spilled (+) and in memory (-) differ:\n%s", diff)
			}
		})
	}
}

// TestSpillHeld checks that spilled runs whose layers fit the budget
// expand them held in memory, writing the children as the layer below's
// partitions at once (in parts, where the knob asks for them), and walk
// back from the winnable positions below, with the same analysis as in
// memory and no runs.
func TestSpillHeld(t *testing.T) {
	for _, c := range []struct {
		name      string
		partition int // most positions of a partition (0: as the budget allows)
		parts     int // fewest parts a held layer expands in
	}{
		{"whole", 0, 0},
		{"parts", 500, 4},
		{"uneven", 250, 3}, // a third of 16 partitions: parts of 5, 5, 5 and 1
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			b := enginetest.Board(t, "triangle:6")
			prob := Problem{b, enginetest.Vacate(t, b, "1"), enginetest.Goal(t, b, "any")}
			want, err := Explore(context.Background(), prob, ExploreOptions{})
			if err != nil {
				t.Fatal(err)
			}
			opt := spilledIn(ExploreOptions{Budget: Budget{Workers: 2}}, filepath.Join(t.TempDir(), "spill"), c.partition)
			opt.knobs.spillParts = c.parts
			got, err := Explore(context.Background(), prob, opt)
			if err != nil {
				t.Fatal(err)
			}
			if got.Spilled.Held != int64(len(got.Layers)) {
				t.Errorf("%d of %d layers expanded held: want all", got.Spilled.Held, len(got.Layers))
			}
			if c.parts > 1 && got.Spilled.Widest < c.parts {
				t.Errorf("widest layer of %d partitions: want at least %d, to expand in parts", got.Spilled.Widest, c.parts)
			}
			if diff := cmp.Diff(analysisJSON(t, want), analysisJSON(t, got)); diff != "" {
				t.Errorf("spilled (+) and in memory (-) differ:\n%s", diff)
			}
		})
	}
}

// TestSpillSplitsOnTheFly checks that a spilled run whose partitions
// come out too large for the budget expands them in chunks, cut in two
// until they fit, and whose layers' winnable positions pass the room for
// them walks back in passes, with the same analysis as in memory.
func TestSpillSplitsOnTheFly(t *testing.T) {
	t.Parallel()
	b := enginetest.Board(t, "triangle:6")
	prob := Problem{b, enginetest.Vacate(t, b, "4"), enginetest.Goal(t, b, "any")}
	partition, chunk, room := 8000, 7000, int64(1<<20)
	if testing.Short() {
		// An 18-hole board, with partitions, chunks and room for the walk
		// back to match: still some chunks and two passes, in a tenth of
		// the time.
		b := oddBoard(t)
		prob = Problem{b, enginetest.Vacate(t, b, "c3"), enginetest.Goal(t, b, "any")}
		partition, chunk, room = 1200, 600, 1<<10
	}
	want, err := Explore(context.Background(), prob, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opt := spilledIn(ExploreOptions{Budget: Budget{Workers: 2}}, filepath.Join(t.TempDir(), "spill"), partition)
	opt.knobs.spillChunk = chunk
	opt.knobs.spillWalkRoom = room
	got, err := Explore(context.Background(), prob, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", *got.Spilled)
	if got.Spilled.Chunked == 0 || got.Spilled.Passes < 2 {
		t.Errorf("chunked partitions %d, walk back passes %d: want some and at least 2", got.Spilled.Chunked, got.Spilled.Passes)
	}
	if diff := cmp.Diff(analysisJSON(t, want), analysisJSON(t, got)); diff != "" {
		t.Errorf("spilled (+) and in memory (-) differ:\n%s", diff)
	}
}

// spillChildEnv names the directory a re-executed test binary spills
// into (see TestSpillKilledChild); spillKillEnv, the progress report at
// which the child kills itself.
const (
	spillChildEnv = "PEGS_TEST_SPILL_CHILD"
	spillKillEnv  = "PEGS_TEST_SPILL_KILL_AT"
)

// killProblem is the problem the kill test runs and the positions of its
// spilled partitions: the 21-hole triangle, its layers in many partitions,
// so that a kill lands mid-layer; under -short, an 18-hole board in
// partitions as much smaller.
func killProblem(t testing.TB) (Problem, ExploreOptions, int) {
	b, at, positions := enginetest.Board(t, "triangle:6"), "1", 3000
	if testing.Short() {
		b, at, positions = oddBoard(t), "c3", 300
	}
	return Problem{b, enginetest.Vacate(t, b, at), enginetest.Goal(t, b, "any")}, ExploreOptions{Budget: Budget{Workers: 2}}, positions
}

// TestSpillKilledChild is the run TestSpillKilled kills: it runs only in
// a child process, spilling into the directory its environment names and
// resuming what is there, and kills itself (SIGKILL on Unix: no deferred
// call or flush runs) at the progress report its environment numbers,
// while the other worker goes on writing.
func TestSpillKilledChild(t *testing.T) {
	dir := os.Getenv(spillChildEnv)
	if dir == "" {
		t.Skip("run by TestSpillKilled in a child process")
	}
	killAt, err := strconv.Atoi(os.Getenv(spillKillEnv))
	if err != nil {
		t.Fatal(err)
	}
	prob, opt, positions := killProblem(t)
	opt = spilledIn(opt, dir, positions)
	opt.Spill.Keep = true
	_, err = os.Stat(filepath.Join(dir, "manifest.json"))
	opt.Spill.Resume = err == nil
	var reports atomic.Int64
	opt.Progress = func(Progress) {
		if reports.Add(1) == int64(killAt) {
			self, _ := os.FindProcess(os.Getpid())
			self.Kill()
			select {} // the kill is on its way
		}
	}
	if _, err := Explore(context.Background(), prob, opt); err != nil {
		t.Fatal(err)
	}
}

// TestSpillKilled kills a spilled run (a child process, which kills itself
// at a random progress report among the first quarter of a whole run's)
// five times, resuming it each time, and checks that the run resumed to
// its end gives the analysis of a run in memory. The kills go by progress,
// not by the clock, so that they land mid-run however fast the machine.
func TestSpillKilled(t *testing.T) {
	if os.Getenv(spillChildEnv) != "" {
		t.Skip("in the child")
	}
	t.Parallel()
	prob, opt, positions := killProblem(t)
	want, err := Explore(context.Background(), prob, opt)
	if err != nil {
		t.Fatal(err)
	}
	// A whole spilled run's progress reports.
	var reports atomic.Int64
	whole := spilledIn(opt, filepath.Join(t.TempDir(), "whole"), positions)
	whole.Progress = func(Progress) { reports.Add(1) }
	if _, err := Explore(context.Background(), prob, whole); err != nil {
		t.Fatal(err)
	}
	n := int(reports.Load())
	dir := filepath.Join(t.TempDir(), "spill")
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d progress reports in a whole run", seed, n)
	rng := rand.New(rand.NewPCG(seed, 34))
	killed := 0
	for i := range 5 {
		at := 1 + rng.IntN(max(1, n/4))
		cmd := exec.Command(os.Args[0], "-test.run=^TestSpillKilledChild$", fmt.Sprintf("-test.short=%v", testing.Short()))
		cmd.Env = append(os.Environ(), spillChildEnv+"="+dir, spillKillEnv+"="+strconv.Itoa(at))
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		switch {
		case err == nil:
			t.Logf("run %d finished before report %d", i, at)
		case errors.As(err, &exit) && !exit.Exited():
			killed++ // ended by the signal
		default:
			t.Fatalf("run %d, not killed: %v\n%s", i, err, out)
		}
	}
	t.Logf("%d runs of 5 killed mid-run", killed)
	if killed < 2 {
		t.Fatalf("only %d runs of 5 were killed mid-run", killed)
	}
	resume := spilledIn(ExploreOptions{Budget: Budget{Workers: 2}}, dir, positions)
	resume.Spill.Resume = true
	got, err := Explore(context.Background(), prob, resume)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(analysisJSON(t, want), analysisJSON(t, got)); diff != "" {
		t.Errorf("killed %d times and resumed (+), in memory (-):\n%s", killed, diff)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the spill directory is left without Keep: %v", err)
	}
}

// TestSpillCorrupt damages and truncates files of a kept spilled run and
// checks that resuming it names the file in the error.
func TestSpillCorrupt(t *testing.T) {
	t.Parallel()
	b := enginetest.Board(t, "triangle")
	prob := Problem{b, enginetest.Vacate(t, b, "1"), enginetest.Goal(t, b, "any")}
	for _, c := range []struct {
		name, file, want string
		damage           func([]byte) []byte
	}{
		{"a winnable file damaged", "win07-p001.spill", "(%s): checksum mismatch in block 1", func(b []byte) []byte { b[50] ^= 1; return b }},
		{"the one-peg layer truncated", "layer01-p000.spill", "(%s): truncated: ends before block 2", func(b []byte) []byte { return b[:len(b)-32] }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "spill")
			opt := spilledIn(ExploreOptions{}, dir, 100)
			opt.Spill.Keep = true
			if _, err := Explore(context.Background(), prob, opt); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, c.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, c.damage(data), 0o644); err != nil {
				t.Fatal(err)
			}
			opt.Spill.Resume = true
			_, err = Explore(context.Background(), prob, opt)
			if !errors.Is(err, ErrSpillCorrupt) {
				t.Fatalf("got %v, want a corrupt file", err)
			}
			if want := fmt.Sprintf(c.want, path); !strings.HasSuffix(err.Error(), want) {
				t.Errorf("got %q, want it to end %q", err, want)
			}
		})
	}
}

// TestSpillEnglish checks the English full analysis spilled within a
// budget the run in memory cannot keep against the run in memory with
// room: the same counts, every layer.
func TestSpillEnglish(t *testing.T) {
	enginetest.Long(t, "the English analysis spilled takes about a minute")
	b := engine.English()
	prob := Problem{b, b.Start(), enginetest.Goal(t, b, "center")}
	want, err := Explore(context.Background(), prob, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Two thirds of what the run in memory took.
	budget := want.PeakBytes * 2 / 3
	if _, err := Explore(context.Background(), prob, ExploreOptions{Budget: Budget{Memory: budget}}); !errors.Is(err, ErrMemory) {
		t.Fatalf("in memory within %d MiB: %v, want ErrMemory (the budget must force the spill)", budget>>20, err)
	}
	opt := ExploreOptions{Budget: Budget{Memory: budget}, Spill: Spill{Dir: filepath.Join(t.TempDir(), "spill")}}
	opt.knobs.spillNoSync = true
	got, err := Explore(context.Background(), prob, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got.Spilled == nil || got.Spilled.Widest < 2 {
		t.Fatalf("no layer was split: %+v", got.Spilled)
	}
	if got.PeakBytes > budget {
		t.Errorf("peak %d bytes, past the budget", got.PeakBytes)
	}
	if diff := cmp.Diff(analysisJSON(t, want), analysisJSON(t, got)); diff != "" {
		t.Errorf("spilled (+) and in memory (-) differ:\n%s", diff)
	}
}

// TestSpillNoBitsets checks, against a spilled run, the full analysis of
// a board too large for bitsets (the 7×7 square, 49 holes), whose
// complete games are counted forward through tables rather than backward.
func TestSpillNoBitsets(t *testing.T) {
	t.Parallel()
	b := enginetest.Square(t, 7)
	start := enginetest.Position(t, b, "a1", "b1", "c1", "d1", "e1", "f1", "g1",
		"a2", "b2", "c2", "d2", "e2", "f2", "g2", "c3", "d3", "e3")
	prob := Problem{b, start, enginetest.Goal(t, b, "any")}
	if movegen.New(b, prob.Group()).Ranker() != nil {
		t.Fatal("the board takes bitsets: the test needs one that does not")
	}
	want, err := Explore(context.Background(), prob, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want.Games.Sign() == 0 || want.Solutions.Sign() == 0 {
		t.Fatalf("games %v, solutions %v: want some of each", want.Games, want.Solutions)
	}
	got, err := Explore(context.Background(), prob, spilledIn(ExploreOptions{}, filepath.Join(t.TempDir(), "spill"), 5000))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(analysisJSON(t, want), analysisJSON(t, got)); diff != "" {
		t.Errorf("spilled (+) and in memory (-) differ:\n%s", diff)
	}
}

// TestSpillReversal checks that backward play is forward play with pegs
// and holes swapped on spilled runs: vacate s and finish at f has as many
// solutions as vacate f and finish at s, and as the run in memory.
func TestSpillReversal(t *testing.T) {
	b := enginetest.Board(t, "triangle")
	solutions := func(t *testing.T, s, f string, spilled bool) string {
		opt := ExploreOptions{}
		if spilled {
			opt = spilledIn(opt, filepath.Join(t.TempDir(), "spill"), 300)
		}
		a, err := Explore(context.Background(), Problem{b, enginetest.Vacate(t, b, s), enginetest.Goal(t, b, f)}, opt)
		if err != nil {
			t.Fatal(err)
		}
		if spilled && (a.Spilled == nil || a.Spilled.Widest < 2) {
			t.Fatalf("no layer was split: %+v", a.Spilled)
		}
		return a.Solutions.String()
	}
	for _, c := range [][2]string{{"1", "13"}, {"3", "12"}, {"2", "11"}, {"4", "4"}} {
		t.Run(c[0]+"-"+c[1], func(t *testing.T) {
			t.Parallel()
			there, back := solutions(t, c[0], c[1], true), solutions(t, c[1], c[0], true)
			mem := solutions(t, c[0], c[1], false)
			if there == "0" {
				t.Fatalf("vacate %s finish %s has no solution: a case that tells nothing", c[0], c[1])
			}
			if there != back || there != mem {
				t.Errorf("vacate %s finish %s: %s spilled, %s in memory; vacate %s finish %s spilled: %s", c[0], c[1], there, mem, c[1], c[0], back)
			}
		})
	}
}

// TestSpillCancelled cancels spilled runs mid-way, as Ctrl-C does, in the
// forward pass, in the walk back and in the chances (past DropLayers),
// and checks that each returns
// context.Canceled with the layers it finished and that the resumed run
// gives the analysis of a run in memory.
func TestSpillCancelled(t *testing.T) {
	t.Parallel()
	b := enginetest.Board(t, "triangle")
	prob, opt := Problem{b, enginetest.Vacate(t, b, "1"), enginetest.Goal(t, b, "any")}, ExploreOptions{Budget: Budget{Workers: 2}}
	want, err := Explore(context.Background(), prob, opt)
	if err != nil {
		t.Fatal(err)
	}
	positions := 40
	if testing.Short() {
		positions = 100 // still 2-3 partitions in the layers cancelled in
	}
	for _, at := range []Progress{{Phase: "forward", Pegs: 9}, {Phase: "backward", Pegs: 8}, {Phase: "chance", Pegs: 8}} {
		t.Run(at.Phase, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "spill")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			o := spilledIn(opt, dir, positions)
			o.Progress = func(p Progress) {
				if p.Phase == at.Phase && p.Pegs == at.Pegs {
					cancel()
				}
			}
			a, err := Explore(ctx, prob, o)
			if !errors.Is(err, context.Canceled) || a == nil || len(a.Layers) == 0 {
				t.Fatalf("cancelled at %+v: %v, %v", at, a, err)
			}
			if at.Phase == "chance" {
				// The layers' files are gone, all but one peg's, which the
				// resumed run reads (and the empty layer's).
				files, _ := filepath.Glob(filepath.Join(dir, "layer*"))
				one := 0
				for _, f := range files {
					switch name := filepath.Base(f); {
					case strings.HasPrefix(name, "layer01-"):
						one++
					case !strings.HasPrefix(name, "layer00-"):
						t.Errorf("%s is left past the walk back", name)
					}
				}
				if one == 0 {
					t.Error("layer 1's files are gone")
				}
			}
			o.Progress, o.Spill.Resume = nil, true
			got, err := Explore(context.Background(), prob, o)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(analysisJSON(t, want), analysisJSON(t, got)); diff != "" {
				t.Errorf("cancelled and resumed (+), in memory (-):\n%s", diff)
			}
		})
	}
}

// TestSpillDiskRefused checks that a new spilled run whose files would not
// fit the free space is refused before it writes a file, in one line with
// the estimate, and that its directory is left as it was; and that the
// estimate covers the files a run keeps.
func TestSpillDiskRefused(t *testing.T) {
	t.Parallel()
	b := enginetest.Board(t, "triangle:6")
	prob := Problem{b, enginetest.Vacate(t, b, "5"), enginetest.Goal(t, b, "any")}
	dir := filepath.Join(t.TempDir(), "spill")
	opt := ExploreOptions{Spill: Spill{Dir: dir, Keep: true}}
	a, err := Explore(context.Background(), prob, opt)
	if err != nil {
		t.Fatal(err)
	}
	var kept int64
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		if st, err := os.Stat(f); err == nil {
			kept += st.Size()
		}
	}
	if kept == 0 || a.Spilled == nil {
		t.Fatalf("a kept spilled run left %d bytes of files", kept)
	}

	opt.Spill.Dir = filepath.Join(t.TempDir(), "small")
	opt.knobs.spillFree = 1 << 10
	_, err = Explore(context.Background(), prob, opt)
	var de *DiskError
	if !errors.As(err, &de) {
		t.Fatalf("Explore on a disk of 1 KiB: %v, want a *DiskError", err)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, opt.Spill.Dir) {
		t.Errorf("refusal %q: want one line naming the directory", msg)
	}
	// The estimate: the forward files a run keeps, and the runs of its
	// widest layer on top (its winnable and chance files are not counted).
	t.Logf("refused: %v (the run kept %d bytes)", err, kept)
	if de.Need < kept || de.Need > 8*kept {
		t.Errorf("estimated %d bytes; the run kept %d", de.Need, kept)
	}
	if _, err := os.Stat(opt.Spill.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused run left its directory: %v", err)
	}
	if !de.Bound || !strings.HasSuffix(err.Error(), " at most") {
		t.Errorf("refusal by the estimate %q (Bound %v): want it said to be a bound", err, de.Bound)
	}
	de.Setting = "--flag"
	if msg := err.Error(); !strings.Contains(msg, "--flag starts it anyway") {
		t.Errorf("refusal %q with Setting: want the setting named", msg)
	}

	// Without the estimate, the same run on the same small disk starts
	// (each layer is checked against the real free space) and counts
	// what the first did.
	opt.Spill.NoEstimate = true
	b2, err := Explore(context.Background(), prob, opt)
	if err != nil {
		t.Fatalf("Explore with NoEstimate on a disk said to be of 1 KiB: %v", err)
	}
	if b2.Reachable != a.Reachable || b2.Games.Cmp(a.Games) != 0 {
		t.Errorf("with NoEstimate: %d positions, %v games; want %d, %v", b2.Reachable, b2.Games, a.Reachable, a.Games)
	}
}

// TestSpillDiskEstimate measures the margin of the estimate that a new
// spilled run checks the free space against: the most its files held on
// disk at once, in whole blocks, with a small budget (many partitions, so
// many small files, and merges in passes) and a large one. The estimate
// must be an upper bound.
func TestSpillDiskEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("two spilled runs of the 21-hole triangle")
	}
	b := enginetest.Board(t, "triangle:6")
	prob := Problem{b, enginetest.Vacate(t, b, "1"), enginetest.Goal(t, b, "any")}
	for _, mem := range []int64{4 << 20, 64 << 20} {
		opt := ExploreOptions{Budget: Budget{Memory: mem, Workers: 2}, Spill: Spill{Dir: filepath.Join(t.TempDir(), "refused")}}
		opt.knobs.spillFree = 1 << 10
		_, err := Explore(context.Background(), prob, opt)
		var de *DiskError
		if !errors.As(err, &de) {
			t.Fatalf("Explore on a disk of 1 KiB: %v, want a *DiskError", err)
		}
		opt.knobs.spillFree = 0
		opt.Spill.Dir = filepath.Join(t.TempDir(), "spill")
		a, err := Explore(context.Background(), prob, opt)
		if err != nil {
			t.Fatal(err)
		}
		peak := a.Spilled.PeakDisk
		t.Logf("--mem %d MiB: estimated %d bytes, peak %d bytes on disk: margin %.2f (%d partitions, %d intermediate runs)",
			mem>>20, de.Need, peak, float64(de.Need)/float64(peak), a.Spilled.Partitions, a.Spilled.Intermediate)
		if de.Need < peak {
			t.Errorf("--mem %d MiB: estimated %d bytes, but the run held %d", mem>>20, de.Need, peak)
		}
	}
}

var spillBudgets = flag.Bool("spill-budgets", false, "run TestSpillBudgets: the 28-hole triangle spilled at 16, 24 and 32 MiB (minutes each)")

// TestSpillBudgets checks that a spilled run that accepts its budget
// finishes within it, with the counts of the run in memory, or is refused
// before it starts in one line: the 28-hole triangle at 16, 24 and 32 MiB,
// whose merges once needed 35 MiB more than 32. It runs with
// -spill-budgets only: each run takes minutes.
func TestSpillBudgets(t *testing.T) {
	if !*spillBudgets {
		t.Skip("minutes of work: run with -spill-budgets")
	}
	b := enginetest.Board(t, "triangle:7")
	prob := Problem{b, enginetest.Vacate(t, b, "1"), enginetest.Goal(t, b, "any")}
	want, err := Explore(context.Background(), prob, ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, mem := range []int64{16 << 20, 24 << 20, 32 << 20} {
		t.Run(fmt.Sprintf("mem=%dMiB", mem>>20), func(t *testing.T) {
			var steps atomic.Int64
			opt := ExploreOptions{Budget: Budget{Memory: mem, Progress: func(Progress) { steps.Add(1) }},
				Spill: Spill{Dir: filepath.Join(t.TempDir(), "spill")}}
			got, err := Explore(context.Background(), prob, opt)
			if err != nil {
				if steps.Load() > 0 || strings.Contains(err.Error(), "\n") {
					t.Fatalf("refused after %d steps, or not in one line: %v", steps.Load(), err)
				}
				t.Logf("refused before it started: %v", err)
				return
			}
			if diff := cmp.Diff(analysisJSON(t, want), analysisJSON(t, got)); diff != "" {
				t.Errorf("spilled (+) and in memory (-) differ:\n%s", diff)
			}
			t.Logf("%+v", *got.Spilled)
		})
	}
}
