//go:build !purego

#include "textflag.h"

// func prefetchBits(set *uint64, before *uint32, ranks []uint64)
TEXT ·prefetchBits(SB), NOSPLIT, $0-40
	MOVQ set+0(FP), AX
	MOVQ before+8(FP), BX
	MOVQ ranks_base+16(FP), SI
	MOVQ ranks_len+24(FP), CX
	TESTQ CX, CX
	JZ done
loop:
	MOVQ (SI), DX
	SHRQ $6, DX
	PREFETCHT0 (AX)(DX*8)
	TESTQ BX, BX // no before: set's words alone
	JZ next
	PREFETCHT0 (BX)(DX*4)
next:
	ADDQ $8, SI
	DECQ CX
	JNZ loop
done:
	RET

// NUMBER loads the number at (SI) into R8, its word's index in a bitset
// (the number / 64) into R9 and the bitset's word at AX into R10.
#define NUMBER \
	MOVQ (SI), R8 \
	MOVQ R8, R9 \
	SHRQ $6, R9 \
	MOVQ (AX)(R9*8), R10

// func placesBMI2(set *uint64, before *uint32, ranks []uint64, vals unsafe.Pointer, shift uint64) (hits int)
//
// placesIn's loop: for each number r, its place before[r/64] +
// POPCNT(BZHI(set[r/64], r%64)) written over it, the value at vals of
// that place asked for (PREFETCHT0 of vals + place<<shift), and where BT
// finds its bit unset, bit 63 set (absent); it returns the bits set.
TEXT ·placesBMI2(SB), NOSPLIT, $0-64
	MOVQ set+0(FP), AX
	MOVQ before+8(FP), BX
	MOVQ ranks_base+16(FP), SI
	MOVQ ranks_len+24(FP), R15
	MOVQ vals+40(FP), DI
	MOVQ shift+48(FP), CX
	XORQ DX, DX
	TESTQ R15, R15
	JZ done
loop:
	NUMBER
	MOVL (BX)(R9*4), R11
	ANDL $63, R8
	BZHIQ R8, R10, R12
	POPCNTQ R12, R12
	ADDQ R11, R12
	SHLXQ CX, R12, R13
	PREFETCHT0 (DI)(R13*1)
	BTQ R8, R10
	SBBQ R14, R14 // -1 where set, 0 where not
	SUBQ R14, DX
	INCQ R14
	SHLQ $63, R14
	ORQ R14, R12
	MOVQ R12, (SI)
	ADDQ $8, SI
	DECQ R15
	JNZ loop
done:
	MOVQ DX, hits+56(FP)
	RET

// func setBitsAsm(set *uint64, ranks []uint64)
//
// setBits's loop: first every word asked for (PREFETCHT0), then each bit
// set by BTS in a register, the word loaded and stored.
TEXT ·setBitsAsm(SB), NOSPLIT, $0-32
	MOVQ set+0(FP), AX
	MOVQ ranks_base+8(FP), SI
	MOVQ ranks_len+16(FP), CX
	TESTQ CX, CX
	JZ done
	MOVQ SI, DI
	MOVQ CX, DX
ask:
	MOVQ (DI), R8
	SHRQ $6, R8
	PREFETCHT0 (AX)(R8*8)
	ADDQ $8, DI
	DECQ DX
	JNZ ask
loop:
	NUMBER
	BTSQ R8, R10
	MOVQ R10, (AX)(R9*8)
	ADDQ $8, SI
	DECQ CX
	JNZ loop
done:
	RET
