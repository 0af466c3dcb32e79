package spill

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"pegs/search/internal/exact"
)

// sample returns n sorted distinct keys of partition part of parts, with
// counts, some past 64 bits.
func sample(n, part, parts int, seed uint64) ([]uint64, []exact.U128) {
	rng := rand.New(rand.NewPCG(seed, 7))
	set := map[uint64]bool{}
	for len(set) < n {
		k := rng.Uint64()
		if parts > 1 {
			shift := 64 - uint(len64(parts))
			k = k>>uint(len64(parts)) | uint64(part)<<shift
		}
		set[k] = true
	}
	keys := slices.Sorted(func(yield func(uint64) bool) {
		for k := range set {
			if !yield(k) {
				return
			}
		}
	})
	counts := make([]exact.U128, n)
	for i := range counts {
		counts[i] = exact.U128{Lo: rng.Uint64() >> uint(rng.IntN(64))}
		if i%5 == 0 {
			counts[i].Hi = rng.Uint64() >> uint(rng.IntN(64))
		}
	}
	return keys, counts
}

// len64 returns log2 of a power of two.
func len64(n int) int {
	b := 0
	for 1<<b < n {
		b++
	}
	return b
}

func write(t testing.TB, d *Dir, h Header, keys []uint64, counts []exact.U128) string {
	t.Helper()
	w, err := d.Create(h)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range keys {
		var c exact.U128
		if counts != nil {
			c = counts[i]
		}
		if err := w.Add(k, c); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Commit(w); err != nil {
		t.Fatal(err)
	}
	return d.File(h)
}

// TestRoundTrip writes files of every kind and size around a block's and
// reads back the same records; the same records written by NewWriter to a
// buffer are the file's bytes.
func TestRoundTrip(t *testing.T) {
	d, err := Start(t.TempDir(), map[string]string{"board": "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		h    Header
		n    int
	}{
		{"empty layer", Header{Kind: LayerFile, Counts: true, Pegs: 5, Partition: 0, Partitions: 1}, 0},
		{"one key", Header{Kind: WinnableFile, Pegs: 5, Partition: 2, Partitions: 4}, 1},
		{"a block", Header{Kind: LayerFile, Counts: true, Pegs: 9, Partition: 3, Partitions: 8}, blockRecords},
		{"blocks and a bit", Header{Kind: RunFile, Counts: true, Pegs: 30, Partition: 1, Partitions: 2, Source: 7}, 3*blockRecords + 17},
	} {
		t.Run(c.name, func(t *testing.T) {
			keys, counts := sample(c.n, c.h.Partition, c.h.Partitions, uint64(c.n))
			if !c.h.Counts {
				counts = nil
			}
			path := write(t, d, c.h, keys, counts)
			gotKeys, gotCounts, err := d.Read(c.h)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(gotKeys, keys) || !slices.Equal(gotCounts, counts) {
				t.Errorf("read back %d keys and %d counts, differing from the %d written", len(gotKeys), len(gotCounts), len(keys))
			}
			// ReadInto fills slices of the file's records, and calls a file
			// of more or fewer records than expected corrupt.
			for _, n := range []int{c.n, c.n - 1, c.n + 1} {
				if n < 0 {
					continue
				}
				r, err := d.Open(c.h)
				if err != nil {
					t.Fatal(err)
				}
				intoKeys, intoCounts := make([]uint64, n), make([]exact.U128, n)
				err = ReadInto(r, intoKeys, intoCounts)
				r.Close()
				if n != c.n {
					if !errors.Is(err, ErrCorrupt) {
						t.Errorf("ReadInto %d records of a file of %d: %v, want ErrCorrupt", n, c.n, err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				want := counts
				if want == nil {
					want = make([]exact.U128, n)
				}
				if !slices.Equal(intoKeys, keys) || !slices.Equal(intoCounts, want) {
					t.Errorf("ReadInto read %d keys and counts differing from the %d written", n, len(keys))
				}
			}
			var buf bytes.Buffer
			w, err := NewWriter(&buf, "buffer", c.h)
			if err != nil {
				t.Fatal(err)
			}
			for i, k := range keys {
				var v exact.U128
				if counts != nil {
					v = counts[i]
				}
				if err := w.Add(k, v); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Commit(); err != nil {
				t.Fatal(err)
			}
			file, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := buf.Bytes(); !bytes.Equal(got, file) || w.Bytes() != int64(len(file)) {
				t.Errorf("NewWriter wrote %d bytes (Bytes() %d), not the file's %d", len(got), w.Bytes(), len(file))
			}
		})
	}
}

// TestWriterRefuses checks that keys out of order or outside the
// partition are refused as they are added.
func TestWriterRefuses(t *testing.T) {
	d, err := Start(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := d.Create(Header{Kind: LayerFile, Pegs: 3, Partition: 1, Partitions: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	if err := w.Add(5, exact.U128{}); err == nil {
		t.Errorf("a key of partition 0 went into partition 1")
	}
	if err := w.Add(1<<63+5, exact.U128{}); err != nil {
		t.Fatal(err)
	}
	if err := w.Add(1<<63+5, exact.U128{}); err == nil {
		t.Errorf("a key repeated was taken")
	}
}

// TestCorruptNamed damages and truncates a file of several blocks and
// checks that reading it fails with an error naming the layer, the
// partition, the file and, where it applies, the block.
func TestCorruptNamed(t *testing.T) {
	d, err := Start(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := Header{Kind: LayerFile, Counts: true, Pegs: 17, Partition: 3, Partitions: 4}
	keys, counts := sample(3*blockRecords+5, 3, 4, 1)
	path := write(t, d, h, keys, counts)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Where block 2 begins: after the header and block 1.
	block1 := 8 + int(uint32(good[headerBytes+4])|uint32(good[headerBytes+5])<<8|uint32(good[headerBytes+6])<<16) + 8
	for _, c := range []struct {
		name, want string
		damage     func([]byte) []byte
	}{
		{"a bit in block 2", "checksum mismatch in block 2", func(b []byte) []byte { b[headerBytes+block1+100] ^= 4; return b }},
		{"a bit in the header", "checksum mismatch in the header", func(b []byte) []byte { b[13] ^= 1; return b }},
		{"cut in block 2", "truncated in block 2", func(b []byte) []byte { return b[:headerBytes+block1+50] }},
		{"cut before the trailer", "truncated: ends before block 5", func(b []byte) []byte { return b[:len(b)-(8+16+8)] }},
		{"cut in the header", "truncated in the header", func(b []byte) []byte { return b[:20] }},
		{"bytes after the trailer", "bytes after the trailer", func(b []byte) []byte { return append(b, 0) }},
		{"not a spill file", "not a spill file", func(b []byte) []byte { return []byte("hello, world, this is not a spill file at all") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(path, c.damage(slices.Clone(good)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := d.Read(h)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("got %v, want a corrupt file", err)
			}
			want := "spill: layer 17 partition 3 (" + path + "): " + c.want
			if err.Error() != want {
				t.Errorf("got  %q\nwant %q", err, want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("the error takes more than a line")
			}
		})
	}
	// Asked for another partition, the file is refused.
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	other := h
	other.Partition = 2
	if _, err := Open(path, other); !errors.Is(err, ErrCorrupt) {
		t.Errorf("partition 3's file read as partition 2's: %v", err)
	}
}

// TestManifest checks that a directory resumes with its manifest, and
// refuses another problem's run, a second start and a resume of nothing.
func TestManifest(t *testing.T) {
	dir := t.TempDir()
	prob := map[string]string{"board": "english", "start": "d4"}
	if _, err := Resume(dir, prob); !errors.Is(err, ErrNoRun) {
		t.Errorf("resuming an empty directory: %v", err)
	}
	d, err := Start(dir, prob)
	if err != nil {
		t.Fatal(err)
	}
	l := d.NewLayer(31, 4)
	l.Complete[2], l.Records[2] = true, 12
	l.Expanded[1] = &Stats{Positions: 3, Games: exact.U128{Hi: 1, Lo: 2}}
	if err := d.Save(); err != nil {
		t.Fatal(err)
	}
	// While d is open, the directory is locked: a second run, started or
	// resumed, is refused at once in one line.
	for _, open := range []func(string, map[string]string) (*Dir, error){Start, Resume} {
		if _, err := open(dir, prob); !errors.Is(err, ErrInUse) || strings.Contains(err.Error(), "\n") {
			t.Errorf("a second run on a directory in use: %v, want ErrInUse", err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := Start(dir, prob); !errors.Is(err, ErrExists) {
		t.Errorf("a second start: %v", err)
	}
	if _, err := Resume(dir, map[string]string{"board": "french", "start": "d4"}); !errors.Is(err, ErrOther) {
		t.Errorf("another problem: %v", err)
	}
	r, err := Resume(dir, prob)
	if err != nil {
		t.Fatal(err)
	}
	got := r.M.Layers[31]
	if got.Records[2] != 12 || !got.Complete[2] || got.Complete[0] || *got.Expanded[1] != *l.Expanded[1] || got.Expanded[0] != nil {
		t.Errorf("resumed layer %+v, want %+v", got, l)
	}
	if err := r.Clear(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the directory is left after Clear: %v", err)
	}
}

// TestSaveLater checks that the manifest saved later is, once waited
// for, the newest one queued, and that a save that failed is reported by
// Wait and by the next SaveLater and Save.
func TestSaveLater(t *testing.T) {
	dir := t.TempDir()
	prob := map[string]string{"board": "english", "start": "d4"}
	d, err := Start(dir, prob)
	if err != nil {
		t.Fatal(err)
	}
	l := d.NewLayer(31, 4)
	for q := range 4 {
		l.Complete[q], l.Records[q] = true, int64(q+1)
		if err := d.SaveLater(); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Close(); err != nil { // waits for the saves
		t.Fatal(err)
	}
	r, err := Resume(dir, prob)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.M.Layers[31]; !got.Done() || got.Positions() != 10 {
		t.Errorf("resumed layer %+v, want all 4 partitions complete, 10 positions", got)
	}
	// A directory gone makes the sync and the manifest's write fail.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := r.SaveLater(); err != nil {
		t.Fatalf("SaveLater returned %v before its save ran", err)
	}
	if err := r.Wait(); err == nil {
		t.Error("Wait: no error from a save into a directory removed")
	}
	if err := r.SaveLater(); err == nil {
		t.Error("SaveLater: no error after a save failed")
	}
	if err := r.Save(); err == nil {
		t.Error("Save: no error after a save failed")
	}
	r.Close()
}

// TestNoSpace checks the free-space check against this file system.
func TestNoSpace(t *testing.T) {
	d, err := Start(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	free, err := d.Free()
	if err != nil || free <= 0 {
		t.Fatalf("free %d, %v", free, err)
	}
	if err := d.Check(1, "a byte"); err != nil {
		t.Errorf("a byte does not fit: %v", err)
	}
	err = d.Check(free+1<<50, "the run")
	if _, ok := errors.AsType[*NoSpaceError](err); !ok {
		t.Errorf("a petabyte more than free fits: %v", err)
	}
}

// FuzzReadPartition reads garbage and damaged files: the reader must
// return records or an error, never panic, and what it returns without an
// error must be in order and in the partition.
func FuzzReadPartition(f *testing.F) {
	d, err := Start(f.TempDir(), nil)
	if err != nil {
		f.Fatal(err)
	}
	h := Header{Kind: LayerFile, Counts: true, Pegs: 7, Partition: 1, Partitions: 2}
	keys, counts := sample(50, 1, 2, 3)
	good, err := os.ReadFile(write(f, d, h, keys, counts))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(magic))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := NewReader(bytes.NewReader(b), "fuzz", h)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("an error that is not ErrCorrupt: %v", err)
			}
			return
		}
		keys, _, err := ReadAll(r)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("an error that is not ErrCorrupt: %v", err)
			}
			return
		}
		for i, k := range keys {
			if i > 0 && k <= keys[i-1] || PartitionOf(k, 2) != 1 {
				t.Fatalf("read key %d, %#x, out of order or partition", i, k)
			}
		}
	})
}
