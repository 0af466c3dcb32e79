package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"pegs/engine"
	"pegs/search"
)

// StartsTable tabulates the exhaustive analysis of single-vacancy starts.
func StartsTable(b *engine.Board, results []search.StartResult) *Table {
	t := &Table{Header: []string{"start", "class", "reachable", "winnable", "solutions", "finishes", "finish in start hole"},
		Counts: []string{"reachable", "winnable", "solutions", "finish in start hole"}}
	for _, r := range results {
		if !r.Decided {
			solv, und := PairFinishes(r.Pairs)
			list := HoleList(b, solv)
			if list == "" {
				list = "none"
			}
			fin := "solved depth first, not counted: " + list
			if len(und) > 0 {
				fin += "; undecided: " + HoleList(b, und)
			}
			own := "no"
			if slices.Contains(und, r.Hole) {
				own = "undecided"
			} else if slices.Contains(solv, r.Hole) {
				own = "yes (not counted)"
			}
			t.Add(b.Label(r.Hole), HoleList(b, r.Class), "exhaustive search needs more than the memory budget", "", "", fin, own)
			continue
		}
		var fin []string
		for _, fi := range r.Finishes {
			fin = append(fin, FinishText(b, fi))
		}
		own, ok := OwnFinish(r)
		if !ok {
			own = "counted with its images"
		}
		t.Add(b.Label(r.Hole), HoleList(b, r.Class), strconv.FormatInt(r.Reachable, 10), strconv.FormatInt(r.Winnable, 10),
			r.Solutions.String(), strings.Join(fin, "; "), own)
	}
	return t
}

// OwnFinish returns the solutions of a start that end in its own vacancy,
// and whether that count is known alone rather than only together with
// symmetric holes.
func OwnFinish(r search.StartResult) (string, bool) {
	for _, f := range r.Finishes {
		for _, h := range f.Holes {
			if h == r.Hole {
				if f.Each {
					return f.Solutions.String(), true
				}
				return "", false
			}
		}
	}
	return "0", true
}

// FinishText describes a group of finishing holes and its solutions.
func FinishText(b *engine.Board, f search.Finish) string {
	holes, solutions := FinishParts(b, f)
	return holes + ": " + solutions
}

// FinishParts is FinishText in two parts: the holes ("c1 e1", or "c1+c7"
// for holes counted together) and the solutions ("N each" or "N
// together").
func FinishParts(b *engine.Board, f search.Finish) (holes, solutions string) {
	if f.Each {
		return HoleList(b, f.Holes), f.Solutions.String() + " each"
	}
	return strings.ReplaceAll(HoleList(b, f.Holes), " ", "+"), f.Solutions.String() + " together"
}

// PairFinishes returns the finishing holes that pairs decide solvable, and
// those left undecided.
func PairFinishes(pairs []search.Pair) (solvable, undecided []int) {
	for _, p := range pairs {
		switch {
		case !p.Decided:
			undecided = append(undecided, p.Finish)
		case p.Solvable:
			solvable = append(solvable, p.Finish)
		}
	}
	return solvable, undecided
}

// PairsTable tabulates the (vacancy, finish) pairs of StartPairs, one row
// per start class: the finishing holes that can take the last peg, those
// the position classes allow but no solution reaches, and those left
// undecided.
func PairsTable(b *engine.Board, pairs []search.Pair) *Table {
	t := &Table{Header: []string{"start", "class", "solvable finishes", "feasible but unsolvable", "undecided"}}
	g := b.Symmetry()
	byStart := map[int][]search.Pair{}
	var order []int
	for _, p := range pairs {
		if _, ok := byStart[p.Start]; !ok {
			order = append(order, p.Start)
		}
		byStart[p.Start] = append(byStart[p.Start], p)
	}
	slices.Sort(order)
	for _, s := range order {
		var solv, unsolv, und []int
		for _, p := range byStart[s] {
			switch {
			case !p.Decided:
				und = append(und, p.Finish)
			case p.Solvable:
				solv = append(solv, p.Finish)
			case p.Feasible:
				unsolv = append(unsolv, p.Finish)
			}
		}
		t.Add(b.Label(s), HoleList(b, g.Orbit(s)), holesOrNone(b, solv), holesOrNone(b, unsolv), holesOrNone(b, und))
	}
	return t
}

// holesOrNone lists holes in hole order, or says "none".
func holesOrNone(b *engine.Board, holes []int) string {
	if len(holes) == 0 {
		return "none"
	}
	return HoleList(b, slices.Sorted(slices.Values(holes)))
}

// FeasibleTable lists, for each single-vacancy start class, the finishing
// holes the position classes allow: a superset of the solvable ones,
// computed without a search.
func FeasibleTable(b *engine.Board) *Table {
	t := &Table{Header: []string{"start", "class", "class-feasible finishes"}}
	g := b.Symmetry()
	seen := make([]bool, b.Holes())
	for s := range b.Holes() {
		if seen[s] {
			continue
		}
		cls := g.Orbit(s)
		for _, h := range cls {
			seen[h] = true
		}
		start := b.Full() &^ (1 << uint(s))
		var fin []int
		for f := range b.Holes() {
			if b.Feasible(start, engine.Goal{Kind: engine.OnePegAt, Hole: f}) {
				fin = append(fin, f)
			}
		}
		t.Add(b.Label(s), HoleList(b, cls), holesOrNone(b, fin))
	}
	return t
}

// StartsJSON is the JSON output of pegs starts.
type StartsJSON struct {
	Board  string      `json:"board"`
	Starts []StartJSON `json:"starts"`
}

// StartJSON is one single-vacancy start of StartsJSON, standing for its
// class of symmetric starts.
type StartJSON struct {
	Start      string       `json:"start"`
	Class      []string     `json:"class"`
	Decided    bool         `json:"decided"`
	Reachable  int64        `json:"reachable"`
	Winnable   int64        `json:"winnable"`
	OnePeg     bool         `json:"one_peg_possible"`
	Solutions  string       `json:"solutions"`
	Finishes   []FinishJSON `json:"finishes"`
	Complement string       `json:"complement_solutions,omitempty"`
	// When the exhaustive search passed --mem: the finishes the
	// depth-first solver decided.
	SolvableFinishes  []string `json:"solvable_finishes,omitempty"`
	UndecidedFinishes []string `json:"undecided_finishes,omitempty"`
}

// FinishJSON is a group of finishing holes and their solutions: each
// hole's, or with Each false, all of theirs together.
type FinishJSON struct {
	Holes     []string `json:"holes"`
	Solutions string   `json:"solutions"`
	Each      bool     `json:"each"`
}

func finishJSON(b *engine.Board, f search.Finish) FinishJSON {
	fj := FinishJSON{Solutions: f.Solutions.String(), Each: f.Each}
	for _, h := range f.Holes {
		fj.Holes = append(fj.Holes, b.Label(h))
	}
	return fj
}

// WriteStarts writes the analysis of every single-vacancy start: in CSV
// its StartsTable, in JSON StartsJSON, in text and Markdown the table and
// the board drawn with each hole marked by its start's result. goal says
// which marks: "any" (can end with one peg), "complement" (with one peg in
// the start hole) or "all" (both pictures).
func WriteStarts(w io.Writer, f Format, b *engine.Board, goal string, results []search.StartResult) error {
	if f == JSON {
		out := StartsJSON{Board: b.Name()}
		for _, r := range results {
			out.Starts = append(out.Starts, startJSON(b, r))
		}
		return encodeJSON(w, out)
	}
	t := StartsTable(b, results)
	if f == CSV {
		return t.Write(w, f)
	}
	fmt.Fprintf(w, "board %s: single-vacancy starts up to symmetry (%d symmetries)\n\n", b.Name(), b.Symmetry().Len())
	if err := t.Write(w, f); err != nil {
		return err
	}
	return writeStartPictures(w, f, b, goal, results)
}

func startJSON(b *engine.Board, r search.StartResult) StartJSON {
	sj := StartJSON{Start: b.Label(r.Hole), Decided: r.Decided, Reachable: r.Reachable, Winnable: r.Winnable,
		OnePeg: r.Solutions.Sign() > 0, Solutions: r.Solutions.String(), Finishes: []FinishJSON{}}
	for _, h := range r.Class {
		sj.Class = append(sj.Class, b.Label(h))
	}
	for _, fi := range r.Finishes {
		sj.Finishes = append(sj.Finishes, finishJSON(b, fi))
	}
	if c, ok := OwnFinish(r); ok && r.Decided {
		sj.Complement = c
	}
	if !r.Decided {
		solv, und := PairFinishes(r.Pairs)
		sj.OnePeg, sj.Solutions = len(solv) > 0, "not counted"
		for _, h := range solv {
			sj.SolvableFinishes = append(sj.SolvableFinishes, b.Label(h))
		}
		for _, h := range und {
			sj.UndecidedFinishes = append(sj.UndecidedFinishes, b.Label(h))
		}
	}
	return sj
}

// startMark is a start's mark in the pictures of WriteStarts, by goal
// ("any" or "complement"): 'o' where it can end as the goal asks, '.'
// where it cannot, '?' where that is unknown.
func startMark(goal string, r search.StartResult) byte {
	if !r.Decided {
		solv, und := PairFinishes(r.Pairs)
		yes, unknown := len(solv) > 0, len(und) > 0
		if goal == "complement" {
			yes, unknown = slices.Contains(solv, r.Hole), slices.Contains(und, r.Hole)
		}
		switch {
		case yes:
			return 'o'
		case unknown:
			return '?'
		}
		return '.'
	}
	if goal == "complement" {
		own, ok := OwnFinish(r)
		switch {
		case !ok:
			return '?'
		case own != "0":
			return 'o'
		}
		return '.'
	}
	if r.Solutions.Sign() > 0 {
		return 'o'
	}
	return '.'
}

// writeStartPictures draws the board with each hole marked by its start's
// result.
func writeStartPictures(w io.Writer, f Format, b *engine.Board, goal string, results []search.StartResult) error {
	var which []string
	if goal == "all" {
		which = []string{"any", "complement"}
	} else {
		which = []string{goal}
	}
	fence := ""
	if f == Markdown {
		fence = "```\n"
	}
	for _, g := range which {
		byHole := make([]byte, b.Holes())
		for _, r := range results {
			for _, h := range r.Class {
				byHole[h] = startMark(g, r)
			}
		}
		title := "o: vacating this hole can end with one peg; .: it cannot"
		if g == "complement" {
			title = "o: vacating this hole can end with one peg in it; .: it cannot; ?: counted only with symmetric holes"
		}
		var p engine.Position
		pic := b.Picture(p)
		// Replace each hole's symbol in reading order.
		out := []byte(pic)
		h := 0
		for i := range out {
			if out[i] == '.' && h < len(byHole) {
				out[i] = byHole[h]
				h++
			}
		}
		if _, err := fmt.Fprintf(w, "\n%s\n%s%s%s", title, fence, out, fence); err != nil {
			return err
		}
	}
	return nil
}
