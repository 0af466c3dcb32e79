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
	PREFETCHT0 (BX)(DX*4)
	ADDQ $8, SI
	DECQ CX
	JNZ loop
done:
	RET

// func prefetchAt(base unsafe.Pointer, idx []uint64, shift uint64)
TEXT ·prefetchAt(SB), NOSPLIT, $0-40
	MOVQ base+0(FP), AX
	MOVQ idx_base+8(FP), SI
	MOVQ idx_len+16(FP), BX
	MOVQ shift+32(FP), CX
	TESTQ BX, BX
	JZ done
loop:
	MOVQ (SI), DX
	SHLQ CX, DX
	PREFETCHT0 (AX)(DX*1)
	ADDQ $8, SI
	DECQ BX
	JNZ loop
done:
	RET
