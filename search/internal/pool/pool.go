// Package pool splits a search's work over a bounded pool of goroutines.
package pool

import (
	"context"
	"runtime"

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
// the chunk's number and its bounds.
func Chunks(n, workers int, f func(c, lo, hi int)) {
	if n == 0 {
		return
	}
	w := Size(workers)
	chunks := ChunkCount(n, workers)
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
// idle holds states: each call has a state taken from idle and put back
// after it, so that a worker's buffers serve call after call without a
// lock. Once ctx is done, chunks not yet begun are skipped and Each
// returns its error.
func Each[S any](ctx context.Context, idle chan S, lo, hi, chunk int, f func(s S, lo, hi int)) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(cap(idle))
	for clo := lo; clo < hi; clo += chunk {
		chi := min(hi, clo+chunk)
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			s := <-idle
			defer func() { idle <- s }()
			f(s, clo, chi)
			return nil
		})
	}
	return g.Wait()
}
