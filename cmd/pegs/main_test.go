package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"pegs/cmd/internal/cli"

	"pegs/report/reporttest"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/perf/benchfmt"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// normalize blanks out what changes from run to run: timings and memory.
func normalize(s string) string {
	for _, r := range []struct{ re, repl string }{
		{`"elapsed_ms": [0-9.]+`, `"elapsed_ms": 0`},
		{`"peak_bytes": [0-9]+`, `"peak_bytes": 0`},
		{`positions searched in [^ \n]+\.`, `positions searched in T.`},
		{`winnable positions \([^)\n]+\)`, `winnable positions (T)`},
		{`│ time +│ [^│]+│`, `│ time │ T │`},
		{`│ peak table memory +│ [^│]+│`, `│ peak table memory │ M │`},
	} {
		s = regexp.MustCompile(r.re).ReplaceAllString(s, r.repl)
	}
	return s
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		args string
	}{
		{"boards", "boards"},
		{"boards_csv", "boards --format csv"},
		{"show_triangle", "show --board triangle"},
		{"show_hexagon", "show --board @testdata/hexagon.board --geometry triangular"},
		{"solve_cross", "solve --board english --position ....o...ooo.....o......o........."},
		{"solve_triangle_json", "solve --board triangle --start 1 --goal any --format json"},
		{"solve_french_centre", "solve --board french --goal any"},
		{"solve_moves_plus", "solve --metric moves --position ....o....o....ooooo....o....o...."},
		{"solve_moves_json", "solve --metric moves --board triangle --start 13 --goal 13 --format json"},
		{"solve_fewest", "solve --board english --position o.o.............................. --goal fewest"},
		{"solve_layered", "solve --board english --position oo...oo.o..ooo..o.ooooo.ooo..o.oo --goal center"},
		{"explore_triangle_json", "explore --board triangle --start 1 --goal any --format json"},
		{"explore_triangle4", "explore --board triangle:4 --goal center"},
		{"explore_whole_triangle", "explore --board triangle --start 2 --goal any --whole-group"},
		{"explore_whole_triangle_json", "explore --board triangle --start 2 --goal any --whole-group --format json"},
		{"explore_nogames_triangle", "explore --board triangle --start 2 --goal any --no-games"},
		{"explore_winnable_triangle", "explore --board triangle --start 1 --goal 1 --winnable-only"},
		{"explore_winnable_triangle_json", "explore --board triangle --start 1 --goal 1 --winnable-only --format json"},
		{"explore_reachable_triangle", "explore --board triangle --start 2 --goal any --whole-group --reachable-only"},
		{"explore_reachable_triangle_json", "explore --board triangle --start 1 --goal any --reachable-only --format json"},
		{"explore_random_triangle", "explore --board triangle --start 2 --goal any --random-only"},
		{"explore_random_triangle_json", "explore --board triangle --start 1 --goal 1 --random-only --format json"},
		{"explore_random_triangle_csv", "explore --board triangle --start 1 --goal 1 --random-only --format csv"},
		{"starts_triangle_csv", "starts --board triangle --format csv"},
		{"starts_triangle", "starts --board triangle --goal complement"},
		{"hint_triangle", "hint --board triangle --start 1 --history 4-1,6-4"},
		{"hint_stuck", "hint --board triangle --position o.........o...o"},
		{"hint_dead_json", "hint --board triangle --start 1 --history 4-1,6-4,1-6,7-2 --format json"},
		{"hint_fewest", "hint --board triangle --start 1 --history 6-1,13-6,8-3,15-13,6-15"},
		{"hint_fewest_json", "hint --board triangle --start 1 --history 6-1,13-6,8-3,15-13,6-15 --format json"},
		{"grade_classic3_csv", "grade --levels testdata/classic3.levels --format csv"},
		{"grade_plus_json", "grade --position ....o....o....ooooo....o....o.... --format json"},
		{"generate_small", "generate --board english --count 3 --pegs 6-9 --seed 4 --workers 2"},
		{"generate_triangle", "generate --board triangle --count 5"},
		{"generate_custom_text", "generate --board @testdata/square5.board --goal any --count 3 --pegs 8-12 --format text"},
		{"hint_position", "hint --board english --position ....o...ooo.....o......o........."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), strings.Fields(tt.args), &stdout, &stderr)
			if err != nil {
				t.Fatalf("pegs %s: %v\n%s", tt.args, err, stderr.String())
			}
			got := normalize(stdout.String())
			reporttest.Golden(t, tt.name+".stdout", []byte(got), *update)
		})
	}
}

var stackTrace = regexp.MustCompile(`goroutine \d+ \[|panic:`)

func TestErrors(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		contains string
	}{
		{nil, 2, ""},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"solve", "--board", "hexagonal"}, 2, `unknown board "hexagonal"`},
		{[]string{"solve", "--position", "ooo"}, 2, "3 symbols; board english has 33 holes"},
		{[]string{"solve", "--position", strings.Repeat("o", 40)}, 2, "more than 33 symbols"},
		{[]string{"solve", "--position", strings.Repeat("o", 32) + "x"}, 2, "symbol 'x' at character 33"},
		{[]string{"solve", "--start", "z9"}, 2, `unknown hole "z9"`},
		{[]string{"solve", "--goal", "middle"}, 2, `goal "middle"`},
		{[]string{"solve", "--board", "triangle", "--goal", "center"}, 2, "no centre hole"},
		{[]string{"solve", "--start", "d4", "--position", "x"}, 2, "not both"},
		{[]string{"solve", "--format", "yaml"}, 2, `unknown format "yaml"`},
		{[]string{"solve", "--mem", "lots"}, 2, `bad size "lots"`},
		{[]string{"solve", "--bogus"}, 2, ""},
		{[]string{"solve", "--board", "@testdata/nojumps.board"}, 2, "no jumps"},
		{[]string{"solve", "--board", "@testdata/missing.board"}, 1, "no such file"},
		{[]string{"solve", "--board", "triangle:12"}, 2, "rows must be 4..10"},
		{[]string{"explore", "--goal", "fewest"}, 2, "one-peg goal"},
		{[]string{"explore", "--mem", "1MiB"}, 1, "memory budget exceeded"},
		{[]string{"explore", "--board", "triangle:8", "--start", "1", "--goal", "any", "--whole-group", "--mem", "8MiB"}, 1, "(budget 2.0 MiB, set with --mem, less the program's own memory), finding the positions of 28 pegs"},
		{[]string{"explore", "--whole-group"}, 2, "--whole-group needs --goal any"},
		{[]string{"explore", "--goal", "any", "--whole-group", "--winnable-only"}, 2, "do not go with --winnable-only"},
		{[]string{"explore", "--no-games", "--winnable-only"}, 2, "do not go with --winnable-only"},
		{[]string{"explore", "--reachable-only", "--winnable-only"}, 2, "do not go with --winnable-only"},
		{[]string{"explore", "--reachable-only", "--no-games"}, 2, "leave out --no-games"},
		{[]string{"explore", "--random-only", "--winnable-only"}, 2, "do not go with --random-only"},
		{[]string{"explore", "--random-only", "--no-games"}, 2, "do not go with --random-only"},
		{[]string{"explore", "--random-only", "--reachable-only"}, 2, "do not go with --random-only"},
		{[]string{"explore", "--goal", "any", "--whole-group", "--random-only"}, 2, "do not go with --random-only"},
		{[]string{"explore", "--spill", "a", "--random-only"}, 2, "--spill and --resume are for the full analysis"},
		{[]string{"explore", "--spill", "a", "--resume", "b"}, 2, "--spill DIR or --resume DIR, not both"},
		{[]string{"explore", "--keep"}, 2, "--keep needs --spill DIR or --resume DIR"},
		{[]string{"explore", "--no-disk-estimate"}, 2, "--no-disk-estimate needs --spill DIR"},
		{[]string{"report", "--out", "x", "--no-disk-estimate"}, 2, "--no-disk-estimate needs --spill DIR"},
		{[]string{"explore", "--resume", "testdata", "--no-disk-estimate"}, 2, "--no-disk-estimate needs --spill DIR"},
		{[]string{"explore", "--spill", "a", "--reachable-only"}, 2, "--spill and --resume are for the full analysis"},
		{[]string{"explore", "--board", "triangle", "--resume", "testdata"}, 1, "testdata holds no run to resume"},
		{[]string{"explore", "--start", "c1", "--goal", "any", "--mem", "1MiB"}, 1, "--whole-group would count up to the board's symmetry, about 8 times fewer"},
		{[]string{"explore", "--start", "c1", "--goal", "any", "--whole-group", "--mem", "4MiB"}, 1, "set with --mem, less the program's own memory), finding the positions of 24 pegs; --no-games would count all but complete games, in less memory"},
		{[]string{"explore", "--start", "c1", "--goal", "any", "--whole-group", "--no-games", "--mem", "1MiB"}, 1, "; --reachable-only would count the positions alone"},
		{[]string{"starts", "--goal", "centre"}, 2, "want any, complement or all"},
		{[]string{"solve", "--metric", "speed"}, 2, "want jumps or moves"},
		{[]string{"hint", "--start", "d4", "--history", "f4-d4 d6-d4"}, 2, "illegal jump: jump 2 (d6-d4)"},
		{[]string{"hint", "--history", "f4-d4"}, 2, "--history: needs start"},
		{[]string{"hint"}, 2, "--position: give position, or start with history"},
		{[]string{"hint", "--position", "ooo"}, 2, "3 symbols"},
		{[]string{"hint", "--board", "triangle", "--position", strings.Repeat("o", 15), "--oracle", "testdata/missing.oracle"}, 1, "no such file"},
		{[]string{"report"}, 2, "--out DIR is required"},
		{[]string{"report", "--out", "x", "--quick", "--full"}, 2, "not both"},
		{[]string{"report", "--out", "testdata/show_triangle.stdout/x"}, 1, "not a directory"},
		{[]string{"oracle", "--board", "triangle"}, 2, "--out is required"},
		{[]string{"oracle", "--board", "triangle", "--out", "/proc/x"}, 1, "--out: cannot write /proc/x"},
		{[]string{"oracle", "--board", "triangle", "--out", "testdata"}, 1, "--out: testdata is a directory"},
		{[]string{"generate", "--count", "3", "--out", "/proc/x"}, 1, "--out: cannot write /proc/x"},
		{[]string{"hint", "--board", "triangle", "--position", strings.Repeat("o", 15), "--oracle", "testdata"}, 2, "--oracle testdata is a directory"},
		{[]string{"hint", "--board", "triangle", "--position", strings.Repeat("o", 15), "--oracle", "testdata/hexagon.board"}, 1, "--oracle testdata/hexagon.board: bad oracle file: not an oracle file"},
		{[]string{"bench", "--suite", "nope"}, 2, `unknown suite "nope"`},
		{[]string{"grade"}, 2, "give --position or --levels"},
		{[]string{"generate", "--count", "3", "--pegs", "six"}, 2, "want MIN-MAX"},
		{[]string{"generate", "--count", "3", "--pack", "2"}, 2, "give one of --count, --pack or --calibrate"},
		{[]string{"generate", "--count", "3", "--pegs", "40-50"}, 2, "--pegs 40-50: want 2 <= MIN <= MAX < 33 (board english has 33 holes)"},
		{[]string{"generate", "--count", "3", "--pegs", "9-4"}, 2, "want 2 <= MIN <= MAX"},
		{[]string{"generate", "--count", "3", "--shape", "round"}, 2, `--shape: unknown shape "round"`},
		{[]string{"generate", "--board", "triangle", "--count", "3", "--pegs", "6-20"}, 2, "--pegs 6-20: want 2 <= MIN <= MAX < 15 (board triangle has 15 holes)"},
		{[]string{"grade", "--position", "o.o.............................."}, 1, "position has no solution to goal center"},
		{[]string{"bench", "--strategies", "warp"}, 2, `unknown strategy "warp"`},
		{[]string{"bench", "--format", "yaml"}, 2, `unknown format "yaml"`},
		{[]string{"bench", "--suite", "@testdata/missing.levels"}, 1, "no such file"},
		{[]string{"solve", "--metric", "moves", "--goal", "fewest"}, 2, "one-peg goal"},
		{[]string{"serve", "--levels", "testdata/missing.json"}, 1, "no such file"},
		{[]string{"serve", "--levels", "testdata/classic.levels"}, 1, "testdata/classic.levels: not a level pack of pegs generate"},
		{[]string{"serve", "--geometry", "hex"}, 2, `unknown geometry "hex"`},
		{[]string{"serve", "--addr", "nowhere"}, 1, "missing port in address"},
		{[]string{"serve", "--mem", "lots"}, 2, `bad size "lots"`},
		{[]string{"serve", "--log-level", "loud"}, 2, `--log-level "loud": want debug, info, warn or error`},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), tt.args, &stdout, &stderr)
		code := cli.ExitCode("pegs", err, &stderr)
		if code != tt.code {
			t.Errorf("pegs %v: exit %d, want %d (err %v)", tt.args, code, tt.code, err)
		}
		msg := stderr.String()
		if !strings.Contains(msg, tt.contains) {
			t.Errorf("pegs %v: stderr %q, want it to contain %q", tt.args, msg, tt.contains)
		}
		if tt.contains != "" && strings.Count(strings.TrimSpace(msg), "\n") > 0 {
			t.Errorf("pegs %v: error takes more than one line:\n%s", tt.args, msg)
		}
		if stackTrace.MatchString(msg) {
			t.Errorf("pegs %v: stack trace on stderr:\n%s", tt.args, msg)
		}
	}
}

// TestInterrupt checks what Ctrl-C (a cancelled context) leaves on stderr:
// one line saying so, exit status 1, whether the command has output to
// keep (explore prints the layers finished and says so itself) or not.
func TestInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{
		{"solve", "--board", "english", "--goal", "center", "--position", "..ooo.ooo.o.ooooooooooo.oooo.oooo"},
		{"explore", "--board", "triangle", "--start", "1"},
		{"explore", "--board", "triangle", "--start", "1", "--random-only"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(ctx, args, &stdout, &stderr)
		if code := cli.ExitCode("pegs", err, &stderr); code != 1 {
			t.Errorf("pegs %v interrupted: exit %d, want 1 (%v)", args, code, err)
		}
		msg := strings.TrimSpace(stderr.String())
		if !strings.HasPrefix(msg, "pegs: interrupted") || strings.Contains(msg, "\n") {
			t.Errorf("pegs %v interrupted: stderr %q, want one line saying so", args, msg)
		}
	}
}

// TestInterruptedKeeps checks the commands that, interrupted, write what
// they finished: generate --count the levels made so far, which are the
// first levels of the whole run (the same seed and --count that many give
// the same output), and grade --levels those graded before the last level
// of testdata/interrupt.levels (the whole English board, several seconds).
func TestInterruptedKeeps(t *testing.T) {
	for _, tt := range []struct {
		args []string
		what string // the message's words after the count
		want int    // the levels to keep; 0: some
	}{
		{[]string{"generate", "--count", "100000", "--seed", "3"}, "levels finished so far follow", 0},
		{[]string{"grade", "--levels", "testdata/interrupt.levels", "--format", "json"}, "levels graded so far follow", 2},
	} {
		t.Run(tt.args[0], func(t *testing.T) {
			// Each waits for its own timer: the two at once.
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(2*time.Second, cancel) // as Ctrl-C would
			var stdout, stderr bytes.Buffer
			err := run(ctx, tt.args, &stdout, &stderr)
			if code := cli.ExitCode("pegs", err, &stderr); code != 1 {
				t.Fatalf("interrupted %v: exit %d, want 1 (%v)", tt.args, code, err)
			}
			var got struct {
				Levels []json.RawMessage `json:"levels"`
			}
			n := -1
			if json.Unmarshal(stdout.Bytes(), &got) == nil {
				n = len(got.Levels)
			}
			if n <= 0 || tt.want > 0 && n != tt.want {
				t.Fatalf("interrupted %v: %d levels written (stdout %q, stderr %q), want %d (0: some)", tt.args, n, stdout.String(), stderr.String(), tt.want)
			}
			if want := fmt.Sprintf("pegs: interrupted; the %d %s\n", n, tt.what); stderr.String() != want {
				t.Errorf("interrupted %v: stderr %q, want %q", tt.args, stderr.String(), want)
			}
			if tt.args[0] != "generate" {
				return
			}
			var whole bytes.Buffer
			if err := run(context.Background(), []string{"generate", "--count", strconv.Itoa(n), "--seed", "3"}, &whole, io.Discard); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(whole.String(), stdout.String()); diff != "" {
				t.Errorf("the %d levels of an interrupted run differ from generate --count %d (-want +got):\n%s", n, n, diff)
			}
		})
	}
}

// TestBenchFormats checks that every output format of pegs bench parses:
// JSON decodes, CSV has its header, benchstat's reader takes benchfmt.
func TestBenchFormats(t *testing.T) {
	base := "bench --suite @testdata/classic3.levels --strategies backtrack,dfs-pruned,layered --runs 1 --format "
	out := func(format string) []byte {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), strings.Fields(base+format), &stdout, &stderr); err != nil {
			t.Fatalf("pegs %s%s: %v\n%s", base, format, err, stderr.String())
		}
		return stdout.Bytes()
	}
	var rows []map[string]any
	if err := json.Unmarshal(out("json"), &rows); err != nil || len(rows) == 0 {
		t.Errorf("json: %d rows, %v", len(rows), err)
	}
	recs, err := csv.NewReader(bytes.NewReader(out("csv"))).ReadAll()
	if err != nil || len(recs) < 2 || recs[0][0] != "problem" || recs[0][1] != "strategy" {
		t.Errorf("csv: %q, %v", recs, err)
	}
	rd := benchfmt.NewReader(bytes.NewReader(out("benchfmt")), "bench.txt")
	n := 0
	for rd.Scan() {
		switch rec := rd.Result(); rec := rec.(type) {
		case *benchfmt.Result:
			n++
		case *benchfmt.SyntaxError:
			t.Errorf("benchfmt: %v", rec)
		}
	}
	if n == 0 {
		t.Error("benchfmt: no results")
	}
}

// TestBenchSequentialOnly checks that pegs bench prints no speed-up table
// when no strategy it ran has a worker pool.
func TestBenchSequentialOnly(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := strings.Fields("bench --suite @testdata/classic3.levels --strategies dfs-pruned,dfs-beam --runs 1 --format markdown")
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("pegs %v: %v\n%s", args, err, stderr.String())
	}
	if out := stdout.String(); !strings.Contains(out, "dfs-beam") || strings.Contains(out, "speed-up") {
		t.Errorf("pegs %v: want the strategies' table alone, got:\n%s", args, out)
	}
}

// TestHintOracleLevel checks that hint refuses an oracle file written for
// another level than --start's: its tables say nothing of that level.
func TestHintOracleLevel(t *testing.T) {
	file := filepath.Join(t.TempDir(), "triangle.oracle")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"oracle", "--board", "triangle", "--start", "1", "--goal", "any", "--fewest", "--out", file}, &stdout, &stderr); err != nil {
		t.Fatalf("pegs oracle: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "and the fewest pegs of") {
		t.Errorf("pegs oracle --fewest: %q, want it to say how many dead ends the fewest table holds", stdout.String())
	}
	for _, tt := range []struct {
		start string
		code  int
	}{{"1", 0}, {"4", 2}} {
		stdout.Reset()
		stderr.Reset()
		err := run(context.Background(), []string{"hint", "--board", "triangle", "--goal", "any", "--start", tt.start, "--oracle", file}, &stdout, &stderr)
		if code := cli.ExitCode("pegs", err, &stderr); code != tt.code {
			t.Errorf("hint --start %s with the oracle of start 1: exit %d, want %d (%v)", tt.start, code, tt.code, err)
		}
		if tt.code != 0 && !strings.Contains(stderr.String(), "is for the level that starts") {
			t.Errorf("hint --start %s: stderr %q, want it to name the oracle's level", tt.start, stderr.String())
		}
	}
}

// TestExploreSpill runs explore spilled, keeping the files, then resumes
// the finished run from them: both print what the run in memory prints
// (the golden file), and a second --spill into the kept directory is
// refused.
func TestExploreSpill(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spill")
	args := "explore --board triangle --start 1 --goal any --format json --mem 4MiB" // a budget of 1 MiB (cli.SplitMem)
	for _, extra := range []string{" --spill " + dir + " --keep", " --resume " + dir} {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), strings.Fields(args+extra), &stdout, &stderr); err != nil {
			t.Fatalf("pegs %s: %v\n%s", args+extra, err, stderr.String())
		}
		reporttest.Golden(t, "explore_triangle_json.stdout", []byte(normalize(stdout.String())), false)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the files are left after --resume without --keep: %v", err)
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), strings.Fields(args+" --spill "+dir+" --keep"), &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), strings.Fields(args+" --spill "+dir), &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "already holds a run") {
		t.Errorf("a second --spill into a run's directory: %v", err)
	}
}

// BenchmarkSolveCommand measures what `pegs solve` does once its process
// has started (flags, board, search, output), for the English centre
// game: the part of the first solution that is ours, without the packages'
// inits and the runtime's start, which only a whole process shows
// (perf stat on the binary). Each op does what a process does, the same
// collector settings included; the board, built on first use, is shared.
func BenchmarkSolveCommand(b *testing.B) {
	args := []string{"solve", "--board", "english"}
	for b.Loop() {
		if err := run(context.Background(), args, io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExploreRandomOnly checks that explore --random-only prints the
// random-play chance as the full analysis prints it, byte for byte, in
// JSON and in text, on a problem whose winnable positions are found from
// the goal and on one whose start is its goal's complement (found meeting
// in the middle).
func TestExploreRandomOnly(t *testing.T) {
	problems := []string{
		"explore --board triangle:6 --start 1 --goal any",
		"explore --board triangle --start 1 --goal 1",
		"explore --board english --goal center --position .o.ooo.ooooo.ooo.ooo.ooooo.ooo.o.",
	}
	if testing.Short() {
		// The 15-hole triangle's problem found from the goal, and not the
		// English one (search's TestRandomChance checks its chance).
		problems = []string{"explore --board triangle --start 1 --goal any", problems[1]}
	}
	for _, args := range problems {
		out := func(more string) string {
			var stdout, stderr bytes.Buffer
			if err := run(context.Background(), strings.Fields(args+" "+more), &stdout, &stderr); err != nil {
				t.Fatalf("pegs %s %s: %v\n%s", args, more, err, stderr.String())
			}
			return stdout.String()
		}
		field := regexp.MustCompile(`"random_win_probability": [^,\n]+`)
		row := regexp.MustCompile(`│ random play wins +│ ([^ │]+)`)
		full, alone := out("--no-games --format json"), out("--random-only --format json")
		if f, a := field.FindString(full), field.FindString(alone); f == "" || f != a {
			t.Errorf("pegs %s: --random-only prints %q, the full analysis %q", args, a, f)
		}
		full, alone = out("--no-games"), out("--random-only")
		if f, a := row.FindStringSubmatch(full), row.FindStringSubmatch(alone); f == nil || a == nil || f[1] != a[1] {
			t.Errorf("pegs %s: --random-only prints %q, the full analysis %q", args, a, f)
		}
	}
}
