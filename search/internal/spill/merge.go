package spill

import (
	"errors"
	"fmt"

	"pegs/search/internal/exact"
)

// ErrSumOverflow reports a Merger's sum of one key's counts past 128
// bits.
var ErrSumOverflow = errors.New("a sum of counts passes 128 bits")

// Merger reads sorted files as one sorted stream, a key found in several
// once with their counts summed: a k-way merge a block at a time, the
// files never read whole. It is a binary heap of the readers on their
// current keys, held beside them so that sifting reads no reader
// (container/heap's interface calls took a fifth of an English run's
// time).
type Merger struct {
	keys []uint64
	rs   []*Reader
	k    uint64
	v    exact.U128
	err  error
}

// NewMerger merges rs, readers at their files' start. It closes each as
// it ends; Close closes the rest.
func NewMerger(rs []*Reader) (*Merger, error) {
	m := &Merger{}
	for i, r := range rs {
		if r.Next() {
			m.push(r)
			continue
		}
		r.Close()
		if err := r.Err(); err != nil {
			for _, r := range rs[i+1:] {
				r.Close()
			}
			m.Close()
			return nil, err
		}
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
			m.err = fmt.Errorf("spill: key %#x: %w", m.k, ErrSumOverflow)
			return false
		}
		m.v = sum
		if r.Next() {
			m.keys[0] = r.Key()
			m.down()
			continue
		}
		r.Close()
		if m.err = r.Err(); m.err != nil {
			return false
		}
		m.pop()
	}
	return true
}

// Key returns the key Next reached.
func (m *Merger) Key() uint64 { return m.k }

// Val returns the sum of the key's counts (zero for files without).
func (m *Merger) Val() exact.U128 { return m.v }

// Err returns what stopped Next, if not the end.
func (m *Merger) Err() error { return m.err }

// Close closes the readers not yet at their end.
func (m *Merger) Close() {
	for _, r := range m.rs {
		r.Close()
	}
	m.keys, m.rs = nil, nil
}

func (m *Merger) push(r *Reader) {
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
