//go:build !linux

package memory

// mapWords returns nil where mapping memory outside the Go heap is not
// known (see the Linux version): TakeMapped makes the words on the heap.
func mapWords(n, workers int) []uint64 { return nil }

// unmapWords is never called where mapWords returns nil.
func unmapWords(s []uint64) {}
