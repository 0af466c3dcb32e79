// Package kernel is the one door of search's sub-packages (hint, measure,
// cluster) into the machinery under search/internal: they import it and no
// other package there, so that what they use of that machinery is listed in
// one place, and a change inside it that reaches them shows here first.
//
// Each name is the one its home package documents, under the same name
// where two homes do not clash: the positions' keys, ranks and sets (key),
// the move generator (movegen), exact counts and chances (exact), the
// memory budget (memory), the caches' prefetches (prefetch, as Prefetch
// and PrefetchWords), the worker pool (pool), the depth-first solver
// (dfs), the breadth-first fewest-moves search (bfs), the layered searches
// (layered), the spill files (spill) and the partition pipeline on them
// (partition). Types are aliases, and functions
// wrappers the compiler inlines (all but ProbFloat64, called once a run),
// so the door costs nothing at run time.
// Where two homes use one name, the name here says whose it is:
// SolveConfig and SolveResult are dfs's, LayerConfig is layered's, NewGen
// movegen's New, NewBudget memory's New, PoolSize pool's Size and
// SpillHeader, SpillWriter, SpillReader, NewSpillWriter,
// NewSpillReadCloser and ErrSpillCorrupt spill's Header, Writer, Reader,
// NewWriter, NewReadCloser and ErrCorrupt, and
// PartitionHeader, ReadPartition and AddStats partition's Header, Read
// and Add.
package kernel

import (
	"context"
	"io"
	"time"
	"unsafe"

	"pegs/engine"
	"pegs/search/internal/bfs"
	"pegs/search/internal/dfs"
	"pegs/search/internal/exact"
	"pegs/search/internal/key"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/partition"
	"pegs/search/internal/pool"
	"pegs/search/internal/prefetch"
	"pegs/search/internal/spill"
)

// Keys, ranks and sets of positions (package key).
type (
	Dense    = key.Dense
	Dir      = key.Dir
	Index    = key.Index
	RankList = key.RankList
	Sorted   = key.Sorted
)

// MaxDenseHoles is key.MaxDenseHoles.
const MaxDenseHoles = key.MaxDenseHoles

// Mix is key.Mix.
func Mix(p engine.Position) uint64 { return key.Mix(p) }

// Unmix is key.Unmix.
func Unmix(k uint64) engine.Position { return key.Unmix(k) }

// Rank is key.Rank.
func Rank(p engine.Position) uint64 { return key.Rank(p) }

// Ranks is key.Ranks.
func Ranks(n, k int) uint64 { return key.Ranks(n, k) }

// Unrank is key.Unrank.
func Unrank(r uint64, k int) engine.Position { return key.Unrank(r, k) }

// Without is key.Without.
func Without(a, b []uint64) []uint64 { return key.Without(a, b) }

// NewDir is key.NewDir.
func NewDir(ws []uint64) Dir { return key.NewDir(ws) }

// NewIndex is key.NewIndex.
func NewIndex(keys []uint64) *Index { return key.NewIndex(keys) }

// IndexBytes is key.IndexBytes.
func IndexBytes(n int) int64 { return key.IndexBytes(n) }

// NewSorted is key.NewSorted.
func NewSorted(ps []engine.Position) (*Sorted, bool) { return key.NewSorted(ps) }

// Numbers is key.Numbers.
func Numbers(ps []engine.Position, ids []int32, of func(engine.Position) *Sorted, number func(engine.Position) (int, bool)) uint64 {
	return key.Numbers(ps, ids, of, number)
}

// Prefetch is prefetch.At.
func Prefetch(base unsafe.Pointer, idx []uint64, shift uint64) { prefetch.At(base, idx, shift) }

// PrefetchWords is prefetch.Words.
func PrefetchWords(base unsafe.Pointer, idx []uint64, shift uint64) {
	prefetch.Words(base, idx, shift)
}

// SortedBytes is key.SortedBytes.
func SortedBytes(n int) int64 { return key.SortedBytes(n) }

// NewRankList is key.NewRankList.
func NewRankList(ranks []uint64) *RankList { return key.NewRankList(ranks) }

// ClassKept is key.ClassKept.
func ClassKept(b *engine.Board, g *engine.Group, p engine.Position) bool {
	return key.ClassKept(b, g, p)
}

// DecodeRankList is key.DecodeRankList.
func DecodeRankList(n int, limit uint64, data []byte) (*RankList, error) {
	return key.DecodeRankList(n, limit, data)
}

// The move generator (package movegen).
type (
	Gen    = movegen.Gen
	Parent = movegen.Parent
)

// MaxBatch is movegen.MaxBatch.
const MaxBatch = movegen.MaxBatch

// NewGen is movegen.New.
func NewGen(b *engine.Board, g *engine.Group) *Gen { return movegen.New(b, g) }

// Exact counts and chances (package exact).
type (
	U128  = exact.U128
	Fixed = exact.Fixed
)

// ProbOne is exact.ProbOne.
var ProbOne = exact.ProbOne

// Prob is exact.Prob.
func Prob(p U128, units uint64) Fixed { return exact.Prob(p, units) }

// DivFloor is exact.DivFloor.
func DivFloor(a U128, n uint64) U128 { return exact.DivFloor(a, n) }

// QuoFloat64 is exact.QuoFloat64.
func QuoFloat64(x, y Fixed) (float64, bool) { return exact.QuoFloat64(x, y) }

// ProbFloat64 is exact.ProbFloat64.
func ProbFloat64(p U128, units uint64) (float64, bool) { return exact.ProbFloat64(p, units) }

// Budget is memory.Budget.
type Budget = memory.Budget

// NewBudget is memory.New.
func NewBudget(limit int64) *Budget { return memory.New(limit) }

// Make is memory.Make.
func Make[T any](n int) []T { return memory.Make[T](n) }

// PoolSize is pool.Size.
func PoolSize(workers int) int { return pool.Size(workers) }

// ChunkCount is pool.ChunkCount.
func ChunkCount(n, workers int) int { return pool.ChunkCount(n, workers) }

// Chunks is pool.Chunks.
func Chunks(n, workers int, f func(c, lo, hi int)) { pool.Chunks(n, workers, f) }

// Split is pool.Split.
func Split(n, workers, chunks int, f func(c, lo, hi int)) { pool.Split(n, workers, chunks, f) }

// The depth-first solver (package dfs).
type (
	SolveConfig = dfs.Config
	SolveResult = dfs.Result
	Tables      = dfs.Tables
	PosSet      = dfs.PosSet
)

// ErrNodeLimit is dfs.ErrNodeLimit.
var ErrNodeLimit = dfs.ErrNodeLimit

// Solve is dfs.Solve.
func Solve(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, cfg SolveConfig) (SolveResult, error) {
	return dfs.Solve(ctx, b, start, goal, cfg)
}

// All is dfs.All.
func All() dfs.Techniques { return dfs.All() }

// LoneNodes is dfs.LoneNodes.
func LoneNodes(p engine.Position, base int64) int64 { return dfs.LoneNodes(p, base) }

// NewPosSet is dfs.NewPosSet.
func NewPosSet(budget int64) *PosSet { return dfs.NewPosSet(budget) }

// FewestMoves is bfs.FewestMoves.
func FewestMoves(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, group *engine.Group, win bfs.Winnable, workers int) (bfs.Result, error) {
	return bfs.FewestMoves(ctx, b, start, goal, group, win, workers)
}

// The layered searches (package layered).
type (
	Layer       = layered.Layer
	Expander    = layered.Expander
	Setup       = layered.Setup
	Purpose     = layered.Purpose
	Progress    = layered.Progress
	LayerConfig = layered.Config
	Meeting     = layered.Meeting
	Stats       = layered.Stats
)

// The purposes of an Expander (see layered.Purpose).
const (
	Positions = layered.Positions
	Scanned   = layered.Scanned
	Paths     = layered.Paths
	Tagged    = layered.Tagged
	Parents   = layered.Parents
)

// NewExpander is layered.NewExpander.
func NewExpander(p Purpose, s Setup) (*Expander, error) { return layered.NewExpander(p, s) }

// NewCounted is layered.NewCounted.
func NewCounted(pegs int, keys []uint64, counts []U128) *Layer {
	return layered.NewCounted(pegs, keys, counts)
}

// First is layered.First.
func First(group *engine.Group, start engine.Position, counted bool) *Layer {
	return layered.First(group, start, counted)
}

// Forward is layered.Forward.
func Forward(ctx context.Context, e *Expander, first *Layer, progress Progress, visit func(*Layer, Stats)) ([]*Layer, error) {
	return layered.Forward(ctx, e, first, progress, visit)
}

// SampleLayers is partition.SampleLayers.
func SampleLayers(ctx context.Context, first *Layer, expander func() (*Expander, error), more func(run int, elapsed time.Duration) bool, visit func(e *Expander, cur, next *Layer) error) ([]int64, *Layer, error) {
	return partition.SampleLayers(ctx, first, expander, more, visit)
}

// Extrapolate is partition.Extrapolate.
func Extrapolate(holes, symmetries, p0 int, sizes []int64) []int64 {
	return partition.Extrapolate(holes, symmetries, p0, sizes)
}

// SameAsAny is layered.SameAsAny.
func SameAsAny(b *engine.Board, start engine.Position, goal engine.Goal) bool {
	return layered.SameAsAny(b, start, goal)
}

// Meet is layered.Meet.
func Meet(ctx context.Context, b *engine.Board, start engine.Position, goal engine.Goal, cfg LayerConfig, budget int64) (*Meeting, error) {
	return layered.Meet(ctx, b, start, goal, cfg, budget)
}

// The spill files (package spill).
type (
	SpillHeader = spill.Header
	SpillWriter = spill.Writer
	SpillReader = spill.Reader
)

// ErrSpillCorrupt is spill.ErrCorrupt.
var ErrSpillCorrupt = spill.ErrCorrupt

// NewSpillWriter is spill.NewWriter.
func NewSpillWriter(out io.Writer, path string, h SpillHeader) (*SpillWriter, error) {
	return spill.NewWriter(out, path, h)
}

// NewSpillReadCloser is spill.NewReadCloser.
func NewSpillReadCloser(r io.ReadCloser, path string, want SpillHeader) (*SpillReader, error) {
	return spill.NewReadCloser(r, path, want)
}

// PartitionOf is spill.PartitionOf.
func PartitionOf(k uint64, partitions int) int { return spill.PartitionOf(k, partitions) }

// The kinds of spill files (see spill.Kind).
const (
	LayerFile    = spill.LayerFile
	WinnableFile = spill.WinnableFile
	RunFile      = spill.RunFile
	ChanceFile   = spill.ChanceFile
)

// The partition pipeline (package partition).
type (
	Steps = partition.Steps
	Store = partition.Store
	Knobs = partition.Knobs
)

// NewSteps is partition.NewSteps.
func NewSteps(st Store, e *Expander, k Knobs) *Steps { return partition.NewSteps(st, e, k) }

// PartitionHeader is partition.Header.
func PartitionHeader(kind spill.Kind, pegs, part, parts, source int) SpillHeader {
	return partition.Header(kind, pegs, part, parts, source)
}

// ReadPartition is partition.Read.
func ReadPartition(ctx context.Context, st Store, h SpillHeader) ([]uint64, []U128, error) {
	return partition.Read(ctx, st, h)
}

// AddStats is partition.Add.
func AddStats(st *Stats, add Stats) error { return partition.Add(st, add) }

// RunSource is partition.RunSource.
func RunSource(p, c, parts int) int { return partition.RunSource(p, c, parts) }

// FileBytes is partition.FileBytes.
func FileBytes(l *Layer) (float64, error) { return partition.FileBytes(l) }
