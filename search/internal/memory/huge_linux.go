package memory

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePage is the size of a transparent huge page on x86-64 and arm64
// Linux.
const hugePage = 2 << 20

// advise asks the kernel to back the whole huge pages within n bytes at p
// with huge pages (madvise MADV_HUGEPAGE). Where transparent huge pages
// are enabled only for memory that asks (the "madvise" setting, common and
// the case here), a table of tens of megabytes otherwise takes a page
// fault every 4 KiB when first written and a TLB miss on most random
// probes. The advice is only advice: an error (a kernel without THP) is
// ignored, and the memory works the same without it.
func advise(p unsafe.Pointer, n uintptr) {
	lo := (uintptr(p) + hugePage - 1) &^ (hugePage - 1)
	hi := (uintptr(p) + n) &^ (hugePage - 1)
	if hi <= lo {
		return
	}
	_ = madvise(p, lo, hi, unix.MADV_HUGEPAGE)
}

// populate asks the kernel to write in the pages of the n bytes at p, the
// page of each end included (madvise MADV_POPULATE_WRITE, Linux 5.14), and
// reports whether it did: one system call for the whole array rather than a
// fault on each page's first write (see populateBytes). An array Make
// makes of populateBytes or more is an object of its own, its first page
// and last in no other object's way. An error (an older kernel) leaves the
// pages to fault in as they are written.
func populate(p unsafe.Pointer, n uintptr) bool {
	const page = 4096
	lo := uintptr(p) &^ (page - 1)
	hi := (uintptr(p) + n + page - 1) &^ (page - 1)
	return madvise(p, lo, hi, unix.MADV_POPULATE_WRITE) == nil
}

// populateOn is populate on up to workers goroutines at once, each
// writing in a run of whole huge pages (populatePart bytes at least), and
// reports whether every one did. The kernel zeroes each page as it writes
// it in, which on one goroutine kept the other cores idle: the English
// Full level's grade zeroed about 0.3 s of its measures' arrays so, its
// workers waiting.
func populateOn(p unsafe.Pointer, n uintptr, workers int) bool {
	parts := min(workers, int(n/populatePart))
	if parts <= 1 {
		return populate(p, n)
	}
	var wg sync.WaitGroup
	var failed atomic.Bool
	from := uintptr(0)
	for k := range parts {
		to := n
		if k < parts-1 {
			// Its end on a huge page's, so that no huge page is two
			// parts'.
			to = (uintptr(p)+n*uintptr(k+1)/uintptr(parts))&^(hugePage-1) - uintptr(p)
		}
		if to <= from {
			continue
		}
		at, size := unsafe.Add(p, from), to-from
		wg.Go(func() {
			if !populate(at, size) {
				failed.Store(true)
			}
		})
		from = to
	}
	wg.Wait()
	return !failed.Load()
}

// populatePart is the fewest bytes populateOn has one goroutine write in.
const populatePart = 4 << 20

// madvise gives advice on the pages from lo to hi, addresses of the memory
// at p, whose object (or mapping) p keeps alive through the call. It makes
// no slice of them: the whole pages of an array reach past its object (to
// the rest of its span's last page), which a Go slice may not (checkptr,
// in race builds, stops the program at such a slice).
func madvise(p unsafe.Pointer, lo, hi uintptr, advice int) error {
	_, _, errno := unix.Syscall(unix.SYS_MADVISE, lo, hi-lo, uintptr(advice))
	runtime.KeepAlive(p)
	if errno != 0 {
		return errno
	}
	return nil
}
