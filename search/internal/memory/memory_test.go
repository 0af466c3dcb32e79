package memory

import (
	"errors"
	"runtime"
	"testing"
	"time"
)

// TestGiveCollects checks that handing a sixteenth of the budget back asks
// for a garbage collection.
func TestGiveCollects(t *testing.T) {
	mem := New(1 << 20)
	mem.SetCollectAt(mem.Limit() / 16)
	if err := mem.Take(1<<16, "a test"); err != nil {
		t.Fatal(err)
	}
	before := gcCount()
	mem.Give(1<<16 - 1)
	mem.Give(1)
	deadline := time.Now().Add(5 * time.Second)
	for gcCount() == before {
		if time.Now().After(deadline) {
			t.Fatalf("no garbage collection within 5 s of handing back %d bytes of a %d-byte budget", 1<<16, mem.Limit())
		}
		time.Sleep(time.Millisecond)
	}
}

func gcCount() uint32 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.NumGC
}

// TestTakeRefuses checks that a charge past the limit is refused with the
// numbers, charges nothing, and is ErrExceeded.
func TestTakeRefuses(t *testing.T) {
	mem := New(1000)
	if err := mem.Take(600, "first"); err != nil {
		t.Fatal(err)
	}
	err := mem.Take(500, "second")
	var me *Error
	if !errors.As(err, &me) || !errors.Is(err, ErrExceeded) {
		t.Fatalf("Take past the limit = %v, want an *Error that is ErrExceeded", err)
	}
	want := Error{What: "second", Need: 500, InUse: 600, Budget: 1000}
	if *me != want {
		t.Errorf("error = %+v, want %+v", *me, want)
	}
	if got := mem.Used(); got != 600 {
		t.Errorf("Used after a refusal = %d, want 600", got)
	}
	if got := mem.Peak(); got != 600 {
		t.Errorf("Peak = %d, want 600", got)
	}
	if got, want := me.Error(), "memory budget exceeded: 500 B more for second, 600 B in use (budget 1000 B)"; got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
}
