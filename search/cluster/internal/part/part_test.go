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

	"pegs/search/internal/exact"
	"pegs/search/internal/spill"
)

func TestRoundTripAndCorruption(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	fs, err := filesystem.New(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	const bits = 2
	h := spill.Header{Kind: spill.LayerFile, Counts: true, Pegs: 7, Partition: 1, Partitions: 1 << bits}
	var p Part
	for i := range uint64(1000) {
		k := 1<<62 + i*977
		if Of(k, bits) != 1 {
			t.Fatalf("key %#x in partition %d, want 1", k, Of(k, bits))
		}
		p.Keys = append(p.Keys, k)
		p.Vals = append(p.Vals, exact.U128{Lo: i, Hi: i % 3})
	}
	path := filepath.Join(dir, "fwd", "07", "p0001")
	if err := Write(ctx, fs, path, h, p); err != nil {
		t.Fatal(err)
	}
	got, err := Read(ctx, fs, path, h)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Keys, p.Keys) || !slices.Equal(got.Vals, p.Vals) {
		t.Errorf("read back %d keys, %d values; differs from the %d written", len(got.Keys), len(got.Vals), len(p.Keys))
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
		want spill.Header
	}{
		{"a byte flipped", flip(data, len(data)/2), h},
		{"truncated", data[:len(data)-9], h},
		{"another partition's", data, spill.Header{Kind: spill.LayerFile, Counts: true, Pegs: 7, Partition: 2, Partitions: 1 << bits}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := filepath.Join(dir, "bad")
			if err := os.WriteFile(bad, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Read(ctx, fs, bad, tt.want)
			if !errors.Is(err, spill.ErrCorrupt) {
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
