package layered

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
)

// TestBucketsGenerated checks that zbuckets.go is what gen_buckets.go
// makes of its template (go generate writes it again).
func TestBucketsGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	want, err := exec.Command("go", "run", "gen_buckets.go", "-o", "-").Output()
	if err != nil {
		t.Fatalf("go run gen_buckets.go: %v", err)
	}
	got, err := os.ReadFile("zbuckets.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("zbuckets.go is not what gen_buckets.go makes: run go generate ./search/internal/layered")
	}
}
