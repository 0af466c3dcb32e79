//go:build unix && !linux

package spill

import "golang.org/x/sys/unix"

// freeBytes returns the bytes free to an unprivileged user on the file
// system of path.
func freeBytes(path string) (int64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

// syncAll flushes every file to disk: these systems have no syncfs, so
// sync(2), which flushes every file system.
func syncAll(string) error {
	unix.Sync()
	return nil
}
