package part

import (
	"context"
	"errors"
	"maps"
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

// TestMerger merges buckets that share keys, and an empty one, into the
// sorted keys of them all, each once with its values summed, and reports
// a sum past 128 bits.
func TestMerger(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	fs, err := filesystem.New(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	top := exact.U128{Lo: ^uint64(0), Hi: ^uint64(0)}
	tests := []struct {
		name    string
		buckets [][]uint64 // keys; bucket b's value of key k is k+b
		big     bool       // the first key's values are the largest there are
		want    map[uint64]exact.U128
		err     string
	}{
		{name: "none", want: map[uint64]exact.U128{}},
		{name: "one", buckets: [][]uint64{{3, 9}}, want: map[uint64]exact.U128{3: {Lo: 3}, 9: {Lo: 9}}},
		{name: "shared keys", buckets: [][]uint64{{1, 5, 9}, {}, {5, 6}, {1, 2, 9, 10}},
			want: map[uint64]exact.U128{1: {Lo: 1 + 4}, 2: {Lo: 5}, 5: {Lo: 5 + 7}, 6: {Lo: 8}, 9: {Lo: 9 + 12}, 10: {Lo: 13}}},
		{name: "overflow", buckets: [][]uint64{{1}, {1}}, big: true, err: "passes 128 bits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var paths []string
			var headers []spill.Header
			for b, keys := range tt.buckets {
				h := spill.Header{Kind: spill.RunFile, Counts: true, Pegs: 3, Partitions: 1, Source: b}
				p := Part{Keys: keys, Vals: []exact.U128{}}
				for _, k := range keys {
					v := exact.U128{Lo: k + uint64(b)}
					if tt.big {
						v = top
					}
					p.Vals = append(p.Vals, v)
				}
				path := filepath.Join(dir, tt.name, "b"+string(rune('0'+b)))
				if err := Write(ctx, fs, path, h, p); err != nil {
					t.Fatal(err)
				}
				paths, headers = append(paths, path), append(headers, h)
			}
			m, err := NewMerger(ctx, fs, paths, headers)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			got := map[uint64]exact.U128{}
			last := uint64(0)
			for m.Next() {
				if len(got) > 0 && m.Key() <= last {
					t.Errorf("key %d after %d", m.Key(), last)
				}
				last = m.Key()
				got[m.Key()] = m.Val()
			}
			if tt.err != "" {
				if m.Err() == nil || !strings.Contains(m.Err().Error(), tt.err) {
					t.Errorf("err = %v, want %q", m.Err(), tt.err)
				}
				return
			}
			if m.Err() != nil {
				t.Fatal(m.Err())
			}
			if !maps.Equal(got, tt.want) {
				t.Errorf("merged %v, want %v", got, tt.want)
			}
		})
	}
}
