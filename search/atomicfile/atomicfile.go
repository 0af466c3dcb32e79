package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// DefaultPerm is the mode of a file Write makes when asked for none,
// before the umask.
const DefaultPerm fs.FileMode = 0o644

// create makes a new temporary file beside path, of mode perm less the
// umask.
func create(path string, perm fs.FileMode) (*os.File, error) {
	if perm == 0 {
		perm = DefaultPerm
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	for range 100 {
		name := filepath.Join(dir, "."+base+".tmp-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("%s: no free temporary name beside it", path)
}

// Check reports whether a file can be written at path: it is not a
// folder, and a file can be created (and is then removed) beside it.
func Check(path string) error {
	if path == "" {
		return errors.New("no file named")
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	f, err := create(path, 0)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

// unwrapPath returns the cause of a *fs.PathError, whose path is the
// temporary file's, which means nothing to the user.
func unwrapPath(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return err
}

// Write replaces the file at path, of mode perm (0: DefaultPerm) less the
// umask, with what write writes, or leaves it as it was if anything fails
// (see the package doc).
func Write(path string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	f, err := create(path, perm)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			err = fmt.Errorf("writing %s: %w", path, unwrapPath(err))
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// WriteFile replaces the file at path with data, as Write does.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// SyncFile opens a file (or, where the system can flush one, a folder)
// and flushes it to disk.
func SyncFile(path string) error {
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
