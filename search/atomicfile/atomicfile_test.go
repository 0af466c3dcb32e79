package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// entries returns the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	for _, data := range []string{"first\n", "second, longer\n"} {
		if err := WriteFile(path, []byte(data), 0); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != data {
			t.Fatalf("read back %q (%v), want %q", got, err, data)
		}
	}
	// The mode is 0644 less the umask, as os.Create's 0666 would be less
	// it: compare with a file made the ordinary way.
	ref := filepath.Join(dir, "ref")
	f, err := os.OpenFile(ref, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	st, _ := os.Stat(path)
	want, _ := os.Stat(ref)
	if st.Mode() != want.Mode() {
		t.Errorf("mode %v, want %v", st.Mode(), want.Mode())
	}
	if got := entries(t, dir); len(got) != 2 {
		t.Errorf("the folder holds %v; want out.json and ref alone", got)
	}
}

// TestFailedWriteKeepsPrevious: a writer that fails halfway leaves the
// previous file byte for byte, and no temporary file.
func TestFailedWriteKeepsPrevious(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pack.json")
	prev := []byte("{\"levels\": [1, 2, 3]}\n")
	if err := WriteFile(path, prev, 0); err != nil {
		t.Fatal(err)
	}
	injected := errors.New("injected")
	err := Write(path, 0, func(w io.Writer) error {
		w.Write([]byte("{\"levels\": ["))
		return injected
	})
	if !errors.Is(err, injected) || !strings.Contains(err.Error(), path) {
		t.Fatalf("got %v, want the injected error naming %s", err, path)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, prev) {
		t.Errorf("after a failed write the file holds %q, want %q", got, prev)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("the folder holds %v; want pack.json alone", got)
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		path string
		want string // "" for none
	}{
		{filepath.Join(dir, "new.oracle"), ""},
		{dir, "is a directory"},
		{filepath.Join(dir, "missing", "x"), "no such file or directory"},
		{"/proc/x", "cannot write /proc/x"},
	} {
		err := Check(c.path)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("Check(%s) = %v, want %q", c.path, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), ".tmp-") {
			t.Errorf("Check(%s) = %v names the temporary file", c.path, err)
		}
	}
	if got := entries(t, dir); len(got) != 0 {
		t.Errorf("Check left %v", got)
	}
}
