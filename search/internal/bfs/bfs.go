// Package bfs finds solutions with the fewest moves, where a move is a
// chain of one or more jumps by one peg, by a bidirectional breadth-first
// search over positions known to be winnable.
//
// One side searches forward from the start: its level k holds the
// winnable positions, up to symmetry, that k moves reach and no fewer, a
// move from a position being every chain of jumps by one of its pegs. The
// other searches backward from the goal's positions: its level k holds the
// winnable positions from which k moves reach the goal and no fewer, a
// move back being a peg undoing one jump, then more by the same peg. (The
// backward side cannot be the forward search of the goal's complement, as
// the winnable set's is: a chain played backward is not a chain on the
// complement, whose jumps come in reverse order by different pegs.) Each
// step grows the side whose last level is smaller by one level, and every
// new position is looked for among the other side's. The first found ends
// the search, and its two levels add up to the fewest moves: before it,
// levels 0..a forward and 0..b backward had none in common, so every
// solution has more than a+b moves; a position of forward level a+1 found
// at backward level j gives one of a+1+j, and j < b would put the
// position before it on its forward line (level a) at backward level j+1
// ≤ b, a meeting already ruled out. So it has a+b+1 moves. This is Pohl's
// bidirectional search ("Bi-directional search", Machine Intelligence 6,
// 1971), growing the smaller frontier.
//
// The winnable set, found first without counting paths, bounds both
// sides: every position of a solution is winnable, and a shortest line to
// a winnable position passes only through winnable positions, so the
// levels are exact distances. It also cuts chains: a chain through a
// position that cannot win cannot win either, so no longer chain through
// it is tried (backward, a position before one that is not winnable is not
// reachable from the start). On the English centre game, whose fewest is
// 18 moves (Bergholt's solution of 1912, proved minimal by Beasley in
// 1964; J. Beasley, The Ins and Outs of Peg Solitaire, 1985), the sides
// meet at eleven moves forward and seven back, having expanded 202,647
// positions, where one side alone expanded 1,618,170 (forward to
// seventeen moves). A lower bound on the moves left would not shorten
// this: the sides meet in the middle of the board's life, where Bell's
// corner argument (each occupied corner needs a move that starts there)
// is eight moves at most, short of what is left on either side.
//
// A level is expanded on workers in chunks of fixed size; the children
// each finds are taken (marked, see The merge) chunk by chunk in order,
// the first parent in that order keeping each, so that the levels, the
// meeting and the path do not depend on the number of workers. The path
// is rebuilt from the two sides' parent links, turning each canonical
// step back into a real move on the board, and replayed.
//
// # Lookups a round at a time
//
// The search's time goes to cache misses: each move's position is looked
// up among the winnable ones (a run of a layer's sorted positions found by
// its high bits, then read, see key.Sorted) and its marks read, at random
// in tens of megabytes. Walked chain by chain, each lookup waited for the
// one before: in a profile of the English Full level's grade (`perf record
// -g` of `pegs grade --board english --position
// oooooooooooooooo.oooooooooooooooo --format csv`), key.Sorted.Find took
// 30 % of the par's CPU time, the marks' reads in the walk's visit 19 %,
// page faults 13 %. So a worker grows the moves of 32 parents a round of
// one more jump at a time (see tree): a round's positions are made
// canonical, then looked up together by a Batcher (every lookup's run
// asked for, then each run's first position, then each found), then the
// winnable ones' extensions make the next round; the moves are then taken
// in the order the walk took them, their marks read ahead together, so
// the levels, the meeting, the path and the count of positions expanded
// are the walk's (TestTreeWalksAsChains checks the order against
// movegen's walks). The marks, made by memory.Make, are written in at
// once, where fresh pages read before written faulted twice each. Where
// the winnable positions are fewer than readAheadFrom, they stay in a
// core's cache, and each parent's moves are walked as before (see chains):
// the trees' passes made the par of Pyramid (16 pegs) 15 % slower.
//
// Measured on a machine loaded by other work (2 cores), the base (44a40cb
// with BenchmarkPar) against this, alternated: BenchmarkPar in package
// search/measure (`go test ./search/measure -run X -bench
// Par/level=full32 -full -benchtime 5x`, the par alone on the English
// Full level), four pairs at load 1.3-2.2, 0.39-0.50 s of CPU an op against 0.67-0.79, 216-510 ms of wall
// against 389-854; the grade above under `perf record`, three pairs at
// load 1.7-2.0, the par's samples 0.33-0.36 s of wall and 0.58-0.62 s of
// CPU against 0.57-0.61 and 0.92-1.06, its output the same, its max RSS
// 284-292 MB either way (set before the par, which runs at 60-130 MB).
// Lookups are still a third of the par's CPU time, the marks' reads a
// sixth; a bitset of each layer's winnable positions by their numbers in
// the position class (key.Dense, placed by a count of bits as the measure
// pass places children) would read one line a lookup, but would take
// about 100 MB for the English board's 2^33/16 numbers against the
// sorted positions' 22 MB, and was not tried.
//
// # The merge
//
// A chunk's children are marked as soon as it and the chunks before it
// are expanded, by the worker that ends the next chunk to mark, while the
// other workers expand theirs; they read the marks as they go, so a
// child an earlier chunk of the level has marked is not listed again
// (marked later, it would have been passed over then: the level is the
// same). The marks are written and read atomically (on amd64 a store is
// an exchange, a load a plain read), one worker marking at a time. Merged
// once the level's chunks were all expanded, on one goroutine, they kept
// the other workers waiting: in traces of the English Full level's grade
// (pegs grade of the Full level with runtime/trace regions, see package
// search/measure, "The tail"; three pairs at load 3-5 on 2 cores, the
// base 6e7823c) what follows the last chunk took 3-8 ms against 28-41
// ms, and the par 450-648 ms against 446-490, one goroutine alone for 26-54
// ms of it against 38-50. BenchmarkPar level=full32 in package
// search/measure (-full, -benchtime 10x), ten pairs at load 3.9-5.6:
// 278-612 ms an op against 304-696 (ratios 0.65-1.15, median 0.89; the
// second five alone, median 1.00: within the noise), 0.40-0.51 s of CPU
// against 0.43-0.60 (median ratio 0.94). TestFewestMovesWorkers's level
// "upper" (23 pegs, tens of chunks a level) fails if the chunks are
// marked in the order they end.
//
// Merged on the workers after the expansion (commit 8ed8e35, reverted),
// each marking the children whose marks lie in its pages of them, in
// order, then copying those kept into the level a run of chunks each,
// they took more: each worker reads every child to find its own, and the
// marks' misses, split between them, are not most of a merge's cost. A
// benchmark of one level of a million children over 1.7 million marks
// took 46 ms of CPU an op on two goroutines against 25 ms on one, so 23
// ms of wall at best on two idle cores; traces of generate's
// BenchmarkGrade level=Full (load 6-7), 51-92 ms against 26-45 ms.
package bfs

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"pegs/engine"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/pool"
)

// Result is a solution with the fewest moves.
type Result struct {
	Solvable bool
	Jumps    []engine.Jump
	Moves    int
	// Nodes counts the positions the search expanded, on both sides.
	Nodes int64
}

// Winnable numbers the winnable positions of a problem (reachable from its
// start, and able to meet its goal), canonical under the search's group,
// from 0 to Len()−1.
type Winnable interface {
	Len() int
	// Number returns the number of the canonical position c, and false if
	// c is not winnable.
	Number(c engine.Position) (int, bool)
}

// node is a position a side reached, canonical, with its number.
type node struct {
	pos engine.Position
	id  int32
}

// side is one direction of the search.
type side struct {
	// marks[id], shared by the two sides, holds in the bits of a side's
	// shift 0 where the side has not reached position id, else the
	// number of the position one move nearer its roots, plus one (a
	// root's own): a child's look at both sides reads one word.
	marks  []uint64
	shift  uint
	levels [][]node
	// lists holds each chunk's children between levels, for the next
	// level's chunks to reuse (see expand), and listed the children a
	// parent of the last level expanded listed, on average.
	lists  [][]reached
	listed float64
	// gen makes the side's moves: forward, a peg's chains of jumps;
	// back, a peg's jumps undone. by[h] are the jumps a peg at h can
	// take next: FromHoles forward, ToHoles back (see chains and
	// tree.extend).
	gen     *movegen.Gen
	forward bool
	by      [][]movegen.PegJump
	// touched is a sum of the marks read ahead (see expand).
	touched uint64
}

// reach and seen write and read a mark atomically: a level's children
// are marked as its chunks end while its other chunks, which read the
// marks, are expanded (see expand). Only one goroutine writes them at a
// time.
func (s *side) reach(id, parent int32) {
	atomic.StoreUint64(&s.marks[id], s.marks[id]|uint64(parent+1)<<s.shift)
}

func (s *side) seen(id int) bool { return uint32(atomic.LoadUint64(&s.marks[id])>>s.shift) != 0 }

// level returns the level at which s reached x, searching its levels.
func (s *side) level(x node) int {
	for l, nodes := range s.levels {
		for _, y := range nodes {
			if y.id == x.id {
				return l
			}
		}
	}
	panic("bfs: a position a side reached is in none of its levels")
}

// parent returns the position one move nearer s's roots than x, which s
// reached at level l past 0, found in the level before.
func (s *side) parent(x node, l int) node {
	id := int32(uint32(s.marks[x.id]>>s.shift) - 1)
	for _, y := range s.levels[l-1] {
		if y.id == id {
			return y
		}
	}
	panic("bfs: a parent missing from its level")
}

// FewestMoves finds a solution of start toward goal with the fewest moves
// (chains of jumps by one peg) by a bidirectional breadth-first search
// over the positions of win; group may be any group of symmetries that
// keep the goal in place, since the moves still needed from a position do
// not change under them. It expands each level on workers goroutines
// (GOMAXPROCS if not positive), and win must be safe for them to share;
// the result does not depend on their number.
func FewestMoves(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, group *engine.Group, win Winnable, workers int) (Result, error) {
	var sol Result
	root := group.Canonical(start)
	rootID, ok := win.Number(root)
	if !ok {
		return sol, nil
	}
	if win.Len() >= math.MaxInt32 {
		return sol, fmt.Errorf("search: fewest moves over %d winnable positions, past the %d a search numbers", win.Len(), math.MaxInt32-1)
	}
	gen := movegen.New(b, group)
	byFrom, byTo := gen.FromHoles(), gen.ToHoles()
	n := win.Len()
	// The marks, read at random, have their pages written in at once and
	// backed by huge pages where they are large (see memory.Make): as
	// they were made, fresh pages read as zeros before written, each page
	// faulted twice, the second fault flushing every core's TLB.
	marks := memory.Make[uint64](n)
	fwd := &side{marks: marks, gen: gen, forward: true, by: byFrom}
	back := &side{marks: marks, shift: 32, gen: gen, by: byTo}
	first := node{root, int32(rootID)}
	fwd.reach(first.id, first.id)
	fwd.levels = [][]node{{first}}
	meet, found := first, false
	var targets []node
	for _, t := range b.Targets(goal) {
		c := group.Canonical(t)
		id, ok := win.Number(c)
		if !ok || back.seen(id) {
			continue
		}
		x := node{c, int32(id)}
		back.reach(x.id, x.id)
		targets = append(targets, x)
		if c == root {
			meet, found = x, true
		}
	}
	back.levels = [][]node{targets}
	// A worker's tree, its buffers grown once for every level (see
	// expand): made again a level, they were most of the garbage of the
	// small levels package generate measures by the thousand.
	trees := make([]*tree, pool.Size(workers))
	for !found {
		grow, other := fwd, back
		if len(back.levels[len(back.levels)-1]) < len(fwd.levels[len(fwd.levels)-1]) {
			grow, other = back, fwd
		}
		if len(grow.levels[len(grow.levels)-1]) == 0 {
			return sol, errors.New("search: winnable start but no goal found; this is a bug")
		}
		var err error
		meet, found, err = grow.expand(ctx, group, win, other, trees, &sol.Nodes)
		if err != nil {
			return sol, err
		}
	}
	// The canonical steps from the start to the meeting, then on to the
	// goal, each one move from the one before.
	var steps []engine.Position
	x := meet
	for l := fwd.level(meet); l > 0; l-- {
		steps = append(steps, x.pos)
		x = fwd.parent(x, l)
	}
	slices.Reverse(steps)
	x = meet
	for l := back.level(meet); l > 0; l-- {
		x = back.parent(x, l)
		steps = append(steps, x.pos)
	}
	p := start
	for i, c := range steps {
		var move []engine.Jump
		gen.Chains(p, byFrom, func(q engine.Position, jumps []engine.Jump) movegen.Step {
			if group.Canonical(q) == c {
				move = append(move, jumps...)
				p = q
				return movegen.Stop
			}
			return movegen.Extend
		})
		if move == nil {
			return sol, fmt.Errorf("search: cannot rebuild move %d", i+1)
		}
		sol.Jumps = append(sol.Jumps, move...)
	}
	sol.Solvable = true
	sol.Moves = len(steps)
	final, err := b.Replay(start, sol.Jumps)
	if err != nil || !goal.Reached(final) {
		return sol, fmt.Errorf("search: fewest-moves solution does not replay to the goal: %v", err)
	}
	if n := len(b.FormatMoves(sol.Jumps)); n != sol.Moves {
		return sol, fmt.Errorf("search: solution recounts to %d moves, not %d", n, sol.Moves)
	}
	return sol, nil
}

// chunk is the positions of a level a worker expands at a time. The
// chunks are fixed whatever the number of workers, and their children are
// taken in their order, so that the levels, the meeting, the path and the
// count of positions expanded do not depend on the workers.
const chunk = 256

// chains appends to list the winnable positions one move from last[lo:hi]
// that s has not reached, walking each parent's moves in order
// (movegen.Chains forward, ReverseChains back) and looking each position
// up as it comes, and stops after the first that other has reached,
// reporting it. It takes them in the order of a tree's walk, without its
// rounds: where the winnable positions are few (fewer than
// readAheadFrom), their lookups and marks stay in a core's cache, and a
// tree's passes cost more than they saved (BenchmarkPar level=pyramid16
// in package search/measure, 15 % more time).
func (s *side) chains(last []node, lo, hi int, group *engine.Group, win Winnable, other *side, list []reached) ([]reached, bool) {
	stop := false
	for i := lo; i < hi && !stop; i++ {
		visit := func(q engine.Position) movegen.Step {
			c := group.Canonical(q)
			id, ok := win.Number(c)
			switch {
			case !ok:
				return movegen.Prune // see tree.grow
			case s.seen(id):
				return movegen.Extend
			}
			list = append(list, reached{node{c, int32(id)}, int32(i)})
			if other.seen(id) {
				stop = true
				return movegen.Stop
			}
			return movegen.Extend
		}
		if s.forward {
			s.gen.Chains(last[i].pos, s.by, func(q engine.Position, _ []engine.Jump) movegen.Step { return visit(q) })
		} else {
			s.gen.ReverseChains(last[i].pos, s.by, visit)
		}
	}
	return list, stop
}

// mergeBlock is how many children of a level's chunks expand marks at a
// time, their marks read ahead together.
const mergeBlock = 256

// reached is a child a chunk found that its side had not reached before
// the level: the child and its parent's place in the level.
type reached struct {
	child  node
	parent int32
}

// expand adds s's next level, the winnable positions one move on from its
// last that s has not reached, and stops at the first that other has
// reached (in the order of their parents, then of their moves): the
// meeting, returned with found set. The last level's chunks are expanded
// on workers, and their children marked chunk by chunk in order as the
// chunks end (see merge), the first parent in order taking each.
func (s *side) expand(ctx context.Context, group *engine.Group, win Winnable, other *side, trees []*tree, nodes *int64) (meet node, found bool, err error) {
	last := s.levels[len(s.levels)-1]
	chunks := (len(last) + chunk - 1) / chunk
	// Each chunk's children go in a list that a chunk of an earlier
	// level let go of: the lists of the English centre game's widest
	// levels, tens of megabytes, are not made again a level.
	if len(s.lists) < chunks {
		s.lists = append(s.lists, make([][]reached, chunks-len(s.lists))...)
	}
	found1 := s.lists[:chunks]
	for c := range found1 {
		found1[c] = found1[c][:0] // a chunk past the meeting adds none
	}
	// meetChunk is the first chunk known to hold a meeting: those after
	// it need not be expanded.
	var meetChunk atomic.Int64
	meetChunk.Store(int64(chunks))
	w := min(len(trees), chunks)
	idle := make(chan *tree, w)
	for k := range w {
		if trees[k] == nil {
			trees[k] = new(tree)
		}
		idle <- trees[k]
	}
	// The chunks' children are merged in order as the chunks end (see
	// merge), by the worker that ends the next one to merge, while the
	// others expand theirs: merged after the last chunk, on one
	// goroutine, they kept the other workers waiting. Under mu: which
	// chunks are done, how many are merged, whether a worker merges.
	var mu sync.Mutex
	done := make([]bool, chunks)
	merged, merging := 0, false
	kept := make([]int, chunks)
	var r reached
	mergeDone := func() { // with mu held
		if merging {
			return
		}
		merging = true
		for merged < chunks && done[merged] && !found {
			c := merged
			mu.Unlock()
			kept[c], r, found = s.merge(found1[c], last, other)
			if found {
				for m := meetChunk.Load(); int64(c) < m && !meetChunk.CompareAndSwap(m, int64(c)); m = meetChunk.Load() {
				}
			}
			mu.Lock()
			merged++
		}
		merging = false
	}
	most := 0 // the children the chunks found
	err = pool.Each(ctx, idle, 0, len(last), chunk, func(t *tree, lo, hi int) {
		c := lo / chunk
		if int64(c) <= meetChunk.Load() {
			found1[c] = s.expandChunk(t, c, lo, hi, last, group, win, other, &meetChunk)
		}
		mu.Lock()
		done[c] = true
		most += len(found1[c])
		mergeDone()
		mu.Unlock()
	})
	if err != nil {
		return node{}, false, err
	}
	s.listed = float64(most) / float64(len(last))
	// next is made at its size, once, and the chunks' children kept
	// copied into it in order.
	size := 0
	for _, k := range kept {
		size += k
	}
	next := memory.Make[node](size)[:0]
	for c, list := range found1 {
		for _, r := range list[:kept[c]] {
			next = append(next, r.child)
		}
	}
	s.levels = append(s.levels, next)
	if found {
		*nodes += int64(r.parent) + 1
		return r.child, true, nil
	}
	*nodes += int64(len(last))
	return node{}, false, nil
}

// expandChunk returns the children of last[lo:hi], chunk c of a level,
// that s had not reached (see chains and tree), in a list that a chunk of
// an earlier level let go of, and lowers meetChunk to c if one of them is
// a meeting.
func (s *side) expandChunk(t *tree, c, lo, hi int, last []node, group *engine.Group, win Winnable, other *side, meetChunk *atomic.Int64) []reached {
	list := s.lists[c][:0]
	// A list too short for the chunk's children, as the last level's
	// parents had them and a quarter more, is made at that size once:
	// grown by appends, the lists of the English centre game's widest
	// levels were copied a few times each.
	if want := int(s.listed*float64(hi-lo)*5/4) + 16; cap(list) < want {
		list = make([]reached, 0, want)
	}
	stop := false
	n := len(s.marks)
	if n < readAheadFrom {
		list, stop = s.chains(last, lo, hi, group, win, other, list)
	}
	for g := lo; g < hi && !stop && n >= readAheadFrom; g += treeParents {
		t.grow(s, last[g:min(hi, g+treeParents)], group, win)
		list, stop = t.walk(s, other, list, g)
	}
	if stop {
		for m := meetChunk.Load(); int64(c) < m && !meetChunk.CompareAndSwap(m, int64(c)); m = meetChunk.Load() {
		}
	}
	return list
}

// merge marks the children of list, a chunk's, in order, those s had
// not reached yet (an earlier chunk or parent of the level may have)
// taking their parent from last, and moves them to the front of list;
// it returns how many and stops after the first that other has reached:
// the meeting, returned with found set.
func (s *side) merge(list []reached, last []node, other *side) (kept int, meet reached, found bool) {
	for lo := 0; lo < len(list); lo += mergeBlock {
		// A block's marks are asked for together before they are read
		// one by one, so that their cache misses overlap.
		blk := list[lo:min(len(list), lo+mergeBlock)]
		var sum uint64
		for _, r := range blk {
			sum += s.marks[r.child.id]
		}
		s.touched += sum
		for _, r := range blk {
			id := int(r.child.id)
			if s.seen(id) {
				continue
			}
			s.reach(r.child.id, last[r.parent].id)
			list[kept] = r
			kept++
			if other.seen(id) {
				return kept, r, true
			}
		}
	}
	return kept, reached{}, false
}
