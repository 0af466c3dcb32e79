package search

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"
)

// Problem is a start position and a one-peg goal on a board.
type Problem struct {
	Board *engine.Board
	Start engine.Position
	Goal  engine.Goal
}

// Group returns the symmetries that keep both the start and the goal in
// place: the group every search of the problem reduces by.
func (p Problem) Group() *engine.Group {
	g := p.Board.Symmetry().Stabilizer(p.Start)
	if p.Goal.Kind == engine.OnePegAt {
		g = g.Stabilizer(1 << uint(p.Goal.Hole))
	}
	return g
}

func (p Problem) check() error {
	if p.Start == 0 {
		return ErrNoPegs
	}
	if p.Start&^p.Board.Full() != 0 {
		return fmt.Errorf("position has pegs outside board %s", p.Board.Name())
	}
	if p.Goal.Kind == engine.Fewest {
		return errors.New("an exhaustive search needs a one-peg goal (any, center or a hole)")
	}
	return nil
}

// ExploreOptions tune an exhaustive search.
type ExploreOptions struct {
	// Workers is the number of goroutines; zero means GOMAXPROCS.
	Workers int
	// Memory is the budget in bytes; zero means DefaultMemory.
	Memory int64
	// Progress, if set, is called as each layer advances.
	Progress func(Progress)
	// WholeGroup reduces by the board's whole symmetry group even where it
	// moves the start (for a goal of one peg anywhere). Every count stays
	// exact, but positions are counted up to the whole group and finishes
	// only by orbit (SolutionsByFinish is left empty): a single-vacancy
	// start on a corner then searches about |G| times fewer positions.
	WholeGroup bool
	// NoSymmetry searches raw positions, for cross-checks.
	NoSymmetry bool
	// NoGames leaves complete games uncounted (Analysis.Games is nil), the
	// one count that needs a value on every reachable position. The
	// forward pass then carries keys only, and solutions and random play
	// are counted on the winnable positions alone: about half the memory
	// (English centre 0.96 -> 0.42 GB, c3 up to the whole group 5.4 -> 2.8
	// GB), in about the same time.
	NoGames bool
	// ReachableOnly counts the reachable positions and dead ends alone,
	// layer by layer, holding only the layer it expands and the next: no
	// winnable positions, no path counts. It is for state spaces whose full
	// analysis passes the budget, which keeps every layer for the way back
	// (the French board's from a single vacancy: about 1.5 billion
	// positions up to symmetry).
	ReachableOnly bool
}

// Progress reports how far a search has come.
type Progress struct {
	Phase       string // "forward", "from the goal", "backward", "join", "count" or "fewest"
	Pegs        int    // peg count of the layer being expanded ("from the goal": of the positions its complements stand for)
	Done, Total int    // positions of that layer expanded so far, and in all
}

// LayerStats describes the positions with one peg count.
type LayerStats struct {
	Pegs         int   `json:"pegs"`
	Reachable    int64 `json:"reachable"`
	ReachableRaw int64 `json:"reachable_raw"`
	Winnable     int64 `json:"winnable"`
	DeadEnds     int64 `json:"dead_ends"`
}

// Analysis is the exact analysis of a problem's whole state space. Position
// counts are up to the problem's symmetry group (see Problem.Group) unless
// named raw; path counts count jump sequences on the real board.
type Analysis struct {
	Symmetries   int
	Reachable    int64
	ReachableRaw int64
	Winnable     int64
	DeadEnds     int64
	// Solutions counts the jump sequences from the start that meet the goal.
	Solutions *big.Int
	// SolutionsByFinish counts the one-peg finishes by hole (holes that
	// cannot be reached are absent); for a one-hole goal only that hole.
	SolutionsByFinish map[int]*big.Int
	// SolutionsByOrbit counts the one-peg finishes by orbit of finishing
	// holes under the search's group, keyed by the orbit's first hole.
	SolutionsByOrbit map[int]*big.Int
	// Orbits lists the holes of each finishing orbit, keyed like
	// SolutionsByOrbit.
	Orbits map[int][]int
	// Games counts the jump sequences from the start that end where no jump
	// is left, wins included.
	Games *big.Int
	// RandomWin is the probability that a player choosing uniformly among
	// the legal jumps meets the goal (exact to within 1e-9).
	RandomWin float64
	Layers    []LayerStats
	PeakBytes int64
	Elapsed   time.Duration
}

// Explore searches the whole state space of a problem layer by layer,
// sharded over a worker pool, and counts everything in Analysis exactly.
//
// Forward, each layer carries the number of paths into every position and
// the probability that random play reaches it, so solutions, complete games
// and the random-play win probability come out of one pass. Winnable
// positions are then found walking back up from the goal positions reached:
// the parents of a winnable position are found by undoing jumps, and those
// that are reachable are winnable. With NoGames, the forward pass finds
// keys only and a second pass counts on the winnable positions (see
// countWinning).
//
// Cancelled, it returns with ctx's error the layers the forward pass
// finished, counted as with ReachableOnly (no winnable positions or path
// counts), as ReachableOnly itself does.
func Explore(ctx context.Context, prob Problem, opt ExploreOptions) (*Analysis, error) {
	t0 := time.Now()
	if err := prob.check(); err != nil {
		return nil, err
	}
	b := prob.Board
	mem := memory.New(Options{Memory: opt.Memory}.memory())
	group := prob.Group()
	if opt.WholeGroup && prob.Goal.Kind == engine.OnePeg {
		group = b.Symmetry()
	}
	if opt.NoSymmetry {
		group = group.Trivial()
	}
	gen := movegen.New(b, group)
	a := &Analysis{Symmetries: group.Len(), Solutions: new(big.Int),
		SolutionsByFinish: map[int]*big.Int{}, SolutionsByOrbit: map[int]*big.Int{}, Orbits: map[int][]int{}}
	if !opt.NoGames {
		a.Games = new(big.Int)
	}
	first := &layer{pegs: prob.Start.Pegs(), keys: []uint64{key.Mix(group.Canonical(prob.Start))}}
	if opt.ReachableOnly {
		return a.reachable(ctx, first, &expander{gen: gen, workers: opt.Workers, mem: mem}, opt.Progress, t0)
	}
	if !opt.NoGames {
		first.m, first.q = []exact.U128{{Lo: 1}}, []uint64{exact.FixedOne}
	}
	// Stopped by cancellation, the analysis keeps what the forward pass
	// finished: its layers' positions, as ReachableOnly reports them.
	stopped := func(err error) (*Analysis, error) {
		if !errors.Is(err, context.Canceled) {
			return nil, err
		}
		a.Solutions, a.SolutionsByFinish, a.SolutionsByOrbit, a.Orbits, a.Games = nil, nil, nil, nil, nil
		for i := range a.Layers {
			a.Layers[i].Winnable = 0
		}
		a.total(mem, t0)
		return a, err
	}
	e := &expander{gen: gen, workers: opt.Workers, counts: !opt.NoGames, store: true, mem: mem}
	fwd, err := forward(ctx, e, []*layer{first}, "forward", opt.Progress, func(l *layer, st layerStats) {
		a.Layers = append(a.Layers, LayerStats{Pegs: l.pegs, Reachable: st.positions, ReachableRaw: st.raw, DeadEnds: st.deadEnds})
		if opt.NoGames {
			return
		}
		a.Games.Add(a.Games, st.games.Big())
		if l.pegs == 1 {
			a.countFinishes(prob, group, l)
		}
	})
	if err != nil {
		return stopped(err)
	}
	win, err := a.findWinnable(ctx, prob, gen, opt, mem, fwd, opt.NoGames)
	if err != nil {
		return stopped(err)
	}
	if opt.NoGames {
		for _, l := range fwd {
			mem.Give(l.bytes())
			l.keys, l.stored = nil, nil
		}
		if err := a.countWinning(ctx, prob, &expander{gen: gen, workers: opt.Workers, counts: true, mem: mem}, win, opt.Progress); err != nil {
			return stopped(err)
		}
	}
	a.total(mem, t0)
	return a, nil
}

// total sums a's layers into its totals and notes the peak memory and the
// time since t0.
func (a *Analysis) total(mem *memory.Budget, t0 time.Time) {
	for _, l := range a.Layers {
		a.Reachable += l.Reachable
		a.ReachableRaw += l.ReachableRaw
		a.Winnable += l.Winnable
		a.DeadEnds += l.DeadEnds
	}
	a.PeakBytes = mem.Peak()
	a.Elapsed = time.Since(t0)
}

// reachable is Explore with ReachableOnly, from layer first: each layer is
// dropped once the next is found. Stopped early (cancelled, or past the
// budget), it returns the layers finished with the error.
func (a *Analysis) reachable(ctx context.Context, first *layer, e *expander, progress func(Progress), t0 time.Time) (*Analysis, error) {
	a.Solutions, a.SolutionsByFinish, a.SolutionsByOrbit, a.Orbits, a.Games = nil, nil, nil, nil, nil
	done := func(err error) (*Analysis, error) {
		a.total(e.mem, t0)
		return a, err
	}
	if err := e.mem.Take(first.bytes(), "the first layer"); err != nil {
		return done(err)
	}
	// A layer goes once expanded, before its children are collected. One
	// whose keys would not leave room for its children's tables and lists
	// (as many as the layers before lead to expect) is coded as it is
	// collected instead (see codeTables), and expanded as it is decoded.
	// Only then: coding every large layer took the French d3 count from
	// 6.9 to 4.7 GB peak RSS, but from 419 to 526 s.
	e.spent = func(l *layer) {
		e.mem.Give(l.bytes())
		l.keys, l.stored = nil, nil
	}
	if e.code == nil {
		e.code = func(n int, tableBytes int64) bool {
			children := int64(slotsFor(e.expect(n), tableFill)) * 8
			lists := int64(roundSize(n, 8, e.mem.Limit())) * 8 * 5 / 4
			return e.mem.Used()-tableBytes+int64(n)*8+children+lists > e.mem.Limit()
		}
	}
	cur := first
	for cur.size() > 0 {
		if progress != nil {
			pegs := cur.pegs
			e.progress = func(done, total int) { progress(Progress{Phase: "forward", Pegs: pegs, Done: done, Total: total}) }
		}
		next, st, err := e.next(ctx, cur)
		if err != nil {
			return done(err)
		}
		a.Layers = append(a.Layers, LayerStats{Pegs: cur.pegs, Reachable: st.positions, ReachableRaw: st.raw, DeadEnds: st.deadEnds})
		e.mem.Give(cur.bytes())
		cur = next
	}
	e.mem.Give(cur.bytes())
	return done(nil)
}

// countFinishes counts the solutions, by finishing hole and orbit, and the
// random-play win probability from the one-peg layer l with its counts.
func (a *Analysis) countFinishes(prob Problem, group *engine.Group, l *layer) {
	split := group.Stabilizer(prob.Start).Len() == group.Len()
	var win uint64
	for i, k := range l.keys {
		p := key.Unmix(k)
		if !prob.Goal.Reached(p) {
			continue
		}
		orbit := holeOrbits(group, []int{holeOf(p)})[0]
		a.Orbits[orbit[0]] = orbit
		a.SolutionsByOrbit[orbit[0]] = l.m[i].Big()
		if split {
			// The count is for the orbit; with the start fixed by every
			// symmetry, each hole in it has an equal share.
			n := l.m[i].Big()
			n.Quo(n, big.NewInt(int64(len(orbit))))
			for _, h := range orbit {
				a.SolutionsByFinish[h] = n
			}
		}
		a.Solutions.Add(a.Solutions, l.m[i].Big())
		if l.q != nil {
			win += l.q[i]
		}
	}
	a.RandomWin = float64(win) / exact.FixedOne
}

// countWinning counts paths and random play forward again, from the start
// through the winnable positions win (layers by peg count, keys or coded)
// only: every path to the goal stays among them, and a position's share of
// random play divides by all its jumps, winning or not, so solutions and
// the random-play win probability come out exact.
func (a *Analysis) countWinning(ctx context.Context, prob Problem, e *expander, win map[int]*layer, progress func(Progress)) error {
	p0 := prob.Start.Pegs()
	if win[p0] == nil || win[p0].size() == 0 {
		return nil
	}
	first := win[p0].keys
	if first == nil {
		first = win[p0].stored.keys(e.workers) // the start alone
	}
	cur := &layer{pegs: p0, keys: first, m: []exact.U128{{Lo: 1}}, q: []uint64{exact.FixedOne}}
	for cur.pegs > 1 {
		if progress != nil {
			pegs := cur.pegs
			e.progress = func(done, total int) { progress(Progress{Phase: "count", Pegs: pegs, Done: done, Total: total}) }
		}
		// Children outside the winnable positions are dropped as they
		// come; coded ones seed the tables from their code.
		var next *layer
		var err error
		if w := win[cur.pegs-1]; w != nil && w.size() > 0 {
			e.within, e.withinCode = w.keys, nil
			if w.keys == nil {
				e.withinCode = w.stored
			}
			next, _, err = e.next(ctx, cur)
		} else {
			next = &layer{pegs: cur.pegs - 1}
		}
		if err != nil {
			return err
		}
		if cur.pegs != p0 {
			e.mem.Give(cur.bytes())
		}
		cur = next
		if cur.len() == 0 {
			return nil
		}
	}
	a.countFinishes(prob, e.gen.Group, cur)
	e.mem.Give(cur.bytes())
	return nil
}

// only returns the positions of l whose keys are in keys (sorted), with
// whatever they carry (counts, tags), in new arrays so that the memory of
// the others can go. Chunks of l are matched in parallel. The bits low of
// l's keys (the tags of packed words) are left out of the match.
func (l *layer) only(keys []uint64, low uint64, workers int) *layer {
	found := make([][]int, pool.ChunkCount(l.len(), workers))
	pool.Chunks(l.len(), workers, func(c, lo, hi int) {
		j, _ := slices.BinarySearch(keys, l.keys[lo]&^low)
		for i := lo; i < hi && j < len(keys); i++ {
			k := l.keys[i] &^ low
			for j < len(keys) && keys[j] < k {
				j++
			}
			if j < len(keys) && keys[j] == k {
				found[c] = append(found[c], i)
			}
		}
	})
	idx := slices.Concat(found...)
	out := &layer{pegs: l.pegs, keys: make([]uint64, len(idx))}
	if l.m != nil {
		out.m = make([]exact.U128, len(idx))
	}
	if l.q != nil {
		out.q = make([]uint64, len(idx))
	}
	pool.Chunks(len(idx), workers, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			i := idx[j]
			out.keys[j] = l.keys[i]
			if out.m != nil {
				out.m[j] = l.m[i]
			}
			if out.q != nil {
				out.q[j] = l.q[i]
			}
		}
	})
	return out
}

func holeOf(p engine.Position) int {
	for h := 0; h < 64; h++ {
		if p.Has(h) {
			return h
		}
	}
	return -1
}

// forward expands layers from the last of start until none is left, calling
// visit with each layer and its stats; it keeps each layer's keys and drops
// its counts once the next layer has them.
func forward(ctx context.Context, e *expander, start []*layer, phase string, progress func(Progress), visit func(*layer, layerStats)) ([]*layer, error) {
	layers := start
	if err := e.mem.Take(layers[len(layers)-1].bytes(), "the first layer"); err != nil {
		return nil, err
	}
	var held int64 // the bytes of the keys of the layers expanded
	for {
		cur := layers[len(layers)-1]
		if progress != nil {
			pegs := cur.pegs
			e.progress = func(done, total int) { progress(Progress{Phase: phase, Pegs: pegs, Done: done, Total: total}) }
		}
		// Past a share of the budget, the layers wait for the walk back
		// coded, those before included, and a layer without counts is
		// coded as it is found: it is never held whole as keys beside its
		// own tables or its children's, but expanded as it is decoded (on
		// the French board 1.2 GB less at the widest layer, and 2 GB
		// less as it is found).
		coded := func(more int) bool {
			return e.store && held+int64(more)*8 > e.mem.Limit()/storeShare
		}
		e.code = func(n int, _ int64) bool { return coded(cur.size() + n) }
		next, st, err := e.next(ctx, cur)
		e.code = nil
		if err != nil {
			return layers, err
		}
		if visit != nil {
			visit(cur, st)
		}
		// Counts are needed only to make the next layer's.
		e.mem.Give(int64(len(cur.m))*16 + int64(len(cur.q))*8)
		cur.m, cur.q = nil, nil
		last := next.size() == 0
		if last {
			e.mem.Give(next.bytes())
		} else {
			layers = append(layers, next)
		}
		if held += st.positions * 8; coded(next.size()) {
			for _, l := range layers {
				if l.stored == nil && len(l.m) == 0 {
					l.store(e.gen.Board.Holes(), e.workers, e.mem)
				}
			}
		}
		if last {
			return layers, nil
		}
	}
}

// findWinnable marks the positions of the forward layers that can reach the
// goal (see walkBack), letting each layer go once done with it. If keep is
// set it returns them by peg count, held in mem: as keys, or coded (see
// storedKeys) once their keys pass a share of the budget, as the forward
// layers are (on the French c1 run about 1 GB less at the walk back's
// widest layer, where a 6 GiB budget stopped it).
func (a *Analysis) findWinnable(ctx context.Context, prob Problem, gen *movegen.Gen, opt ExploreOptions, mem *memory.Budget, fwd []*layer, keep bool) (map[int]*layer, error) {
	if len(backwardSeeds(prob, gen.Group)) == 0 {
		return nil, nil
	}
	byPegs := map[int]*layer{}
	index := map[int]int{}
	for i, l := range fwd {
		byPegs[l.pegs] = l
		index[l.pegs] = i
	}
	win := map[int]*layer{}
	var held int64 // the bytes of the winnable keys found
	code := func() {
		if held > mem.Limit()/storeShare {
			for _, l := range win {
				if l.stored == nil && l.keys != nil {
					l.store(gen.Board.Holes(), opt.Workers, mem)
				}
			}
		}
	}
	err := walkBack(ctx, prob.Goal, gen, byPegs, fwd[0].pegs, true, mirrored(prob, gen.Group), opt, mem, func(pegs int, keys []uint64) error {
		a.Layers[index[pegs]].Winnable = int64(len(keys))
		if !keep {
			return nil
		}
		// The walk back is done with the layer below, which storing
		// overwrites, but not yet with this one.
		code()
		win[pegs] = &layer{pegs: pegs, keys: keys}
		held += int64(len(keys)) * 8
		return mem.Take(int64(len(keys))*8, "the winnable positions")
	})
	if err == nil {
		code()
	}
	return win, err
}

// selfJoin returns the keys of l whose complements, made canonical, are in
// l too: l is the middle layer of a mirrored problem on a board of an even
// number of holes (see winnable), whose complements have as many pegs.
func selfJoin(ctx context.Context, l *layer, b *engine.Board, group *engine.Group, workers int, mem *memory.Budget) ([]uint64, error) {
	return keepFound(ctx, l, l.len(), workers, mem, func(dst []uint64, lo, hi int) []uint64 {
		dst = slices.Grow(dst, hi-lo)
		for _, k := range l.keys[lo:hi] {
			dst = append(dst, key.Mix(group.Canonical(b.Complement(key.Unmix(k)))))
		}
		return dst
	})
}

// meetingKeys returns those of keys (sorted mixed keys of positions of k
// pegs) with a child whose complement (of n-k+1 pegs on a board of n
// holes), canonical under gen's group, is among goal (sorted mixed keys),
// in keys' order. Where goal holds the complements of the positions of k-1
// pegs that can meet a goal, those are the positions of keys that can: a
// position can when one of its children can. So two searches one jump
// apart meet without either taking that jump: where a layer's children
// would be the widest layer either side finds (the English centre game: 24
// million children of 17 pegs to 3.3 million positions of 16, then a
// join), each child is only looked up in a set of goal (most lookups end
// in its filter), charged to mem.
//
// The complements come straight from the parent's: symmetries permute
// holes, so comp(p) has the complemented images of p, and the child of p
// by a jump has the complement comp(p) with that jump's holes flipped.
func meetingKeys(ctx context.Context, keys, goal []uint64, gen *movegen.Gen, opt ExploreOptions, mem *memory.Budget) ([]uint64, error) {
	n := len(keys)
	if n == 0 || len(goal) == 0 {
		return nil, nil
	}
	set, release, err := newKeySetIn(goal, opt.Workers, mem, "the positions where the searches meet")
	if err != nil {
		return nil, err
	}
	defer release()
	b := gen.Board
	pegs := key.Unmix(keys[0]).Pegs()
	// Chunks of a few thousand positions, so a cancellation is seen soon
	// and the halves of a layer balance across workers.
	chunks := max(1, min(n/4096, 1024))
	out := make([][]uint64, chunks)
	var done atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(pool.Size(opt.Workers))
	for c := range chunks {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			w := gen.NewParent()
			var keep []uint64
			lo, hi := c*n/chunks, (c+1)*n/chunks
		parents:
			for _, k := range keys[lo:hi] {
				p := key.Unmix(k)
				w.Set(b.Complement(p))
				// Each child as its jump is found (see appendMoves).
				q, empty := gen.LatticeOf(p)
				for gi := range gen.Groups {
					sg := &gen.Groups[gi]
					for f := sg.Legal(q, empty); f != 0; f &= f - 1 {
						if set.Has(key.Mix(w.Child(sg.First(f)))) {
							keep = append(keep, k)
							continue parents
						}
					}
				}
			}
			out[c] = keep
			if opt.Progress != nil {
				opt.Progress(Progress{Phase: "join", Pegs: pegs, Done: int(done.Add(int64(hi - lo))), Total: n})
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return slices.Concat(out...), nil
}

// newKeySetIn returns a keySet of keys with its memory charged to mem
// before it is made (what says what it is for, in a refusal), and a func
// that gives it back.
func newKeySetIn(keys []uint64, workers int, mem *memory.Budget, what string) (*key.Set, func(), error) {
	bytes := key.SetBytes(len(keys))
	if err := mem.Take(bytes, what); err != nil {
		return nil, nil, err
	}
	return key.NewSet(keys, workers), func() { mem.Give(bytes) }, nil
}

// keepFound returns the keys of l (sorted) that find produces. find
// appends the mixed keys it finds for items lo..hi of its input to dst; it
// runs on the worker pool over chunks of [0, n). Each chunk's keys are split
// by their top bits, and each part is sorted and matched against the same
// part of l in parallel, so nothing after find runs on one core. The keys
// found are charged to mem while they are held.
func keepFound(ctx context.Context, l *layer, n, workers int, mem *memory.Budget, find func(dst []uint64, lo, hi int) []uint64) ([]uint64, error) {
	if n == 0 || l.len() == 0 {
		return nil, nil
	}
	const nb = 1 << key.TopBits
	workers = pool.Size(workers)
	chunks := min(n, 4*workers)
	parts := make([][nb][]uint64, chunks)
	var held atomic.Int64
	defer func() { mem.Give(held.Load()) }()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for c := range chunks {
		g.Go(func() error {
			found := find(nil, c*n/chunks, (c+1)*n/chunks)
			// Each key found lives on in a split part and, sorted, in a
			// candidate list and its scratch.
			bytes := int64(len(found)) * 8 * 3
			if err := mem.Take(bytes, "the positions to match against a layer"); err != nil {
				return err
			}
			held.Add(bytes)
			split := make([]uint64, len(found))
			count := key.CountTops(found)
			pos := count
			for _, k := range found {
				b := k >> (64 - key.TopBits)
				split[pos[b]] = k
				pos[b]++
			}
			for b := range nb {
				parts[c][b] = split[count[b]:count[b+1]]
			}
			return gctx.Err()
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out := make([][]uint64, nb)
	g, gctx = errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for b := range nb {
		g.Go(func() error {
			var ps [][]uint64
			total := 0
			for c := range parts {
				if len(parts[c][b]) > 0 {
					ps = append(ps, parts[c][b])
					total += len(parts[c][b])
				}
			}
			// Sorted straight from the parts; repeats stay, which
			// intersect passes over.
			cand := key.SortParts(ps, make([]uint64, total), make([]uint64, total))
			lo, _ := slices.BinarySearch(l.keys, uint64(b)<<(64-key.TopBits))
			hi := len(l.keys)
			if b+1 < nb {
				hi, _ = slices.BinarySearch(l.keys, uint64(b+1)<<(64-key.TopBits))
			}
			out[b] = key.Intersect(l.keys[lo:hi], cand)
			return gctx.Err()
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return slices.Concat(out...), nil
}

// mirrored reports whether prob's start is, up to group's symmetry, the
// complement of its goal's one position (in the start's class): then
// backward play from the goal is forward play from the start, and a
// position of k pegs is reachable and winnable exactly when its complement
// (of n-k pegs on a board of n holes) is.
func mirrored(prob Problem, group *engine.Group) bool {
	seeds := backwardSeeds(prob, group)
	return len(seeds) == 1 && seeds[0] == key.Mix(group.Canonical(prob.Start))
}

// backwardSeeds returns the complements of the goal positions in the start's
// class, canonical and mixed: backward play from the goal is forward play
// from these.
func backwardSeeds(prob Problem, group *engine.Group) []uint64 {
	b := prob.Board
	// The class test applies only when the group keeps the start in place;
	// otherwise positions from the start's images, of other classes, share
	// the search.
	if group.Stabilizer(prob.Start).Len() == group.Len() {
		return goalSeeds(b, b.Class(prob.Start), prob.Goal, group)
	}
	var seeds []uint64
	for _, t := range b.Targets(prob.Goal) {
		seeds = append(seeds, key.Mix(group.Canonical(b.Complement(t))))
	}
	slices.Sort(seeds)
	return slices.Compact(seeds)
}

// WinSet is the set of positions of a problem that are reachable from its
// start and can still meet its goal, by peg count.
type WinSet struct {
	Layers    []LayerStats // Reachable is filled only for layers searched
	Winnable  int64
	PeakBytes int64
	Elapsed   time.Duration
	group     *engine.Group
	keys      map[int][]uint64 // sorted mixed canonical keys by peg count
}

// Contains reports whether p is reachable and winnable.
func (w *WinSet) Contains(p engine.Position) bool {
	return w.containsCanonical(w.group.Canonical(p))
}

// containsCanonical is Contains for a position already in canonical form.
func (w *WinSet) containsCanonical(c engine.Position) bool {
	_, ok := slices.BinarySearch(w.keys[c.Pegs()], key.Mix(c))
	return ok
}

// Winnable finds the winnable positions of a problem without counting
// paths. When the goal's complement is the start itself (as in the centre
// game) it searches forward only to the middle layer: a position with n
// pegs is winnable exactly when it is reachable and its complement, with
// N-n pegs, is reachable too, so layers past the middle are the complements
// of layers before it.
//
// Cancelled, it returns with ctx's error a WinSet that holds no winnable
// positions, whose Layers count the positions of the layers the forward
// search expanded (Reachable, ReachableRaw and DeadEnds, as ReachableOnly
// counts them).
func Winnable(ctx context.Context, prob Problem, opt ExploreOptions) (*WinSet, error) {
	sets, err := winnable(ctx, prob, []engine.Goal{prob.Goal}, opt, false)
	if sets == nil {
		return nil, err
	}
	return sets[0], err
}

// winnable is Winnable for several goals from one start, all reduced by
// prob.Group() (prob.Goal matters only there): one forward search serves
// them all. It searches forward only to the middle when the first goal's
// complement is the start and the others are one peg anywhere with the
// same winnable positions of two pegs or more (sameAfterOne). With whole,
// it searches every layer, so that the layers' Reachable counts are
// complete (the last one reached holds the fewest pegs the start can reach),
// even when no goal can be met.
func winnable(ctx context.Context, prob Problem, goals []engine.Goal, opt ExploreOptions, whole bool) ([]*WinSet, error) {
	t0 := time.Now()
	if err := prob.check(); err != nil {
		return nil, err
	}
	b := prob.Board
	n := b.Holes()
	mem := memory.New(Options{Memory: opt.Memory}.memory())
	group := prob.Group()
	gen := movegen.New(b, group)
	start := key.Mix(group.Canonical(prob.Start))
	p0 := prob.Start.Pegs()
	sets := make([]*WinSet, len(goals))
	some := false
	for i, g := range goals {
		sets[i] = &WinSet{group: group, keys: map[int][]uint64{}}
		if len(backwardSeeds(Problem{b, prob.Start, g}, group)) > 0 {
			some = true
		}
	}
	if !some && !whole {
		for _, w := range sets {
			w.Elapsed = time.Since(t0)
		}
		return sets, nil
	}
	self := mirrored(Problem{b, prob.Start, goals[0]}, group) && !whole
	e := &expander{gen: gen, workers: opt.Workers, mem: mem}
	first := &layer{pegs: p0, keys: []uint64{start}}
	if err := mem.Take(first.bytes(), "the first layer"); err != nil {
		return nil, err
	}
	fwd := map[int]*layer{p0: first}
	low := first // the last layer found
	// Cancelled, the search returns the positions of the layers it
	// expanded (as ReachableOnly counts them), no winnable ones.
	var expanded []LayerStats
	stopped := func(err error) ([]*WinSet, error) {
		if !errors.Is(err, context.Canceled) {
			return nil, err
		}
		for _, w := range sets {
			w.Layers = slices.Clone(expanded)
			w.keys = map[int][]uint64{}
			w.PeakBytes = mem.Peak()
			w.Elapsed = time.Since(t0)
		}
		return sets, err
	}
	forwardTo := func(stop int) error {
		for low.pegs > stop {
			if opt.Progress != nil {
				pegs := low.pegs
				e.progress = func(done, total int) { opt.Progress(Progress{Phase: "forward", Pegs: pegs, Done: done, Total: total}) }
			}
			next, st, err := e.next(ctx, low)
			if err != nil || next.len() == 0 {
				return err
			}
			expanded = append(expanded, LayerStats{Pegs: low.pegs, Reachable: st.positions, ReachableRaw: st.raw, DeadEnds: st.deadEnds})
			fwd[next.pegs] = next
			low = next
		}
		return nil
	}
	if self && len(goals) > 1 {
		if err := forwardTo(p0 - 1); err != nil {
			return stopped(err)
		}
		for _, g := range goals[1:] {
			self = self && sameAfterOne(Problem{b, prob.Start, g}, group, fwd[p0-1], start)
		}
	}
	// Forward layers needed: with self-complement, down to the peg count m
	// where every winnable n has n >= m or N-n >= m; on a board of an odd
	// number of holes, one layer less (see meetingKeys).
	stop := 1
	if self {
		stop = n - n/2
	}
	if err := forwardTo(stop); err != nil {
		return stopped(err)
	}
	if self {
		w := sets[0]
		// Meet in the middle, then walk back up: a reachable position is
		// winnable when one of its children is.
		if f, ok := fwd[stop]; ok {
			var keys []uint64
			var err error
			if n%2 == 1 {
				// A position of n-n/2 pegs can meet the goal when one of
				// its children's complements, of as many pegs, is
				// reachable.
				keys, err = meetingKeys(ctx, f.keys, f.keys, gen, opt, mem)
			} else {
				keys, err = selfJoin(ctx, f, b, group, opt.Workers, mem)
			}
			if err != nil {
				return stopped(err)
			}
			if err := mem.Take(int64(len(keys))*8, "the winnable positions"); err != nil {
				return stopped(err)
			}
			w.keys[stop] = keys
		}
		for pegs := stop + 1; pegs <= p0; pegs++ {
			if opt.Progress != nil {
				opt.Progress(Progress{Phase: "backward", Pegs: pegs, Done: 0, Total: fwd[pegs].len()})
			}
			keys, err := parentsOf(ctx, fwd[pegs], w.keys[pegs-1], gen, opt.Workers, mem, false)
			if err != nil {
				return stopped(err)
			}
			if err := mem.Take(int64(len(keys))*8, "the winnable positions"); err != nil {
				return stopped(err)
			}
			w.keys[pegs] = keys
		}
		for pegs := stop - 1; pegs >= 1; pegs-- {
			if mirror, ok := w.keys[n-pegs]; ok {
				if err := mem.Take(int64(len(mirror))*8, "the winnable positions"); err != nil {
					return stopped(err)
				}
				w.keys[pegs] = complementKeys(mirror, b, group, key.Mixed(), opt.Workers)
			}
		}
		// The other goals (see sameAfterOne) share the first's layers of
		// two pegs or more; their last pegs are the two-peg winners'
		// children that meet them.
		for i, g := range goals[1:] {
			for pegs, keys := range w.keys {
				if pegs > 1 {
					sets[1+i].keys[pegs] = keys
				}
			}
			var last []uint64
			for _, k := range w.keys[2] {
				q := key.Unmix(k)
				for _, j := range b.Moves(nil, q) {
					if c := q.Apply(j); g.Reached(c) {
						last = append(last, key.Mix(group.Canonical(c)))
					}
				}
			}
			slices.Sort(last)
			sets[1+i].keys[1] = slices.Compact(last)
		}
	} else {
		for i, g := range goals {
			err := walkBack(ctx, g, gen, fwd, p0, false, mirrored(Problem{b, prob.Start, g}, group), opt, mem, func(pegs int, keys []uint64) error {
				sets[i].keys[pegs] = keys
				return mem.Take(int64(len(keys))*8, "the winnable positions")
			})
			if err != nil {
				return stopped(err)
			}
		}
	}
	for _, w := range sets {
		for pegs := p0; pegs >= 1; pegs-- {
			ls := LayerStats{Pegs: pegs, Winnable: int64(len(w.keys[pegs]))}
			if l, ok := fwd[pegs]; ok {
				ls.Reachable = int64(l.len())
			}
			w.Winnable += ls.Winnable
			w.Layers = append(w.Layers, ls)
		}
		w.PeakBytes = mem.Peak()
		w.Elapsed = time.Since(t0)
	}
	return sets, nil
}

// sameAfterOne reports whether prob, whose goal is one peg anywhere, has
// the same winnable positions of two pegs or more as the start's own
// centre-style goal (one peg where the start's vacancy is), given first,
// the canonical positions the start reaches in one jump. It does when every
// single-vacancy start that backward play needs (prob's backward seeds) is
// the start itself or reaches in one jump only positions in first: their
// searches are then the start's after its first jump, so a position of two
// pegs or more whose complement one of them reaches has its complement
// reached from the start. On the English board the centre game's last peg
// can end at d4 or d1 (up to symmetry), and vacating d1 or d4 leaves the
// same position after one jump.
func sameAfterOne(prob Problem, group *engine.Group, first *layer, start uint64) bool {
	if prob.Goal.Kind != engine.OnePeg || first == nil {
		return false
	}
	b := prob.Board
	for _, s := range backwardSeeds(prob, group) {
		if s == start {
			continue
		}
		q := key.Unmix(s)
		for _, j := range b.Moves(nil, q) {
			if _, ok := slices.BinarySearch(first.keys, key.Mix(group.Canonical(q.Apply(j)))); !ok {
				return false
			}
		}
	}
	return true
}

// walkBack finds the winnable positions of reachable layers fwd (by peg
// count, from the start's p0 down to one peg), walking back up from the
// goal positions: a reachable position is winnable when one of its
// children is. It calls each with every layer's winnable keys, fewest pegs
// first. With free, it lets each layer of fwd go (keys, code and counts)
// once done with it. With mirror (the start is the complement of the
// goal's one position: see mirrored), the winnable positions of n-k pegs
// on a board of n holes are the complements of those of k, so it walks
// back only to the middle and complements the layers past it.
func walkBack(ctx context.Context, goal engine.Goal, gen *movegen.Gen, fwd map[int]*layer, p0 int, free, mirror bool, opt ExploreOptions, mem *memory.Budget, each func(pegs int, keys []uint64) error) error {
	group := gen.Group
	n := gen.Board.Holes()
	top := p0 // the last layer walked back to
	if mirror {
		top = min(p0, n/2)
	}
	// The layers the layers past top mirror, copied (each may store what
	// it is given, which overwrites it).
	mirrors := map[int][]uint64{}
	defer func() {
		for _, keys := range mirrors {
			mem.Give(int64(len(keys)) * 8)
		}
	}()
	var below []uint64
	for pegs := 1; pegs <= p0; pegs++ {
		l, ok := fwd[pegs]
		if !ok {
			below = nil
			continue
		}
		var keys []uint64
		if pegs == 1 {
			if err := l.load(opt.Workers, mem); err != nil {
				return err
			}
		}
		if pegs > top {
			keys = complementKeys(mirrors[n-pegs], gen.Board, group, key.Mixed(), opt.Workers)
			mem.Give(int64(len(mirrors[n-pegs])) * 8)
			delete(mirrors, n-pegs)
		} else if pegs == 1 {
			for _, k := range l.keys {
				if goal.Reached(key.Unmix(k)) || goal.Kind == engine.OnePegAt && group.Canonical(key.Unmix(k)) == group.Canonical(1<<uint(goal.Hole)) {
					keys = append(keys, k)
				}
			}
		} else if len(below) > 0 {
			if opt.Progress != nil {
				opt.Progress(Progress{Phase: "backward", Pegs: pegs, Total: l.size()})
			}
			var err error
			if keys, err = parentsOf(ctx, l, below, gen, opt.Workers, mem, free); err != nil {
				return err
			}
		}
		l.drop(mem)
		if free {
			mem.Give(l.bytes())
			l.keys, l.stored, l.m, l.q = nil, nil, nil, nil
		}
		if pegs <= top && n-pegs > top && n-pegs <= p0 {
			if err := mem.Take(int64(len(keys))*8, "the winnable positions to mirror"); err != nil {
				return err
			}
			mirrors[pegs] = slices.Clone(keys)
		}
		if err := each(pegs, keys); err != nil {
			return err
		}
		below = keys
	}
	return nil
}

// complementKeys returns the canonical complements of keys, packed by pk
// (their tags left out), sorted.
func complementKeys(keys []uint64, b *engine.Board, group *engine.Group, pk key.Packing, workers int) []uint64 {
	out := make([]uint64, len(keys))
	pool.Chunks(len(keys), workers, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = pk.Key(group.Canonical(b.Complement(pk.Pos(keys[i]))))
		}
	})
	key.Sort(out, workers)
	return out
}

// parentsOf returns the keys of l that have a child in next (both sorted
// mixed keys). It plays backward from next: the parents of q are q with one
// jump undone, and winnable layers are far smaller than reachable ones, so
// this touches a fraction of what expanding l would. The parents go into
// tables closed on l's keys, which keep those found: memory for l's keys
// in tables, where sorting every parent found took three words each (7 GiB
// on the French board's widest winnable layers). With free, l lets go of
// its keys and code (see walkBack) once they are in the tables.
func parentsOf(ctx context.Context, l *layer, next []uint64, gen *movegen.Gen, workers int, mem *memory.Budget, free bool) ([]uint64, error) {
	if len(next) == 0 || l.size() == 0 {
		return nil, nil
	}
	e := &expander{gen: gen, workers: workers, mem: mem, within: l.keys, undo: true}
	if l.keys == nil {
		// A stored layer seeds the tables from its code (1.7 GB less on
		// the French widest layers than decoding it whole).
		e.within, e.withinCode = nil, l.stored
	}
	if free {
		// Once its keys are in the tables, l goes (on the French c1 run
		// its code is 0.4 GB at the walk back's widest layer).
		e.seeded = func() {
			mem.Give(l.bytes())
			l.keys, l.stored, l.m, l.q = nil, nil, nil, nil
			e.within, e.withinCode = nil, nil
		}
	}
	found, _, err := e.grow(ctx, &layer{pegs: l.pegs + 1, keys: next})
	if errors.Is(err, ErrMemory) {
		err = fmt.Errorf("%w, finding the winnable positions of %d pegs", err, l.pegs)
	}
	if err != nil {
		return nil, err
	}
	mem.Give(found.bytes())
	return found.keys, nil
}
