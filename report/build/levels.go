package build

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
	sec := Section{Lead: "Levels made by the generator and graded 1 to 5, shown as a player meets them, with what makes each hard.",
		Text: "Levels laid out as a designer would (one group of pegs, compact, symmetric where the board allows), " +
			"solved, and measured on their whole state space. " +
			"The player who looks k jumps ahead never plays a jump it sees lose within k jumps and chooses among the others at random; " +
			"W_k is its chance to win an attempt, and a level's foresight needed f is the k at which W_k reaches 1/2 (read between integers on log W). " +
			"The score is log10(n·b^f), the lines such a player weighs over a game of n = pegs − 1 jumps with b, the board's jumps over the holes a jump starts from, " +
			"and grades 1..5 split one scale for every board at the percentiles of a generated pool (package generate): " + scaleText(generate.Scale()) + ". " +
			"Every level was solved again and its solution replayed before it was kept. " +
			"A level's rank places it among generated levels of the same size, by the foresight they need."}
	for i, pp := range b.plan.pools {
		items, finding, err := b.pool(ctx, pp, i == 0 && b.plan.pack > 0)
		if err != nil {
			return Section{}, err
		}
		if finding != "" {
			sec.Findings = append(sec.Findings, finding)
		}
		sec.Items = append(sec.Items, items...)
	}
	if b.plan.classicMax > 0 {
		items, finding, err := b.classic(ctx)
		if err != nil {
			return Section{}, err
		}
		if finding != "" {
			sec.Findings = append(sec.Findings, finding)
		}
		sec.Items = append(sec.Items, items...)
	}
	return sec, nil
}

// pool generates the levels of pp and shows their scores; with pack, it
// also takes the plan's pack from them.
func (b *builder) pool(ctx context.Context, pp poolPlan, pack bool) (items []Item, finding string, err error) {
	bd, err := engine.Lookup(pp.board)
	if err != nil {
		return nil, "", err
	}
	goal, err := bd.ParseGoal(pp.goal)
	if err != nil {
		return nil, "", err
	}
	b.progress(fmt.Sprintf("generating %d %s levels", pp.size, pp.board))
	pool, err := generate.Generate(ctx, bd, pp.size, generate.Options{Goal: goal, MinPegs: pp.minP, MaxPegs: pp.maxP,
		Seed: b.opt.Seed, Workers: b.opt.Workers, Memory: b.opt.Memory})
	if err != nil {
		return nil, "", fmt.Errorf("generating %s levels: %w", pp.board, err)
	}
	if pack {
		levels, err := generate.Progression(pool, b.plan.pack)
		if err != nil {
			return nil, "", err
		}
		var cards []Card
		for j, l := range levels {
			file := fmt.Sprintf("levels/pack-%02d", j+1)
			if err := savePicture(b.path("figures"), file, bd, l.Position()); err != nil {
				return nil, "", err
			}
			cards = append(cards, levelCard(fmt.Sprintf("Level %d", j+1), file, l))
		}
		finding = levelFinding(fmt.Sprintf("The %s pack of %d levels", pp.board, len(levels)), levels)
		fore, err := foresightPlot(fmt.Sprintf("%s pack: win probability against look-ahead", pp.board), levels)
		if err != nil {
			return nil, "", err
		}
		foreFile := "foresight-pack-" + fileName(pp.board)
		if err := fore.Save(b.path("figures"), foreFile); err != nil {
			return nil, "", err
		}
		items = append(items,
			Item{Caption: fmt.Sprintf("A pack of %d %s levels (goal %s) taken from the pool at evenly spaced difficulty ranks: scores rise strictly. "+
				"Their pictures are in figures/levels (PNG and SVG), every measure in the data files.", len(levels), pp.board, pp.goal),
				Cards: cards, Table: report.LevelsTable(levels), Name: "pack-" + fileName(pp.board), DataOnly: true},
			Item{Caption: "How often the player who looks k jumps ahead wins each level of the pack; a level's foresight needed is where its curve crosses 1/2.", Figure: foreFile,
				Alt: foresightAlt(levels)})
	}
	hist, err := scoreHistogram(fmt.Sprintf("%s: difficulty of %d generated levels (%d-%d pegs)", pp.board, len(pool), pp.minP, pp.maxP), pool)
	if err != nil {
		return nil, "", err
	}
	file := "scores-" + fileName(pp.board)
	if err := hist.Save(b.path("figures"), file); err != nil {
		return nil, "", err
	}
	sc, err := scoreByPegs(fmt.Sprintf("%s: difficulty against size, coloured by grade", pp.board), pool)
	if err != nil {
		return nil, "", err
	}
	if err := sc.Save(b.path("figures"), "score-pegs-"+fileName(pp.board)); err != nil {
		return nil, "", err
	}
	return append(items,
		Item{Caption: fmt.Sprintf("Every level of the %s pool, with its metrics (in the data files only).", pp.board), Table: report.LevelsTable(pool), Name: "pool-" + fileName(pp.board), DataOnly: true},
		Item{Caption: fmt.Sprintf("Distribution of difficulty scores in the %s pool.", pp.board), Figure: file},
		Item{Caption: fmt.Sprintf("Each %s level's difficulty against its pegs, coloured by its grade on the common scale.", pp.board), Figure: "score-pegs-" + fileName(pp.board)}), finding, nil
}

// classic grades the classic English levels with the generator's measure.
func (b *builder) classic(ctx context.Context) ([]Item, string, error) {
	b.progress("grading the classic levels")
	probs, err := bench.Suite("classic", engine.English())
	if err != nil {
		return nil, "", err
	}
	var levels []generate.Level
	var skipped []string
	var cards []Card
	for _, p := range probs {
		if p.Start.Pegs() > b.plan.classicMax {
			skipped = append(skipped, fmt.Sprintf("%s (%d pegs)", p.Name, p.Start.Pegs()))
			continue
		}
		l, err := generate.Grade(ctx, p.Board, p.Start, p.Goal, search.SolveOptions{Budget: search.Budget{Memory: b.opt.Memory}, Tables: b.tables})
		if errors.Is(err, search.ErrMemory) {
			skipped = append(skipped, fmt.Sprintf("%s (over the %s memory budget)", p.Name, humanize.IBytes(uint64(b.opt.Memory))))
			continue
		}
		if err != nil {
			return nil, "", fmt.Errorf("grading %s: %w", p.Name, err)
		}
		l.Name = p.Name
		levels = append(levels, l)
		file := "levels/classic-" + p.Name
		if err := savePicture(b.path("figures"), file, p.Board, p.Start); err != nil {
			return nil, "", err
		}
		cards = append(cards, levelCard(p.Name, file, l))
	}
	caption := "The classic English levels, in their designer's order (easiest first), graded with the same measure and scale."
	if len(skipped) > 0 {
		caption += " Not graded in this mode: " + strings.Join(skipped, ", ") + "."
	}
	fore, err := foresightPlot("Classic levels: win probability against look-ahead", levels)
	if err != nil {
		return nil, "", err
	}
	if err := fore.Save(b.path("figures"), "foresight-classic"); err != nil {
		return nil, "", err
	}
	return []Item{
		{Caption: caption + " Every measure is in the data files.", Cards: cards, Table: report.LevelsTable(levels), Name: "classic", DataOnly: true},
		{Caption: "How often the player who looks k jumps ahead wins each classic level; a level's foresight needed is where its curve crosses 1/2.", Figure: "foresight-classic", Alt: foresightAlt(levels)},
	}, levelFinding("The classic English levels", levels), nil
}

// scaleText says where the grade scale splits and what pool it comes from.
func scaleText(c generate.Calibration) string {
	cuts := make([]string, len(c.Cuts))
	for i, x := range c.Cuts {
		cuts[i] = strconv.FormatFloat(x, 'f', 2, 64)
	}
	return fmt.Sprintf("scores above %s start grades 2 to 5, from %d %s levels (`%s`)", strings.Join(cuts, ", "), c.Pool, c.Board, c.Command)
}

// levelCard is level l as a card named name, its picture in file.
func levelCard(name, file string, l generate.Level) Card {
	c := Card{Name: name, Picture: file, Grade: l.Grade, Explanation: l.Explanation, Facts: []Fact{
		{"pegs", strconv.Itoa(l.Pegs)},
		{"score", report.FormatNumber(l.Score)},
		{"foresight needed", report.FormatNumber(l.Metrics.ForesightNeeded) + " jumps"},
		{"par", strconv.Itoa(l.Par) + " moves"},
		{"random player wins", report.FormatProbability(l.Metrics.P0)},
		{"groups", strconv.Itoa(l.Metrics.Groups)},
		{"symmetry", l.Metrics.Symmetry},
		{"compactness", report.FormatNumber(l.Metrics.Compactness)},
	}}
	if l.Rank != nil {
		c.Facts = append(c.Facts, Fact{"rank", l.Rank.Words})
	}
	return c
}

// levelFinding says how a list of levels rises in difficulty.
func levelFinding(what string, levels []generate.Level) string {
	if len(levels) == 0 {
		return ""
	}
	hard := 0
	for i, l := range levels {
		if l.Score > levels[hard].Score {
			hard = i
		}
	}
	h := levels[hard]
	name := h.Name
	if name == "" {
		name = "level " + strconv.Itoa(hard+1)
	}
	span := fmt.Sprintf("grades %d to %d", slices.Min(grades(levels)), slices.Max(grades(levels)))
	if lo, hi := slices.Min(grades(levels)), slices.Max(grades(levels)); lo == hi {
		span = fmt.Sprintf("all grade %d", lo)
	}
	return fmt.Sprintf("%s: %s; the hardest, %s (%d pegs, grade %d), needs a look-ahead of %s jumps to win half its attempts, and a player jumping at random wins it once in %s tries.",
		what, span, name, h.Pegs, h.Grade, report.FormatNumber(h.Metrics.ForesightNeeded), report.OneIn(h.Metrics.P0))
}

func grades(levels []generate.Level) []int {
	out := make([]int, len(levels))
	for i, l := range levels {
		out[i] = l.Grade
	}
	return out
}

// foresightAlt describes a foresight figure in words: each level's
// foresight needed.
func foresightAlt(levels []generate.Level) string {
	parts := make([]string, len(levels))
	for i, l := range levels {
		name := l.Name
		if name == "" {
			name = "level " + strconv.Itoa(i+1)
		}
		parts[i] = fmt.Sprintf("%s %s", name, report.FormatNumber(l.Metrics.ForesightNeeded))
	}
	return "Line chart on a log scale of each level's chance to win against the player's look-ahead; the look-ahead at which each crosses one half: " + strings.Join(parts, ", ") + "."
}
