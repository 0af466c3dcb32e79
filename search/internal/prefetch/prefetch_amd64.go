//go:build !purego

package prefetch

import "unsafe"

// lines is the prefetches' loop: a PREFETCHT0 of base +
// idx[k]>>down<<up for each k, for idx not empty.
//
//go:noescape
func lines(base unsafe.Pointer, idx []uint64, down, up uint64)
