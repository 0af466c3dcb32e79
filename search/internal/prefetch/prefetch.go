// Package prefetch asks the core's caches for lines a loop will read
// soon, without reading them: a prefetch instruction (PREFETCHT0) is done
// as soon as it has asked, where a load that misses holds its place in
// the core's queue of instructions until its line comes, so that a queue
// full of waiting loads stops the core. A batch of lookups spread over
// arrays of tens of megabytes (a layer's bitsets, counts and measures)
// asks for its lines first, then reads them, and the work in between
// goes on while they come.
//
// The prefetches are hints: they read nothing the caller sees, cannot
// fault, and off amd64, or under the purego build tag, they do nothing.
package prefetch

import "unsafe"

// At asks the caches for the elements idx of the array at base, each of
// 1<<shift bytes: the line of base + idx[k]<<shift for each k.
func At(base unsafe.Pointer, idx []uint64, shift uint64) {
	if len(idx) > 0 {
		lines(base, idx, 0, shift)
	}
}

// Words asks the caches for the elements of the array at base, each of
// 1<<shift bytes, that the bits idx of a bitset of those elements fall
// in: the line of base + (idx[k]/64)<<shift for each k (a bitset's words,
// or blocks of a word and the count of the bits before it).
func Words(base unsafe.Pointer, idx []uint64, shift uint64) {
	if len(idx) > 0 {
		lines(base, idx, 6, shift)
	}
}
