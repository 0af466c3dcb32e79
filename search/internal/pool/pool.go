// Package pool splits a search's work over a bounded pool of goroutines.
package pool

import (
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
