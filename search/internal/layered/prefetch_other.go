//go:build !amd64

package layered

import "unsafe"

// prefetchBits asks the caches for the words of set and before that the
// numbers ranks fall in: a hint, which only amd64 gives (see
// prefetch_amd64.go).
func prefetchBits(set *uint64, before *uint32, ranks []uint64) {}

// prefetchAt asks the caches for the elements idx of the array at base,
// each of 1<<shift bytes: a hint, which only amd64 gives.
func prefetchAt(base unsafe.Pointer, idx []uint64, shift uint64) {}
