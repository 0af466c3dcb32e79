package memory

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestMakeAdvisesHugePages checks that a large array from Make lies in
// memory the kernel was asked to back with huge pages: the mapping that
// holds its middle carries the "hg" flag in /proc/self/smaps.
func TestMakeAdvisesHugePages(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skipf("a kernel without transparent huge pages: %v", err)
	}
	const n = 4 * hugeBytes / 8
	s := Make[uint64](n)
	for i, v := range s {
		if v != 0 {
			t.Fatalf("Make(%d)[%d] = %d, want 0", n, i, v)
		}
	}
	mid := uintptr(unsafe.Pointer(&s[n/2]))
	flags, err := vmFlags(mid)
	if err != nil {
		t.Skipf("no smaps to read: %v", err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("flags of the mapping holding a %d MiB array = %q, want hg among them", n*8>>20, flags)
	}
}

// vmFlags returns the VmFlags line of the mapping of /proc/self/smaps that
// holds address a.
func vmFlags(a uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if _, err := fmt.Sscanf(line, "%x-%x ", &lo, &hi); err == nil {
			in = lo <= a && a < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping holds %#x", a)
}

// skipUnlessPopulates skips a test where the kernel does not write pages
// in ahead (MADV_POPULATE_WRITE, Linux 5.14).
func skipUnlessPopulates(t *testing.T) {
	t.Helper()
	m, err := unix.Mmap(-1, 0, 4096, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	err = unix.Madvise(m, unix.MADV_POPULATE_WRITE)
	unix.Munmap(m)
	if err != nil {
		t.Skipf("a kernel that does not write pages in ahead (MADV_POPULATE_WRITE, Linux 5.14): %v", err)
	}
}

// checkInMemory checks that every page of s is in memory (mincore) and
// every word of it zero, as a fresh array from what is.
func checkInMemory(t *testing.T, s []uint64, what string) {
	t.Helper()
	n := uintptr(len(s))
	p := uintptr(unsafe.Pointer(&s[0]))
	lo := p &^ 4095
	pages := (p + n*8 - lo + 4095) / 4096
	vec := make([]byte, pages)
	if _, _, errno := unix.Syscall(unix.SYS_MINCORE, lo, pages*4096, uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Skipf("mincore: %v", errno)
	}
	out := 0
	for _, v := range vec {
		if v&1 == 0 {
			out++
		}
	}
	if out > 0 {
		t.Errorf("%d of the %d pages of a %d KiB array from %s are not in memory", out, pages, n*8>>10, what)
	}
	for i, v := range s {
		if v != 0 {
			t.Fatalf("%s(%d)[%d] = %d, want 0", what, n, i, v)
		}
	}
}

// TestMakePopulates checks that Make has the kernel write in the pages of
// an array of populateBytes or more: every page of a fresh array is in
// memory before anything writes it (mincore).
func TestMakePopulates(t *testing.T) {
	skipUnlessPopulates(t)
	const n = 16 * populateBytes / 8
	s, populated := makeArray[uint64](n)
	if !populated {
		t.Errorf("makeArray(%d) did not have the kernel write its pages in", n)
	}
	checkInMemory(t, s, "Make")
}

// TestMapWordsPopulates checks that mapWords has every page of its
// mapping written in, on one goroutine or on several, each a run of huge
// pages (populateOn), whatever the size: a part ending mid huge page, or
// a last page part used.
func TestMapWordsPopulates(t *testing.T) {
	skipUnlessPopulates(t)
	for _, c := range []struct{ bytes, workers int }{
		{populatePart, 2},
		{3*populatePart + 5*4096 + 8, 2},
		{5*populatePart/2 + 8, 3},
		{4 * populatePart, 8},
	} {
		s := mapWords(c.bytes/8, c.workers)
		if s == nil {
			t.Skip("the kernel maps no memory")
		}
		checkInMemory(t, s, fmt.Sprintf("mapWords on %d goroutines", c.workers))
		unmapWords(s)
	}
}

// TestTakeMapped checks TakeMapped and GiveMapped: a large array comes
// zero and charged, in a mapping of its own, advised huge, that
// GiveMapped unmaps, its charge given back; a small one comes from the
// heap; and one past the budget is refused, nothing charged.
func TestTakeMapped(t *testing.T) {
	b := New(64 << 20)
	const n = 2 * mapFrom / 8
	s, err := b.TakeMapped(n, "a test's words", 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Used(); got != n*8 {
		t.Errorf("Used = %d after TakeMapped(%d), want %d", got, n, n*8)
	}
	for i, v := range s {
		if v != 0 {
			t.Fatalf("TakeMapped(%d)[%d] = %d, want 0", n, i, v)
		}
		s[i] = uint64(i)
	}
	first := uintptr(unsafe.Pointer(&s[0]))
	if _, err := vmFlags(first); err != nil {
		t.Skipf("no smaps to read: %v", err)
	}
	if flags, _ := vmFlags(first + n*4); !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("flags of the mapping of a %d MiB array = %q, want hg among them", n*8>>20, flags)
	}
	b.GiveMapped(s)
	if got := b.Used(); got != 0 {
		t.Errorf("Used = %d after GiveMapped, want 0", got)
	}
	if flags, err := vmFlags(first); err == nil {
		t.Errorf("the array's memory is still mapped after GiveMapped (flags %q)", flags)
	}
	small, err := b.TakeMapped(mapFrom/16, "a test's few words", 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.mapped) != 0 {
		t.Errorf("TakeMapped(%d) mapped %d bytes, want them from the heap", len(small), len(small)*8)
	}
	b.GiveMapped(small)
	if _, err := b.TakeMapped(128<<20/8, "too many words", 1); !errors.Is(err, ErrExceeded) {
		t.Errorf("TakeMapped past the budget = %v, want ErrExceeded", err)
	}
	if got := b.Used(); got != 0 {
		t.Errorf("Used = %d at the end, want 0", got)
	}
}
