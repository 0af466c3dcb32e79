package build

import (
	"context"
	"fmt"

	"github.com/dustin/go-humanize"

	"pegs/engine"
	"pegs/report"
	"pegs/search"
)

// starts is section 2: which single-vacancy starts of each board of the
// plan can end with one peg, and where, decided as the plan says.
func (b *builder) starts(ctx context.Context) (Section, error) {
	sec := Section{Lead: "Which single empty hole at the start can end with one peg, and where that peg can end.",
		Text: "Which single-vacancy starts can end with one peg, and where. " +
			"\"Exact\" boards were searched exhaustively for every start, so every finish comes with its number of solutions; " +
			"\"solvable\" boards had each (vacancy, finish) pair that the position classes allow decided by the depth-first solver; " +
			"\"feasible\" boards show only what the position classes allow, an upper bound that the full report decides."}
	for _, sp := range b.plan.starts {
		bd, err := engine.Lookup(sp.board)
		if err != nil {
			return Section{}, err
		}
		b.progress(fmt.Sprintf("starts on %s (%s)", sp.board, sp.how))
		var it Item
		var fig Figure
		switch sp.how {
		case "exact":
			res, err := search.Starts(ctx, bd, b.exploreOptions(), nil)
			if err != nil {
				return Section{}, fmt.Errorf("starts on %s: %w", sp.board, err)
			}
			sec.Findings = append(sec.Findings, exactFinding(bd, res))
			it = Item{Caption: fmt.Sprintf("%s, exact: every single-vacancy start up to symmetry, its reachable positions, and its solutions by finishing hole.", sp.board),
				Table: report.StartsTable(bd, res)}
			fig, err = startsMap(bd, res)
			if err != nil {
				return Section{}, err
			}
		case "pairs":
			pairs, err := search.StartPairs(ctx, bd, search.SolveOptions{Budget: search.Budget{Memory: b.opt.Memory}}, 0)
			if err != nil {
				return Section{}, fmt.Errorf("starts on %s: %w", sp.board, err)
			}
			sec.Findings = append(sec.Findings, pairsFinding(bd, pairs))
			it = Item{Caption: fmt.Sprintf("%s, solvable: for each start class, the finishing holes one peg can reach (every pair solved and its solution replayed).", sp.board),
				Table: report.PairsTable(bd, pairs)}
			fig, err = pairsMap(bd, pairs)
			if err != nil {
				return Section{}, err
			}
		case "feasible":
			it = Item{Caption: fmt.Sprintf("%s, feasible: for each start class, the finishing holes the position classes allow (not searched in quick mode; `--full` decides each).", sp.board),
				Table: report.FeasibleTable(bd)}
			fig, err = feasibleMap(bd)
			if err != nil {
				return Section{}, err
			}
		default:
			return Section{}, fmt.Errorf("unknown starts plan %q", sp.how)
		}
		it.Name = "starts-" + fileName(sp.board)
		if err := fig.Save(b.path("figures"), it.Name); err != nil {
			return Section{}, err
		}
		sec.Items = append(sec.Items, it, Item{Caption: "The board drawn as it looks, each hole coloured by the result of the start that vacates it.", Figure: it.Name})
	}
	return sec, nil
}

// exactFinding says how many of a board's start classes can end with one
// peg, and which has the most solutions.
func exactFinding(bd *engine.Board, res []search.StartResult) string {
	solvable, best := 0, -1
	for i, r := range res {
		if !r.Decided || r.Solutions == nil || r.Solutions.Sign() == 0 {
			continue
		}
		solvable++
		if best < 0 || r.Solutions.Cmp(res[best].Solutions) > 0 {
			best = i
		}
	}
	s := fmt.Sprintf("On the %s board, %d of %d classes of single-vacancy starts can end with one peg", bd.Name(), solvable, len(res))
	if best >= 0 {
		s += fmt.Sprintf("; vacating %s gives the most solutions, %s", bd.Label(res[best].Hole), humanize.BigComma(res[best].Solutions))
	}
	return s + "."
}

// pairsFinding says how many of a board's start classes can end with one
// peg somewhere, by the solved pairs.
func pairsFinding(bd *engine.Board, pairs []search.Pair) string {
	starts, solvable := map[int]bool{}, map[int]bool{}
	for _, p := range pairs {
		starts[p.Start] = true
		if p.Decided && p.Solvable {
			solvable[p.Start] = true
		}
	}
	return fmt.Sprintf("On the %s board, %d of %d classes of single-vacancy starts can end with one peg (each solved, its solution replayed).",
		bd.Name(), len(solvable), len(starts))
}
