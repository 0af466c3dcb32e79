package cluster

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local storage, for Prism
	jobpb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/jobmanagement_v1"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"pegs/engine"
	"pegs/search"
	"pegs/search/cluster/internal/part"
	"pegs/search/internal/kernel"
)

// Runners are the Beam runners a run can go to.
var Runners = []string{"prism", "universal"}

// Options says where and how a pipeline runs, besides the exhaustive
// search's own options (search.ExploreOptions: Workers and Memory apply
// to each step; WholeGroup, NoSymmetry, NoGames and ReachableOnly as in
// search.Explore).
type Options struct {
	search.ExploreOptions
	// WinnableOnly finds the winnable positions alone, as search.Winnable
	// does (see Winnable): the run leaves out the random player's chances.
	WinnableOnly bool
	// Runner is "prism" (in-process, the default) or "universal" (a job
	// server at Endpoint, such as Flink's or Spark's).
	Runner   string
	Endpoint string // HOST:PORT of the job server, for "universal"
	// Environment is the Beam environment type the job server starts
	// workers in ("LOOPBACK", "DOCKER", "PROCESS"); empty for the runner's
	// default (loopback on Prism, docker elsewhere).
	Environment string
	// Storage is the directory or URL (gs://..., s3://... where that
	// filesystem is linked in) under which the run keeps its partitions;
	// every worker must reach it.
	Storage string
	// Parts is the number of partitions a layer is split into, rounded
	// up to a power of two; zero means 4. Every partition of a layer makes
	// a bucket for each of the next layer's, so files grow as its square:
	// on one machine few partitions run fastest (the 21-hole triangle on
	// Prism took 4 s with 1, 20 s with 16); a cluster needs as many as
	// the plan says (see NewPlan).
	Parts int
	// Keep keeps the run's files at the end (they go otherwise).
	Keep bool
	// Attempts is how many times a failed job is submitted again (each
	// step rewrites its own files, so a job run again gives the same
	// results): Prism fails a job at a bundle's first failure. Zero
	// means one more attempt.
	Attempts int
	// DialTimeout bounds the check that Endpoint answers; zero means 3 s.
	DialTimeout time.Duration
	// failOnce and failPegs inject a worker failure (see Spec.FailOnce).
	failOnce string
	failPegs int
}

func (o Options) stepMemory() int64 {
	if o.Memory > 0 {
		return o.Memory
	}
	return search.DefaultExhaustiveMemory
}

func (o Options) bits() int {
	if o.Parts <= 1 {
		if o.Parts == 0 {
			return 2
		}
		return 0
	}
	return bits.Len(uint(o.Parts - 1))
}

// Errors of the checks before a run.
var (
	ErrRunner      = errors.New("unknown runner")
	ErrEndpoint    = errors.New("job endpoint unreachable")
	ErrStorage     = errors.New("storage not writable")
	ErrInterrupted = errors.New("pipeline interrupted")
)

// Check checks, before any work, that opt names a known runner, that its
// job endpoint answers (dialled with a short timeout) and that its storage
// can be written, and returns the first problem as a one-line error.
func Check(ctx context.Context, opt Options) error {
	switch opt.Runner {
	case "", "prism":
		if opt.Endpoint != "" {
			if err := dial(ctx, opt); err != nil {
				return err
			}
		}
	case "universal":
		if opt.Endpoint == "" {
			return fmt.Errorf("%w: the universal runner needs a job endpoint (HOST:PORT)", ErrEndpoint)
		}
		if err := dial(ctx, opt); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%w %q: want %s", ErrRunner, opt.Runner, strings.Join(Runners, " or "))
	}
	return checkStorage(ctx, opt.Storage)
}

func dial(ctx context.Context, opt Options) error {
	timeout := opt.DialTimeout
	if timeout == 0 {
		timeout = 3 * time.Second
	}
	d := net.Dialer{Timeout: timeout}
	c, err := d.DialContext(ctx, "tcp", opt.Endpoint)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrEndpoint, opt.Endpoint, err)
	}
	c.Close()
	return nil
}

// checkStorage writes, reads back and removes a small file under dir.
func checkStorage(ctx context.Context, dir string) error {
	if dir == "" {
		return fmt.Errorf("%w: no storage given", ErrStorage)
	}
	fs, err := filesystem.New(ctx, dir)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrStorage, dir, err)
	}
	defer fs.Close()
	probe := strings.TrimRight(dir, "/") + "/.pegs-probe"
	if err := (part.Store{FS: fs}).WriteFile(ctx, probe, []byte("pegs\n")); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrStorage, dir, unwrapAll(err))
	}
	if rm, ok := fs.(filesystem.Remover); ok {
		rm.Remove(ctx, probe)
	}
	return nil
}

// unwrapAll returns the innermost error of err's chain, for a one-line
// message without the path said twice.
func unwrapAll(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

// Result is a finished run: its analysis (its winnable positions with
// Options.WinnableOnly), where its files are (gone at the end unless
// Options.Keep), and how many times its job was submitted.
type Result struct {
	Analysis *search.Analysis
	Winnable *search.WinSet
	Dir      string
	Attempts int
}

// Explore runs prob's exhaustive analysis as a Beam pipeline and returns
// the same analysis search.Explore finds, but for PeakBytes: where
// search.Explore's is the most its memory budget held (whole layers), this
// is the most any one forward expansion's budget held (a partition, its
// children's tables and its children), read from the steps' stats files,
// so it counts on a cluster too; the walk back's and the chances' steps,
// which hold less, and Beam's own memory are not in it.
func Explore(ctx context.Context, prob search.Problem, opt Options) (*search.Analysis, error) {
	r, err := Run(ctx, prob, opt)
	if err != nil {
		return nil, err
	}
	return r.Analysis, nil
}

// Winnable runs the search of prob's winnable positions as a Beam
// pipeline and returns the same positions search.Winnable finds, each
// layer's reachable positions counted (search.Winnable counts those of
// the layers it goes through), and PeakBytes as Explore's.
func Winnable(ctx context.Context, prob search.Problem, opt Options) (*search.WinSet, error) {
	opt.WinnableOnly = true
	r, err := Run(ctx, prob, opt)
	if err != nil {
		return nil, err
	}
	return r.Winnable, nil
}

// Run is Explore with where the run went. Interrupted, it cancels the job
// and returns an error (ErrInterrupted and ctx's) naming the directory
// that holds the partitions finished so far, which are then kept. The
// job server stops scheduling steps, not those in flight: Run returns once
// their files have been still for two seconds.
func Run(ctx context.Context, prob search.Problem, opt Options) (*Result, error) {
	t0 := time.Now()
	if err := Check(ctx, opt); err != nil {
		return nil, err
	}
	if prob.Goal.Kind == engine.FewestPegs {
		return nil, errors.New("an exhaustive search needs a one-peg goal (any, center or a hole)")
	}
	if opt.WinnableOnly && (opt.ReachableOnly || opt.WholeGroup || opt.NoGames) {
		return nil, errors.New("the winnable positions alone go with none of ReachableOnly, WholeGroup and NoGames")
	}
	if !beam.Initialized() {
		beam.Init()
	}
	dir := runDir(opt.Storage, prob)
	spec, err := newSpec(prob, opt, dir, opt.bits())
	if err != nil {
		return nil, err
	}
	st, err := spec.setup(ctx)
	if err != nil {
		return nil, err
	}
	defer st.close()
	// The first layer: the start in its partition, the others empty.
	startKey := kernel.Mix(st.gen.Group.Canonical(prob.Start))
	p0 := prob.Start.Pegs()
	var first []string
	for t := range spec.parts() {
		h := kernel.PartitionHeader(kernel.LayerFile, p0, t, spec.parts(), 0)
		err := st.store.Write(ctx, h, func(w *kernel.SpillWriter) error {
			if part.Of(startKey, uint(spec.Bits)) == t {
				return w.Add(startKey, kernel.U128{Lo: 1})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		first = append(first, st.store.Path(h))
	}
	attempts := opt.Attempts
	if attempts == 0 {
		attempts = 1
	}
	n := 0
	for {
		n++
		err = execute(ctx, opt, pipeline(spec, p0, first, opt.ReachableOnly, opt.WinnableOnly))
		if err == nil || ctx.Err() != nil || n > attempts {
			break
		}
	}
	if ctx.Err() != nil {
		settle(st.store.FS, dir, 2*time.Second, time.Minute)
		return nil, fmt.Errorf("%w; the partitions it finished are in %s: %w", ErrInterrupted, dir, ctx.Err())
	}
	if err != nil {
		return nil, fmt.Errorf("pipeline failed (%d attempts; its files are in %s): %w", n, dir, err)
	}
	r := &Result{Dir: dir, Attempts: n}
	if opt.WinnableOnly {
		r.Winnable, err = spec.winSet(ctx, st, prob, p0)
	} else {
		r.Analysis, err = spec.analysis(ctx, st, prob, opt, p0, startKey)
	}
	if err != nil {
		return nil, err
	}
	if opt.WinnableOnly {
		r.Winnable.Elapsed = time.Since(t0)
	} else {
		r.Analysis.Elapsed = time.Since(t0)
	}
	if !opt.Keep {
		removeRun(ctx, st.store.FS, dir)
	}
	return r, nil
}

// settle waits until the files under dir have not changed (names and
// sizes) for quiet, or for at most limit: the job server stops scheduling
// a cancelled job's steps, not those in flight, which finish their files
// (whole, under temporary names then renamed) after the job has ended.
// Run returns once they are still, so that what it says it kept stays as
// it is, and the directory can go. A file under its final name is whole
// and does not change (part writes it under a temporary name, or where
// the filesystem cannot rename, as one object), so only the sizes of the
// files in flight are asked: one call each, not one for every partition
// of the run on an object store.
func settle(fs filesystem.Interface, dir string, quiet, limit time.Duration) {
	ctx := context.Background()
	look := func() string {
		files, _ := fs.List(ctx, dir+"/*/*/*")
		var b strings.Builder
		for _, f := range files {
			if !part.InFlight(f) {
				fmt.Fprintln(&b, f)
				continue
			}
			size, _ := fs.Size(ctx, f)
			fmt.Fprintf(&b, "%s %d\n", f, size)
		}
		return b.String()
	}
	const every = 100 * time.Millisecond
	last, still := look(), time.Duration(0)
	for end := time.Now().Add(limit); still < quiet && time.Now().Before(end); {
		time.Sleep(every)
		if now := look(); now == last {
			still += every
		} else {
			last, still = now, 0
		}
	}
}

// runDir names a problem's run under storage: the same problem, the same
// directory, so a run again rewrites its files.
func runDir(storage string, prob search.Problem) string {
	name := fmt.Sprintf("pegs-%s-%x-%s", prob.Board.Name(), uint64(prob.Start), prob.Board.FormatGoal(prob.Goal))
	name = strings.NewReplacer(":", "_", "/", "_", " ", "_").Replace(name)
	return strings.TrimRight(storage, "/") + "/" + name
}

// removeRun removes a run's files (and, on local storage, its directories).
func removeRun(ctx context.Context, fs filesystem.Interface, dir string) {
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return
	}
	for _, glob := range []string{"/*/*/*"} {
		files, _ := fs.List(ctx, dir+glob)
		for _, f := range files {
			rm.Remove(ctx, f)
		}
	}
	if !strings.Contains(dir, "://") {
		for _, kind := range part.Kinds {
			subs, _ := filepath.Glob(filepath.Join(dir, kind, "*"))
			for _, s := range subs {
				rm.Remove(ctx, s)
			}
			rm.Remove(ctx, filepath.Join(dir, kind))
		}
		rm.Remove(ctx, dir)
	}
}

// execute runs pipeline p on opt's runner and waits for it. Cancelled, it
// cancels the job on its job server and waits for it to stop: the Beam
// SDK's own wait, cancelled, leaves the job running (and Prism's workers
// panic on the broken streams), so the SDK waits uncancelled here.
func execute(ctx context.Context, opt Options, p *beam.Pipeline) error {
	endpoint, env := opt.Endpoint, opt.Environment
	if opt.Runner != "universal" {
		port, err := freePort()
		if err != nil {
			return err
		}
		if _, err := prism.CreateJobServer(context.Background(), prism.Options{Port: port}); err != nil {
			return fmt.Errorf("starting Prism: %w", err)
		}
		endpoint = fmt.Sprintf("localhost:%d", port)
		if env == "" {
			env = "loopback"
		}
	}
	// The Beam SDK reads its job options from flags of its own: a run
	// holds them until its job ends (see beamFlags).
	name := fmt.Sprintf("pegs-%016x", rand.Uint64())
	done := make(chan error, 1)
	go func() {
		beamFlags.Lock()
		defer beamFlags.Unlock()
		if ctx.Err() != nil {
			done <- ctx.Err() // cancelled while another run held them
			return
		}
		*jobopts.Endpoint, *jobopts.EnvironmentType, *jobopts.JobName = endpoint, env, name
		_, err := universal.Execute(context.WithoutCancel(ctx), p)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	// Interrupted: cancel the job. Execute may not have submitted it yet
	// (the job server does not know its name then); and Prism starts a
	// job's worker as it reports the job running, so that a job cancelled
	// at once may end, and Execute close the SDK's worker pool, before
	// Prism reaches the pool, which it then panics on. So the job is
	// cancelled once it has been seen running for settle, asked every
	// 100 ms until then, or until Execute returns.
	const settle = time.Second
	conn, err := grpc.NewClient(endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return fmt.Errorf("%w (cancelling the job: %w)", ctx.Err(), err)
	}
	defer conn.Close()
	jobs := jobpb.NewJobServiceClient(conn)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	giveUp := time.After(time.Minute)
	var running time.Time // when the job was first seen running
	cancelled := false
	for {
		if !cancelled {
			id, state, err := jobState(jobs, name)
			if err != nil {
				return fmt.Errorf("%w (cancelling the job: %w)", ctx.Err(), err)
			}
			switch {
			case state == jobpb.JobState_RUNNING && running.IsZero():
				running = time.Now()
			case state == jobpb.JobState_RUNNING && time.Since(running) >= settle:
				if err := cancelJob(jobs, id); err != nil {
					return fmt.Errorf("%w (cancelling the job: %w)", ctx.Err(), err)
				}
				cancelled = true
			}
		}
		select {
		case <-done:
			return ctx.Err()
		case <-giveUp:
			return fmt.Errorf("%w (job %s still running a minute after it was interrupted)", ctx.Err(), name)
		case <-tick.C:
		}
	}
}

// beamFlags is held by a run from setting the Beam SDK's job options (its
// own process-wide flags: endpoint, environment, job name) until its job
// ends, so that runs in one process take turns instead of submitting
// their jobs with each other's options. It is the one place they are set.
var beamFlags sync.Mutex

// freePort returns a TCP port free on this machine a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// jobState returns the id and state of the job named name on the job
// server jobs; state UNSPECIFIED if the server does not know it.
func jobState(jobs jobpb.JobServiceClient, name string) (id string, state jobpb.JobState_Enum, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	all, err := jobs.GetJobs(ctx, &jobpb.GetJobsRequest{})
	if err != nil {
		return "", 0, err
	}
	for _, j := range all.GetJobInfo() {
		if j.GetJobName() == name {
			return j.GetJobId(), j.GetState(), nil
		}
	}
	return "", jobpb.JobState_UNSPECIFIED, nil
}

// cancelJob cancels the job id on the job server jobs.
func cancelJob(jobs jobpb.JobServiceClient, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := jobs.Cancel(ctx, &jobpb.CancelJobRequest{JobId: id})
	return err
}

// pipeline builds the run's pipeline from the first layer's partitions
// (the package doc says how): the forward pass alone with reachableOnly,
// without the chances with winnableOnly.
func pipeline(spec Spec, p0 int, first []string, reachableOnly, winnableOnly bool) *beam.Pipeline {
	p, s := beam.NewPipelineWithRoot()
	refs := map[int]beam.PCollection{p0: beam.Create(s.Scope("start"), toAny(first)...)}
	for pegs := p0; pegs > 1; pegs-- {
		ls := s.Scope(fmt.Sprintf("forward %d", pegs))
		runs := beam.ParDo(ls, &expandFn{S: spec, Pegs: pegs}, refs[pegs])
		grouped := beam.GroupByKey(ls, runs)
		refs[pegs-1] = beam.ParDo(ls, &mergeFn{S: spec, Pegs: pegs - 1}, grouped)
	}
	// The last layer's stats (its positions have no children).
	beam.ParDo(s.Scope("forward 1"), &expandFn{S: spec, Pegs: 1}, refs[1])
	if reachableOnly {
		return p
	}
	wins := map[int]beam.PCollection{1: beam.ParDo(s.Scope("goal"), &goalFn{S: spec}, refs[1])}
	for pegs := 2; pegs <= p0; pegs++ {
		ls := s.Scope(fmt.Sprintf("backward %d", pegs))
		runs := beam.ParDo(ls, &parentsFn{S: spec, Pegs: pegs - 1}, wins[pegs-1])
		grouped := beam.GroupByKey(ls, runs)
		wins[pegs] = beam.ParDo(ls, &winMergeFn{S: spec, Pegs: pegs}, grouped)
	}
	if winnableOnly {
		return p
	}
	chances := beam.Create(s.Scope("chance 0"), "")
	for pegs := 1; pegs <= p0; pegs++ {
		chances = beam.ParDo(s.Scope(fmt.Sprintf("chance %d", pegs)), &chanceFn{S: spec, Pegs: pegs}, wins[pegs], beam.SideInput{Input: chances})
	}
	return p
}

func toAny(refs []string) []any {
	out := make([]any, len(refs))
	for i, r := range refs {
		out[i] = r
	}
	return out
}

// analysis reads a finished run's files into the analysis search.Explore
// would return.
func (s Spec) analysis(ctx context.Context, st *step, prob search.Problem, opt Options, p0 int, startKey uint64) (*search.Analysis, error) {
	a := search.NewAnalysis(st.gen.Group, opt.ExploreOptions)
	games := new(big.Int)
	parts := s.parts()
	for pegs := p0; pegs >= 1; pegs-- {
		sum, peak, err := s.stats(ctx, st, pegs)
		if err != nil {
			return nil, err
		}
		a.PeakBytes = max(a.PeakBytes, peak)
		l := search.LayerStats{Pegs: pegs, Reachable: sum.Positions, ReachableRaw: sum.Raw, DeadEnds: sum.DeadEnds}
		games.Add(games, sum.Games.Big())
		if !opt.ReachableOnly {
			win, err := s.winnable(ctx, st, pegs)
			if err != nil {
				return nil, err
			}
			l.Winnable = int64(len(win))
		}
		if l.Reachable == 0 {
			break // as search.Explore: no layer past the last position
		}
		a.Layers = append(a.Layers, l)
	}
	a.SumLayers()
	if opt.ReachableOnly {
		a.KeepReachable()
		return a, nil
	}
	if a.Games != nil {
		a.Games.Set(games)
	}
	for t := range parts {
		keys, counts, err := kernel.ReadPartition(ctx, st.store, kernel.PartitionHeader(kernel.LayerFile, 1, t, parts, 0))
		if err != nil {
			return nil, err
		}
		for i, k := range keys {
			a.CountFinish(prob, st.gen.Group, kernel.Unmix(k), counts[i].Big())
		}
	}
	ts := part.Of(startKey, uint(s.Bits))
	keys, chances, err := kernel.ReadPartition(ctx, st.store, kernel.PartitionHeader(kernel.ChanceFile, p0, ts, parts, 0))
	if err != nil {
		return nil, err
	}
	for i, k := range keys {
		if k != startKey {
			continue
		}
		p, ok := kernel.ProbFloat64(chances[i], uint64(p0))
		if !ok {
			return nil, fmt.Errorf("the random player's chance, %g, lies too near where float64 rounding changes to be given correctly rounded", p)
		}
		a.RandomWin = p
	}
	return a, nil
}

// stats returns the stats of a finished run's layer of pegs pegs, summed
// over its partitions, and the most bytes a partition's expansion held.
func (s Spec) stats(ctx context.Context, st *step, pegs int) (kernel.Stats, int64, error) {
	var sum kernel.Stats
	var peak int64
	for t := range s.parts() {
		data, err := st.store.ReadFile(ctx, s.statsPath(pegs, t))
		if err != nil {
			return sum, 0, fmt.Errorf("the stats of %d pegs: %w", pegs, err)
		}
		var ls layerStats
		if err := jsonUnmarshal(data, &ls); err != nil {
			return sum, 0, fmt.Errorf("the stats of %d pegs, partition %d: %w", pegs, t, err)
		}
		if err := kernel.AddStats(&sum, kernel.Stats{Positions: ls.Positions, Raw: ls.Raw, DeadEnds: ls.DeadEnds, Games: ls.Games}); err != nil {
			return sum, 0, fmt.Errorf("the stats of %d pegs: %w", pegs, err)
		}
		peak = max(peak, ls.Peak)
	}
	return sum, peak, nil
}

// winnable returns the winnable positions of a finished run's layer of
// pegs pegs, in key order.
func (s Spec) winnable(ctx context.Context, st *step, pegs int) ([]uint64, error) {
	var keys []uint64
	for t := range s.parts() {
		w, _, err := kernel.ReadPartition(ctx, st.store, kernel.PartitionHeader(kernel.WinnableFile, pegs, t, s.parts(), 0))
		if err != nil {
			return nil, err
		}
		keys = append(keys, w...)
	}
	return keys, nil
}

// winSet reads a finished run's winnable positions, and its layers'
// reachable and winnable counts, as search.Winnable returns them: every
// layer from p0 pegs down to one.
func (s Spec) winSet(ctx context.Context, st *step, prob search.Problem, p0 int) (*search.WinSet, error) {
	var layers []search.LayerStats
	win := map[int][]engine.Position{}
	var peak int64
	for pegs := p0; pegs >= 1; pegs-- {
		sum, pk, err := s.stats(ctx, st, pegs)
		if err != nil {
			return nil, err
		}
		peak = max(peak, pk)
		keys, err := s.winnable(ctx, st, pegs)
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			win[pegs] = append(win[pegs], kernel.Unmix(k))
		}
		layers = append(layers, search.LayerStats{Pegs: pegs, Reachable: sum.Positions, Winnable: int64(len(keys))})
	}
	return search.NewWinSet(prob.Board, st.gen.Group, layers, win, peak, 0), nil
}
