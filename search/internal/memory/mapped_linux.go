package memory

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapWords returns n zero words of memory mapped for them alone, outside
// the Go heap, advised huge and written in by up to workers goroutines at
// once (see advise and populateOn), or nil if the kernel refuses.
func mapWords(n, workers int) []uint64 {
	size := mappedSize(n)
	p, err := unix.MmapPtr(-1, 0, nil, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil
	}
	advise(p, size)
	populateOn(p, size, workers)
	return unsafe.Slice((*uint64)(p), n)
}

// unmapWords hands the memory of s, from mapWords, back to the kernel.
func unmapWords(s []uint64) {
	_ = unix.MunmapPtr(unsafe.Pointer(unsafe.SliceData(s)), mappedSize(cap(s)))
}

// mappedSize returns the bytes of the mapping of n words: whole pages.
func mappedSize(n int) uintptr {
	const page = 4096
	return (uintptr(n)*8 + page - 1) &^ (page - 1)
}
