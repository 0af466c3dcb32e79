//go:build !purego

package movegen

import "golang.org/x/sys/cpu"

// haveAVX512 reports whether the processor and system run ranksAVX512.
// (VPMINUQ on 256-bit registers is AVX-512 VL.)
func haveAVX512() bool { return cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL }

// ranksAVX512 writes to dst[i] the number, by the tables of a key.Dense
// (cum, lowRank, low), of the least of img XOR images8[jumps[i]] for i
// below n, or with cum nil that least itself: Parent.Ranks and Children
// with the eight images XORed and their least found in two 256-bit
// registers.
//
//go:noescape
func ranksAVX512(img *[8]uint64, images8 *[8]uint64, jumps *int16, n int, cum *uint32, lowRank *uint16, low uint64, dst *uint64)

// haveMovesAVX512 reports whether the processor runs movesRanksAVX512
// (VPCOMPRESSB is AVX-512 VBMI2; PDEP, SHRX and SHLX are BMI2).
func haveMovesAVX512() bool {
	return haveAVX512() && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT
}

// movesRanksAVX512 writes to dst the numbers of the canonical children of
// the position whose images img holds by the legal jumps of mover, found
// by k, and returns how many; with cum nil, the children themselves. See
// Parent.MoveRanks and MoveChildren.
//
//go:noescape
func movesRanksAVX512(k *kernel, mover uint64, img *[8]uint64, cum *uint32, lowRank *uint16, low uint64, scratch *[kernelScratch]byte, dst *uint64) int

// haveImagesBITALG reports whether the processor runs imagesBITALG.
func haveImagesBITALG() bool {
	return cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512BITALG
}

// imagesBITALG writes p's eight images by the bit permutations idx to dst;
// see newImageIndex.
//
//go:noescape
func imagesBITALG(idx *[8][64]byte, p uint64, dst *[8]uint64)

// movesRanksBatchAVX512 is movesRanksAVX512 for n parents ps at once (n
// at least one), their images found as imagesBITALG finds them by idx:
// it writes their images to imgs, how many of each parent's eight are
// itself to fixed, where each parent's children end in dst to ends, and returns how many children there are; jids and pids are
// its room for the jumps and their parents (see Parent.MoveRanksBatch).
//
//go:noescape
func movesRanksBatchAVX512(k *kernel, idx *[8][64]byte, ps *uint64, movers *uint64, n int, imgs *[8]uint64, cum *uint32, lowRank *uint16, low uint64, jids *byte, pids *byte, ends *int32, dst *uint64, fixed *byte) int
