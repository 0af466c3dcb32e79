package build

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/dustin/go-humanize"

	"pegs/engine"
	"pegs/report"
	"pegs/search"
)

// boards is section 1: every board of the plan, and the whole state space
// of its classic start where the plan searches it.
func (b *builder) boards(ctx context.Context) (Section, error) {
	t := &report.Table{Header: []string{"board", "holes", "jumps", "symmetries", "position classes", "classic start", "goal", "reachable", "reachable raw", "can reach goal", "solutions", "complete games", "random-play win"},
		Counts: []string{"holes", "jumps", "symmetries", "position classes", "reachable", "reachable raw", "can reach goal", "solutions", "complete games"},
		Kinds:  map[string]report.Kind{"random-play win": report.Probability}}
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
			"vacate " + report.HoleList(bd, vac), bd.FormatGoal(goal)}
		if bd.Holes() > b.plan.exploreMax {
			t.Add(append(row, "not searched (quick mode)", "", "", "", "", "")...)
		} else {
			b.progress("exploring " + name)
			prob := search.Problem{Board: bd, Start: start, Goal: goal}
			a, err := search.Explore(ctx, prob, b.exploreOptions())
			if errors.Is(err, search.ErrMemory) && b.opt.Spill != "" {
				b.progress("exploring " + name + " spilled")
				opt := b.exploreOptions()
				opt.Spill = search.Spill{Dir: filepath.Join(b.opt.Spill, fileName(name)), NoEstimate: b.opt.NoDiskEstimate}
				a, err = search.Explore(ctx, prob, opt)
			}
			switch {
			case errors.Is(err, search.ErrMemory):
				t.Add(append(row, "over the "+humanize.IBytes(uint64(b.opt.Memory))+" memory budget", "", "", "", "", "")...)
			case err != nil:
				return Section{}, fmt.Errorf("%s: %w", name, err)
			default:
				b.analyses[name] = a
				t.Add(append(row, strconv.FormatInt(a.Reachable, 10), strconv.FormatInt(a.ReachableRaw, 10), strconv.FormatInt(a.Winnable, 10),
					a.Solutions.String(), a.Games.String(), strconv.FormatFloat(a.RandomWin, 'g', -1, 64))...)
			}
		}
		file := "levels/board-" + fileName(name)
		if err := savePicture(b.path("figures"), file, bd, start); err != nil {
			return Section{}, err
		}
		gallery = append(gallery, Picture{File: file, Caption: fmt.Sprintf("%s, %d holes", name, bd.Holes())})
	}
	return Section{
		Lead:     "Every built-in board, and how many positions its classic start reaches, wins from and ends in.",
		Findings: b.boardFindings(),
		Text: "The built-in boards and the state space of each board's classic start (the full board less its centre; on triangles, less the first hole whose vacancy the position classes allow to end with one peg). " +
			"Positions are counted up to the symmetries that keep the start and goal in place, and raw (every symmetric image). " +
			"Solutions and complete games count jump sequences; the random-play win is the chance that a player choosing uniformly among legal jumps meets the goal.",
		Items: []Item{
			{Caption: "Boards and the whole state space of their classic start.", Table: t, Name: "boards"},
			{Caption: "Each board at its classic start (pegs ivory, empty holes dark).", Gallery: gallery},
		},
	}, nil
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

// boardFindings says, for the first board whose classic start was searched
// and for the largest, how many of its positions can still win and how
// rarely random play wins.
func (b *builder) boardFindings() []string {
	var first, largest string
	for _, name := range b.plan.boards {
		a, ok := b.analyses[name]
		if !ok {
			continue
		}
		if first == "" {
			first = name
		}
		if largest == "" || a.Reachable > b.analyses[largest].Reachable {
			largest = name
		}
	}
	var out []string
	for i, name := range []string{first, largest} {
		if name == "" || i == 1 && name == first {
			continue
		}
		bd, err := engine.Lookup(name)
		if err != nil {
			continue
		}
		a := b.analyses[name]
		start := classicStart(bd)
		var vac []int
		for h := range bd.Holes() {
			if !start.Has(h) {
				vac = append(vac, h)
			}
		}
		empty := "hole " + report.HoleList(bd, vac)
		if len(vac) > 1 {
			empty = "holes " + report.HoleList(bd, vac)
		}
		s := fmt.Sprintf("From the %s board with %s empty, %s of the %s positions reachable (up to symmetry) can still reach the goal (%s)",
			name, empty, report.FormatCount(a.Winnable), report.FormatCount(a.Reachable), bd.FormatGoal(classicGoal(bd)))
		if n := report.OneIn(a.RandomWin); n != "" {
			s += fmt.Sprintf("; a player jumping at random wins once in %s games", n)
		} else {
			s += "; a player jumping at random never wins"
		}
		out = append(out, s+".")
	}
	return out
}
