package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"pegs/cmd/internal/cli"
)

// lockedBuffer is a buffer written by a command's goroutines and read by
// the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestServe runs pegs serve with a pack of generated levels on a free
// port, asks it for its levels, and stops it as Ctrl-C or SIGTERM would:
// it shuts down and exits 0.
func TestServe(t *testing.T) {
	pack := filepath.Join(t.TempDir(), "small.json")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"generate", "--board", "triangle", "--count", "2", "--out", pack}, &out, &out); err != nil {
		t.Fatalf("pegs generate: %v\n%s", err, out.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	var stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--levels", pack, "--mem", "1GiB"}, os.Stdout, &stderr)
	}()
	serving := regexp.MustCompile(`msg=serving addr=(http://\S+/)`)
	var base string
	for deadline := time.Now().Add(10 * time.Second); base == ""; time.Sleep(10 * time.Millisecond) {
		if m := serving.FindStringSubmatch(stderr.String()); m != nil {
			base = m[1]
		} else if time.Now().After(deadline) {
			cancel()
			t.Fatalf("pegs serve did not start: %s", stderr.String())
		}
	}
	res, err := http.Get(base + "api/levels")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Packs []struct {
			ID     string            `json:"id"`
			Levels []json.RawMessage `json:"levels"`
		} `json:"packs"`
	}
	err = json.NewDecoder(res.Body).Decode(&got)
	res.Body.Close()
	if n := len(got.Packs); err != nil || n != 4 || got.Packs[n-1].ID != "small" || len(got.Packs[n-1].Levels) != 2 {
		t.Errorf("GET /api/levels: %d packs, %v; want the three built-in ones and small, of 2 levels", n, err)
	}
	cancel()
	err = <-done
	if code := cli.ExitCode("pegs", err, &stderr); code != 0 {
		t.Errorf("pegs serve stopped: exit %d (%v)", code, err)
	}
	if !regexp.MustCompile(`msg=stopped`).MatchString(stderr.String()) {
		t.Errorf("pegs serve did not say it stopped: %s", stderr.String())
	}
}
