package part

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"pegs/search/internal/spill"
)

// Merger reads sorted partition files as one sorted stream, a key found
// in several once, with their values summed (a spill.Merger over files of
// a Beam filesystem): a step merges the buckets of a partition through it
// a block at a time, not reading them whole and sorting them (which took
// a third of the English run's time).
type Merger struct {
	*spill.Merger
	closer []io.Closer
}

// NewMerger opens the files at paths on fs, each holding the records of
// its header in headers.
func NewMerger(ctx context.Context, fs filesystem.Interface, paths []string, headers []spill.Header) (*Merger, error) {
	m := &Merger{}
	var rs []*spill.Reader
	for i, path := range paths {
		f, err := fs.OpenRead(ctx, path)
		if err != nil {
			m.Close()
			return nil, fmt.Errorf("reading partition: %w", err)
		}
		m.closer = append(m.closer, f)
		r, err := spill.NewReader(f, path, headers[i])
		if err != nil {
			m.Close()
			return nil, err
		}
		rs = append(rs, r)
	}
	sm, err := spill.NewMerger(rs)
	if err != nil {
		m.Close()
		return nil, err
	}
	m.Merger = sm
	return m, nil
}

// Close closes the files.
func (m *Merger) Close() {
	if m.Merger != nil {
		m.Merger.Close()
	}
	for _, c := range m.closer {
		c.Close()
	}
	m.closer = nil
}

// WriteFunc writes the records of header h to path on fs as Write does,
// each added by fill to the spill writer it is given.
func WriteFunc(ctx context.Context, fs filesystem.Interface, path string, h spill.Header, fill func(w *spill.Writer) error) error {
	return write(ctx, fs, path, func(out io.Writer) error {
		w, err := spill.NewWriter(out, path, h)
		if err != nil {
			return err
		}
		if err := fill(w); err != nil {
			return err
		}
		return w.Commit()
	})
}
