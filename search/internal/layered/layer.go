package layered

import (
	"errors"
	"math"
	"slices"

	"pegs/engine"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/memory"
	"pegs/search/internal/pool"
)

// Layer is one peg count's canonical positions, sorted by mixed key, with
// optional path counts. In a search from several starts the keys are
// packed words instead, with their tags (see packing).
//
// A layer is held in one of a few forms, which only this package sets:
// keys (sorted, or in the order of their numbers where an Expander found
// them in a bitset; see Sort), with path counts or without; coded while
// it waits for the walk back (see Store; Coded reports it); or as the
// bitsets it was found in (see Expander). Those from outside are made by
// NewLayer, NewCounted and First, and read by Pegs, Keys, Count, Size and
// the like.
type Layer struct {
	pegs int
	keys []uint64
	// m holds the paths from the start to each position's orbit, or
	// narrow does, in half the bytes, when the layer was made from
	// children that count in 64 bits (see paths): at most one of them is
	// set. Count reads either.
	m      []exact.U128
	narrow []uint64
	// stored, if set, holds the keys coded while the layer waits (keys is
	// then nil unless loaded; see Store and Load).
	stored *Stored
	// unsorted says the keys (bare, no counts) are in no order: an
	// Expander of purpose Scanned leaves a layer it found in a bitset so.
	// Sort puts them in order.
	unsorted bool
	// numbered, if set, is the numbering of every position of the layer
	// (it was found in its bitset): their class is known, unchecked.
	numbered *key.Dense
	// dense, if set, holds the positions instead of keys, as the bitsets
	// they were found in (see Scanned).
	dense *bitLayer
}

// Pegs returns the peg count of l's positions.
func (l *Layer) Pegs() int { return l.pegs }

// Keys returns l's keys, l's own array (not a copy): nil where l holds
// its positions otherwise (coded and not loaded, or as bitsets; see
// Keyed and Load). They are sorted unless an Expander of purpose Scanned
// found them (see Sort).
func (l *Layer) Keys() []uint64 { return l.keys }

// Coded reports whether l is held coded (see Store) without its keys
// loaded.
func (l *Layer) Coded() bool { return l.stored != nil && l.keys == nil }

// NewLayer returns the layer of the positions of pegs pegs with mixed keys
// keys, without path counts.
func NewLayer(pegs int, keys []uint64) *Layer { return &Layer{pegs: pegs, keys: keys} }

// NewCounted returns the layer of the positions of pegs pegs with mixed
// keys keys and counts[i] paths to position i.
func NewCounted(pegs int, keys []uint64, counts []exact.U128) *Layer {
	return &Layer{pegs: pegs, keys: keys, m: counts}
}

// NewNarrow is NewCounted for counts that fit in 64 bits, in two thirds
// of its bytes: counts[i] paths to position i.
func NewNarrow(pegs int, keys, counts []uint64) *Layer {
	return &Layer{pegs: pegs, keys: keys, narrow: counts}
}

// First returns the layer of start alone, canonical under group; with
// counted, with the one path to it.
func First(group *engine.Group, start engine.Position, counted bool) *Layer {
	l := NewLayer(start.Pegs(), []uint64{key.Mix(group.Canonical(start))})
	if counted {
		l.m = []exact.U128{{Lo: 1}}
	}
	return l
}

// allOf reports whether l's positions are known to be all of class c:
// found in a bitset of c's numbering.
func (l *Layer) allOf(c engine.Class) bool {
	if l.numbered != nil && l.numbered.Class() == c {
		return true
	}
	return l.dense != nil && len(l.dense.num.ds) == 1 && l.dense.num.ds[0].Class() == c
}

// Release gives l's bytes back to mem and lets its positions go; its
// bitsets, if it holds them (see Scanned), mem keeps for reuse
// (see memory.Budget.Spare).
func (l *Layer) Release(mem *memory.Budget) {
	mem.Give(l.Bytes())
	if l.dense != nil {
		for _, set := range l.dense.sets {
			mem.Spare(set)
		}
	}
	l.keys, l.stored, l.m, l.narrow, l.dense = nil, nil, nil, nil, nil
}

// Slice returns positions lo to hi of l (keys, sorted or not, and their
// path counts), sharing l's arrays.
func (l *Layer) Slice(lo, hi int) *Layer {
	out := &Layer{pegs: l.pegs, keys: l.keys[lo:hi]}
	if l.m != nil {
		out.m = l.m[lo:hi]
	}
	if l.narrow != nil {
		out.narrow = l.narrow[lo:hi]
	}
	return out
}

// Counted reports whether l carries path counts.
func (l *Layer) Counted() bool { return l.m != nil || l.narrow != nil }

// Count returns the path count of l's position i.
func (l *Layer) Count(i int) exact.U128 {
	if l.narrow != nil {
		return exact.U128{Lo: l.narrow[i]}
	}
	return l.m[i]
}

// Wide returns l's path counts in 128 bits: M itself, or Narrow copied
// wide (for files, whose counts are 128-bit).
func (l *Layer) Wide() []exact.U128 {
	if l.narrow == nil {
		return l.m
	}
	out := make([]exact.U128, len(l.narrow))
	for i, m := range l.narrow {
		out[i].Lo = m
	}
	return out
}

// countBytes returns the bytes of l's path counts.
func (l *Layer) countBytes() int64 { return int64(len(l.m))*16 + int64(len(l.narrow))*8 }

// DropCounts gives the bytes of l's path counts back to mem and lets them
// go.
func (l *Layer) DropCounts(mem *memory.Budget) {
	mem.Give(l.countBytes())
	l.m, l.narrow = nil, nil
}

// Sort sorts l's keys if they are Unsorted.
func (l *Layer) Sort(workers int) {
	if l.unsorted {
		key.Sort(l.keys, workers)
		l.unsorted = false
	}
}

// Len returns the number of l's keys: its positions where it holds them
// as keys, else zero (see Size).
func (l *Layer) Len() int { return len(l.keys) }

// Size returns l's positions, held as keys or coded.
func (l *Layer) Size() int {
	switch {
	case l.dense != nil:
		return l.dense.n
	case l.keys == nil && l.stored != nil:
		return l.stored.N
	}
	return len(l.keys)
}

// Bytes returns the bytes l holds: its keys, counts, code and bitsets.
func (l *Layer) Bytes() int64 {
	n := int64(len(l.keys))*8 + l.countBytes()
	if l.stored != nil {
		n += l.stored.Bytes()
	}
	if l.dense != nil {
		n += l.dense.bytes()
	}
	return n
}

// Store codes l's keys (a plain layer of a board of holes holes, without
// counts) and lets them go, moving their charge in mem to the code's. A
// layer already coded stays as it is.
func (l *Layer) Store(holes, workers int, mem *memory.Budget) {
	if l.stored != nil {
		return
	}
	l.Sort(workers) // the code is of sorted keys
	raw := int64(len(l.keys)) * 8
	l.stored = StoreKeys(l.keys, holes, workers)
	l.keys = nil
	mem.Replace(raw, l.stored.Bytes()) // smaller than what it replaces
}

// Load decodes a stored layer's keys, charged to mem until drop.
func (l *Layer) Load(workers int, mem *memory.Budget) error {
	if l.stored == nil || l.keys != nil {
		return nil
	}
	if err := mem.Take(int64(l.stored.N)*8, "a stored layer's positions"); err != nil {
		return err
	}
	l.keys = l.stored.Keys(workers) // sorted in place (see key.Sort)
	return nil
}

// Drop lets a stored layer's loaded keys go.
func (l *Layer) Drop(mem *memory.Budget) {
	if l.stored != nil && l.keys != nil {
		mem.Give(int64(len(l.keys)) * 8)
		l.keys = nil
	}
}

// Stats is what expanding a layer learns about its positions.
type Stats struct {
	Positions int64      // positions up to symmetry
	Raw       int64      // positions counting every symmetric image
	DeadEnds  int64      // positions with no legal jump
	Games     exact.U128 // paths ending in a dead end here
	overflow  bool
	// In a search from several starts (tags), raw and deadEnds by start.
	RawBy, DeadBy [64]int64
}

// Tuning holds two thresholds of the layered search that its tests move
// to reach, on small boards, the paths large boards take. The zero value
// is the default.
type Tuning struct {
	// StoreShare is the share of the memory budget (1/StoreShare; default
	// 8) that the keys of the layers a forward pass has expanded may take
	// before it stores them coded; tests raise it to store every layer.
	StoreShare int64
	// NarrowBelow bounds the parents' path counts under which children
	// count paths in 64 bits (see narrowEnough; default 2^51); tests lower
	// it to make the search use wide records.
	NarrowBelow uint64
	// SmallAbove bounds the games Games counts in 32 bits where it guessed
	// they would fit (see gamesOf; default 2^32-1): a sum above it widens
	// the layer's counts to 64 bits. Tests lower it to make Games widen.
	SmallAbove uint64
	// CodeEvery makes Reach code every layer found in tables as it is
	// collected, rather than only those that would not fit as keys.
	CodeEvery bool
}

// Share returns the share of the memory budget that layers waiting for the
// walk back may take as keys before they are coded (see StoreShare).
func (t Tuning) Share() int64 {
	if t.StoreShare > 0 {
		return t.StoreShare
	}
	return 8
}

// narrowBelow returns NarrowBelow or its default.
func (t Tuning) narrowBelow() uint64 {
	if t.NarrowBelow > 0 {
		return t.NarrowBelow
	}
	return 1 << 51
}

// smallAbove returns SmallAbove or its default.
func (t Tuning) smallAbove() uint64 {
	if t.SmallAbove > 0 {
		return t.SmallAbove
	}
	return math.MaxUint32
}

// ErrOverflow reports a count that passed 128 bits.
var ErrOverflow = errors.New("a count passed 128 bits")

// Only returns the positions of l whose keys are in keys (sorted), with
// whatever they carry (counts, tags), in new arrays so that the memory of
// the others can go. Chunks of l are matched in parallel. The bits low of
// l's keys (the tags of packed words) are left out of the match.
func (l *Layer) Only(keys []uint64, low uint64, workers int) *Layer {
	l.Sort(workers)
	found := make([][]int, pool.ChunkCount(l.Len(), workers))
	pool.Chunks(l.Len(), workers, func(c, lo, hi int) {
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
	out := &Layer{pegs: l.pegs, keys: memory.Make[uint64](len(idx))}
	if l.m != nil {
		out.m = memory.Make[exact.U128](len(idx))
	}
	if l.narrow != nil {
		out.narrow = memory.Make[uint64](len(idx))
	}
	pool.Chunks(len(idx), workers, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			i := idx[j]
			out.keys[j] = l.keys[i]
			if out.m != nil {
				out.m[j] = l.m[i]
			}
			if out.narrow != nil {
				out.narrow[j] = l.narrow[i]
			}
		}
	})
	return out
}
