package memory

import (
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
	b := unsafe.Slice((*byte)(unsafe.Add(p, lo-uintptr(p))), hi-lo)
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
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
	b := unsafe.Slice((*byte)(unsafe.Add(p, -int(uintptr(p)-lo))), hi-lo)
	return unix.Madvise(b, unix.MADV_POPULATE_WRITE) == nil
}
