//go:build !windows

package atomicfile

import "os"

// SyncDir flushes the folder dir's entries, so that a file created or
// renamed in it is on disk.
func SyncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
