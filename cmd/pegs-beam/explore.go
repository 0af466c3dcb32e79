package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs" // gs:// storage
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"  // s3:// storage

	"pegs/cmd/internal/cli"
	"pegs/report"
	"pegs/search/cluster"
)

func runExplore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs-beam", "explore", cli.ExploreUsage+" [--runner R] [--endpoint HOST:PORT] [--environment E] [--storage DIR|URL] [--parts N] [--keep] [--plan [--worker-mem SIZE]]", stderr)
	var ef cli.ExploreFlags
	ef.Register(fs)
	runner := fs.String("runner", "prism", "Beam runner: prism (in-process) or universal (a job server at --endpoint: Flink, Spark)")
	endpoint := fs.String("endpoint", "", "the job server's HOST:PORT (for --runner universal)")
	env := fs.String("environment", "", "Beam environment type the runner starts workers in: LOOPBACK, DOCKER or PROCESS (default: loopback on Prism, the runner's otherwise)")
	storage := fs.String("storage", filepath.Join(os.TempDir(), "pegs-beam"), "directory or URL (gs://... or s3://..., S3 set up by the AWS SDK's variables: AWS_REGION, AWS_ENDPOINT_URL_S3, credentials) for the layers' partitions; every worker must reach it")
	parts := fs.Int("parts", 0, "partitions a layer is split into (a power of two; default 4; --plan says how many a cluster needs)")
	keep := fs.Bool("keep", false, "keep the partitions at the end")
	plan := fs.Bool("plan", false, "print an estimate of the run (positions, disk, shuffle and workers per layer) instead of running it")
	workerMem := fs.String("worker-mem", "8GiB", "with --plan, the memory of a worker")
	sample := fs.Int("sample", 0, "with --plan, the layers run exactly before extrapolating (default: as many as take under a second or so)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	x, err := ef.Load()
	if err != nil {
		return err
	}
	if x.RandomOnly {
		return cli.Usagef("--random-only is not offered here: without it pegs-beam finds the random-play chance too, or run pegs explore --random-only")
	}
	if *parts < 0 || *parts > 1<<16 {
		return cli.Usagef("--parts must be 1 to 65536")
	}
	wm, err := cli.ParseSize("--worker-mem", *workerMem)
	if err != nil {
		return err
	}
	if *sample < 0 {
		return cli.Usagef("--sample %d: want 0 (a few seconds' worth) or more", *sample)
	}
	if !*plan {
		var planOnly []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "worker-mem" || f.Name == "sample" {
				planOnly = append(planOnly, "--"+f.Name)
			}
		})
		if len(planOnly) > 0 {
			verb := "goes"
			if len(planOnly) > 1 {
				verb = "go"
			}
			return cli.Usagef("%s %s with --plan", strings.Join(planOnly, " and "), verb)
		}
	}
	opt := cluster.Options{ExploreOptions: x.Options, Runner: *runner, Endpoint: *endpoint, Environment: *env, Storage: *storage, Parts: *parts, Keep: *keep}
	if *plan {
		return writePlan(ctx, stdout, x, opt, wm, *sample)
	}
	if err := cluster.Check(ctx, opt); err != nil {
		if errors.Is(err, cluster.ErrRunner) {
			return cli.UsageError{Err: err}
		}
		return err
	}
	if x.WinnableOnly {
		w, err := cluster.Winnable(ctx, x.Problem, opt)
		if err != nil {
			return interrupted(stderr, err)
		}
		return report.WriteWinnable(stdout, x.Format, x.Problem, w)
	}
	a, err := cluster.Explore(ctx, x.Problem, opt)
	if err != nil {
		err = interrupted(stderr, err)
	}
	return x.Write(stdout, stderr, a, err)
}

// interrupted says where an interrupted run's partitions are, and returns
// err marked reported; other errors it returns as they are.
func interrupted(stderr io.Writer, err error) error {
	if errors.Is(err, cluster.ErrInterrupted) {
		fmt.Fprintln(stderr, "pegs-beam:", cli.Message(err))
		return cli.Reported{Err: err}
	}
	return err
}
