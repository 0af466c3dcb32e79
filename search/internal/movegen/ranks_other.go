//go:build !amd64 || purego

package movegen

// The assembly of ranks_amd64.s runs on amd64 only, and not under the
// purego build tag: elsewhere the Go code does its work, and these are
// never called.

func haveAVX512() bool { return false }

func ranksAVX512(img *[8]uint64, images8 *[8]uint64, jumps *int16, n int, cum *uint32, lowRank *uint16, low uint64, dst *uint64) {
	panic("movegen: no AVX-512 here")
}

func haveMovesAVX512() bool { return false }

func movesRanksAVX512(k *kernel, mover uint64, img *[8]uint64, cum *uint32, lowRank *uint16, low uint64, scratch *[kernelScratch]byte, dst *uint64) int {
	panic("movegen: no AVX-512 here")
}

func haveImagesBITALG() bool { return false }

func imagesBITALG(idx *[8][64]byte, p uint64, dst *[8]uint64) {
	panic("movegen: no AVX-512 here")
}

func movesRanksBatchAVX512(k *kernel, idx *[8][64]byte, ps *uint64, movers *uint64, n int, imgs *[8]uint64, cum *uint32, lowRank *uint16, low uint64, jids *byte, pids *byte, ends *int32, dst *uint64, fixed *byte) int {
	panic("movegen: no AVX-512 here")
}
