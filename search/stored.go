package search

import (
	"encoding/binary"
	"sort"

	"pegs/engine"

	"golang.org/x/sync/errgroup"
)

// storedKeys is a layer's keys held compactly while the layer waits for the
// walk back: the positions packed within the board's n bits (packingFor),
// sorted, and coded as gaps in parts that code and decode in parallel. At
// the densities of a large layer the gaps take about two bytes a position
// where a key takes eight: the French board's 1.5 billion positions from d3
// fit in 3.4 GB instead of 12.
type storedKeys struct {
	n     int
	pk    packing
	parts []*rankList // consecutive runs of the sorted packed words, shifted down
	at    []int       // where each part begins among the n
}

// storeKeys codes keys (sorted mixed keys of a board of holes holes), which
// it overwrites.
func storeKeys(keys []uint64, holes, workers int) *storedKeys {
	pk, _ := packingFor(holes, 0)
	inChunks(len(keys), workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			keys[i] = pk.key(unmix(keys[i]))
		}
	})
	sortKeys(keys, workers)
	s := &storedKeys{n: len(keys), pk: pk}
	nparts := chunksOf(len(keys), workers)
	s.parts = make([]*rankList, nparts)
	for c := range nparts {
		s.at = append(s.at, c*len(keys)/nparts)
	}
	var g errgroup.Group
	g.SetLimit(poolSize(workers))
	for c := range nparts {
		g.Go(func() error {
			lo, hi := s.at[c], len(keys)
			if c+1 < nparts {
				hi = s.at[c+1]
			}
			part := keys[lo:hi]
			for i := range part {
				part[i] >>= pk.shift
			}
			s.parts[c] = newRankList(part)
			return nil
		})
	}
	g.Wait()
	return s
}

// bytes returns the memory the coded keys take.
func (s *storedKeys) bytes() int64 {
	var n int64
	for _, p := range s.parts {
		n += int64(len(p.data)) + int64(len(p.first))*16
	}
	return n
}

// keys decodes the sorted mixed keys.
func (s *storedKeys) keys(workers int) []uint64 {
	out := make([]uint64, s.n)
	var g errgroup.Group
	g.SetLimit(poolSize(workers))
	for c, p := range s.parts {
		g.Go(func() error {
			dst := out[s.at[c] : s.at[c]+p.n]
			v, at := uint64(0), 0
			for i := range dst {
				gap, k := binary.Uvarint(p.data[at:])
				v, at = v+gap, at+k
				dst[i] = mix(s.pk.pos(v << s.pk.shift))
			}
			return nil
		})
	}
	g.Wait()
	sortKeys(out, workers)
	return out
}

// positions appends to dst the positions lo..hi of the stored order (by
// packed word, not by mixed key): a forward search expands a stored layer
// a chunk at a time this way, its order not mattering there.
func (s *storedKeys) positions(dst []engine.Position, lo, hi int) []engine.Position {
	c := sort.Search(len(s.at), func(c int) bool { return s.at[c] > lo }) - 1
	for ; lo < hi; c++ {
		p := s.parts[c]
		i := lo - s.at[c]           // the first wanted within the part
		end := min(p.n, hi-s.at[c]) // and the end
		b := i / rankBlock
		v, at := p.first[b], p.off[b]
		_, k := binary.Uvarint(p.data[at:]) // the block's first gap is from the block before
		at += k
		for j := b * rankBlock; j < end; j++ {
			if j > b*rankBlock {
				gap, k := binary.Uvarint(p.data[at:])
				v, at = v+gap, at+k
			}
			if j >= i {
				dst = append(dst, s.pk.pos(v<<s.pk.shift))
			}
		}
		lo = s.at[c] + end
	}
	return dst
}
