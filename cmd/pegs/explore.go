package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"pegs/engine"
	"pegs/report"
	"pegs/search"
)

func runExplore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("explore", "--board B (--start H,...|--position P) [--goal G] [--workers N] [--mem SIZE] [--format F] [--winnable-only|--reachable-only] [--whole-group] [--no-games] [--spill DIR|--resume DIR] [--keep]", stderr)
	var pf problemFlags
	var sf searchFlags
	pf.register(fs, false)
	sf.register(fs, search.DefaultExhaustiveMemory)
	format := fs.String("format", "text", "output format: text, markdown, csv (the layer table) or json")
	winOnly := fs.Bool("winnable-only", false, "find only the winnable positions (faster: no path counts)")
	whole := fs.Bool("whole-group", false, "with --goal any, count positions up to every symmetry of the board even where it moves the start\n(up to 8 times fewer positions on a start no symmetry fixes; finishes that only those symmetries tell apart are counted together)")
	noGames := fs.Bool("no-games", false, "leave complete games uncounted, the one count that needs every reachable position's paths\n(about half the memory, same time: solutions and random play are counted on the winnable positions only)")
	reachOnly := fs.Bool("reachable-only", false, "count only the reachable positions and dead ends, holding two layers at a time\n(for state spaces whose full analysis passes --mem: no winnable positions, no path counts)")
	var spf spillFlags
	spf.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	b, start, goal, err := pf.load()
	if err != nil {
		return err
	}
	f, err := parseFormat(*format)
	if err != nil {
		return err
	}
	budget, err := sf.load()
	if err != nil {
		return err
	}
	prob := search.Problem{Board: b, Start: start, Goal: goal}
	if *whole && goal.Kind != engine.OnePeg {
		return usagef("--whole-group needs --goal any")
	}
	if *winOnly && (*whole || *noGames || *reachOnly) {
		return usagef("--whole-group, --no-games and --reachable-only do not go with --winnable-only")
	}
	if *reachOnly && *noGames {
		return usagef("--reachable-only counts no games already: leave out --no-games")
	}
	sp, err := spf.load()
	if err != nil {
		return err
	}
	if sp.Dir != "" && (*winOnly || *reachOnly) {
		return usagef("--spill and --resume are for the full analysis: leave out --winnable-only and --reachable-only")
	}
	opt := search.Options{Workers: sf.workers, Memory: budget, Progress: progress(stderr, ""), WholeGroup: *whole, NoGames: *noGames, ReachableOnly: *reachOnly, Spill: sp}
	if *winOnly {
		w, err := search.Winnable(ctx, prob, opt)
		if w != nil && errors.Is(err, context.Canceled) {
			return interrupted(stdout, stderr, f, prob, report.ForwardPass(prob, w), err)
		}
		if err != nil {
			return err
		}
		return report.WriteWinnable(stdout, f, prob, w)
	}
	a, err := search.Explore(ctx, prob, opt)
	write := report.WriteExplore
	if *reachOnly {
		write = report.WriteReachable
	}
	if sp.Dir != "" && errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "pegs: %s keeps the run so far; continue it with --resume %s\n", sp.Dir, sp.Dir)
	}
	if a != nil && errors.Is(err, context.Canceled) {
		return interrupted(stdout, stderr, f, prob, a, err)
	}
	if errors.Is(err, search.ErrMemory) {
		// Past the budget, name the flags that need less of it, the
		// first that applies.
		switch n := b.Symmetry().Len() / prob.Group().Len(); {
		case goal.Kind == engine.OnePeg && !*whole && n > 1:
			return fmt.Errorf("%w; --whole-group would count up to the board's symmetry, about %d times fewer positions", err, n)
		case !*noGames && !*reachOnly:
			return fmt.Errorf("%w; --no-games would count all but complete games in about half the memory", err)
		case !*reachOnly:
			return fmt.Errorf("%w; --reachable-only would count the positions alone, two layers at a time", err)
		}
	}
	if err != nil {
		return err
	}
	return write(stdout, f, prob, a)
}

// interrupted writes what an interrupted search finished, the forward
// pass's layers, as --reachable-only writes them, and returns err marked
// reported (unmarked when no layer finished: there is nothing to write).
func interrupted(stdout, stderr io.Writer, f report.Format, prob search.Problem, a *search.Analysis, err error) error {
	if len(a.Layers) == 0 {
		return err
	}
	fmt.Fprintf(stderr, "pegs: interrupted; the positions of the layers finished so far follow\n")
	if werr := report.WriteReachable(stdout, f, prob, a); werr != nil {
		return werr
	}
	return reported{err}
}

// spillFlags put an exhaustive search's layers on disk.
type spillFlags struct {
	spill, resume string
	keep          bool
}

func (f *spillFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.spill, "spill", "", "hold the layers as files in `DIR` (made if missing), memory bounding one partition's work;\nan interrupted run can be continued with --resume DIR")
	fs.StringVar(&f.resume, "resume", "", "continue the spilled run in `DIR` from its last complete partition")
	fs.BoolVar(&f.keep, "keep", false, "with --spill or --resume, leave the files at the end")
}

// load returns the spill asked for.
func (f *spillFlags) load() (search.Spill, error) {
	switch {
	case f.spill != "" && f.resume != "":
		return search.Spill{}, usagef("give --spill DIR or --resume DIR, not both")
	case f.keep && f.spill == "" && f.resume == "":
		return search.Spill{}, usagef("--keep needs --spill DIR or --resume DIR")
	case f.resume != "":
		return search.Spill{Dir: f.resume, Resume: true, Keep: f.keep}, nil
	}
	return search.Spill{Dir: f.spill, Keep: f.keep}, nil
}
