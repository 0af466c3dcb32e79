package spill

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"path/filepath"

	"github.com/cespare/xxhash/v2"

	"pegs/search/atomicfile"
	"pegs/search/internal/exact"
)

// Kind is what a file holds.
type Kind uint8

// The kinds of file.
const (
	LayerFile    Kind = 1 // a partition of a layer
	RunFile      Kind = 2 // children of one partition bound for one partition of the next layer
	WinnableFile Kind = 3 // the winnable positions of a partition of a layer
	ChanceFile   Kind = 4 // the same, each with the random player's chance (or a partial sum of it)
)

const (
	magic        = "PEGSPILL"
	version      = 2
	headerBytes  = 40
	blockRecords = 4096
	flagCounts   = 1
	// maxPayload bounds a block's payload: a record codes in at most
	// 10 bytes of key and 20 of count.
	maxPayload = blockRecords * 30
)

// Header is what a file says it holds.
type Header struct {
	Kind       Kind
	Counts     bool // each record carries a 128-bit count
	Pegs       int
	Partition  int // of a run, the partition it goes into
	Partitions int // the partitions of that layer, a power of two
	Source     int // of a run, the partition of its parents
}

// check reports what is wrong with h, or "".
func (h Header) check() string {
	switch {
	case h.Kind < LayerFile || h.Kind > ChanceFile:
		return fmt.Sprintf("unknown kind %d", h.Kind)
	case h.Partitions < 1 || h.Partitions&(h.Partitions-1) != 0 || h.Partitions > 1<<16:
		return fmt.Sprintf("partitions %d is not a power of two", h.Partitions)
	case h.Partition < 0 || h.Partition >= h.Partitions:
		return fmt.Sprintf("partition %d of %d", h.Partition, h.Partitions)
	case h.Pegs < 0 || h.Pegs > 64:
		return fmt.Sprintf("pegs %d", h.Pegs)
	case h.Source < 0 || h.Source >= 1<<16:
		return fmt.Sprintf("source partition %d", h.Source)
	}
	return ""
}

// PartitionOf returns the partition of mixed key k among partitions (a
// power of two): its top bits.
func PartitionOf(k uint64, partitions int) int {
	if partitions <= 1 {
		return 0
	}
	return int(k >> (64 - bits.TrailingZeros(uint(partitions))))
}

func (h Header) encode() []byte {
	b := make([]byte, headerBytes)
	copy(b, magic)
	binary.LittleEndian.PutUint16(b[8:], version)
	b[10] = byte(h.Kind)
	if h.Counts {
		b[11] = flagCounts
	}
	binary.LittleEndian.PutUint16(b[12:], uint16(h.Pegs))
	binary.LittleEndian.PutUint16(b[14:], uint16(h.Partition))
	binary.LittleEndian.PutUint16(b[16:], uint16(h.Partitions-1))
	binary.LittleEndian.PutUint16(b[18:], uint16(h.Source))
	binary.LittleEndian.PutUint32(b[20:], blockRecords)
	binary.LittleEndian.PutUint64(b[32:], xxhash.Sum64(b[:32]))
	return b
}

// ErrCorrupt is what every *CorruptError is.
var ErrCorrupt = errors.New("corrupt spill file")

// CorruptError reports a file that is not what it should be: damaged,
// truncated, or another file than the one asked for.
type CorruptError struct {
	Pegs, Partition int
	Path            string
	Reason          string // such as "checksum mismatch in block 12"
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("spill: layer %d partition %d (%s): %s", e.Pegs, e.Partition, e.Path, e.Reason)
}

// Is reports whether target is ErrCorrupt.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// Writer writes one file: made by Create, under a temporary name that
// Commit puts in place; made by NewWriter, to any io.Writer.
type Writer struct {
	h       Header
	path    string
	f       *os.File // nil for NewWriter's
	bw      *bufio.Writer
	keys    []uint64
	counts  []exact.U128
	buf     []byte
	last    uint64
	any     bool
	records uint64
	blocks  uint64
	bytes   int64
	// NoSync leaves the file unsynced at Commit (its rename too): for
	// files written many at a time and synced together (see Dir.Sync).
	NoSync bool
}

// Create starts the file path holding h's records.
func Create(path string, h Header) (*Writer, error) {
	if why := h.check(); why != "" {
		return nil, fmt.Errorf("spill: %s: bad header: %s", path, why)
	}
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return nil, fmt.Errorf("spill: %w", err)
	}
	w := &Writer{h: h, path: path, f: f, bw: bufio.NewWriterSize(f, 64<<10)}
	if err := w.start(); err != nil {
		w.Abort()
		return nil, err
	}
	return w, nil
}

// NewWriter starts a file holding h's records, written to out (path names
// it in errors). Its Commit writes the last blocks to out and nothing
// else: no sync, no rename, no close; whether the file is seen whole or
// not at all is for the caller (as a pipeline's steps, which write to
// Beam's filesystems, whose object stores make a file visible on close).
func NewWriter(out io.Writer, path string, h Header) (*Writer, error) {
	if why := h.check(); why != "" {
		return nil, fmt.Errorf("spill: %s: bad header: %s", path, why)
	}
	w := &Writer{h: h, path: path, bw: bufio.NewWriterSize(out, 64<<10)}
	if err := w.start(); err != nil {
		return nil, err
	}
	return w, nil
}

// start writes the header.
func (w *Writer) start() error {
	hb := w.h.encode()
	w.bytes += int64(len(hb))
	if _, err := w.bw.Write(hb); err != nil {
		return fmt.Errorf("spill: %w", err)
	}
	return nil
}

// Add appends a record. Keys must strictly increase and lie in the file's
// partition; count is ignored in a file without counts.
func (w *Writer) Add(k uint64, count exact.U128) error {
	if w.any && k <= w.last {
		return fmt.Errorf("spill: %s: key %#x after %#x: keys must increase", w.path, k, w.last)
	}
	if PartitionOf(k, w.h.Partitions) != w.h.Partition {
		return fmt.Errorf("spill: %s: key %#x is not in partition %d of %d", w.path, k, w.h.Partition, w.h.Partitions)
	}
	w.last, w.any = k, true
	w.keys = append(w.keys, k)
	if w.h.Counts {
		w.counts = append(w.counts, count)
	}
	if len(w.keys) == blockRecords {
		return w.flush()
	}
	return nil
}

// Records returns the records added so far.
func (w *Writer) Records() int64 { return int64(w.records) + int64(len(w.keys)) }

// Bytes returns the bytes written so far (all of them once committed).
func (w *Writer) Bytes() int64 { return w.bytes }

// flush writes the records held as a block.
func (w *Writer) flush() error {
	if len(w.keys) == 0 {
		return nil
	}
	b := w.buf[:0]
	b = binary.LittleEndian.AppendUint32(b, uint32(len(w.keys)))
	b = binary.LittleEndian.AppendUint32(b, 0) // the payload's length, below
	prev := uint64(0)
	for i, k := range w.keys {
		if i == 0 {
			b = binary.AppendUvarint(b, k)
		} else {
			b = binary.AppendUvarint(b, k-prev)
		}
		prev = k
	}
	for _, c := range w.counts {
		b = binary.AppendUvarint(b, c.Lo)
		b = binary.AppendUvarint(b, c.Hi)
	}
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8))
	w.records += uint64(len(w.keys))
	w.keys, w.counts = w.keys[:0], w.counts[:0]
	return w.block(b)
}

// block writes block b, header and payload, with its checksum.
func (w *Writer) block(b []byte) error {
	b = binary.LittleEndian.AppendUint64(b, xxhash.Sum64(b))
	w.buf = b[:0]
	w.blocks++
	w.bytes += int64(len(b))
	if _, err := w.bw.Write(b); err != nil {
		return fmt.Errorf("spill: %w", err)
	}
	return nil
}

// Commit writes the last block and the trailer; a file made by Create it
// then syncs, renames to its name and syncs the directory in (unless
// NoSync), one made by NewWriter it leaves there.
func (w *Writer) Commit() error {
	err := w.flush()
	if err == nil {
		blocks := w.blocks
		b := binary.LittleEndian.AppendUint32(w.buf[:0], 0)
		b = binary.LittleEndian.AppendUint32(b, 16)
		b = binary.LittleEndian.AppendUint64(b, w.records)
		b = binary.LittleEndian.AppendUint64(b, blocks)
		err = w.block(b)
	}
	if err == nil {
		err = w.bw.Flush()
	}
	if w.f == nil {
		if err != nil {
			return fmt.Errorf("spill: writing %s: %w", w.path, err)
		}
		return nil
	}
	if err == nil && !w.NoSync {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(w.path+".tmp", w.path)
	}
	if err == nil && !w.NoSync {
		err = atomicfile.SyncDir(filepath.Dir(w.path))
	}
	if err != nil {
		os.Remove(w.path + ".tmp")
		return fmt.Errorf("spill: writing %s: %w", w.path, err)
	}
	return nil
}

// Abort gives up the file (one made by NewWriter is the caller's to
// give up: Abort does nothing to it).
func (w *Writer) Abort() {
	if w.f == nil {
		return
	}
	w.f.Close()
	os.Remove(w.path + ".tmp")
}

// Reader reads a file's records in order, block by block.
type Reader struct {
	h       Header
	r       *bufio.Reader
	c       io.Closer
	want    Header // for errors: the file asked for
	path    string
	keys    []uint64
	counts  []exact.U128
	i       int
	block   int // blocks read
	records uint64
	last    uint64
	any     bool
	done    bool
	err     error
	buf     []byte
}

// Open opens the file at path, which should hold want's records (kind,
// pegs, partition of partitions, source and counts): a file that does not
// is corrupt.
func Open(path string, want Header) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("spill: layer %d partition %d: %w", want.Pegs, want.Partition, err)
	}
	return NewReadCloser(f, path, want)
}

// NewReadCloser is NewReader whose Close closes r (as Open's closes its
// file; for a file of another filesystem than the local one).
func NewReadCloser(r io.ReadCloser, path string, want Header) (*Reader, error) {
	rd, err := NewReader(r, path, want)
	if err != nil {
		r.Close()
		return nil, err
	}
	rd.c = r
	return rd, nil
}

// NewReader reads a file's bytes from r; path names it in errors.
func NewReader(r io.Reader, path string, want Header) (*Reader, error) {
	rd := &Reader{r: bufio.NewReaderSize(r, 32<<10), want: want, path: path}
	b := make([]byte, headerBytes)
	if _, err := io.ReadFull(rd.r, b); err != nil {
		return nil, rd.corrupt("truncated in the header")
	}
	if string(b[:8]) != magic {
		return nil, rd.corrupt("not a spill file")
	}
	if xxhash.Sum64(b[:32]) != binary.LittleEndian.Uint64(b[32:]) {
		return nil, rd.corrupt("checksum mismatch in the header")
	}
	if v := binary.LittleEndian.Uint16(b[8:]); v != version {
		return nil, rd.corrupt(fmt.Sprintf("format version %d, not %d", v, version))
	}
	h := Header{Kind: Kind(b[10]), Counts: b[11]&flagCounts != 0, Pegs: int(binary.LittleEndian.Uint16(b[12:])),
		Partition: int(binary.LittleEndian.Uint16(b[14:])), Partitions: int(binary.LittleEndian.Uint16(b[16:])) + 1,
		Source: int(binary.LittleEndian.Uint16(b[18:]))}
	if why := h.check(); why != "" {
		return nil, rd.corrupt("bad header: " + why)
	}
	if b[11]&^flagCounts != 0 || binary.LittleEndian.Uint32(b[20:]) != blockRecords {
		return nil, rd.corrupt("bad header: unknown flags or block size")
	}
	if h != want {
		return nil, rd.corrupt(fmt.Sprintf("holds %+v, not %+v", h, want))
	}
	rd.h = h
	return rd, nil
}

func (r *Reader) corrupt(reason string) error {
	return &CorruptError{Pegs: r.want.Pegs, Partition: r.want.Partition, Path: r.path, Reason: reason}
}

// Header returns the file's header.
func (r *Reader) Header() Header { return r.h }

// Next advances to the next record, and reports false at the end of the
// file or on an error (see Err).
func (r *Reader) Next() bool {
	if r.err != nil {
		return false
	}
	r.i++
	for r.i >= len(r.keys) {
		if r.done {
			return false
		}
		if r.err = r.readBlock(); r.err != nil {
			return false
		}
		r.i = 0
	}
	return true
}

// Key returns the record's key.
func (r *Reader) Key() uint64 { return r.keys[r.i] }

// Count returns the record's count (zero in a file without counts).
func (r *Reader) Count() exact.U128 {
	if r.counts == nil {
		return exact.U128{}
	}
	return r.counts[r.i]
}

// Err returns what stopped Next, if not the file's end.
func (r *Reader) Err() error { return r.err }

// Close closes the file.
func (r *Reader) Close() error {
	if r.c != nil {
		return r.c.Close()
	}
	return nil
}

// readBlock reads and checks the next block.
func (r *Reader) readBlock() error {
	r.block++
	where := fmt.Sprintf("block %d", r.block)
	r.keys, r.counts = r.keys[:0], r.counts[:0]
	if r.h.Counts && r.counts == nil {
		r.counts = []exact.U128{}
	}
	var hd [8]byte
	if _, err := io.ReadFull(r.r, hd[:]); err != nil {
		return r.corrupt("truncated: ends before " + where)
	}
	n := binary.LittleEndian.Uint32(hd[:])
	size := binary.LittleEndian.Uint32(hd[4:])
	if n > blockRecords || size > maxPayload || n == 0 && size != 16 {
		return r.corrupt("bad length in " + where)
	}
	if cap(r.buf) < int(size)+16 {
		r.buf = make([]byte, 0, int(size)+16)
	}
	b := append(r.buf[:0], hd[:]...)
	b = b[:8+size+8]
	if _, err := io.ReadFull(r.r, b[8:]); err != nil {
		return r.corrupt("truncated in " + where)
	}
	if xxhash.Sum64(b[:8+size]) != binary.LittleEndian.Uint64(b[8+size:]) {
		return r.corrupt("checksum mismatch in " + where)
	}
	p := b[8 : 8+size]
	if n == 0 {
		// The trailer.
		if binary.LittleEndian.Uint64(p) != r.records || binary.LittleEndian.Uint64(p[8:]) != uint64(r.block-1) {
			return r.corrupt("the trailer's totals do not match")
		}
		if _, err := r.r.ReadByte(); err != io.EOF {
			return r.corrupt("bytes after the trailer")
		}
		r.done = true
		return nil
	}
	for i := range n {
		v, m := binary.Uvarint(p)
		if m <= 0 {
			return r.corrupt("bad key in " + where)
		}
		p = p[m:]
		k := v
		if i > 0 {
			k = r.last + v
			if v == 0 || k < r.last {
				return r.corrupt("keys out of order in " + where)
			}
		} else if r.any && k <= r.last {
			return r.corrupt("keys out of order in " + where)
		}
		if PartitionOf(k, r.h.Partitions) != r.h.Partition {
			return r.corrupt("a key outside the partition in " + where)
		}
		r.keys = append(r.keys, k)
		r.last, r.any = k, true
	}
	if r.h.Counts {
		for range n {
			lo, m := binary.Uvarint(p)
			if m <= 0 {
				return r.corrupt("bad count in " + where)
			}
			p = p[m:]
			hi, m := binary.Uvarint(p)
			if m <= 0 {
				return r.corrupt("bad count in " + where)
			}
			p = p[m:]
			r.counts = append(r.counts, exact.U128{Lo: lo, Hi: hi})
		}
	}
	if len(p) != 0 {
		return r.corrupt("bytes left over in " + where)
	}
	r.records += uint64(n)
	return nil
}

// ReadInto reads a whole file from r into keys and, unless nil, counts
// (left zero where the file has none), which hold as many records as the
// file: a file of more or fewer records is corrupt.
func ReadInto(r *Reader, keys []uint64, counts []exact.U128) error {
	n := 0
	for r.err == nil && !r.done {
		if r.err = r.readBlock(); r.err != nil {
			break
		}
		if len(r.keys) > len(keys)-n {
			r.err = r.corrupt(fmt.Sprintf("more records than the %d expected", len(keys)))
			break
		}
		copy(keys[n:], r.keys)
		if counts != nil {
			copy(counts[n:], r.counts)
		}
		n += len(r.keys)
	}
	r.i = len(r.keys)
	if r.err == nil && n != len(keys) {
		r.err = r.corrupt(fmt.Sprintf("%d records, not the %d expected", n, len(keys)))
	}
	return r.err
}

// ReadAll reads a whole file from r: its keys and, if it has them, counts.
func ReadAll(r *Reader) ([]uint64, []exact.U128, error) {
	var keys []uint64
	var counts []exact.U128
	for r.Next() {
		keys = append(keys, r.Key())
		if r.h.Counts {
			counts = append(counts, r.Count())
		}
	}
	return keys, counts, r.Err()
}
