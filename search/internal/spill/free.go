package spill

import (
	"fmt"

	"github.com/dustin/go-humanize"

	"pegs/search/internal/twin"
)

// NoSpaceError reports a directory whose file system has too little free
// space for what a run is estimated to need.
type NoSpaceError struct {
	Path       string
	Free, Need int64
	What       string
	// Bound is set where Need bounds the most a whole run holds on disk,
	// estimated before it starts: the run can stay well below it.
	// Setting, if set with it, names what starts a run without that
	// estimate, such as a command's flag; the message names it.
	Bound   bool
	Setting string
}

// As makes errors.As find e as its public twin, search.DiskError (see
// package twin).
func (e *NoSpaceError) As(target any) bool { return twin.As(e, target) }

func (e *NoSpaceError) Error() string {
	msg := fmt.Sprintf("spill: %s has %s free, %s needs about %s", e.Path,
		humanize.IBytes(uint64(e.Free)), e.What, humanize.IBytes(uint64(e.Need)))
	switch {
	case e.Bound && e.Setting != "":
		msg += fmt.Sprintf(" at most; %s starts it anyway, each layer checked before it is written", e.Setting)
	case e.Bound:
		msg += " at most"
	}
	return msg
}

// Free returns the bytes free to an unprivileged user on the file system
// of d.
func (d *Dir) Free() (int64, error) {
	n, err := freeBytes(d.Path)
	if err != nil {
		return 0, fmt.Errorf("spill: %w", err)
	}
	return n, nil
}

// Check returns an *NoSpaceError if d's file system has less than need
// bytes free, what naming the need.
func (d *Dir) Check(need int64, what string) error {
	free, err := d.Free()
	if err != nil {
		return err
	}
	if free < need {
		return &NoSpaceError{Path: d.Path, Free: free, Need: need, What: what}
	}
	return nil
}

// Sync flushes every file of d's file system to disk, renames included:
// one call for many files written with Writer.NoSync (a layer's runs),
// where a sync each took a millisecond or two.
func (d *Dir) Sync() error {
	if d.NoSync {
		return nil
	}
	if err := syncAll(d.Path); err != nil {
		return fmt.Errorf("spill: syncing %s: %w", d.Path, err)
	}
	return nil
}
