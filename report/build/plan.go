package build

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"pegs/bench"
	"pegs/engine"
	"pegs/search"
	"pegs/search/atomicfile"
)

// Options say what a report covers and how it runs.
type Options struct {
	// Full adds the searches that take many minutes: exact counts for every
	// English start, the French starts, every board's state space within
	// Memory, a larger level pool and longer benchmarks.
	Full    bool
	Seed    uint64
	Workers int   // zero means GOMAXPROCS
	Memory  int64 // budget for each search; zero means search.DefaultMemory
	// Spill, if set, is a directory where the boards table's analyses
	// that pass Memory run again with their layers on disk (search.Spill),
	// each in a directory of its own, removed once done.
	Spill string
	// NoDiskEstimate starts those spilled runs without the estimate of
	// the disk they need (search.Spill.NoEstimate).
	NoDiskEstimate bool
	// Compare, if set, is the directory of an earlier report whose solver
	// timings (data/bench-runs.json) the solver section compares with
	// this run's.
	Compare string
	// Progress, if set, hears of each step as it starts.
	Progress func(step string)
}

// plan is the work of each section; the quick and full reports differ only
// in their plans.
type plan struct {
	boards     []string // section 1: every board listed
	exploreMax int      // boards with more holes are listed but not searched
	profiles   []string // section 3: boards searched in section 1
	// vacancies lists more single-vacancy starts whose whole state space
	// section 3 searches (goal: one peg anywhere), as "board:hole".
	vacancies  []string
	starts     []startPlan
	pools      []poolPlan
	pack       int // levels in the pack, taken from the first pool
	classicMax int // classic levels with more pegs are not graded; 0 skips them
	bench      string
	// benchProblems are the problems of the suite that are timed, all if
	// empty.
	benchProblems []string
	benchOpt      bench.Options
}

// startPlan says how to decide a board's single-vacancy starts: "exact"
// (search.Starts: every finish with its solutions), "pairs"
// (search.StartPairs: which finishes are solvable) or "feasible" (position
// classes only, no search).
type startPlan struct {
	board, how string
}

// poolPlan is a pool of generated levels: its board and goal, how many
// levels, and their fewest and most pegs.
type poolPlan struct {
	board, goal      string
	size, minP, maxP int
}

func quickPlan() plan {
	return plan{
		boards:     []string{"english", "french", "triangle:4", "triangle", "triangle:6", "triangle:7", "triangle:8", "triangle:9", "triangle:10", "diamond", "wiegleb"},
		exploreMax: 33,
		profiles:   []string{"english", "triangle", "triangle:7"},
		starts:     []startPlan{{"english", "pairs"}, {"french", "feasible"}, {"triangle", "exact"}, {"triangle:6", "exact"}},
		pools:      []poolPlan{{"english", "center", 160, 6, 16}, {"triangle", "any", 80, 5, 12}},
		pack:       10,
		classicMax: 24,
		bench:      "classic",
		// Six runs each, the fewest that give a median a 95% interval,
		// on the three quick problems: Pyramid, timed too in the full
		// report, would take as long again as all of them.
		benchProblems: []string{"cross", "plus", "fireplace"},
		benchOpt:      bench.Options{Runs: 6, Timeout: 3 * time.Second, Workers: []int{1, 2}},
	}
}

func fullPlan() plan {
	p := quickPlan()
	p.exploreMax = engine.MaxHoles
	p.profiles = []string{"english", "triangle", "triangle:7", "triangle:8"}
	p.vacancies = []string{"french:c1", "french:d2", "french:d3"}
	p.starts = []startPlan{{"english", "exact"}, {"french", "pairs"}, {"triangle", "exact"}, {"triangle:6", "exact"}}
	p.pools = []poolPlan{{"english", "center", 1000, 6, 16}, {"triangle", "any", 400, 5, 12}}
	p.pack = 20
	p.classicMax = engine.MaxHoles
	p.benchProblems = nil
	p.benchOpt = bench.Options{Runs: 10, Timeout: time.Minute}
	return p
}

// Report runs the searches, generates levels, benchmarks the solvers and
// writes the report into dir: index.md, index.html, figures/ and data/.
// The index is rewritten after each section, so an interrupted build (ctx
// cancelled) leaves the finished sections intact; Report then returns
// ctx's error.
func Report(ctx context.Context, dir string, opt Options) error {
	p := quickPlan()
	if opt.Full {
		p = fullPlan()
	}
	_, err := run(ctx, dir, p, opt)
	return err
}

// builder holds what the sections of one report share.
type builder struct {
	dir  string
	opt  Options
	plan plan
	// analyses of the classic start of each board searched in section 1.
	analyses map[string]*search.Analysis
	// tables are shared by the report's depth-first searches.
	tables *search.Tables
}

// run writes the report of plan p into dir, one section at a time, and
// returns its document as written.
func run(ctx context.Context, dir string, p plan, opt Options) (*Document, error) {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Memory <= 0 {
		opt.Memory = search.DefaultMemory
	}
	if err := mkdirs(dir); err != nil {
		return nil, err
	}
	b := &builder{dir: dir, opt: opt, plan: p, analyses: map[string]*search.Analysis{}, tables: &search.Tables{}}
	mode := "quick"
	if opt.Full {
		mode = "full"
	}
	doc := &Document{
		Title: "Peg solitaire: boards, solvable starts, state spaces, graded levels and solver performance",
		Intro: fmt.Sprintf("Made by `pegs report` (%s mode, seed %d). Every count is computed by the searches of this run and is exact; "+
			"tables are deterministic for a seed, timings aside. Tables are also in data/ as CSV and JSON; figures are in figures/ as SVG and PNG.", mode, opt.Seed),
	}
	sections := []struct {
		title string
		run   func(context.Context) (Section, error)
	}{
		{"Boards", b.boards},
		{"Solvable starts", b.starts},
		{"State-space profiles", b.profiles},
		{"Generated levels", b.levels},
		{"Solver performance", b.performance},
	}
	for i, s := range sections {
		b.progress(fmt.Sprintf("section %d/%d: %s", i+1, len(sections), strings.ToLower(s.title)))
		sec, err := s.run(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) || ctx.Err() != nil {
				doc.Status = fmt.Sprintf("Interrupted during section %d (%s); the sections before it are complete.", i+1, s.title)
			} else {
				doc.Status = fmt.Sprintf("Stopped by an error in section %d (%s): %v", i+1, s.title, err)
			}
			if serr := doc.Save(dir); serr != nil {
				return doc, serr
			}
			return doc, fmt.Errorf("section %s: %w", s.title, err)
		}
		sec.Title = s.title
		if err := sec.WriteData(b.path("data")); err != nil {
			return doc, err
		}
		doc.Sections = append(doc.Sections, sec)
		if err := doc.Save(dir); err != nil {
			return doc, err
		}
	}
	return doc, nil
}

// mkdirs makes the report's directories, and tries a file in each
// before the work starts.
func mkdirs(dir string) error {
	for _, d := range []string{dir, filepath.Join(dir, "data"), filepath.Join(dir, "figures"), filepath.Join(dir, "figures", "levels")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := atomicfile.Check(filepath.Join(d, "index.html")); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) path(elem ...string) string {
	return filepath.Join(append([]string{b.dir}, elem...)...)
}

func (b *builder) progress(step string) {
	if b.opt.Progress != nil {
		b.opt.Progress(step)
	}
}

func (b *builder) exploreOptions() search.ExploreOptions {
	return search.ExploreOptions{Budget: search.Budget{Workers: b.opt.Workers, Memory: b.opt.Memory}}
}

// fileName is a board's name as part of a file name.
func fileName(board string) string { return strings.ReplaceAll(board, ":", "") }
