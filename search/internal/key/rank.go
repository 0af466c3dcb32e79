package key

import (
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"slices"

	"pegs/engine"
)

// Rank returns the colex rank of p among positions with as many pegs: the
// sum of C(h, i+1) over its pegs h in increasing order.
func Rank(p engine.Position) uint64 {
	var r uint64
	for i := 1; p != 0; i++ {
		h := bits.TrailingZeros64(uint64(p))
		p &= p - 1
		r += binom[h][i]
	}
	return r
}

// Unrank returns the position of k pegs whose rank is r.
func Unrank(r uint64, k int) engine.Position {
	var p engine.Position
	h := 64
	for i := k; i >= 1; i-- {
		for h--; binom[h][i] > r; h-- {
		}
		p |= 1 << uint(h)
		r -= binom[h][i]
	}
	return p
}

// Ranks returns how many positions of k pegs a board of n holes has: the
// ranks of their positions are below it.
func Ranks(n, k int) uint64 { return binom[n][k] }

// binom holds the binomial coefficients C(n, k) for n, k up to 64.
var binom [65][65]uint64

// init fills binom in place: a func returning the 33 KiB table grew the
// start goroutine's stack to hold it. Every command starts with it:
// GODEBUG=inittrace=1, least of 10 runs, 0.29 ms before, 0.10 ms now.
func init() {
	for n := range 65 {
		binom[n][0] = 1
		for k := 1; k <= n; k++ {
			binom[n][k] = binom[n-1][k-1] + binom[n-1][k]
		}
	}
}

// RankList is a sorted list of distinct ranks (or any words) coded as the
// uvarints of their gaps (the first from 0), about one byte and a half a
// rank in the fewest tables; every 64th rank and its offset index the
// rest.
type RankList struct {
	n     int
	data  []byte
	first []uint64 // ranks 0, 64, 128, ...
	off   []int    // where they begin in data
	dir   Dir      // first's
}

// rankBlock is how many ranks one index entry covers.
const rankBlock = 64

// NewRankList codes ranks (sorted, distinct). It sizes the code first, so
// that coding a layer of a billion positions takes no more than the code
// (appending took up to a quarter more, uncharged, and a copy as it grew).
func NewRankList(ranks []uint64) *RankList {
	size, prev := 0, uint64(0)
	for _, r := range ranks {
		size += max(1, (bits.Len64(r-prev)+6)/7) // uvarint bytes
		prev = r
	}
	blocks := (len(ranks) + rankBlock - 1) / rankBlock
	l := &RankList{n: len(ranks), data: make([]byte, 0, size), first: make([]uint64, 0, blocks), off: make([]int, 0, blocks)}
	prev = 0
	for i, r := range ranks {
		if i%rankBlock == 0 {
			l.first = append(l.first, r)
			l.off = append(l.off, len(l.data))
		}
		l.data = binary.AppendUvarint(l.data, r-prev)
		prev = r
	}
	l.dir = NewDir(l.first)
	return l
}

// ErrRanks reports coded ranks that do not decode.
var ErrRanks = errors.New("ranks out of order or range")

// DecodeRankList checks data, the code (see Code) of n ranks each below
// limit, and indexes it.
func DecodeRankList(n int, limit uint64, data []byte) (*RankList, error) {
	l := &RankList{n: n, data: data}
	prev, at := uint64(0), 0
	for i := range n {
		gap, k := binary.Uvarint(data[at:])
		r := prev + gap
		if k <= 0 || r < prev || i > 0 && gap == 0 || r >= limit {
			return nil, ErrRanks
		}
		if i%rankBlock == 0 {
			l.first = append(l.first, r)
			l.off = append(l.off, at)
		}
		prev, at = r, at+k
	}
	if at != len(data) {
		return nil, ErrRanks
	}
	l.dir = NewDir(l.first)
	return l, nil
}

// Len returns the number of ranks in l.
func (l *RankList) Len() int { return l.n }

// Code returns l's code: the uvarints of the gaps. The caller must not
// modify it.
func (l *RankList) Code() []byte { return l.data }

// Bytes returns the memory l takes.
func (l *RankList) Bytes() int64 {
	return int64(len(l.data)) + int64(len(l.first))*16 + l.dir.Bytes()
}

// Has reports whether rank want is in the list.
func (l *RankList) Has(want uint64) bool {
	lo, hi := l.dir.Range(want+1, len(l.first))
	b, _ := slices.BinarySearch(l.first[lo:hi], want+1)
	b += lo // blocks that begin at or before want
	if b == 0 {
		return false
	}
	b--
	r, at := l.first[b], l.off[b]
	_, k := binary.Uvarint(l.data[at:]) // the first's gap is from the block before
	at += k
	for i := b*rankBlock + 1; r < want && i < min(l.n, (b+1)*rankBlock); i++ {
		gap, k := binary.Uvarint(l.data[at:])
		r, at = r+gap, at+k
	}
	return r == want
}

// Decode writes every rank of l into dst, which must have room for Len.
func (l *RankList) Decode(dst []uint64) {
	v, at := uint64(0), 0
	for i := range dst[:l.n] {
		gap, k := binary.Uvarint(l.data[at:])
		v, at = v+gap, at+k
		dst[i] = v
	}
}

// AppendRange appends ranks i..end-1 of l to dst, decoding from the block
// that holds i.
func AppendRange[T ~uint64](l *RankList, dst []T, i, end int) []T {
	b := i / rankBlock
	v, at := l.first[b], l.off[b]
	_, k := binary.Uvarint(l.data[at:]) // the block's first gap is from the block before
	at += k
	for j := b * rankBlock; j < end; j++ {
		if j > b*rankBlock {
			gap, k := binary.Uvarint(l.data[at:])
			v, at = v+gap, at+k
		}
		if j >= i {
			dst = append(dst, T(v))
		}
	}
	return dst
}

// Dir narrows the search of a sorted list of distinct words to a short
// stretch of it: at[b] is the index of the first word whose top bits
// (w >> shift) are b or more, about one entry for every four words. A
// binary search of a layer of millions of ranks misses the cache at most
// of its twenty steps; through a Dir, at two or three.
type Dir struct {
	shift uint
	at    []uint32
}

// NewDir returns the directory of ws, sorted and distinct: none (a search
// of the whole list) for fewer than 64 words or more than fit in 32 bits.
func NewDir(ws []uint64) Dir {
	n := len(ws)
	if n < 64 || n > math.MaxUint32 {
		return Dir{}
	}
	last := ws[n-1]
	shift := uint(max(0, bits.Len64(last)-bits.Len(uint(n/4))))
	at := make([]uint32, last>>shift+2)
	i := 0
	for b := range at {
		for i < n && ws[i]>>shift < uint64(b) {
			i++
		}
		at[b] = uint32(i)
	}
	return Dir{shift: shift, at: at}
}

// Range returns the stretch ws[lo:hi] of the n words d directs that holds
// w if they do.
func (d Dir) Range(w uint64, n int) (lo, hi int) {
	if d.at == nil {
		return 0, n
	}
	b := w >> d.shift
	if b+1 >= uint64(len(d.at)) {
		return n, n
	}
	return int(d.at[b]), int(d.at[b+1])
}

// Bytes returns the memory d takes.
func (d Dir) Bytes() int64 { return int64(len(d.at)) * 4 }

// Has reports whether ws, which d directs, holds w.
func (d Dir) Has(ws []uint64, w uint64) bool {
	lo, hi := d.Range(w, len(ws))
	_, found := slices.BinarySearch(ws[lo:hi], w)
	return found
}
