//go:build !purego

package prefetch

import "unsafe"

// at is At's loop, a PREFETCHT0 an element, for idx not empty.
//
//go:noescape
func at(base unsafe.Pointer, idx []uint64, shift uint64)

// words is Words's loop, a PREFETCHT0 an element, for idx not empty.
//
//go:noescape
func words(base unsafe.Pointer, idx []uint64, shift uint64)
