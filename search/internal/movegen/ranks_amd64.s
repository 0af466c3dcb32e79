#include "textflag.h"

// func ranksAVX512(img *[8]uint64, images8 *[8]uint64, jumps *int16, n int, cum *uint32, lowRank *uint16, low uint64, dst *uint64)
//
// For each jump k: Z1 = the parent's images XOR jump k's (one load), the
// least of its eight lanes found by halving three times (swap the 256-bit
// halves, then the 128-bit quarters, then the words, each time keeping the
// lesser), then ranked as key.Dense.Rank does: cum[c>>low] +
// lowRank[c&(1<<low-1)].
TEXT ·ranksAVX512(SB), NOSPLIT, $0-64
	MOVQ img+0(FP), AX
	MOVQ images8+8(FP), BX
	MOVQ jumps+16(FP), SI
	MOVQ n+24(FP), DX
	MOVQ cum+32(FP), R12
	MOVQ lowRank+40(FP), R13
	MOVQ low+48(FP), CX
	MOVQ dst+56(FP), DI
	MOVQ $1, R14
	SHLQ CX, R14
	DECQ R14 // the low part's mask
	VMOVDQU64 (AX), Z0
	TESTQ DX, DX
	JEQ done
loop:
	MOVWQSX (SI), R8
	SHLQ $6, R8
	VPXORQ (BX)(R8*1), Z0, Z1
	VSHUFI64X2 $0x4e, Z1, Z1, Z2
	VPMINUQ Z2, Z1, Z1
	VSHUFI64X2 $0xb1, Z1, Z1, Z2
	VPMINUQ Z2, Z1, Z1
	VPSHUFD $0x4e, Z1, Z2
	VPMINUQ Z2, Z1, Z1
	VMOVQ X1, R8
	MOVQ R8, R9
	SHRQ CX, R9
	MOVLQZX (R12)(R9*4), R10
	ANDQ R14, R8
	MOVWQZX (R13)(R8*2), R11
	ADDQ R11, R10
	MOVQ R10, (DI)
	ADDQ $2, SI
	ADDQ $8, DI
	DECQ DX
	JNE loop
done:
	VZEROUPPER
	RET

// func canonAVX512(img *[8]uint64, images8 *[8]uint64, jumps *int16, n int, dst *uint64)
//
// ranksAVX512 without the ranking: the canonical children themselves.
TEXT ·canonAVX512(SB), NOSPLIT, $0-40
	MOVQ img+0(FP), AX
	MOVQ images8+8(FP), BX
	MOVQ jumps+16(FP), SI
	MOVQ n+24(FP), DX
	MOVQ dst+32(FP), DI
	VMOVDQU64 (AX), Z0
	TESTQ DX, DX
	JEQ done
loop:
	MOVWQSX (SI), R8
	SHLQ $6, R8
	VPXORQ (BX)(R8*1), Z0, Z1
	VSHUFI64X2 $0x4e, Z1, Z1, Z2
	VPMINUQ Z2, Z1, Z1
	VSHUFI64X2 $0xb1, Z1, Z1, Z2
	VPMINUQ Z2, Z1, Z1
	VPSHUFD $0x4e, Z1, Z2
	VPMINUQ Z2, Z1, Z1
	VMOVQ X1, (DI)
	ADDQ $2, SI
	ADDQ $8, DI
	DECQ DX
	JNE loop
done:
	VZEROUPPER
	RET

// func movesRanksAVX512(k *kernel, mover uint64, img *[8]uint64, cum *uint32, lowRank *uint16, low uint64, scratch *[kernelScratch]byte, dst *uint64) int
//
// ranksAVX512 for the children by every legal jump of mover: mover in
// lattice order is PDEP(mover, latFull) (holes are numbered row by row,
// lattice bits too), each shift group's legal from holes are found as
// ShiftGroup.Legal does, and their jumps' indices (one byte each) are
// written to scratch in order by VPCOMPRESSB under them, with no branch
// on which are legal; then each is made a child and numbered. It returns
// how many.
TEXT ·movesRanksAVX512(SB), NOSPLIT, $0-72
	MOVQ k+0(FP), AX
	MOVQ mover+8(FP), R8
	MOVQ scratch+48(FP), DI
	MOVQ 0(AX), R9          // latFull
	PDEPQ R9, R8, R10       // q = PDEP(mover, latFull)
	ANDNQ R9, R10, R11      // empty = latFull &^ q
	MOVQ 8(AX), R12         // groups
	LEAQ 48(AX), SI         // the first group
	MOVQ DI, R15            // where the next index goes
	TESTQ R12, R12
	JEQ ranks
groups:
	MOVQ 8(SI), CX
	SHRXQ CX, R10, R13      // q >> shr1
	MOVQ 16(SI), CX
	SHLXQ CX, R13, R13      // << shl1
	MOVQ 24(SI), CX
	SHRXQ CX, R11, R14      // empty >> shr2
	MOVQ 32(SI), CX
	SHLXQ CX, R14, R14      // << shl2
	ANDQ R10, R13
	ANDQ R14, R13
	ANDQ 0(SI), R13         // & From: the legal from holes
	KMOVQ R13, K1
	VMOVDQU8 40(SI), Z3
	VPCOMPRESSB Z3, K1, (R15)
	POPCNTQ R13, R13
	ADDQ R13, R15
	ADDQ $104, SI
	DECQ R12
	JNE groups
ranks:
	SUBQ DI, R15            // the jumps found
	MOVQ R15, ret+64(FP)
	JEQ done
	MOVQ 16(AX), BX         // images8
	MOVQ img+16(FP), R8
	VMOVDQU64 (R8), Z0
	MOVQ cum+24(FP), R12
	MOVQ lowRank+32(FP), R13
	MOVQ low+40(FP), CX
	MOVQ dst+56(FP), SI
	MOVQ $1, R14
	SHLQ CX, R14
	DECQ R14
	MOVQ R15, DX
loop:
	MOVBQZX (DI), R8
	SHLQ $6, R8
	VPXORQ (BX)(R8*1), Z0, Z1
	VSHUFI64X2 $0x4e, Z1, Z1, Z2
	VPMINUQ Z2, Z1, Z1
	VSHUFI64X2 $0xb1, Z1, Z1, Z2
	VPMINUQ Z2, Z1, Z1
	VPSHUFD $0x4e, Z1, Z2
	VPMINUQ Z2, Z1, Z1
	VMOVQ X1, R8
	MOVQ R8, R9
	SHRQ CX, R9
	MOVLQZX (R12)(R9*4), R10
	ANDQ R14, R8
	MOVWQZX (R13)(R8*2), R11
	ADDQ R11, R10
	MOVQ R10, (SI)
	INCQ DI
	ADDQ $8, SI
	DECQ DX
	JNE loop
done:
	VZEROUPPER
	RET
