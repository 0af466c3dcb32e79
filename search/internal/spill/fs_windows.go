package spill

import (
	"path/filepath"

	"pegs/search/atomicfile"

	"golang.org/x/sys/windows"
)

// freeBytes returns the bytes free to the user on the volume of path.
func freeBytes(path string) (int64, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return 0, err
	}
	var free, total, all uint64
	if err := windows.GetDiskFreeSpaceEx(p, &free, &total, &all); err != nil {
		return 0, err
	}
	return int64(free), nil
}

// syncAll flushes the files of the directory path one by one: Windows has
// no call for a whole volume that an unprivileged process may make.
func syncAll(path string) error {
	files, err := filepath.Glob(filepath.Join(path, "*"))
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := atomicfile.SyncFile(f); err != nil {
			return err
		}
	}
	return nil
}
