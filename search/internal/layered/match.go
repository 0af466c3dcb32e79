package layered

import (
	"context"
	"slices"
	"sync/atomic"

	"pegs/engine"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"

	"golang.org/x/sync/errgroup"
)

// SelfJoin returns the keys of l whose complements, made canonical, are in
// l too: l is the middle layer of a mirrored problem on a board of an even
// number of holes (see winnable), whose complements have as many pegs. A
// layer held as bitsets (Scanned) is turned into keys first.
func SelfJoin(ctx context.Context, l *Layer, b *engine.Board, group *engine.Group, workers int, mem *memory.Budget) ([]uint64, error) {
	if err := l.Keyed(ctx, workers, mem); err != nil {
		return nil, err
	}
	return KeepFound(ctx, l, l.Len(), workers, mem, func(dst []uint64, lo, hi int) []uint64 {
		dst = slices.Grow(dst, hi-lo)
		for _, k := range l.keys[lo:hi] {
			dst = append(dst, key.Mix(group.Canonical(b.Complement(key.Unmix(k)))))
		}
		return dst
	})
}

// MeetingKeys returns those of keys (sorted mixed keys of positions of k
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
func MeetingKeys(ctx context.Context, keys, goal []uint64, gen *movegen.Gen, cfg Config, mem *memory.Budget) ([]uint64, error) {
	return meetingKeys(ctx, keys, goal, nil, gen, cfg, mem)
}

// SelfMeetingKeys is MeetingKeys with l's positions as both keys and goal
// (a middle layer of a board of an odd number of holes, whose children's
// complements have as many pegs), sorted; where l is held as a bitset
// (Scanned), that bitset is the goal's and its positions are
// read from it.
func SelfMeetingKeys(ctx context.Context, l *Layer, gen *movegen.Gen, cfg Config, mem *memory.Budget) ([]uint64, error) {
	if l.dense != nil {
		if won, ok, err := meetingDense(ctx, l, nil, l, gen, cfg, mem); ok {
			if err == nil {
				key.Sort(won, cfg.Workers) // in the order of l's numbers
			}
			return won, err
		}
		if err := l.Keyed(ctx, cfg.Workers, mem); err != nil {
			return nil, err
		}
	}
	keys, err := meetingKeys(ctx, l.keys, l.keys, l, gen, cfg, mem)
	if err == nil && l.unsorted {
		key.Sort(keys, cfg.Workers) // in l's order
	}
	return keys, err
}

// meetingKeys is MeetingKeys; goalLayer, if not nil, is the layer goal is
// from (see meetingDense).
func meetingKeys(ctx context.Context, keys, goal []uint64, goalLayer *Layer, gen *movegen.Gen, cfg Config, mem *memory.Budget) ([]uint64, error) {
	n := len(keys)
	if n == 0 || len(goal) == 0 {
		return nil, nil
	}
	from := &Layer{pegs: key.Unmix(keys[0]).Pegs(), keys: keys}
	if won, ok, err := meetingDense(ctx, from, goal, goalLayer, gen, cfg, mem); ok {
		return won, err
	}
	set, release, err := NewSetIn(goal, cfg.Workers, mem, "the positions where the searches meet")
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
	g.SetLimit(pool.Size(cfg.Workers))
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
			if cfg.Progress != nil {
				cfg.Progress("join", pegs, int(done.Add(int64(hi-lo))), n)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return slices.Concat(out...), nil
}

// NewSetIn returns a key.Set of keys with its memory charged to mem
// before it is made (what says what it is for, in a refusal), and a func
// that gives it back.
func NewSetIn(keys []uint64, workers int, mem *memory.Budget, what string) (*key.Set, func(), error) {
	bytes := key.SetBytes(len(keys))
	if err := mem.Take(bytes, what); err != nil {
		return nil, nil, err
	}
	return key.NewSet(keys, workers), func() { mem.Give(bytes) }, nil
}

// KeepFound returns the keys of l (sorted) that find produces. find
// appends the mixed keys it finds for items lo..hi of its input to dst; it
// runs on the worker pool over chunks of [0, n). Each chunk's keys are split
// by their top bits, and each part is sorted and matched against the same
// part of l in parallel, so nothing after find runs on one core. The keys
// found are charged to mem while they are held.
func KeepFound(ctx context.Context, l *Layer, n, workers int, mem *memory.Budget, find func(dst []uint64, lo, hi int) []uint64) ([]uint64, error) {
	if n == 0 || l.Len() == 0 {
		return nil, nil
	}
	l.Sort(workers)
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
