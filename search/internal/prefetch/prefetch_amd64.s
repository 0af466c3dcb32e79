//go:build !purego

#include "textflag.h"

// func lines(base unsafe.Pointer, idx []uint64, down, up uint64)
//
// A PREFETCHT0 of base + idx[k]>>down<<up for each k, idx not empty.
TEXT ·lines(SB), NOSPLIT, $0-48
	MOVQ base+0(FP), AX
	MOVQ idx_base+8(FP), SI
	MOVQ idx_len+16(FP), BX
	MOVQ down+32(FP), R8
	MOVQ up+40(FP), R9
loop:
	MOVQ (SI), DX
	MOVQ R8, CX
	SHRQ CX, DX
	MOVQ R9, CX
	SHLQ CX, DX
	PREFETCHT0 (AX)(DX*1)
	ADDQ $8, SI
	DECQ BX
	JNZ loop
	RET
