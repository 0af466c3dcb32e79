package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"pegs/engine"
	"pegs/report"
	"pegs/search"
)

func runStarts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("starts", "--board B [--goal any|complement|all] [--workers N] [--mem SIZE] [--format F]", stderr)
	var bf boardFlags
	bf.register(fs)
	goalFlag := fs.String("goal", "all", "what the board picture marks: any (one peg anywhere), complement (one peg in the start hole) or all (both)")
	var sf searchFlags
	sf.register(fs, "8GiB")
	format := fs.String("format", "text", "output format: text, markdown, csv or json")
	if err := parse(fs, args); err != nil {
		return err
	}
	b, err := bf.load()
	if err != nil {
		return err
	}
	switch *goalFlag {
	case "any", "complement", "all":
	default:
		return usagef("--goal %q: want any, complement or all", *goalFlag)
	}
	f, err := parseFormat(*format)
	if err != nil {
		return err
	}
	budget, err := sf.load()
	if err != nil {
		return err
	}
	opt := search.ExploreOptions{Workers: sf.workers, Memory: budget, Progress: progress(stderr, "starts: ")}
	results, err := search.Starts(ctx, b, opt, func(r search.StartResult) {
		if isTerminal(stderr) {
			fmt.Fprintf(stderr, "\rstart %s done%s\n", b.Label(r.Hole), strings.Repeat(" ", 40))
		}
	})
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		return err
	}
	if interrupted {
		fmt.Fprintf(stderr, "pegs: interrupted; the starts finished so far follow\n")
	}
	if werr := writeStarts(stdout, f, b, *goalFlag, results); werr != nil {
		return werr
	}
	if interrupted {
		return reported{err}
	}
	return err
}

type startJSON struct {
	Start      string       `json:"start"`
	Class      []string     `json:"class"`
	Decided    bool         `json:"decided"`
	Reachable  int64        `json:"reachable"`
	Winnable   int64        `json:"winnable"`
	OnePeg     bool         `json:"one_peg_possible"`
	Solutions  string       `json:"solutions"`
	Finishes   []finishJSON `json:"finishes"`
	Complement string       `json:"complement_solutions,omitempty"`
	// When the exhaustive search passed --mem: the finishes the
	// depth-first solver decided.
	SolvableFinishes  []string `json:"solvable_finishes,omitempty"`
	UndecidedFinishes []string `json:"undecided_finishes,omitempty"`
}

type finishJSON struct {
	Holes     []string `json:"holes"`
	Solutions string   `json:"solutions"`
	Each      bool     `json:"each"`
}

func finishToJSON(b *engine.Board, f search.Finish) finishJSON {
	fj := finishJSON{Solutions: f.Solutions.String(), Each: f.Each}
	for _, h := range f.Holes {
		fj.Holes = append(fj.Holes, b.Label(h))
	}
	return fj
}

func writeStarts(w io.Writer, f report.Format, b *engine.Board, goal string, results []search.StartResult) error {
	if f == report.JSON {
		var out []startJSON
		for _, r := range results {
			sj := startJSON{Start: b.Label(r.Hole), Decided: r.Decided, Reachable: r.Reachable, Winnable: r.Winnable,
				OnePeg: r.Solutions.Sign() > 0, Solutions: r.Solutions.String(), Finishes: []finishJSON{}}
			for _, h := range r.Class {
				sj.Class = append(sj.Class, b.Label(h))
			}
			for _, fi := range r.Finishes {
				sj.Finishes = append(sj.Finishes, finishToJSON(b, fi))
			}
			if c, ok := report.OwnFinish(r); ok && r.Decided {
				sj.Complement = c
			}
			if !r.Decided {
				solv, und := report.PairFinishes(r.Pairs)
				sj.OnePeg, sj.Solutions = len(solv) > 0, "not counted"
				for _, h := range solv {
					sj.SolvableFinishes = append(sj.SolvableFinishes, b.Label(h))
				}
				for _, h := range und {
					sj.UndecidedFinishes = append(sj.UndecidedFinishes, b.Label(h))
				}
			}
			out = append(out, sj)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"board": b.Name(), "starts": out})
	}
	t := report.StartsTable(b, results)
	if f == report.CSV {
		return t.Write(w, f)
	}
	fmt.Fprintf(w, "board %s: single-vacancy starts up to symmetry (%d symmetries)\n\n", b.Name(), b.Symmetry().Len())
	if err := t.Write(w, f); err != nil {
		return err
	}
	return writeStartPictures(w, f, b, goal, results)
}

// writeStartPictures draws the board with each hole marked by its start's
// result.
func writeStartPictures(w io.Writer, f report.Format, b *engine.Board, goal string, results []search.StartResult) error {
	mark := map[string]func(r search.StartResult) byte{
		"any": func(r search.StartResult) byte {
			if !r.Decided {
				solv, und := report.PairFinishes(r.Pairs)
				switch {
				case len(solv) > 0:
					return 'o'
				case len(und) > 0:
					return '?'
				}
				return '.'
			}
			if r.Solutions.Sign() > 0 {
				return 'o'
			}
			return '.'
		},
		"complement": func(r search.StartResult) byte {
			if !r.Decided {
				solv, und := report.PairFinishes(r.Pairs)
				switch {
				case slices.Contains(solv, r.Hole):
					return 'o'
				case slices.Contains(und, r.Hole):
					return '?'
				}
				return '.'
			}
			own, ok := report.OwnFinish(r)
			switch {
			case !r.Decided || !ok:
				return '?'
			case own != "0":
				return 'o'
			}
			return '.'
		},
	}
	var which []string
	if goal == "all" {
		which = []string{"any", "complement"}
	} else {
		which = []string{goal}
	}
	fence := ""
	if f == report.Markdown {
		fence = "```\n"
	}
	for _, g := range which {
		byHole := make([]byte, b.Holes())
		for _, r := range results {
			for _, h := range r.Class {
				byHole[h] = mark[g](r)
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
		fmt.Fprintf(w, "\n%s\n%s%s%s", title, fence, out, fence)
	}
	return nil
}
