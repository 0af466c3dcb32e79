package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pegs/cmd/internal/cli"
	"pegs/report"
	"pegs/search"
)

// exitOf runs the command as main does and returns its exit status,
// stdout and stderr.
func exitOf(ctx context.Context, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	err := run(ctx, args, &stdout, &stderr)
	return cli.ExitCode("pegs-beam", err, &stderr), stdout.String(), stderr.String()
}

// TestRefusedBeforeWork checks that a run that cannot go gets one line and
// its exit status at once, before any search.
func TestRefusedBeforeWork(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// An S3 endpoint on a closed port (the AWS SDK's own variable, which
	// Beam's s3 filesystem reads through it), with credentials and a
	// region so that nothing else is looked for, and one attempt (the
	// SDK's three, with backoff, took 5 s here).
	s3 := map[string]string{"AWS_ENDPOINT_URL_S3": "http://127.0.0.1:1", "AWS_ACCESS_KEY_ID": "pegs", "AWS_SECRET_ACCESS_KEY": "pegs",
		"AWS_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull,
		"AWS_MAX_ATTEMPTS": "1"}
	tests := []struct {
		name string
		args []string
		code int
		want string
		env  map[string]string
	}{
		{"unknown runner", []string{"--runner", "spark"}, 2, "unknown runner \"spark\"", nil},
		{"unreachable endpoint", []string{"--runner", "universal", "--endpoint", "127.0.0.1:1"}, 1, "job endpoint unreachable: 127.0.0.1:1", nil},
		{"no endpoint", []string{"--runner", "universal"}, 1, "needs a job endpoint", nil},
		{"storage not writable", []string{"--storage", filepath.Join(file, "under")}, 1, "storage not writable", nil},
		{"winnable only with no games", []string{"--winnable-only", "--no-games"}, 2, "do not go with --winnable-only", nil},
		{"random only", []string{"--random-only"}, 2, "--random-only is not offered here", nil},
		{"worker memory without plan", []string{"--worker-mem", "4GiB"}, 2, "--worker-mem goes with --plan", nil},
		{"bad worker memory without plan", []string{"--worker-mem", "abc"}, 2, `--worker-mem: bad size "abc"`, nil},
		{"sample without plan", []string{"--sample", "3", "--worker-mem", "4GiB"}, 2, "--sample and --worker-mem go with --plan", nil},
		{"worker memory too large", []string{"--plan", "--worker-mem", "8EiB"}, 2, "--worker-mem 8EiB: too large a unit", nil},
		{"s3 unreachable", []string{"--storage", "s3://pegs-bucket/runs"}, 1, "storage not writable: s3://pegs-bucket/runs: connection refused", s3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			// The English board's full analysis would take minutes: a quick
			// answer is one given before the work.
			args := append([]string{"explore", "--board", "english", "--storage", t.TempDir()}, tt.args...)
			t0 := time.Now()
			code, stdout, stderr := exitOf(context.Background(), args...)
			if took := time.Since(t0); took > 10*time.Second {
				t.Errorf("took %v: refused after work", took)
			}
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q, want it to say %q", stderr, tt.want)
			}
			if n := strings.Count(strings.TrimSpace(stderr), "\n"); n != 0 {
				t.Errorf("stderr has %d lines, want one: %q", n+1, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
}

// TestExploreJSON checks that the command writes what pegs explore writes
// in process for the same flags: each flag that changes what is counted,
// a board read from a file (which the steps rebuild from its picture),
// a layer in 16 partitions, and the winnable positions alone (on a
// problem where pegs explore --winnable-only goes through every layer: it
// leaves out the reachable counts of the layers it does not go through,
// past the middle where it meets in the middle or all but the start's
// where nothing is winnable, which pegs-beam counts; cluster's tests
// compare the middle case).
func TestExploreJSON(t *testing.T) {
	board := filepath.Join(t.TempDir(), "hexagon.board")
	if err := os.WriteFile(board, []byte("  o o o\n o o o o\no o . o o\n o o o o\n  o o o\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args string
	}{
		{"16 partitions", "--board triangle:4 --parts 16"},
		// Together, to save a run: each changes the JSON on its own.
		{"whole group, no games", "--board triangle:4 --start 2 --goal any --whole-group --no-games"},
		{"reachable only", "--board triangle:4 --start 2 --goal any --reachable-only"},
		{"board from a file", "--board @" + board + " --geometry triangular --goal any"},
		{"winnable only", "--board triangle:4 --start 2 --goal any --winnable-only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Each run has its own storage; most of a small board's run
			// through Prism is waiting on its job.
			t.Parallel()
			args := strings.Fields(tt.args)
			code, stdout, stderr := exitOf(context.Background(), append([]string{"explore", "--format", "json", "--storage", t.TempDir()}, args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if g, w := untimed(t, stdout), untimed(t, inProcess(t, args)); g != w {
				t.Errorf("pegs-beam explore %s:\n%s\nwant (pegs explore):\n%s", tt.args, g, w)
			}
		})
	}
}

// inProcess returns what pegs explore writes in JSON for args: the same
// flags, searched by search.Explore.
func inProcess(t *testing.T, args []string) string {
	t.Helper()
	fs := cli.NewFlagSet("pegs", "explore", cli.ExploreUsage, io.Discard)
	var ef cli.ExploreFlags
	ef.Register(fs)
	fs.Int("parts", 0, "")
	if err := cli.Parse(fs, append([]string{"--format", "json"}, args...)); err != nil {
		t.Fatal(err)
	}
	x, err := ef.Load()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if x.WinnableOnly {
		w, err := search.Winnable(context.Background(), x.Problem, x.Options.Budget)
		if err != nil {
			t.Fatal(err)
		}
		if err := report.WriteWinnable(&out, x.Format, x.Problem, w); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	a, err := search.Explore(context.Background(), x.Problem, x.Options)
	if err := x.Write(&out, io.Discard, a, err); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// untimed returns explore JSON without its time and memory fields.
func untimed(t *testing.T, s string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	delete(m, "elapsed_ms")
	delete(m, "peak_bytes")
	out, _ := json.MarshalIndent(m, "", " ")
	return string(out)
}

// TestInterrupted checks that a cancelled run stops, says where its
// finished partitions are, and keeps them.
func TestInterrupted(t *testing.T) {
	storage := t.TempDir()
	// Cancelled as soon as the job has written a partition of the layer
	// below the start's (34 pegs), as Ctrl-C would be mid-run (a clock
	// cancels too early on a slow machine and waits for nothing on a fast
	// one), or after a minute whatever happens.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if files, _ := filepath.Glob(filepath.Join(storage, "*", "fwd", "34", "p*")); len(files) > 0 {
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	code, _, stderr := exitOf(ctx, "explore", "--board", "triangle:8", "--storage", storage)
	if code != 1 {
		t.Errorf("exit %d, want 1 (stderr %q)", code, stderr)
	}
	const say = "the partitions it finished are in "
	i := strings.Index(stderr, say)
	if i < 0 {
		t.Fatalf("stderr %q does not say where the partitions are", stderr)
	}
	dir := strings.TrimSpace(stderr[i+len(say):])
	dir = dir[:strings.Index(dir, ":")]
	if !strings.HasPrefix(dir, storage) {
		t.Fatalf("partitions in %q, not under the storage %s", dir, storage)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "fwd", "*", "p*"))
	if len(files) == 0 {
		t.Errorf("no partitions kept in %s", dir)
	}
}

// TestPlanFlags checks that pegs-beam plan's bad flags are refused in one
// line naming the flag typed.
func TestPlanFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--worker-mem", "0"}, `--worker-mem: bad size "0"`},
		{[]string{"--worker-mem", "8EiB"}, "--worker-mem 8EiB: too large a unit"},
		{[]string{"--sample", "-1"}, "--sample -1: want 0"},
	} {
		code, _, stderr := exitOf(context.Background(), append([]string{"plan"}, tt.args...)...)
		if code != 2 || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("plan %v: exit %d, stderr %q; want 2 and one line containing %q", tt.args, code, stderr, tt.want)
		}
	}
}
