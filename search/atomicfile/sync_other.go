//go:build !windows

package atomicfile

import "os"

// SyncDir flushes the folder dir's entries, so that a file created or
// renamed in it is on disk.
func SyncDir(dir string) error { return SyncFile(dir) }

// syncOpen is how SyncFile opens what it flushes: read-only, which a
// folder needs.
const syncOpen = os.O_RDONLY
