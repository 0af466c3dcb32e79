package atomicfile

// SyncDir does nothing: Windows cannot flush a folder, and NTFS journals
// its entries.
func SyncDir(string) error { return nil }
