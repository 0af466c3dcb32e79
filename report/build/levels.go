package build

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dustin/go-humanize"

	"pegs/bench"
	"pegs/engine"
	"pegs/generate"
	"pegs/report"
	"pegs/search"
)

// levels is section 4: the plan's pools of generated levels, a pack taken
// from the first, and the classic English levels graded the same way.
func (b *builder) levels(ctx context.Context) (Section, error) {
	sec := Section{Text: "Levels made by reverse play from the goal and measured on their whole state space. " +
		"The player who looks k jumps ahead never plays a jump it sees lose within k jumps and chooses among the others at random; " +
		"W_k is its chance to win an attempt, and a level's foresight needed f is the k at which W_k reaches 1/2 (read between integers on log W). " +
		"The score is log10(n·b^f), the lines such a player weighs over a game of n = pegs − 1 jumps with b jumps a position, " +
		"and grades 1..5 split one scale for every board at the percentiles of a generated pool (package generate): " + scaleText(generate.Scale()) + ". " +
		"Every level was solved again and its solution replayed before it was kept."}
	for i, pp := range b.plan.pools {
		items, err := b.pool(ctx, pp, i == 0 && b.plan.pack > 0)
		if err != nil {
			return Section{}, err
		}
		sec.Items = append(sec.Items, items...)
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

// pool generates the levels of pp and shows their scores; with pack, it
// also takes the plan's pack from them.
func (b *builder) pool(ctx context.Context, pp poolPlan, pack bool) ([]Item, error) {
	bd, err := engine.Lookup(pp.board)
	if err != nil {
		return nil, err
	}
	goal, err := bd.ParseGoal(pp.goal)
	if err != nil {
		return nil, err
	}
	b.progress(fmt.Sprintf("generating %d %s levels", pp.size, pp.board))
	pool, err := generate.Generate(ctx, bd, pp.size, generate.Options{Goal: goal, MinPegs: pp.minP, MaxPegs: pp.maxP,
		Seed: b.opt.Seed, Workers: b.opt.Workers, Memory: b.opt.Memory})
	if err != nil {
		return nil, fmt.Errorf("generating %s levels: %w", pp.board, err)
	}
	var items []Item
	if pack {
		levels, err := generate.Progression(pool, b.plan.pack)
		if err != nil {
			return nil, err
		}
		var gallery []Picture
		for j, l := range levels {
			file := fmt.Sprintf("levels/pack-%02d", j+1)
			if err := savePicture(b.path("figures"), file, bd, l.Position()); err != nil {
				return nil, err
			}
			gallery = append(gallery, Picture{File: file, Caption: fmt.Sprintf("%d: %d pegs, grade %d", j+1, l.Pegs, l.Grade)})
		}
		fore, err := foresightPlot(fmt.Sprintf("%s pack: win probability against look-ahead", pp.board), levels)
		if err != nil {
			return nil, err
		}
		foreFile := "foresight-pack-" + fileName(pp.board)
		if err := fore.Save(b.path("figures"), foreFile); err != nil {
			return nil, err
		}
		items = append(items,
			Item{Caption: fmt.Sprintf("A pack of %d %s levels (goal %s) taken from the pool at evenly spaced difficulty ranks: scores rise strictly.", len(levels), pp.board, pp.goal),
				Table: report.LevelsTable(levels), Name: "pack-" + fileName(pp.board)},
			Item{Caption: "The pack's levels as pictures for a game's level list (PNG and SVG in figures/levels).", Gallery: gallery},
			Item{Caption: "How often the player who looks k jumps ahead wins each level of the pack; a level's foresight needed is where its curve crosses 1/2.", Figure: foreFile})
	}
	hist, err := scoreHistogram(fmt.Sprintf("%s: difficulty of %d generated levels (%d-%d pegs)", pp.board, len(pool), pp.minP, pp.maxP), pool)
	if err != nil {
		return nil, err
	}
	file := "scores-" + fileName(pp.board)
	if err := hist.Save(b.path("figures"), file); err != nil {
		return nil, err
	}
	sc, err := scoreByPegs(fmt.Sprintf("%s: difficulty against size, coloured by grade", pp.board), pool)
	if err != nil {
		return nil, err
	}
	if err := sc.Save(b.path("figures"), "score-pegs-"+fileName(pp.board)); err != nil {
		return nil, err
	}
	return append(items,
		Item{Caption: fmt.Sprintf("Every level of the %s pool, with its metrics (in the data files only).", pp.board), Table: report.LevelsTable(pool), Name: "pool-" + fileName(pp.board), DataOnly: true},
		Item{Caption: fmt.Sprintf("Distribution of difficulty scores in the %s pool.", pp.board), Figure: file},
		Item{Caption: fmt.Sprintf("Each %s level's difficulty against its pegs, coloured by its grade on the common scale.", pp.board), Figure: "score-pegs-" + fileName(pp.board)}), nil
}

// classic grades the classic English levels with the generator's measure.
func (b *builder) classic(ctx context.Context) ([]Item, error) {
	b.progress("grading the classic levels")
	probs, err := bench.Suite("classic", engine.English())
	if err != nil {
		return nil, err
	}
	var levels []generate.Level
	var skipped []string
	var gallery []Picture
	for _, p := range probs {
		if p.Start.Pegs() > b.plan.classicMax {
			skipped = append(skipped, fmt.Sprintf("%s (%d pegs)", p.Name, p.Start.Pegs()))
			continue
		}
		l, err := generate.Grade(ctx, p.Board, p.Start, p.Goal, search.Options{Memory: b.opt.Memory, Tables: b.tables})
		if errors.Is(err, search.ErrMemory) {
			skipped = append(skipped, fmt.Sprintf("%s (over the %s memory budget)", p.Name, humanize.IBytes(uint64(b.opt.Memory))))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("grading %s: %w", p.Name, err)
		}
		l.Name = p.Name
		levels = append(levels, l)
		file := "levels/classic-" + p.Name
		if err := savePicture(b.path("figures"), file, p.Board, p.Start); err != nil {
			return nil, err
		}
		gallery = append(gallery, Picture{File: file, Caption: fmt.Sprintf("%s: %d pegs, grade %d", p.Name, l.Pegs, l.Grade)})
	}
	caption := "The classic English levels, in their designer's order (easiest first), graded with the same measure and scale."
	if len(skipped) > 0 {
		caption += " Not graded in this mode: " + strings.Join(skipped, ", ") + "."
	}
	fore, err := foresightPlot("Classic levels: win probability against look-ahead", levels)
	if err != nil {
		return nil, err
	}
	if err := fore.Save(b.path("figures"), "foresight-classic"); err != nil {
		return nil, err
	}
	return []Item{
		{Caption: caption, Table: report.LevelsTable(levels), Name: "classic"},
		{Caption: "The classic levels as pictures.", Gallery: gallery},
		{Caption: "How often the player who looks k jumps ahead wins each classic level; a level's foresight needed is where its curve crosses 1/2.", Figure: "foresight-classic"},
	}, nil
}

// scaleText says where the grade scale splits and what pool it comes from.
func scaleText(c generate.Calibration) string {
	cuts := make([]string, len(c.Cuts))
	for i, x := range c.Cuts {
		cuts[i] = strconv.FormatFloat(x, 'f', 2, 64)
	}
	return fmt.Sprintf("scores above %s start grades 2 to 5, from %d %s levels (`%s`)", strings.Join(cuts, ", "), c.Pool, c.Board, c.Command)
}
