package build

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dustin/go-humanize"

	"pegs/engine"
	"pegs/report"
	"pegs/search"
)

// profiles is section 3: the state space by peg count of the classic
// starts that section 1 searched, and of the plan's further vacancies.
func (b *builder) profiles(ctx context.Context) (Section, error) {
	sec := Section{Lead: "The shape of each state space: how many positions every peg count holds, from the start down to the last peg.",
		Text: "How many positions each peg count holds from the classic start: reachable, able to still meet the goal, and dead ends (no jump left). " +
			"Positions are counted up to the start's symmetry."}
	for _, name := range b.plan.profiles {
		a, ok := b.analyses[name]
		if !ok {
			sec.Items = append(sec.Items, Item{Caption: fmt.Sprintf("%s: not searched (over the memory budget or beyond quick mode).", name)})
			continue
		}
		bd, _ := engine.Lookup(name)
		fig, err := profilePlot(fmt.Sprintf("%s, classic start, goal %s", name, bd.FormatGoal(classicGoal(bd))), a.Layers)
		if err != nil {
			return Section{}, err
		}
		file := "profile-" + fileName(name)
		if err := fig.Save(b.path("figures"), file); err != nil {
			return Section{}, err
		}
		sec.Findings = append(sec.Findings, profileFinding(name, a.Layers))
		sec.Items = append(sec.Items,
			Item{Caption: fmt.Sprintf("%s: positions by peg count.", name), Table: report.LayersTable(a.Layers), Name: file},
			Item{Caption: fmt.Sprintf("%s: the state space by peg count, log scale.", name), Figure: file, Alt: profileAlt(name, a.Layers)})
	}
	for _, v := range b.plan.vacancies {
		items, err := b.vacancy(ctx, v)
		if err != nil {
			return Section{}, err
		}
		sec.Items = append(sec.Items, items...)
	}
	return sec, ctx.Err()
}

// vacancy profiles the whole state space of the single-vacancy start v
// ("board:hole"), goal one peg anywhere.
func (b *builder) vacancy(ctx context.Context, v string) ([]Item, error) {
	i := strings.LastIndexByte(v, ':')
	bd, err := engine.Lookup(v[:i])
	if err != nil {
		return nil, err
	}
	hole := v[i+1:]
	start, err := bd.Vacate(hole)
	if err != nil {
		return nil, err
	}
	b.progress("exploring " + v)
	// The profile shows no complete games; leaving them out halves the
	// memory.
	opt := b.exploreOptions()
	opt.NoGames = true
	a, err := search.Explore(ctx, search.Problem{Board: bd, Start: start, Goal: engine.Goal{Kind: engine.OnePeg}}, opt)
	if errors.Is(err, search.ErrMemory) {
		return []Item{{Caption: fmt.Sprintf("%s, vacate %s: the whole state space needs more than the %s memory budget; not searched to the end.",
			bd.Name(), hole, humanize.IBytes(uint64(b.opt.Memory)))}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", v, err)
	}
	fig, err := profilePlot(fmt.Sprintf("%s, vacate %s, goal any", bd.Name(), hole), a.Layers)
	if err != nil {
		return nil, err
	}
	file := "profile-" + fileName(bd.Name()) + "-" + hole
	if err := fig.Save(b.path("figures"), file); err != nil {
		return nil, err
	}
	return []Item{
		{Caption: fmt.Sprintf("%s, vacate %s: positions by peg count (%s solutions to one peg).", bd.Name(), hole, a.Solutions), Table: report.LayersTable(a.Layers), Name: file},
		{Caption: fmt.Sprintf("%s, vacate %s: the state space by peg count, log scale.", bd.Name(), hole), Figure: file, Alt: profileAlt(bd.Name()+", vacate "+hole, a.Layers)},
	}, nil
}

// widest returns the layer with the most reachable positions, and the
// most pegs of a layer with a dead end (0 if none).
func widest(layers []search.LayerStats) (search.LayerStats, int) {
	var w search.LayerStats
	dead := 0
	for _, l := range layers {
		if l.Reachable > w.Reachable {
			w = l
		}
		if l.DeadEnds > 0 {
			dead = max(dead, l.Pegs)
		}
	}
	return w, dead
}

// profileFinding says where a state space is widest and where its dead
// ends begin.
func profileFinding(name string, layers []search.LayerStats) string {
	w, dead := widest(layers)
	s := fmt.Sprintf("The %s state space is widest at %d pegs, with %s positions", name, w.Pegs, report.FormatCount(w.Reachable))
	if dead > 0 {
		s += fmt.Sprintf("; a player can first be stuck with %d pegs left", dead)
	}
	return s + "."
}

// profileAlt describes a profile plot in words.
func profileAlt(name string, layers []search.LayerStats) string {
	if len(layers) == 0 {
		return name + ": no positions."
	}
	w, dead := widest(layers)
	first, last := layers[0], layers[len(layers)-1]
	s := fmt.Sprintf("Line chart of %s on a log scale: reachable positions rise from %s at %d pegs to %s at %d pegs and fall to %s at %d",
		name, report.FormatCount(first.Reachable), first.Pegs, report.FormatCount(w.Reachable), w.Pegs, report.FormatCount(last.Reachable), last.Pegs)
	if dead > 0 {
		s += fmt.Sprintf("; dead ends appear from %d pegs down", dead)
	}
	return s + "."
}
