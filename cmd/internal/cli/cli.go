// Package cli is what the pegs commands share of their command lines: the
// flags that pick a board, a position, a goal and a search's budget, the
// explore command's flags, and how an error becomes one line and an exit
// status. Commands parse flags with it and call the packages that work.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"pegs/search"
)

// ExitCode prints err as one line after prog's name and maps it to an
// exit status: 0 for success, 2 for usage errors, 1 for everything else.
func ExitCode(prog string, err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var r Reported
	if errors.As(err, &r) {
		return 1
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, prog+": interrupted")
		return 1
	}
	var ue UsageError
	if errors.As(err, &ue) {
		if !ue.Printed {
			fmt.Fprintln(stderr, prog+":", Message(err))
		}
		return 2
	}
	fmt.Fprintln(stderr, prog+":", Message(err))
	return 1
}

// OneLine returns s with its runs of white space, line breaks too, as
// single spaces.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Message returns err as one line; a search's memory refusal in it is set
// to name the flag that sets the budget (MemoryError.Setting: --mem less
// what the program itself takes, see SplitMem), and a
// spilled run's refusal by its estimate the flag that starts it without
// (DiskError.Setting).
func Message(err error) string {
	if me, ok := errors.AsType[*search.MemoryError](err); ok && me.Setting == "" {
		me.Setting = "--mem, less the program's own memory"
	}
	if de, ok := errors.AsType[*search.DiskError](err); ok && de.Bound && de.Setting == "" {
		de.Setting = "--no-disk-estimate"
	}
	return OneLine(err.Error())
}

// advised is an error with advice after it. Its text is made when asked,
// so that it shows the budget's flag that Message names in the error
// within.
type advised struct {
	err    error
	advice string
}

func (a advised) Error() string { return a.err.Error() + "; " + a.advice }
func (a advised) Unwrap() error { return a.err }

// Reported marks a failure the command has already told the user about
// (an interruption, and where what finished went): exit status 1, nothing
// more printed.
type Reported struct{ Err error }

func (r Reported) Error() string { return r.Err.Error() }
func (r Reported) Unwrap() error { return r.Err }

// UsageError marks an error in the command line: exit status 2.
type UsageError struct {
	Err     error
	Printed bool // the flag package already printed it
}

func (u UsageError) Error() string { return u.Err.Error() }
func (u UsageError) Unwrap() error { return u.Err }

// Usagef returns a usage error with a formatted message.
func Usagef(format string, args ...any) error {
	return UsageError{Err: fmt.Errorf(format, args...)}
}
