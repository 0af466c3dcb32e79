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
