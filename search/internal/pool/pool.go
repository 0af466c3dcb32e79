// Package pool splits a search's work over a bounded pool of goroutines.
package pool

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// Size is the number of workers a search runs for a requested count:
// GOMAXPROCS when the request is not positive.
func Size(workers int) int {
	if workers > 0 {
		return workers
	}
	return runtime.GOMAXPROCS(0)
}

// Chunks runs f over [0, n) split into a few chunks a worker (see
// ChunkCount), on a pool of workers (see Size), and waits for them. f gets
// the chunk's number and its bounds. With one worker the chunks run in
// order on the calling goroutine: the small levels that package generate
// measures by the thousand then start no goroutine at all.
func Chunks(n, workers int, f func(c, lo, hi int)) {
	Split(n, workers, ChunkCount(n, workers), f)
}

// Split is Chunks with the count of chunks given (at most n, at least 1):
// work whose chunks vary in cost is split finer, each worker taking the
// next chunk as it finishes one, so that one worker is left alone at the
// end with a small chunk rather than a large one.
func Split(n, workers, chunks int, f func(c, lo, hi int)) {
	if n == 0 {
		return
	}
	w := Size(workers)
	chunks = max(1, min(n, chunks))
	if w == 1 {
		for c := range chunks {
			f(c, c*n/chunks, (c+1)*n/chunks)
		}
		return
	}
	var g errgroup.Group
	g.SetLimit(w)
	for c := range chunks {
		g.Go(func() error {
			f(c, c*n/chunks, (c+1)*n/chunks)
			return nil
		})
	}
	g.Wait()
}

// ChunkCount is the number of chunks Chunks splits n items into: four a
// worker, or n if that is fewer.
func ChunkCount(n, workers int) int { return min(n, 4*Size(workers)) }

// Each runs f over [lo, hi) in chunks of chunk items, as many at once as
// idle holds states: each of that many goroutines takes a state from idle,
// calls f with it on chunk after chunk (the next not yet taken, by an
// atomic counter) and puts it back at the end, so that a worker's buffers
// serve call after call without a lock. Once ctx is done, chunks not yet
// begun are skipped and Each returns its error.
//
// A goroutine a chunk, started as the last ended, woke a thread through the
// kernel for most chunks: the English winnable set at one worker spent 8 %
// of its time there.
func Each[S any](ctx context.Context, idle chan S, lo, hi, chunk int, f func(s S, lo, hi int)) error {
	if lo >= hi {
		return nil
	}
	chunks := (hi - lo + chunk - 1) / chunk
	var next atomic.Int64
	var skipped atomic.Bool
	var wg sync.WaitGroup
	for range min(cap(idle), chunks) {
		wg.Go(func() {
			s := <-idle
			defer func() { idle <- s }()
			for {
				c := int(next.Add(1)) - 1
				if c >= chunks {
					return
				}
				if ctx.Err() != nil {
					skipped.Store(true)
					return
				}
				clo := lo + c*chunk
				f(s, clo, min(hi, clo+chunk))
			}
		})
	}
	wg.Wait()
	if skipped.Load() {
		return ctx.Err()
	}
	return nil
}
