package atomicfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestFullDisk writes onto a tmpfs of 64 KiB that the new file does not
// fit: the previous file stays byte for byte. It needs root, to mount.
func TestFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	defer syscall.Unmount(dir, 0)
	path := filepath.Join(dir, "levels.json")
	prev := bytes.Repeat([]byte("previous pack\n"), 1000)
	if err := WriteFile(path, prev, 0); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(path, make([]byte, 1<<20), 0)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("writing 1 MiB to a 64 KiB tmpfs: %v, want ENOSPC", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, prev) {
		t.Errorf("after the full disk the file holds %d bytes, want the previous %d", len(got), len(prev))
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("the folder holds %v; want levels.json alone", got)
	}
}
