package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"pegs/engine"
	"pegs/search"
)

// LayersTable tabulates a state space by peg count: positions reachable up
// to symmetry and raw, those that can still meet the goal, and dead ends.
func LayersTable(layers []search.LayerStats) *Table { return layersTable(layers, true) }

// layersTable is LayersTable, without the winnable column for a search
// that found no winnable positions.
func layersTable(layers []search.LayerStats, winnable bool) *Table {
	t := &Table{Header: []string{"pegs", "reachable", "reachable raw", "dead ends"}, Counts: []string{"pegs", "reachable", "reachable raw", "winnable", "dead ends"}}
	if winnable {
		t.Header = []string{"pegs", "reachable", "reachable raw", "winnable", "dead ends"}
	}
	for _, l := range layers {
		row := []string{strconv.Itoa(l.Pegs), strconv.FormatInt(l.Reachable, 10), strconv.FormatInt(l.ReachableRaw, 10)}
		if winnable {
			row = append(row, strconv.FormatInt(l.Winnable, 10))
		}
		t.Add(append(row, strconv.FormatInt(l.DeadEnds, 10))...)
	}
	return t
}

// keyed returns t with its column names' words joined by underscores, the
// way pegs explore heads its tables: by their JSON field names.
func keyed(t *Table) *Table {
	key := func(names []string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = strings.ReplaceAll(n, " ", "_")
		}
		return out
	}
	k := *t
	k.Header, k.Counts = key(t.Header), key(t.Counts)
	return &k
}

// goalText describes a goal in words.
func goalText(b *engine.Board, g engine.Goal) string {
	switch g.Kind {
	case engine.OnePeg:
		return "one peg anywhere"
	case engine.FewestPegs:
		return "fewest pegs"
	}
	return "one peg at " + b.Label(g.Hole)
}

// encodeJSON writes v as indented JSON.
func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// ExploreJSON is the JSON output of pegs explore.
type ExploreJSON struct {
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
	Finishes   []FinishJSON `json:"finishes,omitempty"`
}

// WriteExplore writes the analysis of a whole state space: in text and
// Markdown a summary and the layers, in CSV the layers, in JSON
// ExploreJSON.
func WriteExplore(w io.Writer, f Format, prob search.Problem, a *search.Analysis) error {
	b := prob.Board
	whole := a.Symmetries > prob.Group().Len()
	switch f {
	case JSON:
		byFinish := map[string]string{}
		for h, n := range a.SolutionsByFinish {
			byFinish[b.Label(h)] = n.String()
		}
		out := ExploreJSON{
			Board: b.Name(), Start: b.Line(prob.Start), Goal: b.FormatGoal(prob.Goal), Symmetries: a.Symmetries,
			Reachable: a.Reachable, ReachableRaw: a.ReachableRaw, Winnable: a.Winnable, DeadEnds: a.DeadEnds,
			Solutions: a.Solutions.String(), SolutionsByFinish: byFinish,
			RandomWin: a.RandomWin, Layers: a.Layers, ElapsedMS: a.Elapsed.Milliseconds(), PeakBytes: a.PeakBytes,
		}
		if a.Games != nil {
			out.Games = a.Games.String()
		}
		if whole {
			out.WholeGroup = true
			for _, fi := range a.Finishes(prob) {
				out.Finishes = append(out.Finishes, finishJSON(b, fi))
			}
		}
		return encodeJSON(w, out)
	case CSV:
		return keyed(LayersTable(a.Layers)).Write(w, f)
	}
	note := ""
	if whole {
		note = " (--whole-group: some move the start, so positions are those reachable from any of its images)"
	}
	fmt.Fprintf(w, "board %s, %d pegs, goal: %s; counts up to %d symmetries%s\n\n%s\n", b.Name(), prob.Start.Pegs(), goalText(b, prob.Goal), a.Symmetries, note, b.Picture(prob.Start))
	sum := &Table{Header: []string{"measure", "value"}, Counts: []string{"value"}}
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
	if whole {
		for _, fi := range a.Finishes(prob) {
			holes, n := FinishParts(b, fi)
			sum.Add("  finishing at "+holes, n)
		}
	}
	games := "not counted (--no-games)"
	if a.Games != nil {
		games = a.Games.String()
	}
	sum.Add("complete games", games)
	sum.Add("random play wins", FormatProbability(a.RandomWin))
	// Time and memory keep a short fixed form, whole milliseconds and
	// MiB, so that the table's width hardly varies between runs.
	sum.Add("time", a.Elapsed.Round(time.Millisecond).String())
	sum.Add("peak table memory", strconv.FormatInt(a.PeakBytes>>20, 10)+" MiB")
	if err := sum.Write(w, f); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return keyed(LayersTable(a.Layers)).Write(w, f)
}

// ReachableJSON is the JSON output of pegs explore --reachable-only, and
// of an interrupted explore: the positions the forward pass found.
type ReachableJSON struct {
	Board        string               `json:"board"`
	Start        string               `json:"start"`
	Symmetries   int                  `json:"symmetries"`
	WholeGroup   bool                 `json:"whole_group,omitempty"`
	Reachable    int64                `json:"reachable"`
	ReachableRaw int64                `json:"reachable_raw"`
	DeadEnds     int64                `json:"dead_ends"`
	Layers       []ReachableLayerJSON `json:"layers"`
	ElapsedMS    int64                `json:"elapsed_ms"`
	PeakBytes    int64                `json:"peak_bytes"`
	// Interrupted marks the layers an interrupted search finished.
	Interrupted bool `json:"interrupted,omitempty"`
}

// ReachableLayerJSON is one peg count of ReachableJSON.
type ReachableLayerJSON struct {
	Pegs         int   `json:"pegs"`
	Reachable    int64 `json:"reachable"`
	ReachableRaw int64 `json:"reachable_raw"`
	DeadEnds     int64 `json:"dead_ends"`
}

// WriteReachable writes a reachable-only analysis, or what an interrupted
// search finished: positions and dead ends, in all and by layer (in JSON,
// ReachableJSON).
func WriteReachable(w io.Writer, f Format, prob search.Problem, a *search.Analysis) error {
	return writeReachable(w, f, prob, a, false)
}

// WriteInterrupted writes what an interrupted search finished, as
// WriteReachable does, saying that it was interrupted (in JSON,
// "interrupted": true).
func WriteInterrupted(w io.Writer, f Format, prob search.Problem, a *search.Analysis) error {
	return writeReachable(w, f, prob, a, true)
}

func writeReachable(w io.Writer, f Format, prob search.Problem, a *search.Analysis, interrupted bool) error {
	b := prob.Board
	t := keyed(layersTable(a.Layers, false))
	whole := a.Symmetries > prob.Group().Len()
	switch f {
	case JSON:
		out := ReachableJSON{Board: b.Name(), Start: b.Line(prob.Start), Symmetries: a.Symmetries, WholeGroup: whole,
			Reachable: a.Reachable, ReachableRaw: a.ReachableRaw, DeadEnds: a.DeadEnds,
			ElapsedMS: a.Elapsed.Milliseconds(), PeakBytes: a.PeakBytes, Interrupted: interrupted}
		for _, l := range a.Layers {
			out.Layers = append(out.Layers, ReachableLayerJSON{l.Pegs, l.Reachable, l.ReachableRaw, l.DeadEnds})
		}
		return encodeJSON(w, out)
	case CSV:
		return t.Write(w, f)
	}
	note := ""
	if whole {
		note = " (--whole-group: positions reachable from any of the start's images)"
	}
	if interrupted {
		note += "; interrupted: the layers finished"
	}
	fmt.Fprintf(w, "board %s, %d pegs: reachable positions up to %d symmetries%s\n\n%s\n", b.Name(), prob.Start.Pegs(), a.Symmetries, note, b.Picture(prob.Start))
	sum := &Table{Header: []string{"measure", "value"}, Counts: []string{"value"}}
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

// WinnableJSON is the JSON output of pegs explore --winnable-only. Its
// fields are in the order of their names, as the output has always had
// them.
type WinnableJSON struct {
	Board     string              `json:"board"`
	ElapsedMS int64               `json:"elapsed_ms"`
	Goal      string              `json:"goal"`
	Layers    []WinnableLayerJSON `json:"layers"`
	PeakBytes int64               `json:"peak_bytes"`
	Start     string              `json:"start"`
	Winnable  int64               `json:"winnable"`
}

// WinnableLayerJSON is one peg count of WinnableJSON. Only the layers the
// search went through have a reachable count (past the middle, winnable
// positions are complements); the others leave it out rather than show
// zero.
type WinnableLayerJSON struct {
	Pegs      int    `json:"pegs"`
	Reachable *int64 `json:"reachable,omitempty"`
	Winnable  int64  `json:"winnable"`
}

// WriteWinnable writes the winnable positions of a problem by layer (in
// JSON, WinnableJSON).
func WriteWinnable(w io.Writer, f Format, prob search.Problem, ws *search.WinSet) error {
	b := prob.Board
	var layers []WinnableLayerJSON
	t := &Table{Header: []string{"pegs", "reachable", "winnable"}, Counts: []string{"reachable", "winnable"}}
	for _, l := range ws.Layers {
		lj := WinnableLayerJSON{Pegs: l.Pegs, Winnable: l.Winnable}
		reach := ""
		if l.Reachable > 0 {
			lj.Reachable = &l.Reachable
			reach = strconv.FormatInt(l.Reachable, 10)
		}
		layers = append(layers, lj)
		t.Add(strconv.Itoa(l.Pegs), reach, strconv.FormatInt(l.Winnable, 10))
	}
	if f == JSON {
		return encodeJSON(w, WinnableJSON{Board: b.Name(), ElapsedMS: ws.Elapsed.Milliseconds(), Goal: b.FormatGoal(prob.Goal),
			Layers: layers, PeakBytes: ws.PeakBytes, Start: b.Line(prob.Start), Winnable: ws.Winnable})
	}
	if f != CSV {
		fmt.Fprintf(w, "board %s, goal: %s: %d winnable positions (%s)\n\n", b.Name(), goalText(b, prob.Goal), ws.Winnable, ws.Elapsed.Round(time.Millisecond))
	}
	return t.Write(w, f)
}

// RandomPlayJSON is the JSON output of pegs explore --random-only. Its
// random_win_probability is written as ExploreJSON's is.
type RandomPlayJSON struct {
	Board      string  `json:"board"`
	Start      string  `json:"start"`
	Goal       string  `json:"goal"`
	Symmetries int     `json:"symmetries"`
	Winnable   int64   `json:"winnable"`
	RandomWin  float64 `json:"random_win_probability"`
	ElapsedMS  int64   `json:"elapsed_ms"`
	PeakBytes  int64   `json:"peak_bytes"`
}

// WriteRandomPlay writes a problem's random-play chance alone: in text
// and Markdown as WriteExplore's summary shows it, in CSV one row keyed by
// RandomPlayJSON's field names (the probability in full), in JSON
// RandomPlayJSON.
func WriteRandomPlay(w io.Writer, f Format, prob search.Problem, r *search.RandomPlay) error {
	b := prob.Board
	switch f {
	case JSON:
		return encodeJSON(w, RandomPlayJSON{Board: b.Name(), Start: b.Line(prob.Start), Goal: b.FormatGoal(prob.Goal), Symmetries: r.Symmetries,
			Winnable: r.Winnable, RandomWin: r.Win, ElapsedMS: r.Elapsed.Milliseconds(), PeakBytes: r.PeakBytes})
	case CSV:
		t := &Table{Header: []string{"board", "start", "goal", "symmetries", "winnable", "random_win_probability"}}
		t.Add(b.Name(), b.Line(prob.Start), b.FormatGoal(prob.Goal), strconv.Itoa(r.Symmetries), strconv.FormatInt(r.Winnable, 10), strconv.FormatFloat(r.Win, 'g', -1, 64))
		return t.Write(w, f)
	}
	fmt.Fprintf(w, "board %s, %d pegs, goal: %s; counts up to %d symmetries\n\n%s\n", b.Name(), prob.Start.Pegs(), goalText(b, prob.Goal), r.Symmetries, b.Picture(prob.Start))
	sum := &Table{Header: []string{"measure", "value"}, Counts: []string{"value"}}
	sum.Add("winnable positions", strconv.FormatInt(r.Winnable, 10))
	sum.Add("random play wins", FormatProbability(r.Win))
	sum.Add("time", r.Elapsed.Round(time.Millisecond).String())
	sum.Add("peak table memory", strconv.FormatInt(r.PeakBytes>>20, 10)+" MiB")
	return sum.Write(w, f)
}
