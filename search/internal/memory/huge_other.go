//go:build !linux

package memory

import "unsafe"

// advise does nothing where the kernel's huge-page advice is not known
// (see the Linux version).
func advise(p unsafe.Pointer, n uintptr) {}
