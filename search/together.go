package search

import (
	"context"
	"errors"
	"math/big"
	"math/bits"
	"slices"
	"time"

	"pegs/engine"
	"pegs/search/internal/key"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"
)

// errTooManyStarts reports more start classes than one search from several
// starts tells apart: a bit each beside the position in a 64-bit word.
var errTooManyStarts = errors.New("more start classes than a word holds beside a position")

// startsTogether analyses the single-vacancy starts at holes reps (one per
// class under the board's whole group) in one search, and calls done with
// each one's analysis, in order, as Explore with WholeGroup and NoGames
// would make it but for RandomWin, which it leaves zero (Starts does not
// report it).
//
// The searches from different starts meet: on the English board the seven
// classes reach 594M positions between them but only 284M distinct ones.
// So the forward pass runs once over their union, each position tagged
// with the starts that reach it. A position is winnable (can end with one
// peg anywhere) exactly when its complement is reachable from some
// single-vacancy start: the union holds the answer, so no walk back is
// needed. A position and its tags share one 64-bit word (see key.Packing), so
// the boards with more start classes than free bits beside their holes
// (64 - holes) search one start at a time. A layer past the middle is
// kept until the layer it pairs with (the complements' peg count) is
// found; then each start's solutions are counted through its winnable
// positions (countWinning).
func startsTogether(ctx context.Context, b *engine.Board, reps []int, opt ExploreOptions, done func(i int, a *Analysis) error) error {
	n := b.Holes()
	pk, ok := key.PackingFor(n, len(reps))
	if !ok {
		return errTooManyStarts
	}
	group := b.Symmetry()
	t := &together{t0: time.Now(), b: b, reps: reps, opt: opt, pk: pk, group: group, gen: movegen.New(b, group),
		mem: memory.New(opt.Bytes()), upper: make(map[int]*layered.Layer), win: make(map[int]*layered.Layer), layers: map[int]int{}}
	defer func() {
		for _, l := range t.upper {
			t.mem.Give(l.Bytes())
		}
	}()
	if err := t.forward(ctx); err != nil {
		return err
	}
	for pegs, l := range t.win {
		by := tagCounts(l.Keys(), pk.Tags, opt.Workers)
		for i, a := range t.as {
			a.Layers[t.layers[pegs]].Winnable = by[i]
		}
	}
	for i := range reps {
		if err := t.count(ctx, i); err != nil {
			return err
		}
		if err := done(i, t.as[i]); err != nil {
			return err
		}
	}
	return nil
}

// together is the state of startsTogether.
type together struct {
	t0    time.Time
	b     *engine.Board
	reps  []int
	opt   ExploreOptions
	pk    key.Packing
	group *engine.Group
	gen   *movegen.Gen
	mem   *memory.Budget
	as    []*Analysis // by start
	// upper holds the layers past the middle until paired; win the
	// winnable positions and their tags, by peg count.
	upper, win map[int]*layered.Layer
	layers     map[int]int // peg count -> index in each analysis's Layers
}

// forward expands the union of the starts' state spaces layer by layer,
// counting each start's positions, and pairs each layer with the one of
// its complements' peg count to find the winnable positions.
func (t *together) forward(ctx context.Context) error {
	n, b, pk, mem := t.b.Holes(), t.b, t.pk, t.mem
	var words []uint64
	for i, h := range t.reps {
		t.as = append(t.as, &Analysis{Symmetries: t.group.Len(), Solutions: new(big.Int),
			SolutionsByFinish: map[int]*big.Int{}, SolutionsByOrbit: map[int]*big.Int{}, Orbits: map[int][]int{}})
		words = append(words, pk.Key(t.group.Canonical(b.Full()&^(1<<uint(h))))|1<<uint(i))
	}
	slices.Sort(words)
	first := layered.NewLayer(n-1, words)
	if err := mem.Take(first.Bytes(), "the first layer"); err != nil {
		return err
	}
	e, err := layered.NewExpander(layered.Tagged, layered.Setup{Gen: t.gen, Mem: mem, Workers: t.opt.Workers, Tuning: t.opt.knobs.layered, Packing: &pk})
	if err != nil {
		mem.Give(first.Bytes())
		return err
	}
	progress := t.opt.config().Progress
	for cur := first; ; {
		if progress != nil {
			pegs := cur.Pegs()
			e.SetProgress(func(done, total int) { progress("forward", pegs, done, total) })
		}
		next, st, err := e.Next(ctx, cur)
		if err != nil {
			mem.Give(cur.Bytes())
			return err
		}
		by := tagCounts(cur.Keys(), pk.Tags, t.opt.Workers)
		t.layers[cur.Pegs()] = len(t.as[0].Layers)
		for i, a := range t.as {
			a.Layers = append(a.Layers, LayerStats{Pegs: cur.Pegs(), Reachable: by[i], ReachableRaw: st.RawBy[i], DeadEnds: st.DeadBy[i]})
		}
		if 2*cur.Pegs() > n {
			t.upper[cur.Pegs()] = cur
		} else {
			err := t.pair(cur)
			mem.Give(cur.Bytes())
			if err != nil {
				mem.Give(next.Bytes())
				return err
			}
		}
		if next.Len() == 0 {
			mem.Give(next.Bytes())
			return nil
		}
		// Layers grow toward the middle, and those past it are kept until
		// paired: if the layers still to come there, each at least as big
		// as this one, cannot fit, stop now rather than at the middle (the
		// French board's union gives up after about a minute).
		if ahead := int64(next.Pegs() - n/2 - 1); ahead > 0 {
			if more := ahead * next.Bytes(); mem.Used()+more > mem.Limit() {
				mem.Give(next.Bytes())
				return &MemoryError{What: "the layers of the union of the starts' state spaces still to come", Need: more, InUse: mem.Used(), Budget: mem.Limit()}
			}
		}
		cur = next
	}
}

// pair finds the winnable positions of lower layer l and of the layer with
// the complements' peg count.
func (t *together) pair(l *layered.Layer) error {
	n, mem, workers := t.b.Holes(), t.mem, t.opt.Workers
	up := l
	if n-l.Pegs() != l.Pegs() {
		up = t.upper[n-l.Pegs()]
		delete(t.upper, n-l.Pegs())
	}
	if up == nil {
		return nil
	}
	if err := mem.Take(int64(up.Len())*16, "the complements of a layer"); err != nil {
		return err
	}
	lw, err := pick(l, layered.ComplementKeys(up.Keys(), t.b, t.group, t.pk, workers), t.pk.Tags, workers, mem)
	mem.Give(int64(up.Len()) * 16)
	if err != nil {
		return err
	}
	t.win[l.Pegs()] = lw
	if up != l {
		// Complemented, l's winnable positions are up's.
		uw, err := pick(up, layered.ComplementKeys(lw.Keys(), t.b, t.group, t.pk, workers), t.pk.Tags, workers, mem)
		if err != nil {
			return err
		}
		t.win[up.Pegs()] = uw
		mem.Give(up.Bytes())
	}
	return nil
}

// count sums start i's layers and counts its solutions through its
// winnable positions.
func (t *together) count(ctx context.Context, i int) error {
	a := t.as[i]
	// A start's layers are those it reaches.
	a.Layers = slices.DeleteFunc(a.Layers, func(l LayerStats) bool { return l.Reachable == 0 })
	for _, l := range a.Layers {
		a.Reachable += l.Reachable
		a.ReachableRaw += l.ReachableRaw
		a.Winnable += l.Winnable
		a.DeadEnds += l.DeadEnds
	}
	keys := withTag(t.win, t.pk, i, t.opt.Workers)
	var held int64
	for _, l := range keys {
		held += l.Bytes()
	}
	if err := t.mem.Take(held, "a start's winnable positions"); err != nil {
		return err
	}
	defer t.mem.Give(held)
	prob := Problem{Board: t.b, Start: t.b.Full() &^ (1 << uint(t.reps[i])), Goal: engine.Goal{Kind: engine.OnePeg}}
	// Starts reports no random-play odds: paths are all it counts.
	if err := countWinning(ctx, a, prob, t.gen, t.opt, t.mem, keys); err != nil {
		return err
	}
	a.PeakBytes = t.mem.Peak()
	a.Elapsed = time.Since(t.t0)
	return nil
}

// tagCounts counts the packed words with each tag bit (of mask).
func tagCounts(words []uint64, mask uint64, workers int) (by [64]int64) {
	parts := make([][64]int64, pool.ChunkCount(len(words), workers))
	pool.Chunks(len(words), workers, func(c, lo, hi int) {
		for _, w := range words[lo:hi] {
			for t := w & mask; t != 0; t &= t - 1 {
				parts[c][bits.TrailingZeros64(t)]++
			}
		}
	})
	for _, p := range parts {
		for i := range by {
			by[i] += p[i]
		}
	}
	return by
}

// pick is l.only(keys, low), charged to mem.
func pick(l *layered.Layer, keys []uint64, low uint64, workers int, mem *memory.Budget) (*layered.Layer, error) {
	out := l.Only(keys, low, workers)
	return out, mem.Take(out.Bytes(), "the winnable positions")
}

// withTag returns the positions of each layer of packed words in ls whose
// tag has bit i, as layers of sorted mixed keys.
func withTag(ls map[int]*layered.Layer, pk key.Packing, i, workers int) map[int]*layered.Layer {
	out := make(map[int]*layered.Layer)
	for pegs, l := range ls {
		parts := make([][]uint64, pool.ChunkCount(l.Len(), workers))
		pool.Chunks(l.Len(), workers, func(c, lo, hi int) {
			for j := lo; j < hi; j++ {
				if l.Keys()[j]&(1<<uint(i)) != 0 {
					parts[c] = append(parts[c], key.Mix(pk.Pos(l.Keys()[j])))
				}
			}
		})
		keys := slices.Concat(parts...)
		key.Sort(keys, workers)
		out[pegs] = layered.NewLayer(pegs, keys)
	}
	return out
}
