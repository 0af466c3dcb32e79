//go:build linux

package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"pegs/cmd/internal/cli"
)

// asPegs, set in a child's environment, makes the test binary run as the
// pegs command (see TestMain), its memory limited to the value's bytes.
const asPegs = "PEGS_TEST_AS_PEGS"

// TestMain runs the tests, or, in a child started by runLimited, pegs
// itself under a memory limit.
func TestMain(m *testing.M) {
	if lim := os.Getenv(asPegs); lim != "" {
		os.Exit(runAsPegs(lim))
	}
	os.Exit(m.Run())
}

// runAsPegs runs pegs with the process's data segment limited to lim
// bytes (RLIMIT_DATA, which counts the heap's mappings): past it the
// runtime fails for want of memory, as a machine out of memory would.
func runAsPegs(lim string) int {
	var n uint64
	for _, c := range lim {
		n = n*10 + uint64(c-'0')
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
		os.Stderr.WriteString("setrlimit: " + err.Error() + "\n")
		return 3
	}
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	return cli.ExitCode("pegs", run(context.Background(), args, os.Stdout, os.Stderr), os.Stderr)
}

// limit is what a refusal of bad input may cost: memory and CPU time.
const (
	limitBytes = 100 << 20
	limitCPU   = time.Second
	// dataLimit bounds the child's data segment, a guard that stops a
	// runaway child well before the machine runs out: the Go runtime maps
	// its heap in arenas of 64 MiB, so the data segment runs ahead of the
	// memory resident.
	dataLimit = 512 << 20
)

// runLimited runs pegs with args in a child process under limitBytes of
// data, and returns its exit status, its stderr, its peak resident
// memory and its CPU time.
func runLimited(t *testing.T, args ...string) (code int, stderr string, rss int64, cpu time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{"--"}, args...)...)
	cmd.Env = append(os.Environ(), asPegs+"="+itoa(dataLimit))
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("pegs %v: still running after 30 s", args)
	}
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	st := cmd.ProcessState
	ru := st.SysUsage().(*syscall.Rusage)
	return st.ExitCode(), errBuf.String(), ru.Maxrss << 10, st.UserTime() + st.SystemTime()
}

func itoa(n int) string {
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// TestBadInputBounded runs each bad input of issue 59 as a user would, in
// a child process whose memory is limited: each gets one line naming what
// is wrong, exit status 2 (usage) or 1, within limitCPU of CPU time and
// limitBytes of resident memory.
func TestBadInputBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process per input")
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "big")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(70 << 20) // 70 MB of zeros, sparse
	f.Close()
	long := filepath.Join(dir, "long.levels")
	os.WriteFile(long, []byte("# levels\n\n"+strings.Repeat("x", 1<<20)+"\n"), 0o644)
	oracle := filepath.Join(dir, "old.oracle")
	os.WriteFile(oracle, []byte("PEGS-ORACLE 3\ntriangle\n15\n.oooooooooooooo\nany\n\x00\x00\x00"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"explore", "--board", "triangle", "--workers", "2000000000"}, 2, "--workers 2000000000: want 1 to 1024"},
		{[]string{"generate", "--count", "3", "--workers", "100000"}, 2, "--workers 100000: want 1 to 1024"},
		{[]string{"solve", "--position", "@/dev/zero"}, 2, "--position /dev/zero: larger than 64 KiB"},
		{[]string{"hint", "--board", "triangle", "--start", "@/dev/zero", "--history", ""}, 2, "--start /dev/zero: larger than 64 KiB"},
		{[]string{"solve", "--position", "@" + big}, 2, "--position " + big + ": larger than 64 KiB"},
		{[]string{"show", "--board", "@/dev/zero"}, 2, "--board /dev/zero: larger than 64 KiB"},
		{[]string{"show", "--board", "@" + dir}, 2, "--board " + dir + " is a directory"},
		{[]string{"hint", "--board", "triangle", "--position", strings.Repeat("o", 15), "--oracle", "/dev/zero"}, 1, "--oracle /dev/zero: bad oracle file: not an oracle file"},
		{[]string{"hint", "--board", "triangle", "--position", strings.Repeat("o", 15), "--oracle", dir}, 2, "--oracle " + dir + " is a directory"},
		{[]string{"hint", "--board", "triangle", "--goal", "any", "--position", strings.Repeat("o", 15), "--oracle", oracle}, 1, "format 3, from before oracle files carried checksums; rebuild it: pegs oracle --board triangle --position '.oooooooooooooo' --goal any --out FILE"},
		{[]string{"grade", "--board", "triangle", "--levels", "/dev/zero"}, 2, "line 1: longer than 65536 bytes"},
		{[]string{"grade", "--board", "triangle", "--levels", long}, 2, "line 3: longer than 65536 bytes"},
		{[]string{"grade", "--board", "triangle", "--levels", big}, 2, "--levels " + big + ": larger than 64 MiB"},
		{[]string{"bench", "--suite", "@/dev/zero"}, 2, "line 1: longer than 65536 bytes"},
		{[]string{"explore", "--board", "triangle", "--geometry", "hex"}, 2, "--geometry hex is for a board read from @FILE"},
		{[]string{"show", "--board", "@testdata/hexagon.board", "--geometry", "hex"}, 2, `--geometry: unknown geometry "hex"`},
		{[]string{"solve", "--mem", "8EiB"}, 2, "--mem 8EiB: too large a unit"},
		{[]string{"solve", "--mem", "5000000TiB"}, 2, "--mem 5000000TiB: too large"},
		{[]string{"oracle", "--board", "english", "--out", "/proc/x"}, 1, "--out: cannot write /proc/x"},
		{[]string{"generate", "--board", "english", "--count", "1000", "--out", "/proc/x"}, 1, "--out: cannot write /proc/x"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, stderr, rss, cpu := runLimited(t, c.args...)
			msg := strings.TrimSuffix(stderr, "\n")
			if code != c.code || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
				t.Errorf("exit %d, stderr %q; want exit %d and one line containing %q", code, stderr, c.code, c.want)
			}
			t.Logf("%d MB, %v of CPU", rss>>20, cpu)
			if rss > limitBytes || cpu > limitCPU {
				t.Errorf("took %d MB and %v of CPU; want at most %d MB and %v", rss>>20, cpu, limitBytes>>20, limitCPU)
			}
		})
	}
}

// TestResumeInUse: a second --resume of a spill directory that a run has
// open (here the test, holding the lock a run takes) is refused at once,
// in one line.
func TestResumeInUse(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	dir := filepath.Join(t.TempDir(), "spill")
	args := strings.Fields("explore --board triangle --start 1 --goal any --mem 4MiB") // a budget of 1 MiB (cli.SplitMem)
	if err := run(context.Background(), append(args, "--spill", dir, "--keep"), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	code, stderr, _, cpu := runLimited(t, append(args, "--resume", dir)...)
	want := "pegs: spill: " + dir + " is in use by another run; wait for it to end, or give another directory\n"
	if code != 1 || stderr != want || cpu > limitCPU {
		t.Errorf("a second --resume: exit %d, stderr %q, %v of CPU; want 1, %q", code, stderr, cpu, want)
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if err := run(context.Background(), append(args, "--resume", dir), io.Discard, io.Discard); err != nil {
		t.Errorf("--resume once the lock is free: %v", err)
	}
}
