package cli

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

// ExploreUsage is the explore command's usage line, after its name.
const ExploreUsage = "--board B (--start H,...|--position P) [--goal G] [--workers N] [--mem SIZE] [--format F] [--winnable-only|--reachable-only|--random-only] [--whole-group] [--no-games]"

// ExploreFlags are the explore command's flags.
type ExploreFlags struct {
	Problem                                            ProblemFlags
	Search                                             SearchFlags
	format                                             string
	winOnly, whole, noGames, reachableOnly, randomOnly bool
}

// Register adds the flags to fs.
func (f *ExploreFlags) Register(fs *flag.FlagSet) {
	f.Problem.Register(fs, false)
	f.Search.Register(fs, search.DefaultExhaustiveMemory)
	fs.StringVar(&f.format, "format", "text", "output format: text, markdown, csv (the layer table) or json")
	fs.BoolVar(&f.winOnly, "winnable-only", false, "find only the winnable positions (faster: no path counts)")
	fs.BoolVar(&f.whole, "whole-group", false, "with --goal any, count positions up to every symmetry of the board even where it moves the start\n(up to 8 times fewer positions on a start no symmetry fixes; finishes that only those symmetries tell apart are counted together)")
	fs.BoolVar(&f.noGames, "no-games", false, "leave complete games uncounted, the one count that takes a pass over every reachable position\n(everything else is counted as without it, in less time and memory)")
	fs.BoolVar(&f.randomOnly, "random-only", false, "find only the chance that random play (each legal jump equally likely) meets the goal:\nthe winnable positions and the chance over them, no path counts or other counts (faster)")
	fs.BoolVar(&f.reachableOnly, "reachable-only", false, "count only the reachable positions and dead ends, holding two layers at a time\n(for state spaces whose full analysis passes --mem: no winnable positions, no path counts)")
}

// Exploration is what the explore flags ask for.
type Exploration struct {
	Problem      search.Problem
	Options      search.ExploreOptions
	Format       report.Format
	WinnableOnly bool
	// RandomOnly asks for the random-play chance alone (search.RandomChance).
	RandomOnly bool
}

// Load checks the flags and returns what they ask for.
func (f *ExploreFlags) Load() (Exploration, error) {
	b, start, goal, err := f.Problem.Load()
	if err != nil {
		return Exploration{}, err
	}
	format, err := ParseFormat(f.format)
	if err != nil {
		return Exploration{}, err
	}
	budget, err := f.Search.Load()
	if err != nil {
		return Exploration{}, err
	}
	if f.whole && goal.Kind != engine.OnePeg {
		return Exploration{}, Usagef("--whole-group needs --goal any")
	}
	if f.winOnly && (f.whole || f.noGames || f.reachableOnly) {
		return Exploration{}, Usagef("--whole-group, --no-games and --reachable-only do not go with --winnable-only")
	}
	if f.randomOnly && (f.winOnly || f.whole || f.noGames || f.reachableOnly) {
		return Exploration{}, Usagef("--winnable-only, --whole-group, --no-games and --reachable-only do not go with --random-only")
	}
	if f.reachableOnly && f.noGames {
		return Exploration{}, Usagef("--reachable-only counts no games already: leave out --no-games")
	}
	return Exploration{
		Problem:      search.Problem{Board: b, Start: start, Goal: goal},
		Options:      search.ExploreOptions{Budget: search.Budget{Workers: f.Search.Workers, Memory: budget}, WholeGroup: f.whole, NoGames: f.noGames, ReachableOnly: f.reachableOnly},
		Format:       format,
		WinnableOnly: f.winOnly,
		RandomOnly:   f.randomOnly,
	}, nil
}

// Write writes analysis a of the exploration, found with err: in full,
// or, interrupted, the layers finished; past the memory budget, err names
// the flag that would need less of it.
func (x Exploration) Write(stdout, stderr io.Writer, a *search.Analysis, err error) error {
	prob := x.Problem
	write := report.WriteExplore
	if x.Options.ReachableOnly {
		write = report.WriteReachable
	}
	if a != nil && errors.Is(err, context.Canceled) {
		return Interrupted(stdout, stderr, x.Format, prob, a, err)
	}
	if errors.Is(err, search.ErrMemory) {
		// Past the budget, name the flags that need less of it, the
		// first that applies.
		switch n := prob.Board.Symmetry().Len() / prob.Group().Len(); {
		case prob.Goal.Kind == engine.OnePeg && !x.Options.WholeGroup && n > 1:
			return advised{err, fmt.Sprintf("--whole-group would count up to the board's symmetry, about %d times fewer positions", n)}
		case !x.Options.NoGames && !x.Options.ReachableOnly:
			return advised{err, "--no-games would count all but complete games, in less memory"}
		case !x.Options.ReachableOnly:
			return advised{err, "--reachable-only would count the positions alone, two layers at a time"}
		}
	}
	if err != nil {
		return err
	}
	return write(stdout, x.Format, prob, a)
}

// Interrupted writes what an interrupted search finished, the forward
// pass's layers, as --reachable-only writes them, and returns err marked
// reported (unmarked when no layer finished: there is nothing to write).
func Interrupted(stdout, stderr io.Writer, f report.Format, prob search.Problem, a *search.Analysis, err error) error {
	if len(a.Layers) == 0 {
		return err
	}
	fmt.Fprintf(stderr, "pegs: interrupted; the positions of the layers finished so far follow\n")
	if werr := report.WriteInterrupted(stdout, f, prob, a); werr != nil {
		return werr
	}
	return Reported{Err: err}
}
