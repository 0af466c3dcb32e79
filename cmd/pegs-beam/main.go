// Command pegs-beam runs pegs's exhaustive analysis (pegs explore) as an
// Apache Beam pipeline, on Prism in-process or on a portable runner's job
// server (Flink, Spark), with the layers' partitions kept in a directory
// or object store every worker reaches. It is a command of its own so
// that Beam stays out of the ordinary pegs build.
//
// Usage:
//
//	pegs-beam explore [pegs explore's flags] [--runner prism|universal] [--endpoint HOST:PORT] [--storage DIR|gs://...|s3://...] [--plan [--worker-mem SIZE]]
//	pegs-beam plan --boards B,... [--worker-mem SIZE] [--format F]
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"pegs/cmd/internal/cli"
)

func main() {
	// A worker started by a runner runs the pipeline's steps from here.
	beam.Init()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(cli.ExitCode("pegs-beam", err, os.Stderr))
}

// run is the whole program: it parses args and writes results to stdout and
// messages to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stdout, "pegs-beam: pegs explore as an Apache Beam pipeline\n\nUsage: pegs-beam explore|plan [flags]\n\n  explore  pegs explore on a Beam runner\n  plan     the estimates of several boards' runs, side by side\n\nRun 'pegs-beam <command> -h' for its flags.")
		if len(args) == 0 {
			return cli.UsageError{Err: errors.New("no command"), Printed: true}
		}
		return nil
	}
	switch args[0] {
	case "explore":
		return runExplore(ctx, args[1:], stdout, stderr)
	case "plan":
		return runPlan(ctx, args[1:], stdout, stderr)
	}
	return cli.Usagef("unknown command %q (run 'pegs-beam help')", args[0])
}
