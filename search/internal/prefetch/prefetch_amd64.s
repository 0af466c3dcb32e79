//go:build !purego

#include "textflag.h"

// func at(base unsafe.Pointer, idx []uint64, shift uint64)
TEXT ·at(SB), NOSPLIT, $0-40
	MOVQ base+0(FP), AX
	MOVQ idx_base+8(FP), SI
	MOVQ idx_len+16(FP), BX
	MOVQ shift+32(FP), CX
loop:
	MOVQ (SI), DX
	SHLQ CX, DX
	PREFETCHT0 (AX)(DX*1)
	ADDQ $8, SI
	DECQ BX
	JNZ loop
	RET

// func words(base unsafe.Pointer, idx []uint64, shift uint64)
TEXT ·words(SB), NOSPLIT, $0-40
	MOVQ base+0(FP), AX
	MOVQ idx_base+8(FP), SI
	MOVQ idx_len+16(FP), BX
	MOVQ shift+32(FP), CX
loop:
	MOVQ (SI), DX
	SHRQ $6, DX
	SHLQ CX, DX
	PREFETCHT0 (AX)(DX*1)
	ADDQ $8, SI
	DECQ BX
	JNZ loop
	RET
