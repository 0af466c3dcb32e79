package memory

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
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
