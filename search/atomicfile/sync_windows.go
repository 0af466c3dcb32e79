package atomicfile

import "os"

// SyncDir does nothing: Windows cannot flush a folder, and NTFS journals
// its entries.
func SyncDir(string) error { return nil }

// syncOpen is how SyncFile opens what it flushes: Windows flushes only a
// file opened for writing.
const syncOpen = os.O_RDWR
