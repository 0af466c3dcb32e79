package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pegs/cmd/internal/cli"
	"pegs/engine"
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
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown runner", []string{"--runner", "spark"}, 2, "unknown runner \"spark\""},
		{"unreachable endpoint", []string{"--runner", "universal", "--endpoint", "127.0.0.1:1"}, 1, "job endpoint unreachable: 127.0.0.1:1"},
		{"no endpoint", []string{"--runner", "universal"}, 1, "needs a job endpoint"},
		{"storage not writable", []string{"--storage", filepath.Join(file, "under")}, 1, "storage not writable"},
		{"winnable only", []string{"--winnable-only"}, 2, "--winnable-only is not offered here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
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
// for the same flags.
func TestExploreJSON(t *testing.T) {
	code, stdout, stderr := exitOf(context.Background(), "explore", "--board", "triangle:4", "--format", "json", "--storage", t.TempDir(), "--parts", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, _ := engine.Lookup("triangle:4")
	goal, _ := b.ParseGoal("center")
	prob := search.Problem{Board: b, Start: b.Start(), Goal: goal}
	a, err := search.Explore(context.Background(), prob, search.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := report.WriteExplore(&want, report.JSON, prob, a); err != nil {
		t.Fatal(err)
	}
	if g, w := untimed(t, stdout), untimed(t, want.String()); g != w {
		t.Errorf("pegs-beam explore:\n%s\nwant:\n%s", g, w)
	}
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
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
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
	// Steps already running when the job was cancelled finish their
	// files (see cluster.Run): wait for them before the directory goes.
	for n, last, same := 0, -1, 0; n < 120 && same < 3; n++ {
		all, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*"))
		if len(all) == last {
			same++
		} else {
			same = 0
		}
		last = len(all)
		time.Sleep(time.Second)
	}
}
