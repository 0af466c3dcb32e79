package layered

import (
	"context"
	"slices"
	"sort"
	"sync/atomic"

	"pegs/engine"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/pool"

	"golang.org/x/sync/errgroup"
)

// Stored is a layer's keys held compactly while the layer waits for the
// walk back: the positions packed within the board's n bits (packingFor),
// sorted, and coded as gaps in parts that code and decode in parallel. At
// the densities of a large layer the gaps take about two bytes a position
// where a key takes eight: the French board's 1.5 billion positions from d3
// fit in 3.4 GB instead of 12.
type Stored struct {
	N     int
	pk    key.Packing
	parts []*key.RankList // consecutive runs of the sorted packed words, shifted down
	at    []int           // where each part begins among the n
}

// StoreKeys codes keys (sorted mixed keys of a board of holes holes), which
// it overwrites.
func StoreKeys(keys []uint64, holes, workers int) *Stored {
	pk, _ := key.PackingFor(holes, 0)
	pool.Chunks(len(keys), workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			keys[i] = pk.Key(key.Unmix(keys[i]))
		}
	})
	key.Sort(keys, workers)
	s := &Stored{N: len(keys), pk: pk}
	nparts := pool.ChunkCount(len(keys), workers)
	s.parts = make([]*key.RankList, nparts)
	for c := range nparts {
		s.at = append(s.at, c*len(keys)/nparts)
	}
	var g errgroup.Group
	g.SetLimit(pool.Size(workers))
	for c := range nparts {
		g.Go(func() error {
			lo, hi := s.at[c], len(keys)
			if c+1 < nparts {
				hi = s.at[c+1]
			}
			part := keys[lo:hi]
			for i := range part {
				part[i] >>= pk.Shift
			}
			s.parts[c] = key.NewRankList(part)
			return nil
		})
	}
	g.Wait()
	return s
}

// Bytes returns the memory the coded keys take.
func (s *Stored) Bytes() int64 {
	var n int64
	for _, p := range s.parts {
		n += p.Bytes()
	}
	return n
}

// Keys decodes the sorted mixed Keys.
func (s *Stored) Keys(workers int) []uint64 {
	out := make([]uint64, s.N)
	var g errgroup.Group
	g.SetLimit(pool.Size(workers))
	for c, p := range s.parts {
		g.Go(func() error {
			dst := out[s.at[c] : s.at[c]+p.Len()]
			p.Decode(dst)
			for i, w := range dst {
				dst[i] = key.Mix(s.pk.Pos(w << s.pk.Shift))
			}
			return nil
		})
	}
	g.Wait()
	key.Sort(out, workers)
	return out
}

// Positions appends to dst the Positions lo..hi of the stored order (by
// packed word, not by mixed key): a forward search expands a stored layer
// a chunk at a time this way, its order not mattering there.
func (s *Stored) Positions(dst []engine.Position, lo, hi int) []engine.Position {
	c := sort.Search(len(s.at), func(c int) bool { return s.at[c] > lo }) - 1
	for ; lo < hi; c++ {
		p := s.parts[c]
		i := lo - s.at[c]               // the first wanted within the part
		end := min(p.Len(), hi-s.at[c]) // and the end
		from := len(dst)
		dst = key.AppendRange(p, dst, i, end)
		for j := from; j < len(dst); j++ {
			dst[j] = s.pk.Pos(uint64(dst[j]) << s.pk.Shift)
		}
		lo = s.at[c] + end
	}
	return dst
}

// codeTables codes the keys of a layer's bucket tables (bare mixed keys, a
// bucket a table) as a Stored layer, and frees the tables: collect calls
// it for a layer that is to wait coded, so that the layer is never held as
// keys beside its tables (2 GB more at the French c1 run's widest layers,
// where a 6 GiB budget stopped it). Its parts are ranges of packed words,
// in order as StoreKeys's are: each table's keys are packed and split by
// part where they are (split), then each part's pieces are gathered from
// every table, sorted and coded, parts in parallel (code).
func codeTables(ctx context.Context, tabs []bucketTable[uint64], holes, workers int, mem *memory.Budget) (*Stored, error) {
	c := &tableCoder{tabs: tabs, mem: mem, nw: pool.Size(workers)}
	defer c.free()
	c.pk, _ = key.PackingFor(holes, 0)
	for b := range tabs {
		c.total += tabs[b].n
		c.largest = max(c.largest, tabs[b].n)
	}
	// Parts of about a million keys, at least two a worker.
	c.pbits = uint(1)
	for c.pbits < 8 && (c.total>>(c.pbits+20) > 0 || 1<<c.pbits < 2*c.nw) {
		c.pbits++
	}
	if err := c.split(ctx); err != nil {
		return nil, err
	}
	return c.code(ctx)
}

// tableCoder is codeTables's state.
type tableCoder struct {
	tabs           []bucketTable[uint64]
	mem            *memory.Budget
	nw             int
	pk             key.Packing
	total, largest int  // keys in all, and in the fullest table
	pbits          uint // top bits of a packed word that pick its part
	// ends[b][c] is where part c's keys begin among table b's once split
	// into dense[b], which takes the place of the table: the layer is
	// held at 8 bytes a key while it is coded, not at its tables' load
	// (on the French c1 run's widest layer, where coding passed a 5.5 GiB
	// budget).
	ends       [][]int
	dense      [][]uint64
	denseBytes atomic.Int64
	scratch    int64 // scratch memory charged
}

// free gives back the tables left and the memory charged.
func (c *tableCoder) free() {
	for b := range c.tabs {
		if c.tabs[b].slots != nil {
			c.tabs[b].free()
		}
	}
	c.mem.Give(c.scratch + c.denseBytes.Load())
}

// hold charges scratch memory up to n bytes in all.
func (c *tableCoder) hold(n int64) error {
	if n <= c.scratch {
		return nil
	}
	if err := c.mem.Take(n-c.scratch, "coding a layer"); err != nil {
		return err
	}
	c.scratch = n
	return nil
}

// split packs each table's keys and splits them by part into dense,
// tables in parallel, freeing each table.
func (c *tableCoder) split(ctx context.Context) error {
	if err := c.hold(int64(c.largest) * 8 * int64(c.nw)); err != nil {
		return err
	}
	np := 1 << c.pbits
	c.ends = make([][]int, len(c.tabs))
	c.dense = make([][]uint64, len(c.tabs))
	bufs := make(chan []uint64, c.nw)
	for range c.nw {
		bufs <- make([]uint64, c.largest)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(c.nw)
	for b := range c.tabs {
		g.Go(func() error {
			t := &c.tabs[b]
			end := make([]int, np+1)
			c.ends[b] = end
			if t.slots == nil {
				return nil
			}
			tmp := <-bufs
			defer func() { bufs <- tmp }()
			n := 0
			for i, k := range t.slots {
				if k != 0 && (t.reached == nil || t.reached[i/64]&(1<<(i%64)) != 0) {
					w := k << c.pk.Shift // pk.Key(key.Unmix(k))
					tmp[n] = w
					n++
					end[w>>(64-c.pbits)+1]++
				}
			}
			for p := range np {
				end[p+1] += end[p]
			}
			if err := c.mem.Take(int64(n)*8, "coding a layer"); err != nil {
				return err
			}
			c.denseBytes.Add(int64(n) * 8)
			d := make([]uint64, n)
			next := slices.Clone(end)
			for _, w := range tmp[:n] {
				p := w >> (64 - c.pbits)
				d[next[p]] = w
				next[p]++
			}
			c.dense[b] = d
			t.free()
			return gctx.Err()
		})
	}
	return g.Wait()
}

// code gathers each part's pieces from every table, sorts and codes them,
// parts in parallel, and returns the Stored layer.
func (c *tableCoder) code(ctx context.Context) (*Stored, error) {
	np := 1 << c.pbits
	s := &Stored{N: c.total, pk: c.pk, parts: make([]*key.RankList, np), at: make([]int, np)}
	sizes := make([]int, np)
	at, widest := 0, 0
	for p := range np {
		for b := range c.tabs {
			sizes[p] += c.ends[b][p+1] - c.ends[b][p]
		}
		s.at[p] = at
		at += sizes[p]
		widest = max(widest, sizes[p])
	}
	if err := c.hold(int64(widest) * 16 * int64(c.nw)); err != nil {
		return nil, err
	}
	pairs := make(chan [2][]uint64, c.nw)
	for range c.nw {
		pairs <- [2][]uint64{make([]uint64, widest), make([]uint64, widest)}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(c.nw)
	for p := range np {
		g.Go(func() error {
			ab := <-pairs
			defer func() { pairs <- ab }()
			var pieces [][]uint64
			for b := range c.tabs {
				if piece := c.dense[b][c.ends[b][p]:c.ends[b][p+1]]; len(piece) > 0 {
					pieces = append(pieces, piece)
				}
			}
			part := key.SortShared(pieces, ab[0][:sizes[p]], ab[1][:sizes[p]], c.pbits)
			for i := range part {
				part[i] >>= c.pk.Shift
			}
			s.parts[p] = key.NewRankList(part)
			if err := c.mem.Take(s.parts[p].Bytes(), "a coded layer"); err != nil {
				s.parts[p] = nil
				return err
			}
			return gctx.Err()
		})
	}
	if err := g.Wait(); err != nil {
		for _, part := range s.parts {
			if part != nil {
				c.mem.Give(part.Bytes())
			}
		}
		return nil, err
	}
	// Empty parts go: Positions steps from a part to the next.
	parts, ats := s.parts[:0], s.at[:0]
	for p, part := range s.parts {
		if part.Len() > 0 {
			parts, ats = append(parts, part), append(ats, s.at[p])
		}
	}
	s.parts, s.at = parts, ats
	return s, nil
}
