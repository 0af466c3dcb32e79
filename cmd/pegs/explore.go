package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"pegs/engine"
	"pegs/report"
	"pegs/search"
)

func runExplore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("explore", "--board B (--start H,...|--position P) [--goal G] [--workers N] [--mem SIZE] [--format F] [--winnable-only|--reachable-only] [--whole-group] [--no-games]", stderr)
	var pf problemFlags
	var sf searchFlags
	pf.register(fs, false)
	sf.register(fs, "8GiB")
	format := fs.String("format", "text", "output format: text, markdown, csv (the layer table) or json")
	winOnly := fs.Bool("winnable-only", false, "find only the winnable positions (faster: no path counts)")
	whole := fs.Bool("whole-group", false, "with --goal any, count positions up to every symmetry of the board even where it moves the start\n(up to 8 times fewer positions on a start no symmetry fixes; finishes that only those symmetries tell apart are counted together)")
	noGames := fs.Bool("no-games", false, "leave complete games uncounted, the one count that needs every reachable position's paths\n(about half the memory, same time: solutions and random play are counted on the winnable positions only)")
	reachOnly := fs.Bool("reachable-only", false, "count only the reachable positions and dead ends, holding two layers at a time\n(for state spaces whose full analysis passes --mem: no winnable positions, no path counts)")
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
	opt := search.ExploreOptions{Workers: sf.workers, Memory: budget, Progress: progress(stderr, ""), WholeGroup: *whole, NoGames: *noGames, ReachableOnly: *reachOnly}
	if *winOnly {
		w, err := search.Winnable(ctx, prob, opt)
		if w != nil && errors.Is(err, context.Canceled) {
			a := &search.Analysis{Symmetries: prob.Group().Len(), Layers: w.Layers, Elapsed: w.Elapsed, PeakBytes: w.PeakBytes}
			for _, l := range w.Layers {
				a.Reachable += l.Reachable
				a.ReachableRaw += l.ReachableRaw
				a.DeadEnds += l.DeadEnds
			}
			return interrupted(stdout, stderr, f, prob, a, err)
		}
		if err != nil {
			return err
		}
		return writeWinnable(stdout, f, prob, w)
	}
	a, err := search.Explore(ctx, prob, opt)
	write := writeExplore
	if *reachOnly {
		write = writeReachable
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
	if werr := writeReachable(stdout, f, prob, a); werr != nil {
		return werr
	}
	return reported{err}
}

// writeReachable writes a reachable-only analysis: positions and dead
// ends, in all and by layer.
func writeReachable(w io.Writer, f report.Format, prob search.Problem, a *search.Analysis) error {
	b := prob.Board
	t := &report.Table{Header: []string{"pegs", "reachable", "reachable_raw", "dead_ends"}}
	type layerJSON struct {
		Pegs         int   `json:"pegs"`
		Reachable    int64 `json:"reachable"`
		ReachableRaw int64 `json:"reachable_raw"`
		DeadEnds     int64 `json:"dead_ends"`
	}
	var layers []layerJSON
	for _, l := range a.Layers {
		t.Add(strconv.Itoa(l.Pegs), strconv.FormatInt(l.Reachable, 10), strconv.FormatInt(l.ReachableRaw, 10), strconv.FormatInt(l.DeadEnds, 10))
		layers = append(layers, layerJSON{l.Pegs, l.Reachable, l.ReachableRaw, l.DeadEnds})
	}
	whole := a.Symmetries > prob.Group().Len()
	switch f {
	case report.JSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Board        string      `json:"board"`
			Start        string      `json:"start"`
			Symmetries   int         `json:"symmetries"`
			WholeGroup   bool        `json:"whole_group,omitempty"`
			Reachable    int64       `json:"reachable"`
			ReachableRaw int64       `json:"reachable_raw"`
			DeadEnds     int64       `json:"dead_ends"`
			Layers       []layerJSON `json:"layers"`
			ElapsedMS    int64       `json:"elapsed_ms"`
			PeakBytes    int64       `json:"peak_bytes"`
		}{b.Name(), b.Line(prob.Start), a.Symmetries, whole, a.Reachable, a.ReachableRaw, a.DeadEnds, layers, a.Elapsed.Milliseconds(), a.PeakBytes})
	case report.CSV:
		return t.Write(w, f)
	}
	note := ""
	if whole {
		note = " (--whole-group: positions reachable from any of the start's images)"
	}
	fmt.Fprintf(w, "board %s, %d pegs: reachable positions up to %d symmetries%s\n\n%s\n", b.Name(), prob.Start.Pegs(), a.Symmetries, note, b.Picture(prob.Start))
	sum := &report.Table{Header: []string{"measure", "value"}}
	sum.Add("reachable positions", strconv.FormatInt(a.Reachable, 10))
	sum.Add("reachable, counting symmetric images", strconv.FormatInt(a.ReachableRaw, 10))
	sum.Add("dead ends", strconv.FormatInt(a.DeadEnds, 10))
	sum.Add("time", a.Elapsed.Round(time.Millisecond).String())
	sum.Add("peak table memory", strconv.FormatInt(a.PeakBytes>>20, 10)+" MiB")
	if err := sum.Write(w, f); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return t.Write(w, f)
}

func layerTable(layers []search.LayerStats) *report.Table {
	t := &report.Table{Header: []string{"pegs", "reachable", "reachable_raw", "winnable", "dead_ends"}}
	for _, l := range layers {
		t.Add(strconv.Itoa(l.Pegs), strconv.FormatInt(l.Reachable, 10), strconv.FormatInt(l.ReachableRaw, 10),
			strconv.FormatInt(l.Winnable, 10), strconv.FormatInt(l.DeadEnds, 10))
	}
	return t
}

// exploreJSON is the JSON output of pegs explore.
type exploreJSON struct {
	Board             string              `json:"board"`
	Start             string              `json:"start"`
	Goal              string              `json:"goal"`
	Symmetries        int                 `json:"symmetries"`
	Reachable         int64               `json:"reachable"`
	ReachableRaw      int64               `json:"reachable_raw"`
	Winnable          int64               `json:"winnable"`
	DeadEnds          int64               `json:"dead_ends"`
	Solutions         string              `json:"solutions"`
	SolutionsByFinish map[string]string   `json:"solutions_by_finish"`
	Games             string              `json:"games,omitempty"` // absent with --no-games
	RandomWin         float64             `json:"random_win_probability"`
	Layers            []search.LayerStats `json:"layers"`
	ElapsedMS         int64               `json:"elapsed_ms"`
	PeakBytes         int64               `json:"peak_bytes"`
	// WholeGroup and Finishes are set when counts are up to symmetries that
	// move the start (--whole-group): positions are then those reachable
	// from any of the start's images, and solutions_by_finish is empty.
	WholeGroup bool         `json:"whole_group,omitempty"`
	Finishes   []finishJSON `json:"finishes,omitempty"`
}

func writeExplore(w io.Writer, f report.Format, prob search.Problem, a *search.Analysis) error {
	b := prob.Board
	byFinish := map[string]string{}
	for h, n := range a.SolutionsByFinish {
		byFinish[b.Label(h)] = n.String()
	}
	switch f {
	case report.JSON:
		out := exploreJSON{
			Board: b.Name(), Start: b.Line(prob.Start), Goal: b.FormatGoal(prob.Goal), Symmetries: a.Symmetries,
			Reachable: a.Reachable, ReachableRaw: a.ReachableRaw, Winnable: a.Winnable, DeadEnds: a.DeadEnds,
			Solutions: a.Solutions.String(), SolutionsByFinish: byFinish,
			RandomWin: a.RandomWin, Layers: a.Layers, ElapsedMS: a.Elapsed.Milliseconds(), PeakBytes: a.PeakBytes,
		}
		if a.Games != nil {
			out.Games = a.Games.String()
		}
		if a.Symmetries > prob.Group().Len() {
			out.WholeGroup = true
			for _, fi := range a.Finishes(prob) {
				out.Finishes = append(out.Finishes, finishToJSON(b, fi))
			}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case report.CSV:
		return layerTable(a.Layers).Write(w, f)
	}
	whole := ""
	if a.Symmetries > prob.Group().Len() {
		whole = " (--whole-group: some move the start, so positions are those reachable from any of its images)"
	}
	fmt.Fprintf(w, "board %s, %d pegs, goal: %s; counts up to %d symmetries%s\n\n%s\n", b.Name(), prob.Start.Pegs(), goalText(b, prob.Goal), a.Symmetries, whole, b.Picture(prob.Start))
	sum := &report.Table{Header: []string{"measure", "value"}}
	sum.Add("reachable positions", strconv.FormatInt(a.Reachable, 10))
	sum.Add("reachable, counting symmetric images", strconv.FormatInt(a.ReachableRaw, 10))
	sum.Add("winnable positions", strconv.FormatInt(a.Winnable, 10))
	sum.Add("dead ends", strconv.FormatInt(a.DeadEnds, 10))
	sum.Add("solutions", a.Solutions.String())
	for h := range b.Holes() {
		if n, ok := a.SolutionsByFinish[h]; ok && prob.Goal.Kind == engine.OnePeg {
			sum.Add("  finishing at "+b.Label(h), n.String())
		}
	}
	if a.Symmetries > prob.Group().Len() {
		for _, fi := range a.Finishes(prob) {
			holes, n := report.FinishParts(b, fi)
			sum.Add("  finishing at "+holes, n)
		}
	}
	games := "not counted (--no-games)"
	if a.Games != nil {
		games = a.Games.String()
	}
	sum.Add("complete games", games)
	sum.Add("random play wins", strconv.FormatFloat(a.RandomWin, 'g', 6, 64))
	sum.Add("time", a.Elapsed.Round(time.Millisecond).String())
	sum.Add("peak table memory", strconv.FormatInt(a.PeakBytes>>20, 10)+" MiB")
	if err := sum.Write(w, f); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return layerTable(a.Layers).Write(w, f)
}

func writeWinnable(w io.Writer, f report.Format, prob search.Problem, ws *search.WinSet) error {
	b := prob.Board
	// Only the layers the search went through have a reachable count (past
	// the middle, winnable positions are complements); the others leave it
	// out rather than show zero.
	type layerJSON struct {
		Pegs      int    `json:"pegs"`
		Reachable *int64 `json:"reachable,omitempty"`
		Winnable  int64  `json:"winnable"`
	}
	var layers []layerJSON
	t := &report.Table{Header: []string{"pegs", "reachable", "winnable"}}
	for _, l := range ws.Layers {
		lj := layerJSON{Pegs: l.Pegs, Winnable: l.Winnable}
		reach := ""
		if l.Reachable > 0 {
			lj.Reachable = &l.Reachable
			reach = strconv.FormatInt(l.Reachable, 10)
		}
		layers = append(layers, lj)
		t.Add(strconv.Itoa(l.Pegs), reach, strconv.FormatInt(l.Winnable, 10))
	}
	if f == report.JSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{
			"board": b.Name(), "start": b.Line(prob.Start), "goal": b.FormatGoal(prob.Goal),
			"winnable": ws.Winnable, "layers": layers, "elapsed_ms": ws.Elapsed.Milliseconds(), "peak_bytes": ws.PeakBytes,
		})
	}
	if f != report.CSV {
		fmt.Fprintf(w, "board %s, goal: %s: %d winnable positions (%s)\n\n", b.Name(), goalText(b, prob.Goal), ws.Winnable, ws.Elapsed.Round(time.Millisecond))
	}
	return t.Write(w, f)
}
