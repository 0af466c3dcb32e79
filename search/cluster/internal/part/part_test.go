package part

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"

	"pegs/search/internal/kernel"
)

// fill returns a fill for Store.Write that adds keys and vals.
func fill(keys []uint64, vals []kernel.U128) func(w *kernel.SpillWriter) error {
	return func(w *kernel.SpillWriter) error {
		for i, k := range keys {
			if err := w.Add(k, vals[i]); err != nil {
				return err
			}
		}
		return nil
	}
}

func read(ctx context.Context, st Store, h kernel.SpillHeader) ([]uint64, []kernel.U128, error) {
	return kernel.ReadPartition(ctx, st, h)
}

func TestRoundTripAndCorruption(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	fs, err := filesystem.New(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	st := Store{FS: fs, Dir: dir}
	const bits = 2
	h := kernel.SpillHeader{Kind: kernel.LayerFile, Counts: true, Pegs: 7, Partition: 1, Partitions: 1 << bits}
	var keys []uint64
	var vals []kernel.U128
	for i := range uint64(1000) {
		k := 1<<62 + i*977
		if Of(k, bits) != 1 {
			t.Fatalf("key %#x in partition %d, want 1", k, Of(k, bits))
		}
		keys = append(keys, k)
		vals = append(vals, kernel.U128{Lo: i, Hi: i % 3})
	}
	if err := st.Write(ctx, h, fill(keys, vals)); err != nil {
		t.Fatal(err)
	}
	path := st.Path(h)
	if want := filepath.Join(dir, "fwd", "07", "p0001"); path != want {
		t.Errorf("written to %s, want %s", path, want)
	}
	gotKeys, gotVals, err := read(ctx, st, h)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gotKeys, keys) || !slices.Equal(gotVals, vals) {
		t.Errorf("read back %d keys, %d values; differs from the %d written", len(gotKeys), len(gotVals), len(keys))
	}
	if InFlight(path) {
		t.Errorf("InFlight(%s) = true for a written file", path)
	}
	// A fill that fails leaves the file as it was, and no temporary file;
	// while it fills, the file being written is in flight (cluster's settle
	// asks only such files their sizes).
	failed := errors.New("failed")
	if err := st.Write(ctx, h, func(w *kernel.SpillWriter) error {
		being, _ := filepath.Glob(path + "?*")
		if len(being) != 1 || !InFlight(being[0]) {
			t.Errorf("files being written: %v, want one in flight", being)
		}
		return failed
	}); !errors.Is(err, failed) {
		t.Errorf("failed fill: err = %v, want it", err)
	}
	if gotKeys, _, err := read(ctx, st, h); err != nil || len(gotKeys) != len(keys) {
		t.Errorf("after a failed fill: %d keys, %v; want the %d written before", len(gotKeys), err, len(keys))
	}
	if left, _ := filepath.Glob(path + ".tmp*"); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
		want kernel.SpillHeader
	}{
		{"a byte flipped", flip(data, len(data)/2), h},
		{"truncated", data[:len(data)-9], h},
		{"another partition's", data, kernel.SpillHeader{Kind: kernel.LayerFile, Counts: true, Pegs: 7, Partition: 2, Partitions: 1 << bits}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := st.Path(tt.want)
			if err := os.WriteFile(bad, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := read(ctx, st, tt.want)
			if !errors.Is(err, kernel.ErrSpillCorrupt) {
				t.Fatalf("err = %v, want a corrupt partition", err)
			}
			if !strings.Contains(err.Error(), bad) {
				t.Errorf("err %q does not name the file", err)
			}
		})
	}
}

func flip(data []byte, i int) []byte {
	out := slices.Clone(data)
	out[i] ^= 0x10
	return out
}

// TestPaths checks that every kind of file has a path of its own.
func TestPaths(t *testing.T) {
	st := Store{Dir: "gs://b/run"}
	tests := []struct {
		h    kernel.SpillHeader
		want string
	}{
		{kernel.SpillHeader{Kind: kernel.LayerFile, Pegs: 7, Partition: 3, Partitions: 4}, "gs://b/run/fwd/07/p0003"},
		{kernel.SpillHeader{Kind: kernel.RunFile, Counts: true, Pegs: 7, Partition: 3, Partitions: 4, Source: 9}, "gs://b/run/fwd/07/b0003-0009"},
		{kernel.SpillHeader{Kind: kernel.RunFile, Pegs: 7, Partition: 3, Partitions: 4, Source: 9}, "gs://b/run/win/07/b0003-0009"},
		{kernel.SpillHeader{Kind: kernel.WinnableFile, Pegs: 7, Partition: 3, Partitions: 4}, "gs://b/run/win/07/p0003"},
		{kernel.SpillHeader{Kind: kernel.ChanceFile, Pegs: 7, Partition: 3, Partitions: 4}, "gs://b/run/chance/07/p0003"},
	}
	for _, tt := range tests {
		if got := st.Path(tt.h); got != tt.want {
			t.Errorf("Path(%+v) = %s, want %s", tt.h, got, tt.want)
		}
	}
}
