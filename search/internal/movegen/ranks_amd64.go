package movegen

import "golang.org/x/sys/cpu"

// haveAVX512 reports whether the processor and system run ranksAVX512.
func haveAVX512() bool { return cpu.X86.HasAVX512F }

// ranksAVX512 writes to dst[i] the number, by the tables of a key.Dense
// (cum, lowRank, low), of the least of img XOR images8[jumps[i]] for i
// below n: Parent.Ranks with the eight images XORed and their least found
// in one 512-bit register.
//
//go:noescape
func ranksAVX512(img *[8]uint64, images8 *[8]uint64, jumps *int16, n int, cum *uint32, lowRank *uint16, low uint64, dst *uint64)

// canonAVX512 writes to dst[i] the least of img XOR images8[jumps[i]] for
// i below n: Parent.Children in one 512-bit register a child.
//
//go:noescape
func canonAVX512(img *[8]uint64, images8 *[8]uint64, jumps *int16, n int, dst *uint64)
