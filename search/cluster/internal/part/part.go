// Package part keeps a pipeline's partition files on any filesystem
// Beam's registry knows: Store is a partition.Store (see
// search/internal/partition) over a run's directory, each file in the
// layer-partition format of package spill (its reading and writing stay
// there), a sorted run of mixed keys, each with an optional 128-bit value
// (a path count, or a random-play chance).
//
// A file is written by spill's writer straight to the filesystem's, not
// synced (a step that fails is run again), under a temporary name, then
// renamed where the filesystem can rename (local storage); object stores
// (gs://, s3://) make a file visible whole on close. So a reader sees a
// whole file or none, and a step that runs again rewrites the same file.
package part

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"pegs/search/internal/kernel"
)

// Of returns the partition, of 1<<bits, of mixed key k: its top bits (as
// spill.PartitionOf).
func Of(k uint64, bits uint) int { return kernel.PartitionOf(k, 1<<bits) }

// Split returns the bounds of the partitions (of 1<<bits) of sorted keys:
// partition t is keys[b[t]:b[t+1]].
func Split(keys []uint64, bits uint) []int {
	n := 1 << bits
	b := make([]int, n+1)
	i := 0
	for t := range n {
		b[t] = i
		for i < len(keys) && Of(keys[i], bits) == t {
			i++
		}
	}
	b[n] = len(keys)
	return b
}

// Store is a run's files under Dir on FS, each named by its spill header
// (see Path).
type Store struct {
	FS  filesystem.Interface
	Dir string
}

// The directories of a run's files, by kind: a layer's partitions and the
// runs that make them, its winnable positions, and their chances.
const (
	KindFwd    = "fwd"
	KindWin    = "win"
	KindChance = "chance"
)

// Kinds lists the directories of a run's files.
var Kinds = []string{KindFwd, KindWin, KindChance}

// Path returns where the file of header h is: partition T of the
// positions of PP pegs at Dir/fwd/PP/pTTTT (win/PP/pTTTT for its winnable
// positions, chance/PP/pTTTT for their chances), and a run for partition
// or group T from source S at fwd/PP/bTTTT-SSSS (children, with their
// path counts) or win/PP/bTTTT-SSSS (parents of winnable positions).
func (s Store) Path(h kernel.SpillHeader) string {
	switch {
	case h.Kind == kernel.RunFile && !h.Counts:
		return fmt.Sprintf("%s/%s/%02d/b%04d-%04d", s.Dir, KindWin, h.Pegs, h.Partition, h.Source)
	case h.Kind == kernel.RunFile:
		return fmt.Sprintf("%s/%s/%02d/b%04d-%04d", s.Dir, KindFwd, h.Pegs, h.Partition, h.Source)
	case h.Kind == kernel.WinnableFile:
		return fmt.Sprintf("%s/%s/%02d/p%04d", s.Dir, KindWin, h.Pegs, h.Partition)
	case h.Kind == kernel.ChanceFile:
		return fmt.Sprintf("%s/%s/%02d/p%04d", s.Dir, KindChance, h.Pegs, h.Partition)
	}
	return fmt.Sprintf("%s/%s/%02d/p%04d", s.Dir, KindFwd, h.Pegs, h.Partition)
}

// Write writes the file h, its records added by fill, whole or not at
// all (see the package doc).
func (s Store) Write(ctx context.Context, h kernel.SpillHeader, fill func(w *kernel.SpillWriter) error) error {
	path := s.Path(h)
	return write(ctx, s.FS, path, func(out io.Writer) error {
		w, err := kernel.NewSpillWriter(out, path, h)
		if err != nil {
			return err
		}
		if err := fill(w); err != nil {
			return err
		}
		return w.Commit()
	})
}

// Open opens the file h, which must hold the records of h (a file that
// does not, or fails a check, is reported as spill reports it: a
// *spill.CorruptError).
func (s Store) Open(ctx context.Context, h kernel.SpillHeader) (*kernel.SpillReader, error) {
	path := s.Path(h)
	f, err := s.FS.OpenRead(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("reading partition: %w", err)
	}
	return kernel.NewSpillReadCloser(f, path, h)
}

// Remove removes the file h, where the filesystem removes files.
func (s Store) Remove(ctx context.Context, h kernel.SpillHeader) error {
	if rm, ok := s.FS.(filesystem.Remover); ok {
		return rm.Remove(ctx, s.Path(h))
	}
	return nil
}

// WriteFile writes data to path on the store's filesystem as Write
// writes a partition: whole or not at all.
func (s Store) WriteFile(ctx context.Context, path string, data []byte) error {
	return write(ctx, s.FS, path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// ReadFile reads the whole file at path on the store's filesystem.
func (s Store) ReadFile(ctx context.Context, path string) ([]byte, error) {
	r, err := s.FS.OpenRead(ctx, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return data, nil
}

// tmpMark marks the name of a file being written: the final name, the mark
// and a random number.
const tmpMark = ".tmp"

// InFlight reports whether path names a file being written (under its
// temporary name), whose size may still change.
func InFlight(path string) bool {
	return strings.Contains(path[strings.LastIndexAny(path, `/\`)+1:], tmpMark)
}

func write(ctx context.Context, fs filesystem.Interface, path string, enc func(io.Writer) error) error {
	rn, canRename := fs.(filesystem.Renamer)
	name := path
	if canRename {
		name = fmt.Sprintf("%s%s%016x", path, tmpMark, rand.Uint64())
	}
	w, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := enc(w); err != nil {
		w.Close()
		if rm, ok := fs.(filesystem.Remover); ok && canRename {
			rm.Remove(ctx, name)
		}
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if canRename {
		if err := rn.Rename(ctx, name, path); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	return nil
}
