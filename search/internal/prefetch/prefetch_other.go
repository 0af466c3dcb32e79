//go:build !amd64 || purego

package prefetch

import "unsafe"

// The assembly of prefetch_amd64.s runs on amd64 only, and not under the
// purego build tag: elsewhere the prefetches do nothing (Go has no
// prefetch of its own, and a load would wait for its line).

func lines(base unsafe.Pointer, idx []uint64, down, up uint64) {}
