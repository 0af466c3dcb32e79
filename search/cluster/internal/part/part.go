// Package part moves the pipeline's layer partitions between memory and
// any filesystem Beam's registry knows: each file is in the layer-partition
// format of package spill (its reading and writing stay there), a sorted
// run of mixed keys, each with an optional 128-bit value (a path count, or
// a random-play chance in the chance layers).
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

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"pegs/search/internal/exact"
	"pegs/search/internal/spill"
)

// Part is one partition's positions: sorted mixed keys and, if not nil,
// a value for each.
type Part struct {
	Keys []uint64
	Vals []exact.U128
}

// Of returns the partition, of 1<<bits, of mixed key k: its top bits (as
// spill.PartitionOf).
func Of(k uint64, bits uint) int { return spill.PartitionOf(k, 1<<bits) }

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

// Write writes p, the records of header h, to path on fs: spill's
// writer straight to the filesystem's (see the package doc).
func Write(ctx context.Context, fs filesystem.Interface, path string, h spill.Header, p Part) error {
	if h.Counts && len(p.Vals) != len(p.Keys) {
		return fmt.Errorf("partition %s: %d keys but %d values", path, len(p.Keys), len(p.Vals))
	}
	return WriteFunc(ctx, fs, path, h, func(w *spill.Writer) error {
		for i, k := range p.Keys {
			var v exact.U128
			if h.Counts {
				v = p.Vals[i]
			}
			if err := w.Add(k, v); err != nil {
				return err
			}
		}
		return nil
	})
}

// WriteFile writes data to path on fs as Write writes a partition: whole
// or not at all.
func WriteFile(ctx context.Context, fs filesystem.Interface, path string, data []byte) error {
	return write(ctx, fs, path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// ReadFile reads the whole file at path on fs.
func ReadFile(ctx context.Context, fs filesystem.Interface, path string) ([]byte, error) {
	r, err := fs.OpenRead(ctx, path)
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

func write(ctx context.Context, fs filesystem.Interface, path string, enc func(io.Writer) error) error {
	rn, canRename := fs.(filesystem.Renamer)
	name := path
	if canRename {
		name = fmt.Sprintf("%s.tmp%016x", path, rand.Uint64())
	}
	w, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := enc(w); err != nil {
		w.Close()
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

// Read reads the partition at path on fs, which must hold the records of
// header want (a file that does not, or fails a check, is reported as
// spill reports it: a *spill.CorruptError).
func Read(ctx context.Context, fs filesystem.Interface, path string, want spill.Header) (Part, error) {
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return Part{}, fmt.Errorf("reading partition: %w", err)
	}
	defer r.Close()
	sr, err := spill.NewReader(r, path, want)
	if err != nil {
		return Part{}, err
	}
	keys, vals, err := spill.ReadAll(sr)
	if err != nil {
		return Part{}, err
	}
	if want.Counts && vals == nil {
		vals = []exact.U128{}
	}
	return Part{Keys: keys, Vals: vals}, nil
}
