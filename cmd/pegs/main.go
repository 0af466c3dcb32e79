// Command pegs solves, explores and grades peg solitaire.
//
// Usage:
//
//	pegs <command> [flags]
//
// Run "pegs help" for the list of commands and "pegs <command> -h" for each
// command's flags.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"pegs/cmd/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(cli.ExitCode("pegs", err, os.Stderr))
}

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands map[string]command

func init() {
	commands = map[string]command{
		"boards":   {"list the built-in boards", runBoards},
		"show":     {"draw a board or position with its hole labels", runShow},
		"solve":    {"solve or refute a position", runSolve},
		"explore":  {"search a whole state space: reachable, winnable, solutions, games", runExplore},
		"starts":   {"every single-vacancy start: finishing holes and solutions", runStarts},
		"hint":     {"the next good jump, what is still possible, and how many jumps to take back", runHint},
		"bench":    {"measure the solver strategies side by side", runBench},
		"grade":    {"measure a level's difficulty on its whole state space", runGrade},
		"generate": {"make solvable, distinct, graded levels or a progression", runGenerate},
		"report":   {"run the searches, generate levels, benchmark the solvers and write the report", runReport},
		"oracle":   {"write a level's winnable positions to a compact file for hints", runOracle},
		"serve":    {"serve levels, hints and solutions over HTTP, with a page to play them", runServe},
	}
}

// run is the whole program: it parses args and writes results to stdout and
// messages to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printUsage(stdout)
		if len(args) == 0 {
			return cli.UsageError{Err: errors.New("no command"), Printed: true}
		}
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		return cli.Usagef("unknown command %q (run 'pegs help')", args[0])
	}
	return c.run(ctx, args[1:], stdout, stderr)
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "pegs: the peg solitaire toolkit\n\nUsage: pegs <command> [flags]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'pegs <command> -h' for a command's flags.")
}
