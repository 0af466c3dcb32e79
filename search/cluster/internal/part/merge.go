package part

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"pegs/search/internal/exact"
	"pegs/search/internal/spill"
)

// Merger reads sorted partition files as one sorted stream, a key found
// in several once, with their values summed: a step merges the buckets of
// a partition through it a block at a time, not reading them whole and
// sorting them (which took a third of the English run's time).
type Merger struct {
	// keys are the heap's keys, beside its readers so that sifting reads
	// no reader (as layered's merge of runs).
	keys   []uint64
	rs     []*spill.Reader
	closer []io.Closer
	k      uint64
	v      exact.U128
	err    error
}

// NewMerger opens the files at paths on fs, each holding the records of
// its header in headers.
func NewMerger(ctx context.Context, fs filesystem.Interface, paths []string, headers []spill.Header) (*Merger, error) {
	m := &Merger{}
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
		if !r.Next() {
			if err := r.Err(); err != nil {
				m.Close()
				return nil, err
			}
			continue
		}
		m.push(r)
	}
	return m, nil
}

// Next advances to the next key and reports false at the end or on an
// error (see Err).
func (m *Merger) Next() bool {
	if m.err != nil || len(m.keys) == 0 {
		return false
	}
	m.k, m.v = m.keys[0], exact.U128{}
	for len(m.keys) > 0 && m.keys[0] == m.k {
		r := m.rs[0]
		sum, overflow := m.v.Add(r.Count())
		if overflow {
			m.err = fmt.Errorf("key %#x: a sum of values passes 128 bits", m.k)
			return false
		}
		m.v = sum
		if r.Next() {
			m.keys[0] = r.Key()
			m.down()
			continue
		}
		if m.err = r.Err(); m.err != nil {
			return false
		}
		m.pop()
	}
	return true
}

// Key returns the key Next reached.
func (m *Merger) Key() uint64 { return m.k }

// Val returns the sum of the key's values (zero for files without).
func (m *Merger) Val() exact.U128 { return m.v }

// Err returns what stopped Next, if not the end.
func (m *Merger) Err() error { return m.err }

// Close closes the files.
func (m *Merger) Close() {
	for _, c := range m.closer {
		c.Close()
	}
	m.closer = nil
}

func (m *Merger) push(r *spill.Reader) {
	m.keys, m.rs = append(m.keys, r.Key()), append(m.rs, r)
	for i := len(m.keys) - 1; i > 0; {
		up := (i - 1) / 2
		if m.keys[up] <= m.keys[i] {
			break
		}
		m.swap(i, up)
		i = up
	}
}

func (m *Merger) swap(i, j int) {
	m.keys[i], m.keys[j] = m.keys[j], m.keys[i]
	m.rs[i], m.rs[j] = m.rs[j], m.rs[i]
}

// down sifts the top down after its key changed.
func (m *Merger) down() {
	n := len(m.keys)
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && m.keys[r] < m.keys[l] {
			c = r
		}
		if m.keys[i] <= m.keys[c] {
			return
		}
		m.swap(i, c)
		i = c
	}
}

// pop removes the top.
func (m *Merger) pop() {
	n := len(m.keys) - 1
	m.swap(0, n)
	m.keys, m.rs = m.keys[:n], m.rs[:n]
	m.down()
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
