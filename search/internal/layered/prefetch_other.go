//go:build !amd64 || purego

package layered

import "unsafe"

// The assembly of prefetch_amd64.s runs on amd64 only, and not under the
// purego build tag: elsewhere these do without it.

// prefetchBits asks the caches for the words of set and before that the
// numbers ranks fall in: a hint, which only amd64 gives (see
// prefetch_amd64.go).
func prefetchBits(set *uint64, before *uint32, ranks []uint64) {}

// havePlacesBMI2 reports false: placesBMI2 is amd64's.
func havePlacesBMI2() bool { return false }

// placesBMI2 is not called off amd64 (see havePlacesBMI2).
func placesBMI2(set *uint64, before *uint32, ranks []uint64, vals unsafe.Pointer, shift uint64) int {
	panic("layered: placesBMI2 off amd64")
}

// haveSetBitsAsm is false: setBitsAsm is amd64's.
const haveSetBitsAsm = false

// setBitsAsm is not called off amd64 (see haveSetBitsAsm).
func setBitsAsm(set *uint64, ranks []uint64) { panic("layered: setBitsAsm off amd64") }
