package report

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"pegs/bench"
	"pegs/engine"
	"pegs/generate"
	"pegs/search"
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
	benchOpt   bench.Options
}

// startPlan says how to decide a board's single-vacancy starts: "exact"
// (search.Starts: every finish with its solutions), "pairs"
// (search.StartPairs: which finishes are solvable) or "feasible" (position
// classes only, no search).
type startPlan struct {
	board, how string
}

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
		benchOpt:   bench.Quick(),
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
	p.benchOpt = bench.Options{Runs: 3, Timeout: time.Minute}
	return p
}

// Build runs the searches, generates levels, benchmarks the solvers and
// writes the report into dir: index.md, index.html, figures/ and data/.
// The index is rewritten after each section, so an interrupted build (ctx
// cancelled) leaves the finished sections intact; Build then returns ctx's
// error.
func Build(ctx context.Context, dir string, opt Options) error {
	p := quickPlan()
	if opt.Full {
		p = fullPlan()
	}
	return build(ctx, dir, p, opt)
}

type builder struct {
	dir  string
	opt  Options
	plan plan
	// analyses of the classic start of each board searched in section 1.
	analyses map[string]*search.Analysis
	pools    map[string][]generate.Level
}

func build(ctx context.Context, dir string, p plan, opt Options) error {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Memory <= 0 {
		opt.Memory = search.DefaultMemory
	}
	if err := mkdirs(dir); err != nil {
		return err
	}
	b := &builder{dir: dir, opt: opt, plan: p, analyses: map[string]*search.Analysis{}, pools: map[string][]generate.Level{}}
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
				return serr
			}
			return fmt.Errorf("section %s: %w", s.title, err)
		}
		sec.Title = s.title
		if err := sec.WriteData(b.path("data")); err != nil {
			return err
		}
		doc.Sections = append(doc.Sections, sec)
		if err := doc.Save(dir); err != nil {
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
	return search.ExploreOptions{Workers: b.opt.Workers, Memory: b.opt.Memory}
}

// classicStart is a board's classic start: on triangles, the first hole in
// numbering order whose vacancy the position classes allow to end with one
// peg (hole 1 on the 15-hole triangle); the board's own start elsewhere.
func classicStart(bd *engine.Board) engine.Position {
	if bd.Geometry() != engine.Triangular {
		return bd.Start()
	}
	for h := range bd.Holes() {
		if p := bd.Full() &^ (1 << uint(h)); bd.Feasible(p, engine.Goal{Kind: engine.OnePeg}) {
			return p
		}
	}
	return bd.Start()
}

// classicGoal is the goal of a board's classic start: one peg in the centre
// where the position classes allow it, else one peg anywhere.
func classicGoal(bd *engine.Board) engine.Goal {
	if c, ok := bd.Centre(); ok {
		g := engine.Goal{Kind: engine.OnePegAt, Hole: c}
		if bd.Feasible(classicStart(bd), g) {
			return g
		}
	}
	return engine.Goal{Kind: engine.OnePeg}
}

func (b *builder) boards(ctx context.Context) (Section, error) {
	t := &Table{Header: []string{"board", "holes", "jumps", "symmetries", "position classes", "classic start", "goal", "reachable", "reachable raw", "can reach goal", "solutions", "complete games", "random-play win"}}
	var gallery []Picture
	for _, name := range b.plan.boards {
		bd, err := engine.Lookup(name)
		if err != nil {
			return Section{}, err
		}
		start := classicStart(bd)
		empty := bd.Full() &^ start
		var vac []int
		for h := range bd.Holes() {
			if empty.Has(h) {
				vac = append(vac, h)
			}
		}
		goal := classicGoal(bd)
		row := []string{name, strconv.Itoa(bd.Holes()), strconv.Itoa(len(bd.Jumps())), strconv.Itoa(bd.Symmetry().Len()), strconv.Itoa(bd.Classes()),
			"vacate " + HoleList(bd, vac), bd.FormatGoal(goal)}
		if bd.Holes() > b.plan.exploreMax {
			t.Add(append(row, "not searched (quick mode)", "", "", "", "", "")...)
		} else {
			b.progress("exploring " + name)
			a, err := search.Explore(ctx, search.Problem{Board: bd, Start: start, Goal: goal}, b.exploreOptions())
			switch {
			case errors.Is(err, search.ErrMemory):
				t.Add(append(row, "over the "+humanize.IBytes(uint64(b.opt.Memory))+" memory budget", "", "", "", "", "")...)
			case err != nil:
				return Section{}, fmt.Errorf("%s: %w", name, err)
			default:
				b.analyses[name] = a
				t.Add(append(row, strconv.FormatInt(a.Reachable, 10), strconv.FormatInt(a.ReachableRaw, 10), strconv.FormatInt(a.Winnable, 10),
					a.Solutions.String(), a.Games.String(), strconv.FormatFloat(a.RandomWin, 'g', 4, 64))...)
			}
		}
		file := "levels/board-" + fileName(name)
		if err := SavePicture(b.path("figures"), file, bd, start); err != nil {
			return Section{}, err
		}
		gallery = append(gallery, Picture{file, fmt.Sprintf("%s, %d holes", name, bd.Holes())})
	}
	return Section{
		Text: "The built-in boards and the state space of each board's classic start (the full board less its centre; on triangles, less the first hole whose vacancy the position classes allow to end with one peg). " +
			"Positions are counted up to the symmetries that keep the start and goal in place, and raw (every symmetric image). " +
			"Solutions and complete games count jump sequences; the random-play win is the chance that a player choosing uniformly among legal jumps meets the goal.",
		Items: []Item{
			{Caption: "Boards and the whole state space of their classic start.", Table: t, Name: "boards"},
			{Caption: "Each board at its classic start (pegs ivory, empty holes dark).", Gallery: gallery},
		},
	}, nil
}

func fileName(board string) string { return strings.ReplaceAll(board, ":", "") }

func (b *builder) starts(ctx context.Context) (Section, error) {
	sec := Section{Text: "Which single-vacancy starts can end with one peg, and where. " +
		"\"Exact\" boards were searched exhaustively for every start, so every finish comes with its number of solutions; " +
		"\"solvable\" boards had each (vacancy, finish) pair that the position classes allow decided by the depth-first solver; " +
		"\"feasible\" boards show only what the position classes allow, an upper bound that the full report decides."}
	for _, sp := range b.plan.starts {
		bd, err := engine.Lookup(sp.board)
		if err != nil {
			return Section{}, err
		}
		b.progress(fmt.Sprintf("starts on %s (%s)", sp.board, sp.how))
		values := make([]float64, bd.Holes())
		var it Item
		var label func(float64) string
		var mapTitle string
		switch sp.how {
		case "exact":
			res, err := search.Starts(ctx, bd, b.exploreOptions(), nil)
			if err != nil {
				return Section{}, fmt.Errorf("starts on %s: %w", sp.board, err)
			}
			for _, r := range res {
				v := math.NaN()
				if r.Decided {
					v, _ = new(big.Float).SetInt(r.Solutions).Float64()
				}
				for _, h := range r.Class {
					values[h] = v
				}
			}
			it = Item{Caption: fmt.Sprintf("%s, exact: every single-vacancy start up to symmetry, its reachable positions, and its solutions by finishing hole.", sp.board),
				Table: StartsTable(bd, res)}
			label = func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) + " solutions" }
			mapTitle = fmt.Sprintf("%s: solutions to one peg from each vacancy", sp.board)
		case "pairs":
			pairs, err := search.StartPairs(ctx, bd, search.Options{Memory: b.opt.Memory}, 0)
			if err != nil {
				return Section{}, fmt.Errorf("starts on %s: %w", sp.board, err)
			}
			fillPairs(bd, pairs, values)
			it = Item{Caption: fmt.Sprintf("%s, solvable: for each start class, the finishing holes one peg can reach (every pair solved and its solution replayed).", sp.board),
				Table: PairsTable(bd, pairs)}
			label = func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) + " finishing holes" }
			mapTitle = fmt.Sprintf("%s: finishing holes reachable from each vacancy", sp.board)
		case "feasible":
			for s := range bd.Holes() {
				start := bd.Full() &^ (1 << uint(s))
				for f := range bd.Holes() {
					if bd.Feasible(start, engine.Goal{Kind: engine.OnePegAt, Hole: f}) {
						values[s]++
					}
				}
			}
			it = Item{Caption: fmt.Sprintf("%s, feasible: for each start class, the finishing holes the position classes allow (not searched in quick mode; `--full` decides each).", sp.board),
				Table: FeasibleTable(bd)}
			label = func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) + " feasible finishes" }
			mapTitle = fmt.Sprintf("%s: class-feasible finishing holes from each vacancy", sp.board)
		default:
			return Section{}, fmt.Errorf("unknown starts plan %q", sp.how)
		}
		it.Name = "starts-" + fileName(sp.board)
		fig, err := BoardMap(mapTitle, bd, values, label)
		if err != nil {
			return Section{}, err
		}
		if err := fig.Save(b.path("figures"), it.Name); err != nil {
			return Section{}, err
		}
		sec.Items = append(sec.Items, it, Item{Caption: "The board drawn as it looks, each hole coloured by the result of the start that vacates it.", Figure: it.Name})
	}
	return sec, nil
}

// fillPairs sets values[s] to the number of solvable finishes from
// vacancy s, for every vacancy in each pair's start class (NaN where some
// pair is undecided).
func fillPairs(bd *engine.Board, pairs []search.Pair, values []float64) {
	count := map[int]float64{}
	for _, p := range pairs {
		switch {
		case !p.Decided:
			count[p.Start] = math.NaN()
		case p.Solvable:
			count[p.Start]++
		}
	}
	for s, v := range count {
		for _, h := range orbit(bd.Symmetry(), s) {
			values[h] = v
		}
	}
}

func (b *builder) profiles(ctx context.Context) (Section, error) {
	sec := Section{Text: "How many positions each peg count holds from the classic start: reachable, able to still meet the goal, and dead ends (no jump left). " +
		"Positions are counted up to the start's symmetry."}
	for _, name := range b.plan.profiles {
		a, ok := b.analyses[name]
		if !ok {
			sec.Items = append(sec.Items, Item{Caption: fmt.Sprintf("%s: not searched (over the memory budget or beyond quick mode).", name)})
			continue
		}
		bd, _ := engine.Lookup(name)
		fig, err := ProfilePlot(fmt.Sprintf("%s, classic start, goal %s", name, bd.FormatGoal(classicGoal(bd))), a.Layers)
		if err != nil {
			return Section{}, err
		}
		file := "profile-" + fileName(name)
		if err := fig.Save(b.path("figures"), file); err != nil {
			return Section{}, err
		}
		sec.Items = append(sec.Items,
			Item{Caption: fmt.Sprintf("%s: positions by peg count.", name), Table: LayersTable(a.Layers), Name: file},
			Item{Caption: fmt.Sprintf("%s: the state space by peg count, log scale.", name), Figure: file})
	}
	for _, v := range b.plan.vacancies {
		i := strings.LastIndexByte(v, ':')
		bd, err := engine.Lookup(v[:i])
		if err != nil {
			return Section{}, err
		}
		start, err := bd.Vacate(v[i+1:])
		if err != nil {
			return Section{}, err
		}
		b.progress("exploring " + v)
		// The profile shows no complete games; leaving them out halves the
		// memory.
		opt := b.exploreOptions()
		opt.NoGames = true
		a, err := search.Explore(ctx, search.Problem{Board: bd, Start: start, Goal: engine.Goal{Kind: engine.OnePeg}}, opt)
		if errors.Is(err, search.ErrMemory) {
			sec.Items = append(sec.Items, Item{Caption: fmt.Sprintf("%s, vacate %s: the whole state space needs more than the %s memory budget; not searched to the end.",
				bd.Name(), v[i+1:], humanize.IBytes(uint64(b.opt.Memory)))})
			continue
		}
		if err != nil {
			return Section{}, fmt.Errorf("%s: %w", v, err)
		}
		fig, err := ProfilePlot(fmt.Sprintf("%s, vacate %s, goal any", bd.Name(), v[i+1:]), a.Layers)
		if err != nil {
			return Section{}, err
		}
		file := "profile-" + fileName(bd.Name()) + "-" + v[i+1:]
		if err := fig.Save(b.path("figures"), file); err != nil {
			return Section{}, err
		}
		sec.Items = append(sec.Items,
			Item{Caption: fmt.Sprintf("%s, vacate %s: positions by peg count (%s solutions to one peg).", bd.Name(), v[i+1:], a.Solutions), Table: LayersTable(a.Layers), Name: file},
			Item{Caption: fmt.Sprintf("%s, vacate %s: the state space by peg count, log scale.", bd.Name(), v[i+1:]), Figure: file})
	}
	return sec, ctx.Err()
}

func (b *builder) levels(ctx context.Context) (Section, error) {
	sec := Section{Text: "Levels made by reverse play from the goal, measured on their whole state space, scored by the documented difficulty D " +
		"(log10 J1 + 0.15·critical + 0.3·uniqueFirst − 0.2·log10(1 + solutions/(pegs − 1))) and graded 1..5 by the board's calibration. " +
		"Every level was solved again and its solution replayed before it was kept."}
	for i, pp := range b.plan.pools {
		bd, err := engine.Lookup(pp.board)
		if err != nil {
			return Section{}, err
		}
		goal, err := bd.ParseGoal(pp.goal)
		if err != nil {
			return Section{}, err
		}
		b.progress(fmt.Sprintf("generating %d %s levels", pp.size, pp.board))
		pool, err := generate.Generate(ctx, bd, pp.size, generate.Options{Goal: goal, MinPegs: pp.minP, MaxPegs: pp.maxP,
			Seed: b.opt.Seed, Workers: b.opt.Workers, Memory: b.opt.Memory})
		if err != nil {
			return Section{}, fmt.Errorf("generating %s levels: %w", pp.board, err)
		}
		if i == 0 && b.plan.pack > 0 {
			pack, err := generate.Progression(pool, b.plan.pack)
			if err != nil {
				return Section{}, err
			}
			var gallery []Picture
			for j, l := range pack {
				file := fmt.Sprintf("levels/pack-%02d", j+1)
				if err := SavePicture(b.path("figures"), file, bd, l.Position()); err != nil {
					return Section{}, err
				}
				gallery = append(gallery, Picture{file, fmt.Sprintf("%d: %d pegs, grade %d", j+1, l.Pegs, l.Grade)})
			}
			sec.Items = append(sec.Items,
				Item{Caption: fmt.Sprintf("A pack of %d %s levels (goal %s) taken from the pool at evenly spaced difficulty ranks: scores rise strictly.", len(pack), pp.board, pp.goal),
					Table: LevelsTable(pack, nil), Name: "pack-" + fileName(pp.board)},
				Item{Caption: "The pack's levels as pictures for a game's level list (PNG and SVG in figures/levels).", Gallery: gallery})
		}
		hist, err := ScoreHistogram(fmt.Sprintf("%s: difficulty of %d generated levels (%d-%d pegs)", pp.board, len(pool), pp.minP, pp.maxP), pool)
		if err != nil {
			return Section{}, err
		}
		file := "scores-" + fileName(pp.board)
		if err := hist.Save(b.path("figures"), file); err != nil {
			return Section{}, err
		}
		sc, err := ScoreByPegs(fmt.Sprintf("%s: difficulty against size, coloured by grade", pp.board), pool)
		if err != nil {
			return Section{}, err
		}
		if err := sc.Save(b.path("figures"), "score-pegs-"+fileName(pp.board)); err != nil {
			return Section{}, err
		}
		sec.Items = append(sec.Items,
			Item{Caption: fmt.Sprintf("Every level of the %s pool, with its metrics (in the data files only).", pp.board), Table: LevelsTable(pool, nil), Name: "pool-" + fileName(pp.board), DataOnly: true},
			Item{Caption: fmt.Sprintf("Distribution of difficulty scores in the %s pool.", pp.board), Figure: file},
			Item{Caption: fmt.Sprintf("Each %s level's difficulty against its pegs, coloured by its grade on the %s calibration.", pp.board, pp.board), Figure: "score-pegs-" + fileName(pp.board)})
	}
	if b.plan.classicMax > 0 {
		items, err := b.classic(ctx)
		if err != nil {
			return Section{}, err
		}
		sec.Items = append(sec.Items, items...)
	}
	return sec, nil
}

// classic grades the classic English levels with the generator's measure.
func (b *builder) classic(ctx context.Context) ([]Item, error) {
	b.progress("grading the classic levels")
	probs, err := bench.Suite("classic", engine.English())
	if err != nil {
		return nil, err
	}
	var levels []generate.Level
	var names, skipped []string
	var gallery []Picture
	for _, p := range probs {
		if p.Start.Pegs() > b.plan.classicMax {
			skipped = append(skipped, fmt.Sprintf("%s (%d pegs)", p.Name, p.Start.Pegs()))
			continue
		}
		m, d, err := generate.Grade(ctx, p.Board, p.Start, p.Goal, search.Options{Memory: b.opt.Memory})
		if errors.Is(err, search.ErrMemory) {
			skipped = append(skipped, fmt.Sprintf("%s (over the %s memory budget)", p.Name, humanize.IBytes(uint64(b.opt.Memory))))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("grading %s: %w", p.Name, err)
		}
		l, err := generate.NewLevel(ctx, p.Board, p.Start, p.Goal, m, d)
		if err != nil {
			return nil, fmt.Errorf("grading %s: %w", p.Name, err)
		}
		levels = append(levels, l)
		names = append(names, p.Name)
		file := "levels/classic-" + p.Name
		if err := SavePicture(b.path("figures"), file, p.Board, p.Start); err != nil {
			return nil, err
		}
		gallery = append(gallery, Picture{file, fmt.Sprintf("%s: %d pegs, grade %d", p.Name, l.Pegs, l.Grade)})
	}
	caption := "The classic English levels, in their traditional order, graded with the same measure."
	if len(skipped) > 0 {
		caption += " Not graded in this mode: " + strings.Join(skipped, ", ") + "."
	}
	return []Item{
		{Caption: caption, Table: LevelsTable(levels, names), Name: "classic"},
		{Caption: "The classic levels as pictures.", Gallery: gallery},
	}, nil
}

func (b *builder) performance(ctx context.Context) (Section, error) {
	if b.plan.bench == "" {
		return Section{Text: "Not measured in this run."}, nil
	}
	probs, err := bench.Suite(b.plan.bench, engine.English())
	if err != nil {
		return Section{}, err
	}
	opt := b.plan.benchOpt
	opt.Progress = func(p, s string, w int) { b.progress(fmt.Sprintf("bench %s: %s, %d workers", p, s, w)) }
	results, err := bench.Run(ctx, probs, bench.Strategies(), opt)
	if err != nil {
		return Section{}, err
	}
	times, err := StrategyTimes(fmt.Sprintf("Solver strategies on the %s suite", b.plan.bench), results)
	if err != nil {
		return Section{}, err
	}
	if err := times.Save(b.path("figures"), "strategy-times"); err != nil {
		return Section{}, err
	}
	scaling, err := ScalingPlot("Worker scaling of the parallel strategies", results)
	if err != nil {
		return Section{}, err
	}
	if err := scaling.Save(b.path("figures"), "scaling"); err != nil {
		return Section{}, err
	}
	runs := fmt.Sprintf("%d timed run(s) after a warm-up, %v allowed per run", max(1, opt.Runs), opt.Timeout)
	return Section{
		Text: fmt.Sprintf("Every solver strategy on the %s suite (%s), its answers cross-checked against the others. "+
			"Timings are of this machine and run (GOMAXPROCS %d); they are the one part of the report that varies between runs.", b.plan.bench, runs, runtime.GOMAXPROCS(0)),
		Items: []Item{
			{Caption: "Median wall time per strategy and problem, relative to the fastest strategy on that problem; positions visited per second; allocations and peak heap.", Table: BenchTable(results), Name: "bench"},
			{Caption: "Each strategy's median time per problem (its best worker count); a strategy that timed out has no bar.", Figure: "strategy-times"},
			{Caption: "Speed-up and efficiency of the parallel strategies by worker count.", Table: ScalingTable(results), Name: "scaling"},
			{Caption: "Speed-up over one worker, summed over the problems every worker count finished, against the ideal.", Figure: "scaling"},
		},
	}, nil
}
