package spill

import (
	"os"

	"golang.org/x/sys/unix"
)

// freeBytes returns the bytes free to an unprivileged user on the file
// system of path.
func freeBytes(path string) (int64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// syncAll flushes every file of path's file system (syncfs).
func syncAll(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
