//go:build !purego

package layered

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// The lookups of a batch of children (Games, Win) read a bitset word and
// a count before it for each child, then the child's counts: reads spread
// over arrays of tens of megabytes, each a miss of the core's caches. The
// batch's loops already issue them one child after another without
// waiting, but a load that misses holds its place in the core's queue of
// instructions until its line comes, and a queue full of waiting loads
// stops the core. A prefetch asks for the line and is done: prefetching a
// whole batch's lines first, then reading them, keeps more misses going
// at once. The English full analysis's games pass went from about 1.29 s
// to 1.02 s on two workers (phase times from Options.Progress, eight
// alternated runs each).

// prefetchBits asks the caches for the words of set and before that the
// numbers ranks fall in (word r/64 of each); with before nil, set's
// alone.
//
//go:noescape
func prefetchBits(set *uint64, before *uint32, ranks []uint64)

// havePlacesBMI2 reports whether the processor runs placesBMI2 (BZHI and
// SHLX are BMI2).
func havePlacesBMI2() bool { return cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT }

// placesBMI2 is placesIn's loop in assembly.
//
//go:noescape
func placesBMI2(set *uint64, before *uint32, ranks []uint64, vals unsafe.Pointer, shift uint64) (hits int)

// setBitsAsm is setBits's loop in assembly, its words asked for first.
//
//go:noescape
func setBitsAsm(set *uint64, ranks []uint64)

// haveSetBitsAsm is true: setBitsAsm runs on every amd64 processor.
const haveSetBitsAsm = true
