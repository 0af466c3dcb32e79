//go:build unix

package spill

import "os"

// syncOpen is how syncFile opens what it flushes: read-only, which a
// directory needs.
const syncOpen = os.O_RDONLY
