package partition

import (
	"context"

	"pegs/search/internal/exact"
	"pegs/search/internal/spill"
)

// Store holds a run's partition files, each in package spill's format and
// named by its spill header (kind, pegs, partition, partitions and, for a
// run, source): a spill directory on local disk (Local), or files under a
// directory or bucket that every worker of a Beam pipeline reaches
// (search/cluster's store).
type Store interface {
	// Write writes the file h, its records added by fill in key order:
	// readers see it whole once Write returns nil, and a file that was
	// there before until then; a failed fill writes nothing.
	Write(ctx context.Context, h spill.Header, fill func(w *spill.Writer) error) error
	// Open opens the file h to read.
	Open(ctx context.Context, h spill.Header) (*spill.Reader, error)
	// Remove removes the file h, if there.
	Remove(ctx context.Context, h spill.Header) error
}

// Read reads the whole file h of st.
func Read(ctx context.Context, st Store, h spill.Header) ([]uint64, []exact.U128, error) {
	r, err := st.Open(ctx, h)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	return spill.ReadAll(r)
}

// Local is a Store over a spill directory. Its layer and winnable files
// are synced as they are written (unless the directory's NoSync, or
// Later), as a resume trusts them; runs and chance files are not, being
// made again from synced files where a crash loses them (a layer's runs
// are synced together, before the manifest counts them: Dir.SaveLater).
type Local struct {
	Dir *spill.Dir
	// Later leaves every file unsynced as it is written, for the caller
	// to sync them together (Dir.Sync) before the manifest counts them:
	// a layer's partitions written at once.
	Later bool
}

// Write writes the file h to the directory.
func (l Local) Write(_ context.Context, h spill.Header, fill func(w *spill.Writer) error) error {
	w, err := l.Dir.Create(h)
	if err != nil {
		return err
	}
	w.NoSync = l.Later || h.Kind == spill.RunFile || h.Kind == spill.ChanceFile
	if err := fill(w); err != nil {
		w.Abort()
		return err
	}
	return l.Dir.Commit(w)
}

// Open opens the file h of the directory.
func (l Local) Open(_ context.Context, h spill.Header) (*spill.Reader, error) { return l.Dir.Open(h) }

// Remove removes the file h from the directory.
func (l Local) Remove(_ context.Context, h spill.Header) error { return l.Dir.Remove(h) }
