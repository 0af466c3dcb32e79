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

// TestSpareReused checks that TakeWords hands back the smallest spare
// array with room, cleared, its charge moved to the words taken (the peak
// counting it once), that the budget charges what it keeps, and that a
// charge it would refuse lets the spares go first.
func TestSpareReused(t *testing.T) {
	const n = minSpare
	mem := New(16 * n * 8)
	take := func(words int) []uint64 {
		t.Helper()
		s, err := mem.TakeWords(words, "a test")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	small, large := take(n), take(2*n)
	small[1], large[n+1] = 7, 9
	mem.GiveWords(large)
	mem.GiveWords(small)
	if got, want := mem.Spared(), int64(3*n*8); got != want || mem.Used() != want {
		t.Fatalf("Spared = %d, Used = %d after giving back %d words, want %d each", got, mem.Used(), 3*n, want)
	}
	peak := mem.Peak()
	got := take(n / 2)
	if &got[0] != &small[0] || len(got) != n/2 {
		t.Errorf("TakeWords(%d) did not reuse the smallest spare with room", n/2)
	}
	if got[1] != 0 {
		t.Errorf("a reused array holds %d, want it cleared", got[1])
	}
	if mem.Spared() != int64(2*n*8) || mem.Used() != int64(2*n*8+n/2*8) {
		t.Errorf("Spared = %d, Used = %d after reusing one, want %d and %d", mem.Spared(), mem.Used(), 2*n*8, 2*n*8+n/2*8)
	}
	if mem.Peak() != peak {
		t.Errorf("peak %d after reusing a spare, %d before: the array counted twice", mem.Peak(), peak)
	}
	// 15 arrays' bytes fit only once the spares go.
	mem.GiveWords(got)
	if err := mem.Take(15*n*8, "a test"); err != nil {
		t.Fatalf("Take with spares to let go: %v", err)
	}
	if mem.Spared() != 0 || mem.Used() != 15*n*8 {
		t.Errorf("Spared = %d, Used = %d after the Take, want 0 and %d", mem.Spared(), mem.Used(), 15*n*8)
	}
	if _, err := mem.TakeWords(2*n, "a test"); !errors.Is(err, ErrExceeded) {
		t.Errorf("TakeWords past the limit with no spares = %v, want ErrExceeded", err)
	}
	if mem.Used() != 15*n*8 {
		t.Errorf("Used = %d after a refused TakeWords, want %d", mem.Used(), 15*n*8)
	}
	// Too small to keep, and too many.
	mem = New(1 << 40)
	mem.Spare(make([]uint64, minSpare-1))
	for range maxSpares + 2 {
		mem.Spare(make([]uint64, n))
	}
	if got, want := mem.Spared(), int64(maxSpares*n*8); got != want {
		t.Errorf("Spared = %d, want %d (at most %d arrays of %d words or more)", got, want, maxSpares, minSpare)
	}
	// TakeWords with no spare large enough lets the smaller ones go.
	take(2 * n)
	if mem.Spared() != 0 {
		t.Errorf("Spared = %d after TakeWords passed every spare, want 0", mem.Spared())
	}
}

// TestTakeWordsToFill checks that TakeWordsToFill charges and reuses as
// TakeWords does, the spare's words left as they were for the caller to
// overwrite, and that it refuses past the limit.
func TestTakeWordsToFill(t *testing.T) {
	const n = minSpare
	mem := New(4 * n * 8)
	s, err := mem.TakeWordsToFill(n, "a test")
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != n || mem.Used() != n*8 {
		t.Fatalf("len %d, Used %d, want %d and %d", len(s), mem.Used(), n, n*8)
	}
	s[0], s[n-1] = 5, 6
	mem.GiveWords(s)
	peak := mem.Peak()
	got, err := mem.TakeWordsToFill(n/2, "a test")
	if err != nil {
		t.Fatal(err)
	}
	if &got[0] != &s[0] || len(got) != n/2 {
		t.Errorf("TakeWordsToFill(%d) did not reuse the spare", n/2)
	}
	if got[0] != 5 {
		t.Errorf("a reused array holds %d, want what it held (5): nothing cleared", got[0])
	}
	if mem.Used() != n/2*8 || mem.Spared() != 0 || mem.Peak() != peak {
		t.Errorf("Used %d, Spared %d, Peak %d after reuse, want %d, 0 and %d", mem.Used(), mem.Spared(), mem.Peak(), n/2*8, peak)
	}
	if _, err := mem.TakeWordsToFill(4*n, "a test"); !errors.Is(err, ErrExceeded) {
		t.Errorf("TakeWordsToFill past the limit = %v, want ErrExceeded", err)
	}
}

// TestTakeWordsRoom checks that TakeWordsRoom makes a fresh array with
// the room asked for, charged by its capacity, that the next call, the
// array spared, reuses it, its words cleared, still charged by its
// capacity, and that room the budget would refuse is not asked for: the
// array then has n words, or the call is refused as TakeWords is.
func TestTakeWordsRoom(t *testing.T) {
	const n = minSpare
	mem := New(8 * n * 8)
	s, err := mem.TakeWordsRoom(n, 3*n, "a test")
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != n || cap(s) != 3*n || mem.Used() != 3*n*8 {
		t.Fatalf("len %d, cap %d, Used %d, want %d, %d and %d", len(s), cap(s), mem.Used(), n, 3*n, 3*n*8)
	}
	s[n-1] = 4
	mem.Give(int64(cap(s)) * 8)
	mem.Spare(s)
	peak := mem.Peak()
	got, err := mem.TakeWordsRoom(2*n, 4*n, "a test")
	if err != nil {
		t.Fatal(err)
	}
	if &got[0] != &s[0] || len(got) != 2*n || got[n-1] != 0 {
		t.Errorf("TakeWordsRoom(%d) did not reuse the spare, cleared", 2*n)
	}
	if mem.Used() != 3*n*8 || mem.Spared() != 0 || mem.Peak() != peak {
		t.Errorf("Used %d, Spared %d, Peak %d after reuse, want %d, 0 and %d", mem.Used(), mem.Spared(), mem.Peak(), 3*n*8, peak)
	}
	// 3n words held: room for 8n more is refused, n words are not.
	small, err := mem.TakeWordsRoom(4*n, 8*n, "a test")
	if err != nil {
		t.Fatal(err)
	}
	if len(small) != 4*n || cap(small) != 4*n || mem.Used() != 7*n*8 {
		t.Errorf("len %d, cap %d, Used %d past the room the budget has, want %d, %d and %d", len(small), cap(small), mem.Used(), 4*n, 4*n, 7*n*8)
	}
	if _, err := mem.TakeWordsRoom(2*n, 2*n, "a test"); !errors.Is(err, ErrExceeded) {
		t.Errorf("TakeWordsRoom past the limit = %v, want ErrExceeded", err)
	}
	if mem.Used() != 7*n*8 {
		t.Errorf("Used = %d after a refused TakeWordsRoom, want %d", mem.Used(), 7*n*8)
	}
}

// TestKeep checks memory kept by its owner (Keep): charged and counted as
// spare while kept, taken back with its charge by Reclaim, and let go by
// a Take that finds the budget short, its drop called and its charge
// given back, so that Reclaim then reports it gone.
func TestKeep(t *testing.T) {
	b := New(1000)
	if err := b.Take(600, "lists"); err != nil {
		t.Fatal(err)
	}
	dropped := 0
	k := b.Keep(600, func() { dropped++ })
	if b.Used() != 600 || b.Spared() != 600 || b.KeptBytes(k) != 600 {
		t.Errorf("kept: Used %d, Spared %d, KeptBytes %d; want 600 each", b.Used(), b.Spared(), b.KeptBytes(k))
	}
	if !b.Reclaim(k) || b.Used() != 600 || b.Spared() != 0 || b.KeptBytes(k) != 0 {
		t.Errorf("reclaimed: Used %d, Spared %d, KeptBytes %d; want 600, 0, 0", b.Used(), b.Spared(), b.KeptBytes(k))
	}
	k = b.Keep(600, func() { dropped++ })
	if err := b.Take(500, "a layer"); err != nil {
		t.Fatalf("Take of 500 beside 600 kept of 1000: %v, want the kept let go", err)
	}
	if dropped != 1 || b.Used() != 500 || b.Reclaim(k) {
		t.Errorf("after a short Take: dropped %d times, Used %d, Reclaim true; want once, 500, false", dropped, b.Used())
	}
}
