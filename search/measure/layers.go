package measure

import (
	"context"
	"encoding/binary"
	"fmt"
	"iter"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"pegs/engine"
	"pegs/search/internal/kernel"
)

// values holds the measures of one layer's positions (one peg count), in
// the order of its keys: what the layer above reads of its children. What
// every position has is held in two arrays: its cells (the P1 player's
// expected jumps, its meta byte and the complete games, 16 bytes, the
// rare larger counts of games apart, see games), a child's read in one
// cache line, and its meta byte again, from which the chunk that
// measured it sets its layer's win bits (see setWins) and the level's
// start is read (see Level); what only a winnable one has is held for
// those alone, in their order, found by a count of set bits.
type values struct {
	pos   positions // the canonical positions, until measured
	place *placer   // a child's place among them
	cells []cell
	games games   // the games past 32 bits
	meta  []uint8 // longest game | flagWin | flagStuck
	// winBits has bit i set where position i can win: a winnable
	// position's place among the winnable ones is its rank (see winAt).
	winBits rankBits
	wins    []winVals // of the winnable positions, in order
	winKeys []uint64  // their keys, until kept (see keepWinners)
	// winP1 is their P1, until kept, written as their winVals are (not
	// in a pass of its own after the layer's passes).
	winP1 []kernel.U128
	// foreAt[w] is where winnable position w's foresight vector starts in
	// fore: W_1 .. W_{longest−1} (see foresightOf).
	foreAt []uint32
	fore   []kernel.U128
	bytes  int64 // charged to the budget, but for sums' and words'
	// sums holds the memory of cells, games and wins, which only the
	// measure pass of the layer above reads (see dropSums): the words of
	// cells and wins (see fill) and the bytes of the games past 32 bits.
	// words holds the memory of meta, foreAt and fore.
	sums  sums
	words [][]uint64
}

// sums is the memory of a layer's measures that only the measure pass of
// the layer above reads.
type sums struct {
	words [][]uint64
	bytes int64
}

// cell is what the measure pass of the layer above sums of a position:
// len, the P1 player's expected jumps from it (fixed point, lenOne is 1,
// short of the true value by less than longest units, one per division
// on the way down), its meta byte (as in values.meta) and its complete
// games in 32 bits, or bigGames where they are past (see games). Its 16
// bytes are read in one cache line: the games in an array of their own
// cost the English Full level's grade a cache miss more a child, and the
// meta there another (a line of the meta array, of 3.6 MB at the widest
// layer, which the caches mostly held).
type cell struct {
	len   len88
	meta  uint8
	games uint32
}

// len88 is an expected number of jumps in the fixed point of lenOne, at
// most 63, in 88 bits, little-endian: the widest array of a layer, with
// the meta byte and the games the size of a kernel.U128.
type len88 [11]byte

// put sets l to x, written in place: a len88 made apart and copied in
// (in a cell made whole on the stack, then copied to its array) was read
// back across the bytes just written, each such load waiting for the
// stores before it to reach the cache (a sixth of measureOne's samples
// fell on that copy in a profile of the English Full level's grade).
func (l *len88) put(x kernel.U128) {
	binary.LittleEndian.PutUint64(l[:8], x.Lo)
	l[8], l[9], l[10] = byte(x.Hi), byte(x.Hi>>8), byte(x.Hi>>16)
}

func (l *len88) lo() uint64 { return binary.LittleEndian.Uint64(l[:8]) }

func (l *len88) get() kernel.U128 {
	return kernel.U128{Lo: l.lo(), Hi: uint64(l[8]) | uint64(l[9])<<8 | uint64(l[10])<<16}
}

// games holds the complete games of a layer's positions past 32 bits
// (marked bigGames in their cells) in 128 in over, in the order of their positions, a position's
// place among them a count of the set bits of overBits before it (see
// newOver and setOver). Most positions of the widest layers have fewer than 2^32
// (the English board's layer of 17 pegs 1,089 of 2.6 million more): 8
// bytes a position there would hold 24 MB more at its peak.
type games struct {
	overBits rankBits
	over     []kernel.U128
}

// bigGames marks a cell whose games are in games.over.
const bigGames = math.MaxUint32

// bigGame is a position's games past 32 bits, as a chunk finds it.
type bigGame struct {
	i int
	n kernel.U128
}

// overBytes is what a layer's games past 32 bits take: over, and the
// bitset and counts that place them.
func overBytes(n, over int) int64 {
	return int64((n+63)/64)*12 + int64(over)*16
}

// newOver makes room for the games past 32 bits of a layer of n
// positions, count of them, which setOver then sets, on several
// goroutines at once, and overBits.count places.
func (g *games) newOver(n, count int) {
	g.overBits = newRankBits(n)
	g.over = kernel.Make[kernel.U128](count)
}

// setOver sets b, the k-th of its layer's games past 32 bits: a word of
// overBits may hold two goroutines' bits, set atomically.
func (g *games) setOver(k int, b bigGame) {
	atomic.OrUint64(&g.overBits.set[b.i/64], 1<<(b.i%64))
	g.over[k] = b.n
}

// rankBits is a bitset of a layer's positions, and the count of the set
// bits before each word: a set position's place among the set ones.
type rankBits struct {
	set    []uint64
	before []uint32
}

// newRankBits returns the empty rankBits of n positions.
func newRankBits(n int) rankBits {
	words := (n + 63) / 64
	return rankBits{kernel.Make[uint64](words), kernel.Make[uint32](words)}
}

// count counts the set bits before each word, once they are set.
func (r *rankBits) count() {
	n := uint32(0)
	for w, word := range r.set {
		r.before[w] = n
		n += uint32(bits.OnesCount64(word))
	}
}

// rank returns how many set bits come before bit i.
func (r *rankBits) rank(i int) int {
	w := i / 64
	return int(r.before[w]) + bits.OnesCount64(r.set[w]&(1<<(i%64)-1))
}

// gamesAt returns the complete games from position i.
func (v *values) gamesAt(i int) kernel.U128 {
	if x := v.cells[i].games; x != bigGames {
		return kernel.U128{Lo: uint64(x)}
	}
	return v.games.over[v.games.overBits.rank(i)]
}

// fill returns n values of T, zero, in words taken from mem
// (memory.Budget.TakeMapped: the large arrays of a layer's measures,
// which come and go a layer at a time, mapped outside the Go heap and
// handed back to the system as soon as the layer above has read them; see
// dropSums and free), and those words.
func fill[T any](n int, mem *kernel.Budget, what string, workers int) ([]T, []uint64, error) {
	if n == 0 {
		return []T{}, nil, nil
	}
	size := int(unsafe.Sizeof(*new(T)))
	words, err := mem.TakeMapped((n*size+7)/8, what, workers)
	if err != nil {
		return []T{}, words, err
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(words))), n), words, nil
}

// winVals is the measures of a winnable position that are 0 for one that
// cannot win: p0 and p1, the P0 and P1 players' chances of winning (fixed
// point, exact.ProbOne is 1, each short of the true value by less than
// longest units), and its solutions.
type winVals struct {
	p0, p1, sol kernel.U128
}

// lost is the winVals of a position that cannot win.
var lost winVals

// A position's meta byte: the jumps of its longest game (at most 63) and
// two flags.
const (
	longestMask = 63
	flagWin     = 1 << winShift
	flagStuck   = 128 // no jump left and the goal not met
)

// winShift is the bit of flagWin in a meta byte.
const winShift = 6

// setWins sets the win bits of positions lo..hi-1 of v, a chunk's, from
// their meta bytes once they are measured, as the chunk's last task (a
// pass of its own over the layer's meta, after the chunks, kept a core
// idle at its end): the words the chunk has whole are written, those it
// shares with the chunks beside it set atomically.
func (v *values) setWins(lo, hi int) {
	for w := lo / 64; w*64 < hi; w++ {
		a, b := max(lo, w*64), min(hi, w*64+64)
		word := winWord(v.meta[a:b]) << (a % 64)
		switch {
		case a == w*64 && (b == w*64+64 || b == len(v.meta)):
			v.winBits.set[w] = word
		case word != 0:
			atomic.OrUint64(&v.winBits.set[w], word)
		}
	}
}

// winWord returns the win flags of meta (at most 64 bytes) as the bits of
// a word, the first the lowest: eight at a time, each byte's flag moved
// to its lowest bit and the eight gathered into the top byte by a
// multiplication.
func winWord(meta []uint8) uint64 {
	const ones, gather = 0x0101010101010101, 0x0102040810204080
	var word uint64
	k := 0
	for ; k+8 <= len(meta); k += 8 {
		x := binary.LittleEndian.Uint64(meta[k:])
		word |= (x >> winShift & ones * gather >> 56) << k
	}
	for ; k < len(meta); k++ {
		word |= uint64(meta[k]>>winShift&1) << k
	}
	return word
}

// bytesPer is what a position takes besides its measures' arrays (see
// fill): its win bit and count, rounded up.
const bytesPer = 1

func (v *values) longest(i int) int { return int(v.meta[i] & longestMask) }

func (v *values) win(i int) bool { return v.meta[i]&flagWin != 0 }

// winAt returns the place of winnable position i among the winnable ones.
func (v *values) winAt(i int) int {
	return v.winBits.rank(i)
}

// winVals returns the winVals of position i.
func (v *values) winVals(i int) *winVals {
	if !v.win(i) {
		return &lost
	}
	return &v.wins[v.winAt(i)]
}

// w returns W_k of a winnable position, at of the winnable ones, whose
// longest game has longest jumps.
func (v *values) w(at, longest, k int) kernel.U128 {
	switch {
	case k >= longest:
		return kernel.ProbOne
	case k == 0:
		return v.wins[at].p0
	}
	return v.fore[int(v.foreAt[at])+k-1]
}

// placer finds a child's place in a layer. Where the layer is held as
// the bitset of one class's numbering (key.Dense) that its symmetries
// keep (as a forward pass leaves a layer it found so, see
// layered.Scanned, and positions reads it), it is that bitset, each word beside a count of the set
// bits before it, so that a child's place is read in one cache line: a
// child is numbered with its siblings in a batch
// (movegen.Parent.MoveRanks) and placed by a count of bits, in a table
// (18 MB for the English board's widest layer) that mostly stays in the
// shared cache. Otherwise it is a key.Index of the keys.
type placer struct {
	d      *kernel.Dense
	blocks []block
	words  []uint64 // blocks' memory (see fill)
	index  *kernel.Index
	bytes  int64 // the index's
}

// block is a word of a placer's bitset, and the bits set before it.
type block struct {
	set, before uint64
}

// newPlacer returns the placer of ps, a layer of pegs pegs, charged to
// mem: by their numbers where ps holds them as a bitset (see bitsPlacer,
// made on workers goroutines), else a key.Index of the keys.
func newPlacer(ps *positions, pegs int, mem *kernel.Budget, workers int) (*placer, error) {
	if ps.d != nil {
		return bitsPlacer(ps, mem, workers)
	}
	pl := &placer{bytes: kernel.IndexBytes(len(ps.keys))}
	if err := mem.Take(pl.bytes, fmt.Sprintf("the index of the %d positions of %d pegs", len(ps.keys), pegs)); err != nil {
		return nil, err
	}
	pl.index = kernel.NewIndex(ps.keys)
	return pl, nil
}

// placeRanks turns each number of ranks into its place, and reports
// whether every one is the layer's.
func (pl *placer) placeRanks(ranks []uint64) bool {
	miss := uint64(0)
	for k, r := range ranks {
		b, bit := &pl.blocks[r/64], uint64(1)<<(r%64)
		miss |= bit &^ b.set
		ranks[k] = b.before + uint64(bits.OnesCount64(b.set&(bit-1)))
	}
	return miss == 0
}

// placeKeys appends the places of the canonical positions cs to dst, and
// reports whether every one is the layer's.
func (pl *placer) placeKeys(dst []uint64, cs []engine.Position) ([]uint64, bool) {
	all := true
	for _, c := range cs {
		j, ok := pl.index.Find(kernel.Mix(c))
		all = all && ok
		dst = append(dst, uint64(j))
	}
	return dst, all
}

// winners is what the measures after the walk need of a layer: its
// winnable positions, sorted, indexed, with their P1.
type winners struct {
	// keys are the positions' keys in their layer's order, until
	// indexed: by sorted where the positions they are come in ascending
	// order (the layer's numbers, see positions), else by index.
	keys   []uint64
	n      int
	sorted *kernel.Sorted
	index  *kernel.Index
	p1     []kernel.U128
}

// place returns the place of the canonical position c among w's, and
// whether it is one of them.
func (w *winners) place(c engine.Position) (int, bool) {
	switch {
	case w == nil:
		return 0, false
	case w.sorted != nil:
		return w.sorted.Find(c)
	case w.index != nil:
		return w.index.Find(kernel.Mix(c))
	}
	return 0, false
}

// find returns whether the canonical position c is winnable, and its P1.
func (w *winners) find(c engine.Position) (kernel.U128, bool) {
	j, ok := w.place(c)
	if !ok {
		return kernel.U128{}, false
	}
	return w.p1[j], true
}

// layers is a level's state space measured layer by layer.
type layers struct {
	ctx     context.Context
	goal    engine.Goal
	gen     *kernel.Gen
	group   *engine.Group
	mem     *kernel.Budget
	workers int
	// win[pegs] holds the winnable positions of pegs pegs.
	win                 []*winners
	reachable, winnable int64
	// inner counts the positions that have a jump, jumps their jumps.
	inner, jumps int64
	root         *values
	// spares holds the blocks of the chunks' outputs let go, and
	// scratch the buffers of the chunks done, for the next chunks.
	spares  spares
	scratch scratches
}

// parallelFrom is the fewest positions of a layer that it is measured on
// several goroutines: below it, one goroutine does the layer, as fast as
// splitting it (the levels that package generate makes by the thousand
// have layers of a few hundred positions).
const parallelFrom = 1 << 12

// parallelPegs is the fewest pegs of a level measured on GOMAXPROCS
// goroutines: smaller levels (those package generate measures by the
// thousand, 6 to 20 pegs, on its own pool of workers) are measured on one,
// where two cost more CPU time than they saved (BenchmarkLevel
// level=generated: 78.6 s of CPU at GOMAXPROCS 2 against 70.4 s for the
// depth-first walk, 12.6 s against 15.2 s at GOMAXPROCS 1).
const parallelPegs = 21

// chunkBounds returns the chunks a pass over n positions of a layer on
// workers goroutines splits them into, chunk c being positions bounds[c]
// to bounds[c+1]-1: with one worker, kernel.ChunkCount's, of equal size;
// with more, chunks that shrink as the pass goes (guided: each a
// 1/(chunkGuide·workers) share of the positions left, none of fewer than
// chunkLeast, or than a 1/(4·workers) share of a small layer), taken in
// order by the workers as each finishes one, so that a layer's last
// chunks are small and no worker is left alone long at its end (a
// chunk's positions vary in cost). With four chunks a worker, a trace of
// the English Full level's grade had one goroutine alone for 7 % of its
// measure passes and 12 % of its foresight passes, with 32 equal ones a
// worker for 5 and 6 % (loaded machine); with those, the last chunks of
// its widest layers' measure passes ran 12-57 ms, these guided ones
// (about 95 a layer there) 0.2-0.6 ms (traces of BenchmarkLevel
// level=full32, loaded machine), the time a core may wait at a layer's
// end.
func chunkBounds(n, workers int) []int {
	if n == 0 {
		return []int{0}
	}
	if workers == 1 {
		c := kernel.ChunkCount(n, workers)
		bounds := make([]int, c+1)
		for k := range bounds {
			bounds[k] = k * n / c // as kernel.Split bounds chunk k
		}
		return bounds
	}
	least := max(1, min(chunkLeast, (n+4*workers-1)/(4*workers)))
	bounds := []int{0}
	for lo := 0; lo < n; {
		lo += min(n-lo, max(least, (n-lo)/(chunkGuide*workers)))
		bounds = append(bounds, lo)
	}
	return bounds
}

const (
	chunkGuide = 8
	chunkLeast = 1024
)

// splitBounds runs f on each chunk of bounds (see chunkBounds) on workers
// goroutines, each taking the next as it finishes one.
func splitBounds(bounds []int, workers int, f func(c, lo, hi int)) {
	chunks := len(bounds) - 1
	kernel.Split(chunks, workers, chunks, func(c, _, _ int) { f(c, bounds[c], bounds[c+1]) })
}

// batch is about how many children a goroutine looks up together: their
// numbers, then their places, then their measures, so that their cache
// misses overlap rather than come one after another.
const batch = 512

// trimLayer is the fewest positions of two layers, one measured from the
// other, before which the memory the heap has let go of goes back to the
// system (see memory.Budget.Trim: a collection and a scavenge, a few
// milliseconds), with the spare bitsets the budget keeps: the layers
// before let go of tens of megabytes, which the heap keeps (the English
// Full level's grade: max RSS 297-307 MB without, 279-282 with). Once, at
// the largest pair, where the most is held: trimmed past each layer of a
// million positions, the same grade held 276-278 MB but took 55-60
// thousand page faults rather than 35-38 thousand, the heap faulting its
// pages in again after each.
const trimLayer = 1 << 20

// measureLayers finds the positions of the level's state space layer by
// layer (layered.Forward), then measures them from the last layer up.
func measureLayers(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, budget int64) (*layers, error) {
	gen := kernel.NewGen(b, b.GoalSymmetry(goal))
	mem := kernel.NewBudget(budget)
	workers := kernel.PoolSize(0)
	if start.Pegs() < parallelPegs {
		workers = 1
	}
	l := &layers{ctx: ctx, goal: goal, gen: gen, group: gen.Group, mem: mem, workers: workers, win: make([]*winners, start.Pegs()+1)}
	first := kernel.First(gen.Group, start, false)
	// A layer found in bitsets waits as them, a bit a number rather than
	// a key a position, and is read from them when measured (see
	// positions).
	e, err := kernel.NewExpander(kernel.Scanned, kernel.Setup{Gen: gen, Mem: mem, Workers: l.workers})
	if err != nil {
		return nil, err
	}
	fwd, err := kernel.Forward(ctx, e, first, nil, nil)
	if err != nil {
		return nil, err
	}
	// The layers past the widest wait through its measures packed (a
	// fifth of their bitsets' memory, 24 MB less held at the English
	// board's peak), and are unpacked as their turn comes.
	widest := 0
	for d := range fwd {
		if fwd[d].Size() > fwd[widest].Size() {
			widest = d
		}
	}
	for _, l := range fwd[:widest] {
		l.Pack(workers, mem)
	}
	var below *values
	// The most is held while a layer is measured from the one below: where
	// that pair of layers is the largest, of trimLayer positions or more,
	// what the heap has let go of goes back to the system first.
	peakAt := -1
	for d := 0; d+1 < len(fwd); d++ {
		if n := fwd[d].Size() + fwd[d+1].Size(); n >= trimLayer && (peakAt < 0 || n > fwd[peakAt].Size()+fwd[peakAt+1].Size()) {
			peakAt = d
		}
	}
	for d := len(fwd) - 1; d >= 0; d-- {
		if d == peakAt {
			mem.Trim()
		}
		// The measures' arrays are mapped outside the heap (see fill):
		// on an error, those held are handed back.
		pos, err := layerPositions(ctx, gen, fwd[d], l.workers, mem)
		if err != nil {
			below.free(mem)
			return nil, err
		}
		// measure lets go of below as it reads it, and of what it made on
		// an error.
		cur, err := l.measure(pos, fwd[d].Pegs(), below)
		if err != nil {
			below.free(mem)
			return nil, err
		}
		l.keepWinners(fwd[d].Pegs(), cur)
		// The layer above finds its children by their places alone: the
		// positions, charged as the forward layer's, go.
		fwd[d].Release(mem)
		below = cur
	}
	l.root = below
	l.spares, l.scratch = spares{}, scratches{} // they go with the walk
	if err := l.indexWinners(); err != nil {
		return nil, err
	}
	return l, nil
}

// dropSums gives back to mem the memory of what only the measure pass of
// the layer above reads of v (see sums).
func (v *values) dropSums(mem *kernel.Budget) {
	mem.Give(v.sums.bytes)
	for _, w := range v.sums.words {
		mem.GiveMapped(w)
	}
	v.cells, v.games, v.wins, v.sums = nil, games{}, nil, sums{}
}

// dropPlacer gives back to mem the memory of v's placer, once the layer
// above has placed its children.
func (v *values) dropPlacer(mem *kernel.Budget) {
	if v.place == nil {
		return
	}
	mem.Give(v.place.bytes)
	mem.GiveMapped(v.place.words)
	v.place = nil
}

// free gives v's memory back to mem, if v is not nil; again, it does
// nothing.
func (v *values) free(mem *kernel.Budget) {
	if v == nil {
		return
	}
	v.dropSums(mem)
	v.dropPlacer(mem)
	mem.Give(v.bytes)
	for _, w := range v.words {
		mem.GiveMapped(w)
	}
	*v = values{}
}

// chunkOut is what measuring a chunk of a layer's positions makes besides
// their cells and meta: its winnable positions' winVals and where their
// foresight vectors will start (foreAt, from the chunk's start; fore
// counts them), what the foresight pass reads of their children (see
// foreKids), its positions with a jump and their jumps.
type chunkOut struct {
	wins         blocks[winOut]
	big          blocks[bigGame] // its positions' games past 32 bits
	kids         foreKids
	fore         int
	inner, jumps int64
	err          error
}

// winOut is a winnable position's winVals, where its foresight vector
// will start, from its chunk's start, and its key.
type winOut struct {
	winVals
	foreAt uint32
	key    uint64
}

// foreKids is what the foresight pass reads of the children of a chunk's
// winnable positions with a foresight vector (those whose longest game has
// two jumps or more), in their order, as the measure pass found them:
// for each, in heads, its longest game and its jumps (longest |
// jumps<<kidShift); then, in metas, each child's meta byte (which tells
// whether it can win and its longest game), and in wins, each winnable
// child's place among its layer's winnable ones. So the foresight pass
// neither numbers nor places the children again, nor reads their meta
// bytes and win bits, and the layer below's placer goes before it (see
// measure).
type foreKids struct {
	heads, wins blocks[uint32]
	metas       blocks[uint8]
}

// kidShift is where a foreKids head holds the jumps.
const kidShift = 6

// add records a position whose longest game has longest jumps and
// which has jumps children, then given by kid.
func (f *foreKids) add(longest uint8, jumps int) {
	f.heads.add(uint32(longest) | uint32(jumps)<<kidShift)
}

// kid records a child's meta byte m, and its place at among the
// winnable ones if it can win.
func (f *foreKids) kid(m uint8, at int) {
	f.metas.add(m)
	if m&flagWin != 0 {
		f.wins.add(uint32(at))
	}
}

// reader reads a blocks's items in order.
type reader[T any] struct {
	b    *blocks[T]
	k, i int // the next item is b.blocks[k][i]
}

func (r *reader[T]) next() T {
	for r.i == len(r.b.blocks[r.k]) {
		r.k, r.i = r.k+1, 0
	}
	r.i++
	return r.b.blocks[r.k][r.i-1]
}

// blocks holds a chunk's winOuts, bigGames or foreKids' items in
// blocks, each made once, as large as the blocks before it together up to
// winBlock: a slice grown by append would make about five times its final
// size (large slices grow by a quarter), garbage that the heap held at
// the English board's widest layers (tens of megabytes a layer). A
// chunk's last block is part empty: of 4096 items at most, the English
// Full level's grade held 1 MB more resident (median of five, 64 chunks a
// layer) than of 1024. A block comes from spare where it holds one of
// its size.
type blocks[T any] struct {
	blocks [][]T
	n      int
	spare  *spare[T]
}

const winBlock = 1024

func (b *blocks[T]) add(w T) {
	if k := len(b.blocks) - 1; k < 0 || len(b.blocks[k]) == cap(b.blocks[k]) {
		size := min(winBlock, max(16, b.n))
		blk := b.spare.get(size)
		if blk == nil {
			blk = make([]T, 0, size)
		}
		b.blocks = append(b.blocks, blk)
	}
	k := len(b.blocks) - 1
	b.blocks[k] = append(b.blocks[k], w)
	b.n++
}

// spare holds the blocks of the chunks' outputs let go, by size (16 items
// to winBlock, powers of two, as blocks makes them), for the chunks of
// the next layers to reuse, rather than make afresh: of the 607 MB that
// BenchmarkLevel's English Full level allocated on the heap, 190 MB were
// such blocks, each allocation bringing the next collection nearer; with
// those of winBlock items reused, 466 MB, and its grade (pegs grade, GOGC
// 25) took 46 collections rather than 58 (GODEBUG=gctrace=1, loaded
// machine); with the smaller ones too, 352 MB and 37 collections.
type spare[T any] struct {
	mu   sync.Mutex
	free [spareSizes][][]T // by size: 16<<k items
}

// spareSizes is how many sizes of block a spare keeps: 16 to winBlock
// items.
const spareSizes = 7

// spareSize returns the place of a block of size items in spare.free, or
// -1 if it keeps none of that size.
func spareSize(size int) int {
	k := bits.Len(uint(size)) - 5
	if k < 0 || k >= spareSizes || size != 16<<k {
		return -1
	}
	return k
}

// get returns an empty block of size items from s, or nil if s is nil or
// holds none of that size.
func (s *spare[T]) get(size int) []T {
	k := spareSize(size)
	if s == nil || k < 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	free := s.free[k]
	last := len(free) - 1
	if last < 0 {
		return nil
	}
	blk := free[last]
	free[last], s.free[k] = nil, free[:last]
	return blk[:0]
}

// keep takes b's blocks into s, if s is not nil, and empties b.
func (s *spare[T]) keep(b *blocks[T]) {
	if s != nil {
		s.mu.Lock()
		for _, blk := range b.blocks {
			if k := spareSize(cap(blk)); k >= 0 {
				s.free[k] = append(s.free[k], blk)
			}
		}
		s.mu.Unlock()
	}
	*b = blocks[T]{spare: s}
}

// spares is a spare for each kind of block of the chunks' outputs.
type spares struct {
	wins  spare[winOut]
	big   spare[bigGame]
	words spare[uint32]
	bytes spare[uint8]
}

// newChunkOut returns an empty chunkOut whose blocks come from sp.
func newChunkOut(sp *spares) chunkOut {
	return chunkOut{
		wins: blocks[winOut]{spare: &sp.wins},
		big:  blocks[bigGame]{spare: &sp.big},
		kids: foreKids{heads: blocks[uint32]{spare: &sp.words}, wins: blocks[uint32]{spare: &sp.words}, metas: blocks[uint8]{spare: &sp.bytes}},
	}
}

// keepChunkOut gives o's blocks to sp.
func keepChunkOut(sp *spares, o *chunkOut) {
	sp.wins.keep(&o.wins)
	sp.big.keep(&o.big)
	sp.words.keep(&o.kids.heads)
	sp.words.keep(&o.kids.wins)
	sp.bytes.keep(&o.kids.metas)
}

// all yields the chunks' items of outs, in order, given by get.
func all[T any](outs []chunkOut, get func(*chunkOut) *blocks[T]) iter.Seq[T] {
	return func(yield func(T) bool) {
		for c := range outs {
			for _, blk := range get(&outs[c]).blocks {
				for _, x := range blk {
					if !yield(x) {
						return
					}
				}
			}
		}
	}
}

// measure measures the positions of layer l from their children's values
// in below (nil for the last layer).
func (ls *layers) measure(pos positions, pegs int, below *values) (_ *values, err error) {
	n := pos.n
	v := &values{pos: pos, bytes: int64(n) * bytesPer}
	defer func() {
		if err != nil {
			v.free(ls.mem)
		}
	}()
	what := fmt.Sprintf("the measures of the %d positions of %d pegs", n, pegs)
	if err := ls.mem.Take(v.bytes, what); err != nil {
		return nil, err
	}
	var arr []uint64
	if v.cells, arr, err = fill[cell](n, ls.mem, what, ls.workers); err != nil {
		return nil, err
	}
	v.sums.words = append(v.sums.words, arr)
	if v.meta, arr, err = fill[uint8](n, ls.mem, what, ls.workers); err != nil {
		return nil, err
	}
	v.words = append(v.words, arr)
	v.winBits = newRankBits(n)
	workers := ls.workers
	if n < parallelFrom {
		workers = 1
	}
	bounds := chunkBounds(n, workers)
	curs := v.pos.cursors(bounds[:len(bounds)-1], workers)
	outs := make([]chunkOut, len(bounds)-1)
	splitBounds(bounds, workers, func(c, lo, hi int) {
		if err := ls.ctx.Err(); err != nil {
			outs[c].err = err
			return
		}
		if outs[c] = ls.measureChunk(v, below, curs[c], lo, hi); outs[c].err == nil {
			v.setWins(lo, hi)
		}
	})
	fores, wins, big := 0, 0, 0
	for c := range outs {
		if outs[c].err != nil {
			return nil, outs[c].err
		}
		ls.inner += outs[c].inner
		ls.jumps += outs[c].jumps
		fores += outs[c].fore
		wins += outs[c].wins.n
		big += outs[c].big.n
	}
	// The children are measured: the foresight pass reads of the layer
	// below only its foresight vectors and where they start (see
	// foreKids), so its placer, expected jumps, games and winVals go
	// now, before this layer's winnable positions' measures and vectors
	// are made and the chunks' outputs moved, where the most was held (at
	// the English board's widest layers, 17 and 75 MB).
	if below != nil {
		below.dropPlacer(ls.mem)
		below.dropSums(ls.mem)
	}
	if big > 0 {
		over := overBytes(n, big)
		if err := ls.mem.Take(over, "the games past 32 bits"); err != nil {
			return nil, err
		}
		v.sums.bytes += over
		v.games.newOver(n, big)
	}
	// One array of the chunks' winVals and their foresight vectors'
	// places, moved by where each chunk's land; the vectors follow, in a
	// second pass over the winnable positions.
	if v.wins, arr, err = fill[winVals](wins, ls.mem, "the winnable positions' measures", ls.workers); err != nil {
		return nil, err
	}
	v.sums.words = append(v.sums.words, arr)
	if v.foreAt, arr, err = fill[uint32](wins, ls.mem, "the winnable positions' measures", ls.workers); err != nil {
		return nil, err
	}
	v.words = append(v.words, arr)
	if err := ls.mem.Take(int64(wins)*8, "the winnable positions' keys"); err != nil {
		return nil, err
	}
	v.winKeys = kernel.Make[uint64](wins) // charged as keepWinners's
	if err := ls.mem.Take(int64(wins)*16, "the winnable positions' P1"); err != nil {
		return nil, err
	}
	v.winP1 = kernel.Make[kernel.U128](wins) // charged as keepWinners's
	// Each chunk's items (its winnable positions' measures, its games
	// past 32 bits) land after the chunks' before it, a chunk a goroutine.
	type at struct{ win, fore, big int }
	ats := make([]at, len(outs))
	for c := 1; c < len(outs); c++ {
		o := &outs[c-1]
		ats[c] = at{ats[c-1].win + o.wins.n, ats[c-1].fore + o.fore, ats[c-1].big + o.big.n}
	}
	// The winnable positions' places are counted meanwhile, as a task
	// of their own, the first taken.
	kernel.Split(len(outs)+1, workers, len(outs)+1, func(c, _, _ int) {
		if c == 0 {
			v.winBits.count()
			return
		}
		c--
		k := ats[c].win
		for w := range all(outs[c:c+1], func(o *chunkOut) *blocks[winOut] { return &o.wins }) {
			v.wins[k], v.foreAt[k], v.winKeys[k], v.winP1[k] = w.winVals, uint32(ats[c].fore)+w.foreAt, w.key, w.p1
			k++
		}
		k = ats[c].big
		for b := range all(outs[c:c+1], func(o *chunkOut) *blocks[bigGame] { return &o.big }) {
			v.games.setOver(k, b)
			k++
		}
		ls.spares.wins.keep(&outs[c].wins)
		ls.spares.big.keep(&outs[c].big)
	})
	if big > 0 {
		v.games.overBits.count()
	}
	// The vectors, every one written by the foresight pass (see
	// foresightOf).
	if v.fore, arr, err = fill[kernel.U128](fores, ls.mem, "foresight vectors", ls.workers); err != nil {
		return nil, err
	}
	v.words = append(v.words, arr)
	// The vectors are written a chunk of the measure pass at a time (its
	// chunks shrink as the pass goes, so these do too, see chunkBounds).
	if fores > 0 {
		kernel.Split(len(outs), workers, len(outs), func(c, _, _ int) {
			foresightChunk(v.fore[ats[c].fore:ats[c].fore+outs[c].fore], below, &outs[c].kids)
			keepChunkOut(&ls.spares, &outs[c])
		})
	}
	// The layer below has been read: what is left of it (its vectors and
	// meta bytes, 55 MB at the English board's widest layers) goes before
	// this layer's placer is made.
	if below != nil {
		below.free(ls.mem)
	}
	if v.place, err = newPlacer(&v.pos, pegs, ls.mem, workers); err != nil {
		return nil, err
	}
	v.pos = positions{} // the forward layer's: it lets them go
	ls.reachable += int64(n)
	return v, nil
}

// winKid is a winnable child: its place among its layer's winnable
// positions and the jumps of its longest game.
type winKid struct {
	at      int32
	longest uint8
}

// measureChunk measures positions lo..hi of v, read by cur (at lo, a
// copy: the chunks' cursors side by side would share cache lines), from
// their children in below, a batch of parents at a time, two in hand (see
// the package doc, Batches in a pipeline): a batch's children numbered,
// their placer blocks asked for while the batch before is measured, then
// placed and their cells asked for, which come while the batch after is
// numbered; then its parents measured. Where below is numbered, the
// children of kernel.MaxBatch parents are numbered together
// (Parent.MoveRanksBatch, one assembly loop for them all rather than one
// a parent, each ended by a mispredicted branch).
func (ls *layers) measureChunk(v, below *values, cur cursor, lo, hi int) chunkOut {
	out := newChunkOut(&ls.spares)
	sc := ls.scratch.get(ls.gen)
	par := sc.par
	// next is the batch being numbered (its children's numbers or places),
	// ready the one placed whose cells are asked for, to be measured.
	next, ready := &sc.batches[0], &sc.batches[1]
	kids := sc.kids[:0]
	pend := sc.pend[:0] // parents to number, then next's
	defer func() {
		next.reset()
		ready.reset()
		sc.kids, sc.pend = kids, pend
		ls.scratch.put(sc)
	}()
	var pendEnds [kernel.MaxBatch]int32
	// number numbers the children of the parents pend, which are then
	// next's.
	number := func() {
		n := int32(len(next.places))
		next.places = par.MoveRanksBatch(next.places, pend, nil, below.place.d, pendEnds[:len(pend)])
		for _, e := range pendEnds[:len(pend)] {
			next.ends = append(next.ends, n+e)
		}
		next.who, pend = append(next.who, pend...), pend[:0]
	}
	dense := below != nil && below.place.d != nil
	done := 0
	// measureReady measures ready's parents.
	measureReady := func() {
		k := 0
		for b, p := range ready.who {
			e := int(ready.ends[b])
			ls.measureOne(v, below, lo+done+b, p, ready.places[k:e], &out)
			k = e
		}
		done += len(ready.who)
		ready.reset()
	}
	// flush measures ready, and makes next ready: its placer blocks asked
	// for before ready is measured, then its children placed and their
	// cells asked for, which come while the batch after it is numbered.
	flush := func() bool {
		if len(pend) > 0 {
			number()
		}
		if dense {
			kernel.PrefetchWords(unsafe.Pointer(unsafe.SliceData(below.place.blocks)), next.places, 4)
		}
		measureReady()
		if dense && !below.place.placeRanks(next.places) {
			return false
		}
		if below != nil && len(below.cells) > 0 {
			kernel.Prefetch(unsafe.Pointer(unsafe.SliceData(below.cells)), next.places, 4)
		}
		next, ready = ready, next
		return true
	}
	var p engine.Position
	for range hi - lo {
		p = cur.next()
		switch {
		case below == nil:
			next.ends, next.who = append(next.ends, int32(len(next.places))), append(next.who, p)
		case dense:
			if pend = append(pend, p); len(pend) < kernel.MaxBatch {
				continue
			}
			number()
		default:
			par.Set(p)
			kids = par.MoveChildren(kids[:0], p)
			var ok bool
			if next.places, ok = below.place.placeKeys(next.places, kids); !ok {
				out.err = errMissing(p)
				return out
			}
			next.ends, next.who = append(next.ends, int32(len(next.places))), append(next.who, p)
		}
		if len(next.places) >= batch && !flush() {
			out.err = errMissing(p)
			return out
		}
	}
	if !flush() {
		out.err = errMissing(p)
		return out
	}
	measureReady()
	return out
}

// batchOf is a batch of parents of a measure chunk (who), and their
// children's numbers or places, each parent's ending at ends[b].
type batchOf struct {
	places []uint64
	ends   []int32
	who    []engine.Position
}

// reset empties b, keeping its room.
func (b *batchOf) reset() {
	b.places, b.ends, b.who = b.places[:0], b.ends[:0], b.who[:0]
}

// scratch is what a measure chunk works in besides its output: a Parent
// and the buffers of its batches, kept for the next chunk (see
// scratches).
type scratch struct {
	par        *kernel.Parent
	batches    [2]batchOf // see measureChunk
	kids, pend []engine.Position
}

// scratches holds the scratch of the chunks done, for the next ones: made
// afresh a chunk, the batches' buffers grown and a Parent took 74 MB of
// the 466 MB that BenchmarkLevel's English Full level allocated on the
// heap; kept, it allocated 387 MB, and its grade took 38 collections
// rather than 46 (see spare).
type scratches struct {
	mu   sync.Mutex
	free []*scratch
}

// get returns a scratch of s, or a new one for gen's board.
func (s *scratches) get(gen *kernel.Gen) *scratch {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := len(s.free) - 1
	if k < 0 {
		return &scratch{par: gen.NewParent()}
	}
	sc := s.free[k]
	s.free[k], s.free = nil, s.free[:k]
	return sc
}

// put gives sc back to s.
func (s *scratches) put(sc *scratch) {
	s.mu.Lock()
	s.free = append(s.free, sc)
	s.mu.Unlock()
}

// errMissing reports a child of p (or of a parent near it) missing from
// the layer below.
func errMissing(p engine.Position) error {
	return fmt.Errorf("measure: a child of %#x or a parent near it is missing from the layer below; this is a bug", uint64(p))
}

// measureOne measures position i of v, p, from its children, places ks
// in below, appending to out, but for its foresight vector (see
// foresightChunk).
func (ls *layers) measureOne(v, below *values, i int, p engine.Position, ks []uint64, out *chunkOut) {
	if len(ks) == 0 {
		v.cells[i] = cell{games: 1, meta: flagStuck}
		v.meta[i] = flagStuck
		if ls.goal.Reached(p) {
			v.cells[i].meta, v.meta[i] = flagWin, flagWin
			out.wins.add(winOut{winVals{p0: kernel.ProbOne, p1: kernel.ProbOne, sol: kernel.U128{Lo: 1}}, uint32(out.fore), kernel.Mix(p)})
		}
		return
	}
	out.inner++
	out.jumps += int64(len(ks))
	var longest uint8
	var win bool
	var length, games kernel.U128
	allowed := 0
	for _, j := range ks {
		m := below.cells[j].meta
		longest = max(longest, m&longestMask)
		games, _ = games.Add(below.gamesAt(int(j)))
		win = win || m&flagWin != 0
		if m&flagStuck == 0 {
			allowed++
			length, _ = length.Add(below.cells[j].len.get())
		}
	}
	if allowed == 0 {
		// Every jump sticks: the player has no choice to make (and no
		// child can win, so P1 stays 0).
		for _, j := range ks {
			length, _ = length.Add(below.cells[j].len.get())
		}
		allowed = len(ks)
	}
	longest++
	// Sums of at most a few hundred children cannot overflow: see
	// exact.ProbOne and lenOne.
	len1, _ := lenOne.Add(kernel.DivFloor(length, uint64(allowed)))
	c := &v.cells[i] // its fields written in place (see len88.put)
	c.len.put(len1)
	c.meta, c.games = longest, bigGames
	if games.Hi == 0 && games.Lo < bigGames {
		c.games = uint32(games.Lo)
	} else {
		out.big.add(bigGame{i, games})
	}
	if !win {
		v.meta[i] = longest
		return
	}
	c.meta = longest | flagWin
	v.meta[i] = longest | flagWin
	// A stuck child cannot win, so P1's sum over the winnable children is
	// its sum over the allowed ones. A position whose longest game has
	// two jumps or more has a foresight vector, made from its children
	// as out.kids keeps them.
	var p0, p1, sol kernel.U128
	fored := longest >= 2
	if fored {
		out.kids.add(longest, len(ks))
	}
	for _, j := range ks {
		m, at := below.cells[j].meta, 0
		if m&flagWin != 0 {
			at = below.winAt(int(j))
			cw := &below.wins[at]
			p0, _ = p0.Add(cw.p0)
			p1, _ = p1.Add(cw.p1)
			sol, _ = sol.Add(cw.sol)
		}
		if fored {
			out.kids.kid(m, at)
		}
	}
	out.wins.add(winOut{winVals{p0: kernel.DivFloor(p0, uint64(len(ks))), p1: kernel.DivFloor(p1, uint64(allowed)), sol: sol}, uint32(out.fore), kernel.Mix(p)})
	out.fore += int(longest) - 1
}

// foresightChunk writes the foresight vectors of a measure chunk's
// winnable positions whose longest games have two jumps or more (see
// foresightOf), in their order, to fore (the chunk's run of its layer's
// vectors), from their children in below as kids holds them.
func foresightChunk(fore []kernel.U128, below *values, kids *foreKids) {
	var wk []winKid
	heads, metas, wins := reader[uint32]{b: &kids.heads}, reader[uint8]{b: &kids.metas}, reader[uint32]{b: &kids.wins}
	at := 0
	for range kids.heads.n {
		h := heads.next()
		longest, jumps := int(h&longestMask), int(h>>kidShift)
		var lostBy [longestMask + 1]int32
		wk = wk[:0]
		for range jumps {
			m := metas.next()
			if m&flagWin == 0 {
				lostBy[m&longestMask]++
				continue
			}
			wk = append(wk, winKid{at: int32(wins.next()), longest: m & longestMask})
		}
		foresightOf(fore[at:at+longest-1], below, wk, &lostBy, jumps)
		at += longest - 1
	}
}

// keepWinners keeps layer pegs's winnable positions and their P1, for the
// measures that follow lines from the start (Critical, UniqueFirst, the
// par).
func (ls *layers) keepWinners(pegs int, v *values) {
	n := len(v.wins)
	ls.winnable += int64(n)
	ls.win[pegs] = &winners{keys: v.winKeys, n: n, p1: v.winP1}
	v.winKeys, v.winP1 = nil, nil
}

// indexWinners indexes the winnable positions of every layer, once the
// layers are measured and let go: the indexes, two to four slots a
// position, would otherwise be held through the measures of the widest
// layers (30 MB of the English Full level's peak). A layer whose
// positions come in ascending order (those read from a bitset of their
// numbers) is indexed by them (kernel.Sorted): the English Full level's
// par found its 8 to 15 million children's places in a hash index 0.5 s
// of CPU, a cache miss each. The layers are indexed on the level's
// goroutines, a layer each at once.
func (ls *layers) indexWinners() error {
	errs := make([]error, len(ls.win))
	kernel.Split(len(ls.win), ls.workers, len(ls.win), func(pegs, _, _ int) {
		errs[pegs] = ls.win[pegs].makeIndex(ls.mem)
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// makeIndex indexes w's positions (see indexWinners), charged to mem, if
// w holds some.
func (w *winners) makeIndex(mem *kernel.Budget) error {
	if w == nil || len(w.keys) == 0 {
		return nil
	}
	ps := kernel.Make[engine.Position](len(w.keys))
	for k, key := range w.keys {
		ps[k] = kernel.Unmix(key)
	}
	if s, ok := kernel.NewSorted(ps); ok {
		// The positions take the keys' place and charge.
		if err := mem.Take(kernel.SortedBytes(len(ps))-int64(len(ps))*8, "the index of the winnable positions"); err != nil {
			return err
		}
		w.sorted, w.keys = s, nil
		return nil
	}
	if err := mem.Take(kernel.IndexBytes(len(w.keys)), "the index of the winnable positions"); err != nil {
		return err
	}
	w.index = kernel.NewIndex(w.keys)
	return nil
}

// dropP1 lets go of the winnable positions' P1s, once Critical is known.
func (ls *layers) dropP1() {
	for _, w := range ls.win {
		if w != nil {
			ls.mem.Give(int64(len(w.p1)) * 16)
			w.p1 = nil
		}
	}
}

// winP1 returns whether the canonical position c is winnable, and its P1.
func (ls *layers) winP1(c engine.Position) (kernel.U128, bool) {
	pegs := c.Pegs()
	if pegs >= len(ls.win) {
		return kernel.U128{}, false
	}
	return ls.win[pegs].find(c)
}

// winNumbers numbers the winnable positions of a level for
// bfs.FewestMoves: those of pegs pegs from base[pegs] on, in their layer's
// order.
type winNumbers struct {
	win  []*winners
	base []int
}

func newWinNumbers(win []*winners) *winNumbers {
	w := &winNumbers{win: win, base: make([]int, len(win)+1)}
	for pegs, l := range win {
		w.base[pegs+1] = w.base[pegs]
		if l != nil {
			w.base[pegs+1] += l.n
		}
	}
	return w
}

func (w *winNumbers) Len() int { return w.base[len(w.base)-1] }

func (w *winNumbers) Number(c engine.Position) (int, bool) {
	pegs := c.Pegs()
	if pegs >= len(w.win) {
		return 0, false
	}
	j, ok := w.win[pegs].place(c)
	return w.base[pegs] + j, ok
}

// Numbers sets ids[k] to the number of cs[k], or -1 where it is not
// winnable, their first reads asked for together first (kernel.Numbers),
// so that their cache misses overlap. It returns a sum of what it read
// ahead.
func (w *winNumbers) Numbers(cs []engine.Position, ids []int32) uint64 {
	return kernel.Numbers(cs, ids, w.sorted, w.Number)
}

// sorted returns the index of c's layer where its positions are sorted,
// else nil.
func (w *winNumbers) sorted(c engine.Position) *kernel.Sorted {
	if pegs := c.Pegs(); pegs < len(w.win) && w.win[pegs] != nil {
		return w.win[pegs].sorted
	}
	return nil
}

// child returns whether p's child by jump k can win, and its P1.
func (ls *layers) child(p engine.Position, k int16) (kernel.U128, bool) {
	return ls.winP1(ls.group.Canonical(p ^ ls.gen.Masks[k]))
}

// winningChildren counts the jumps from p that keep the level winnable.
func (ls *layers) winningChildren(p engine.Position) int {
	n := 0
	for _, k := range ls.gen.AppendMoves(nil, p) {
		if _, win := ls.child(p, k); win {
			n++
		}
	}
	return n
}

// critical counts the positions on the most likely winning line from p (a
// winnable position: from each, the winnable child the P1 player is
// likeliest to win from, the first in move order among equals) at which
// some jump loses.
func (ls *layers) critical(p engine.Position) int {
	critical := 0
	for {
		moves := ls.gen.AppendMoves(nil, p)
		if len(moves) == 0 {
			return critical
		}
		var best engine.Position
		var bestP kernel.U128
		found, losing := false, false
		for _, k := range moves {
			p1, win := ls.child(p, k)
			if !win {
				losing = true
				continue
			}
			if !found || bestP.Less(p1) {
				best, bestP, found = p^ls.gen.Masks[k], p1, true
			}
		}
		if losing {
			critical++
		}
		p = best
	}
}
