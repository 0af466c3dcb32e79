//go:build !linux

package memory

import "unsafe"

// advise does nothing where the kernel's huge-page advice is not known
// (see the Linux version).
func advise(p unsafe.Pointer, n uintptr) {}

// populate does nothing where the kernel is not known to write pages in
// ahead (see the Linux version): it reports that it did not.
func populate(p unsafe.Pointer, n uintptr) bool { return false }
