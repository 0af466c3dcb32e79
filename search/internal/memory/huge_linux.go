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
