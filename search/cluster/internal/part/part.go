// Package part reads and writes the pipeline's layer partitions: files of
// sorted mixed keys, each with an optional 128-bit value (a path count or
// a random-play chance), on any filesystem Beam's registry knows.
//
// # Format
//
// A partition file is the magic "PEGSPRT1", a flags byte (bit 0: values
// follow the keys), the key count as a uvarint, the keys as uvarint gaps
// from the one before (the first from zero), then, with values, each key's
// value as two little-endian uint64 words (low, high), and last the
// CRC-32 (IEEE) of everything before it, little-endian. A file is written
// under a temporary name and renamed into place where the filesystem can
// rename, so a reader sees a whole file or none, and a step that runs again
// rewrites the same file.
//
// A position's partition is the top bits of its mixed key (Of), so a
// layer's partitions in order are its sorted keys.
package part

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"pegs/search/internal/exact"
)

const magic = "PEGSPRT1"

// ErrCorrupt is what a partition file that fails its checks is.
var ErrCorrupt = errors.New("corrupt partition file")

// Part is one partition's positions: sorted mixed keys and, if not nil,
// a value for each.
type Part struct {
	Keys []uint64
	Vals []exact.U128
}

// Of returns the partition, of 1<<bits, of mixed key k: its top bits.
func Of(k uint64, bits uint) int {
	if bits == 0 {
		return 0
	}
	return int(k >> (64 - bits))
}

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

// Write writes p to path on fs under a temporary name and renames it into
// place (where fs cannot rename, it writes path directly, which object
// stores make visible whole on close).
func Write(ctx context.Context, fs filesystem.Interface, path string, p Part) error {
	if p.Vals != nil && len(p.Vals) != len(p.Keys) {
		return fmt.Errorf("partition %s: %d keys but %d values", path, len(p.Keys), len(p.Vals))
	}
	return write(ctx, fs, path, func(w io.Writer) error { return encode(w, p) })
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

func encode(w io.Writer, p Part) error {
	crc := crc32.NewIEEE()
	bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<16)
	var flags byte
	if p.Vals != nil {
		flags = 1
	}
	bw.WriteString(magic)
	bw.WriteByte(flags)
	var buf [binary.MaxVarintLen64]byte
	bw.Write(buf[:binary.PutUvarint(buf[:], uint64(len(p.Keys)))])
	var last uint64
	for i, k := range p.Keys {
		if i > 0 && k <= last {
			return fmt.Errorf("keys out of order at %d", i)
		}
		bw.Write(buf[:binary.PutUvarint(buf[:], k-last)])
		last = k
	}
	for _, v := range p.Vals {
		binary.LittleEndian.PutUint64(buf[:8], v.Lo)
		bw.Write(buf[:8])
		binary.LittleEndian.PutUint64(buf[:8], v.Hi)
		bw.Write(buf[:8])
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
	return err
}

// Read reads the partition at path on fs, checking its checksum.
func Read(ctx context.Context, fs filesystem.Interface, path string) (Part, error) {
	data, err := ReadFile(ctx, fs, path)
	if err != nil {
		return Part{}, fmt.Errorf("reading partition: %w", err)
	}
	p, err := decode(data)
	if err != nil {
		return Part{}, fmt.Errorf("partition %s: %w", path, err)
	}
	return p, nil
}

func decode(data []byte) (Part, error) {
	if len(data) < len(magic)+1+1+4 || string(data[:len(magic)]) != magic {
		return Part{}, fmt.Errorf("%w: no partition header", ErrCorrupt)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return Part{}, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	flags := body[len(magic)]
	rest := body[len(magic)+1:]
	n, w := binary.Uvarint(rest)
	if w <= 0 || n > uint64(len(rest)) {
		return Part{}, fmt.Errorf("%w: bad key count", ErrCorrupt)
	}
	rest = rest[w:]
	p := Part{Keys: make([]uint64, n)}
	var last uint64
	for i := range p.Keys {
		g, w := binary.Uvarint(rest)
		if w <= 0 {
			return Part{}, fmt.Errorf("%w: bad key %d", ErrCorrupt, i)
		}
		last += g
		p.Keys[i] = last
		rest = rest[w:]
	}
	if flags&1 != 0 {
		if uint64(len(rest)) != 16*n {
			return Part{}, fmt.Errorf("%w: %d bytes of values for %d keys", ErrCorrupt, len(rest), n)
		}
		p.Vals = make([]exact.U128, n)
		for i := range p.Vals {
			p.Vals[i] = exact.U128{Lo: binary.LittleEndian.Uint64(rest[16*i:]), Hi: binary.LittleEndian.Uint64(rest[16*i+8:])}
		}
		rest = nil
	}
	if len(rest) != 0 {
		return Part{}, fmt.Errorf("%w: %d bytes past the end", ErrCorrupt, len(rest))
	}
	return p, nil
}
