// Package atomicfile writes files whole or not at all: every file pegs
// writes (an --out file, a report's pages, figures and data, an oracle, a
// spill directory's manifest) goes through Write, so that a reader, or the
// next run, finds either the previous file or the new one complete, never
// a file cut short, whether the disk fills, the writer fails or the
// machine stops.
//
// # How
//
// Write creates a temporary file in the target's own folder (a rename
// moves a file atomically only within one file system), writes it, flushes
// it to disk (fsync), renames it over the target, and flushes the folder,
// so that the rename itself is on disk. On any failure it removes the
// temporary file and leaves the target as it was. The new file gets the
// mode asked for (0644 by default) less the process's umask, as a file
// that os.Create makes would.
//
// Check tries a path before the work that will fill it starts: it creates
// and removes a temporary file beside it, so that an --out that cannot be
// written fails at once, not after an hour's search.
//
// # Where it lives
//
// The layout's top level is fixed and dependencies point one way: engine
// imports nothing, search uses engine, and report, generate and the
// commands use search. The lowest layer that writes files is search (its
// spill directories' manifests, search/hint's oracles), so the package
// sits under search, outside search/internal so that report, report/build
// and the commands may import it too.
package atomicfile
