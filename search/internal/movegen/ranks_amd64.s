//go:build !purego

#include "textflag.h"

// LEAST leaves in X1's low word the least of a parent's eight images (the
// first four in Y0, the rest in Y5) XOR the eight images of jump R8's
// holes at (BX)(R8*64): the child's canonical form, found by halving
// three times (the halves' least, then the 128-bit quarters', then the
// words'). It works in 256-bit registers: in one 512-bit register all
// three shuffles are 512-bit ones, which Intel's cores run on one port
// only, the port of the jumps' compression (MOVES) too; here one is a
// 256-bit VEXTRACTI128 and one an in-lane VPSHUFD on 128 bits
// (BenchmarkRanks code=avx512: 3.9 ns a child so, 3.0 here). It uses Y1
// and Y2.
#define LEAST \
	SHLQ $6, R8 \
	VPXOR (BX)(R8*1), Y0, Y1 \
	VPXOR 32(BX)(R8*1), Y5, Y2 \
	VPMINUQ Y2, Y1, Y1 \
	VEXTRACTI128 $1, Y1, X2 \
	VPMINUQ X2, X1, X1 \
	VPSHUFD $0x4e, X1, X2 \
	VPMINUQ X2, X1, X1

// RANK leaves in R10 the number of the position in R8 as key.Dense.Rank
// finds it: cum[R8>>low] + lowRank[R8&(1<<low-1)], with cum at R12,
// lowRank at R13, low in CX and the low part's mask in R14. It uses R9
// and R11.
#define RANK \
	MOVQ R8, R9 \
	SHRQ CX, R9 \
	MOVLQZX (R12)(R9*4), R10 \
	ANDQ R14, R8 \
	MOVWQZX (R13)(R8*2), R11 \
	ADDQ R11, R10

// LOWMASK leaves in R14 the mask of the low part of RANK, of CX bits.
#define LOWMASK \
	MOVQ $1, R14 \
	SHLQ CX, R14 \
	DECQ R14

// CHILD writes to (dst) the canonical child by jump R8 (LEAST), numbered
// (RANK) unless cum (R12) is nil. It uses R8-R11.
#define CHILD(dst) \
	LEAST \
	VMOVQ X1, R8 \
	TESTQ R12, R12 \
	JEQ store \
	RANK \
	MOVQ R10, R8 \
store: \
	MOVQ R8, (dst)

// func ranksAVX512(img *[8]uint64, images8 *[8]uint64, jumps *int16, n int, cum *uint32, lowRank *uint16, low uint64, dst *uint64)
//
// For each jump: its child's canonical form (LEAST), numbered (RANK); with
// cum nil, not numbered.
TEXT ·ranksAVX512(SB), NOSPLIT, $0-64
	MOVQ img+0(FP), AX
	MOVQ images8+8(FP), BX
	MOVQ jumps+16(FP), SI
	MOVQ n+24(FP), DX
	MOVQ cum+32(FP), R12
	MOVQ lowRank+40(FP), R13
	MOVQ low+48(FP), CX
	MOVQ dst+56(FP), DI
	LOWMASK
	VMOVDQU (AX), Y0
	VMOVDQU 32(AX), Y5
	TESTQ DX, DX
	JEQ done
loop:
	MOVWQSX (SI), R8
	CHILD(DI)
	ADDQ $2, SI
	ADDQ $8, DI
	DECQ DX
	JNE loop
done:
	VZEROUPPER
	RET

// IMAGE writes image s of the position in Z0 to dst[s] (DI), by the bit
// indices idx[s] (AX).
#define IMAGE(s) \
	VPSHUFBITQMB (s*64)(AX), Z0, K1 \
	KMOVQ K1, (s*8)(DI)

// IMAGES writes the eight images of the position in Z0 to (DI).
#define IMAGES \
	IMAGE(0) \
	IMAGE(1) \
	IMAGE(2) \
	IMAGE(3) \
	IMAGE(4) \
	IMAGE(5) \
	IMAGE(6) \
	IMAGE(7)

// MOVESAT writes at R15 the indices of the jumps legal in the position in
// R8, a byte each, for the kernel at AX, and leaves R15 past them: the
// position in lattice order is PDEP(R8, latFull) (holes are numbered row
// by row, lattice bits too), each shift group's legal from holes are
// found as ShiftGroup.Legal finds them, and the indices of their jumps are
// written out by VPCOMPRESSB under them, with no branch on which are
// legal: compressed into Z4 and stored whole (compressed straight to
// memory, the store took 9-10 % of the English full analysis), the
// next group's overwriting what follows the legal ones. It uses R9-R14,
// CX, SI, K1, Z3 and Z4.
#define MOVESAT \
	MOVQ 0(AX), R9 \
	PDEPQ R9, R8, R10 \
	ANDNQ R9, R10, R11 \
	MOVQ 8(AX), R12 \
	LEAQ 48(AX), SI \
	TESTQ R12, R12 \
	JEQ found \
groups: \
	MOVQ 8(SI), CX \
	SHRXQ CX, R10, R13 \
	MOVQ 16(SI), CX \
	SHLXQ CX, R13, R13 \
	MOVQ 24(SI), CX \
	SHRXQ CX, R11, R14 \
	MOVQ 32(SI), CX \
	SHLXQ CX, R14, R14 \
	ANDQ R10, R13 \
	ANDQ R14, R13 \
	ANDQ 0(SI), R13 \
	KMOVQ R13, K1 \
	VMOVDQU8 40(SI), Z3 \
	VPCOMPRESSB.Z Z3, K1, Z4 \
	VMOVDQU8 Z4, (R15) \
	POPCNTQ R13, R13 \
	ADDQ R13, R15 \
	ADDQ $104, SI \
	DECQ R12 \
	JNE groups \
found:

// MOVES is MOVESAT writing at (DI), leaving the number of jumps in R15.
#define MOVES \
	MOVQ DI, R15 \
	MOVESAT \
	SUBQ DI, R15

// func movesRanksAVX512(k *kernel, mover uint64, img *[8]uint64, cum *uint32, lowRank *uint16, low uint64, scratch *[kernelScratch]byte, dst *uint64) int
//
// ranksAVX512 for the children by every legal jump of mover, found by
// MOVES into scratch; it returns how many. With cum nil it writes the
// canonical children themselves, not numbered.
TEXT ·movesRanksAVX512(SB), NOSPLIT, $0-72
	MOVQ k+0(FP), AX
	MOVQ mover+8(FP), R8
	MOVQ scratch+48(FP), DI
	MOVES
	MOVQ R15, ret+64(FP)
	JEQ done
	MOVQ 16(AX), BX         // images8
	MOVQ img+16(FP), R8
	VMOVDQU (R8), Y0
	VMOVDQU 32(R8), Y5
	MOVQ cum+24(FP), R12
	MOVQ lowRank+32(FP), R13
	MOVQ low+40(FP), CX
	MOVQ dst+56(FP), SI
	LOWMASK
	MOVQ R15, DX
loop:
	MOVBQZX (DI), R8
	CHILD(SI)
	INCQ DI
	ADDQ $8, SI
	DECQ DX
	JNE loop
done:
	VZEROUPPER
	RET

// IMAGESOF loads into z the eight images of child i of the batch (its
// parent's, at (AX) by its byte at i(R15), XOR its jump's, at (BX) by its
// byte at i(DI)). It uses R8 and R9.
#define IMAGESOF(i, z) \
	MOVBQZX i(R15), R9 \
	SHLQ $6, R9 \
	MOVBQZX i(DI), R8 \
	SHLQ $6, R8 \
	VMOVDQU64 (AX)(R9*1), z \
	VPXORQ (BX)(R8*1), z, z

// HALVE leaves in x, of two children's eight images each (x's and y's),
// the least of each's halves, four each: x's in x's low 256 bits, y's in
// its high ones, by one lane shuffle and one blend (mask K4, 0xf0). It
// uses Z19 and Z20.
#define HALVE(x, y) \
	VSHUFI64X2 $0x4e, y, x, Z19 \
	VPBLENDMQ y, x, K4, Z20 \
	VPMINUQ Z19, Z20, x

// QUARTER leaves in x, of four children's four least each (two in x, two
// in y, as HALVE leaves them), the least of each's 128-bit halves, two
// each: x's two children's, then y's. It uses Z19 and Z20.
#define QUARTER(x, y) \
	VSHUFI64X2 $0x88, y, x, Z19 \
	VSHUFI64X2 $0xdd, y, x, Z20 \
	VPMINUQ Z19, Z20, x

// EIGHT leaves in Z0 the canonical forms of the next eight children of
// the batch, the least of each's eight images found together, not one
// child at a time: three halvings of eight registers into one (HALVE,
// QUARTER, then the two 64-bit words of each 128-bit lane), 21
// instructions for eight children where LEAST takes 6 a child. The
// children are loaded so that the last step's interleaving of two
// registers puts them in order: Z0-Z3 the even ones, Z4-Z7 the odd. It
// uses Z0-Z7, Z19, Z20, R8 and R9.
#define EIGHT \
	IMAGESOF(0, Z0) \
	IMAGESOF(1, Z4) \
	IMAGESOF(2, Z1) \
	IMAGESOF(3, Z5) \
	IMAGESOF(4, Z2) \
	IMAGESOF(5, Z6) \
	IMAGESOF(6, Z3) \
	IMAGESOF(7, Z7) \
	HALVE(Z0, Z1) \
	HALVE(Z2, Z3) \
	HALVE(Z4, Z5) \
	HALVE(Z6, Z7) \
	QUARTER(Z0, Z2) \
	QUARTER(Z4, Z6) \
	VPUNPCKLQDQ Z4, Z0, Z19 \
	VPUNPCKHQDQ Z4, Z0, Z20 \
	VPMINUQ Z19, Z20, Z0

// func movesRanksBatchAVX512(k *kernel, idx *[8][64]byte, ps *uint64, movers *uint64, n int, imgs *[8]uint64, cum *uint32, lowRank *uint16, low uint64, jids *byte, pids *byte, ends *int32, dst *uint64, fixed *byte) int
//
// movesRanksAVX512 for n parents at once, so that the children of all of
// them are made in one loop, not a loop a parent whose end (a different
// number of children each time) the processor mispredicts, and whose
// parent's jumps and images wait for it: first each parent's eight images
// (as imagesBITALG) into imgs, and how many are the parent itself into
// fixed; then each mover's legal jumps (MOVESAT)
// into jids, the parent's index under each in pids (a vector of it
// stored, at most 128 jumps a parent) and where its jumps end in ends;
// then the children eight at a time (EIGHT), from their parents' images
// in imgs, numbered by two gathers (cum and lowRank) unless cum is nil,
// the last eight stored under a mask (nothing is written past the
// children; the jumps and parents read past them are stale but in
// range). It returns how many children there are.
TEXT ·movesRanksBatchAVX512(SB), NOSPLIT, $8-120
	// The images.
	MOVQ idx+8(FP), AX
	MOVQ ps+16(FP), SI
	MOVQ n+32(FP), CX
	MOVQ imgs+40(FP), DI
images:
	VPBROADCASTQ (SI), Z0
	IMAGES
	ADDQ $8, SI
	ADDQ $64, DI
	DECQ CX
	JNE images
	// How many of each parent's images are itself, into fixed (its orbit
	// is its symmetries over those, the images past the group's, the
	// identity, less), read once all are written.
	MOVQ ps+16(FP), SI
	MOVQ n+32(FP), CX
	MOVQ imgs+40(FP), DI
	MOVQ fixed+104(FP), R8
fixed:
	VPBROADCASTQ (SI), Z0
	VPCMPEQQ (DI), Z0, K2
	KMOVW K2, R9
	POPCNTL R9, R9
	MOVB R9, (R8)
	ADDQ $8, SI
	ADDQ $64, DI
	INCQ R8
	DECQ CX
	JNE fixed
	// The jumps.
	MOVQ k+0(FP), AX
	MOVQ movers+24(FP), BX
	MOVQ jids+72(FP), DI
	MOVQ DI, R15
	XORQ DX, DX
moves:
	MOVQ (BX)(DX*8), R8
	MOVQ R15, 0(SP) // where this parent's jumps start
	MOVESAT
	MOVQ 0(SP), R9
	SUBQ DI, R9
	MOVQ pids+80(FP), R10
	VPBROADCASTB DX, Z5
	VMOVDQU8 Z5, (R10)(R9*1)
	VMOVDQU8 Z5, 64(R10)(R9*1)
	MOVQ R15, R9
	SUBQ DI, R9
	MOVQ ends+88(FP), R10
	MOVL R9, (R10)(DX*4)
	INCQ DX
	CMPQ DX, n+32(FP)
	JNE moves
	// The children, eight at a time (EIGHT); past the last, a mask.
	MOVQ R15, DX
	SUBQ DI, DX
	MOVQ DX, ret+112(FP)
	JEQ done
	MOVQ 16(AX), BX // images8
	MOVQ imgs+40(FP), AX
	MOVQ pids+80(FP), R15
	MOVQ cum+48(FP), R12
	MOVQ lowRank+56(FP), R13
	MOVQ low+64(FP), CX
	MOVQ dst+96(FP), SI
	LOWMASK
	VPBROADCASTQ R14, Z9 // the low part's mask
	VMOVQ CX, X8         // the high part's shift
	MOVL $0xffff, R8
	VPBROADCASTD R8, Y10 // a lowRank entry's bits
	MOVL $0xf0, R8
	KMOVW R8, K4         // HALVE's blend
children:
	MOVL $0xff, R8
	CMPQ DX, $8
	JAE eight
	MOVL $1, R8
	SHLXQ DX, R8, R8
	DECQ R8
eight:
	KMOVW R8, K3
	EIGHT
	TESTQ R12, R12
	JEQ store
	// The numbers: cum[c>>low] + lowRank[c&mask], gathered.
	VPSRLQ X8, Z0, Z16
	VPANDQ Z9, Z0, Z17
	KMOVW K3, K1
	KMOVW K3, K2
	VPXORD Y11, Y11, Y11
	VPXORD Y12, Y12, Y12
	VPGATHERQD (R12)(Z16*4), K1, Y11
	VPGATHERQD (R13)(Z17*2), K2, Y12
	VPANDD Y10, Y12, Y12
	VPADDD Y12, Y11, Y11
	VPMOVZXDQ Y11, Z0
store:
	VMOVDQU64 Z0, K3, (SI)
	ADDQ $8, DI
	ADDQ $8, R15
	ADDQ $64, SI
	SUBQ $8, DX
	JGT children
done:
	VZEROUPPER
	RET

// func imagesBITALG(idx *[8][64]byte, p uint64, dst *[8]uint64)
//
// The eight images of p, each by one VPSHUFBITQMB (AVX-512 BITALG): bit j
// of image s is bit idx[s][j] of p (p in every word of Z0).
TEXT ·imagesBITALG(SB), NOSPLIT, $0-24
	MOVQ idx+0(FP), AX
	VPBROADCASTQ p+8(FP), Z0
	MOVQ dst+16(FP), DI
	IMAGES
	VZEROUPPER
	RET
