package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"pegs/engine"
	"pegs/generate"
	"pegs/report"
	"pegs/search"
)

func runGrade(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("grade", "--board B (--position P | --levels FILE) [--goal G] [--format F]", stderr)
	var pf problemFlags
	var sf searchFlags
	pf.boardFlags.register(fs)
	pf.registerGoal(fs, false)
	sf.register(fs, "4GiB")
	position := fs.String("position", "", "the level: a picture or @FILE")
	levels := fs.String("levels", "", "a file of levels, one 'name picture' per line")
	format := fs.String("format", "text", "output format: text, markdown, csv or json")
	if err := parse(fs, args); err != nil {
		return err
	}
	b, err := pf.boardFlags.load()
	if err != nil {
		return err
	}
	goal, err := pf.loadGoal(b)
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
	type level struct {
		name string
		pos  engine.Position
	}
	var lv []level
	switch {
	case *position != "" && *levels != "":
		return usagef("give --position or --levels, not both")
	case *position != "":
		p, err := (&positionFlags{position: *position}).load(b)
		if err != nil {
			return err
		}
		lv = append(lv, level{"position", p})
	case *levels != "":
		fh, err := os.Open(*levels)
		if err != nil {
			return err
		}
		defer fh.Close()
		sc := bufio.NewScanner(fh)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			name, pic, ok := strings.Cut(line, " ")
			if !ok {
				return usagef("%s:%d: want a name and a picture", *levels, n)
			}
			p, err := b.ParsePosition(pic)
			if err != nil {
				return usagef("%s:%d: %w", *levels, n, err)
			}
			lv = append(lv, level{name, p})
		}
		if err := sc.Err(); err != nil {
			return err
		}
	default:
		return usagef("give --position or --levels")
	}
	t := &report.Table{Header: []string{"level", "pegs", "reachable", "win share", "solutions", "games", "P0", "P1", "J1", "critical", "unique first", "par", "score", "log10 J1", "critical part", "unique part", "solutions part"}}
	type row struct {
		Name       string              `json:"name"`
		Picture    string              `json:"picture"`
		Pegs       int                 `json:"pegs"`
		Reachable  int64               `json:"reachable"`
		WinShare   float64             `json:"win_share"`
		Solutions  string              `json:"solutions"`
		Games      string              `json:"games"`
		P0         float64             `json:"p0"`
		P1         float64             `json:"p1"`
		J1         float64             `json:"j1"`
		Critical   int                 `json:"critical"`
		Unique     bool                `json:"unique_first"`
		Par        int                 `json:"par"`
		Difficulty generate.Difficulty `json:"difficulty"`
	}
	var rows []row
	g3 := func(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }
	for _, l := range lv {
		if !b.Feasible(l.pos, goal) {
			return fmt.Errorf("level %s cannot reach goal %s (position class)", l.name, b.FormatGoal(goal))
		}
		m, d, err := generate.Grade(ctx, b, l.pos, goal, search.Options{Memory: budget})
		if err != nil {
			return fmt.Errorf("level %s: %w", l.name, err)
		}
		if m.Solutions.Sign() == 0 {
			return fmt.Errorf("level %s has no solution to goal %s", l.name, b.FormatGoal(goal))
		}
		rows = append(rows, row{l.name, b.Line(l.pos), m.Pegs, m.Reachable, m.WinShare(), m.Solutions.String(), m.Games.String(), m.P0, m.P1, m.J1, m.Critical, m.UniqueFirst, m.FewestMoves, d})
		t.Add(l.name, strconv.Itoa(m.Pegs), strconv.FormatInt(m.Reachable, 10), g3(m.WinShare()), m.Solutions.String(), m.Games.String(),
			g3(m.P0), g3(m.P1), g3(m.J1), strconv.Itoa(m.Critical), strconv.FormatBool(m.UniqueFirst), strconv.Itoa(m.FewestMoves),
			strconv.FormatFloat(d.Score, 'f', 3, 64), strconv.FormatFloat(d.Attempts, 'f', 3, 64), strconv.FormatFloat(d.Critical, 'f', 2, 64),
			strconv.FormatFloat(d.UniqueFirst, 'f', 1, 64), strconv.FormatFloat(d.Plenty, 'f', 3, 64))
	}
	if f == report.JSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"board": b.Name(), "goal": b.FormatGoal(goal), "levels": rows})
	}
	return t.Write(stdout, f)
}
