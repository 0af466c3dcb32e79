package reporttest

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

func TestGolden(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	Golden(t, "out.txt", []byte("one\n"), true)
	if got, err := os.ReadFile(filepath.Join("testdata", "out.txt")); err != nil || string(got) != "one\n" {
		t.Fatalf("update wrote %q, %v", got, err)
	}
	tests := []struct {
		name, file, got string
		wantFail        bool
	}{
		{"same", "out.txt", "one\n", false},
		{"different", "out.txt", "two\n", true},
		{"missing file", "none.txt", "one\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{TB: t}
			Golden(r, tt.file, []byte(tt.got), false)
			if r.failed != tt.wantFail {
				t.Errorf("Golden(%s, %q) failed = %v, want %v", tt.file, tt.got, r.failed, tt.wantFail)
			}
		})
	}
}
