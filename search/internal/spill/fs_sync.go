package spill

import "os"

// syncFile opens a file (or, where the system can flush one, a directory)
// and flushes it.
func syncFile(path string) error {
	f, err := os.OpenFile(path, syncOpen, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
