package report

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"pegs/engine"
	"pegs/generate"
	"pegs/search"
)

// LayersTable tabulates a state space by peg count: positions reachable up
// to symmetry and raw, those that can still meet the goal, and dead ends.
func LayersTable(layers []search.LayerStats) *Table {
	t := &Table{Header: []string{"pegs", "reachable", "reachable raw", "winnable", "dead ends"}}
	for _, l := range layers {
		t.Add(strconv.Itoa(l.Pegs), strconv.FormatInt(l.Reachable, 10), strconv.FormatInt(l.ReachableRaw, 10),
			strconv.FormatInt(l.Winnable, 10), strconv.FormatInt(l.DeadEnds, 10))
	}
	return t
}

// HoleList writes holes by label, separated by spaces.
func HoleList(b *engine.Board, holes []int) string {
	s := make([]string, len(holes))
	for i, h := range holes {
		s[i] = b.Label(h)
	}
	return strings.Join(s, " ")
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

// StartsTable tabulates the exhaustive analysis of single-vacancy starts.
func StartsTable(b *engine.Board, results []search.StartResult) *Table {
	t := &Table{Header: []string{"start", "class", "reachable", "winnable", "solutions", "finishes", "finish in start hole"}}
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
		t.Add(b.Label(s), HoleList(b, orbit(g, s)), HoleList(b, solv), HoleList(b, unsolv), HoleList(b, und))
	}
	return t
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
		cls := orbit(g, s)
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
		t.Add(b.Label(s), HoleList(b, cls), HoleList(b, fin))
	}
	return t
}

// orbit returns the holes symmetric to h, sorted.
func orbit(g *engine.Group, h int) []int {
	var in [engine.MaxHoles]bool
	for k := range g.Len() {
		in[g.Perm(k)[h]] = true
	}
	var out []int
	for x, ok := range in {
		if ok {
			out = append(out, x)
		}
	}
	return out
}

// LevelsTable tabulates graded levels: their metrics, score and the score's
// parts. names label the rows; when shorter than levels, rows are numbered.
func LevelsTable(levels []generate.Level, names []string) *Table {
	t := &Table{Header: []string{"level", "pegs", "reachable", "win share", "solutions", "games", "P0", "P1", "J1", "critical", "unique first", "par", "score", "grade", "log10 J1", "critical part", "unique part", "solutions part"}}
	g4 := func(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }
	for i, l := range levels {
		name := strconv.Itoa(i + 1)
		if i < len(names) {
			name = names[i]
		}
		m, d := l.Metrics, l.Difficulty
		t.Add(name, strconv.Itoa(l.Pegs), strconv.FormatInt(m.Reachable, 10), g4(m.WinShare), m.Solutions, m.Games,
			g4(m.P0), g4(m.P1), g4(m.J1), strconv.Itoa(m.Critical), strconv.FormatBool(m.UniqueFirst), strconv.Itoa(l.Par),
			strconv.FormatFloat(d.Score, 'f', 3, 64), strconv.Itoa(l.Grade), strconv.FormatFloat(d.Attempts, 'f', 3, 64),
			strconv.FormatFloat(d.Critical, 'f', 2, 64), strconv.FormatFloat(d.UniqueFirst, 'f', 1, 64), strconv.FormatFloat(d.Plenty, 'f', 3, 64))
	}
	return t
}

// StartsMap draws board b with each hole coloured by the solutions to one
// peg of the start that vacates it, grey where the exhaustive search of
// that start needed more than its memory budget.
func StartsMap(b *engine.Board, results []search.StartResult) (Figure, error) {
	values := make([]float64, b.Holes())
	for _, r := range results {
		v := math.NaN()
		if r.Decided {
			v, _ = new(big.Float).SetInt(r.Solutions).Float64()
		}
		for _, h := range r.Class {
			values[h] = v
		}
	}
	return BoardMap(b.Name()+": solutions to one peg from each vacancy", b, values,
		func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) + " solutions" })
}

// PairsMap draws board b with each hole coloured by the number of finishing
// holes that one peg can reach from its vacancy, by the pairs of
// StartPairs, grey where some pair is undecided.
func PairsMap(b *engine.Board, pairs []search.Pair) (Figure, error) {
	count := map[int]float64{}
	for _, p := range pairs {
		switch {
		case !p.Decided:
			count[p.Start] = math.NaN()
		case p.Solvable:
			count[p.Start]++
		}
	}
	values := make([]float64, b.Holes())
	for s, v := range count {
		for _, h := range orbit(b.Symmetry(), s) {
			values[h] = v
		}
	}
	return BoardMap(b.Name()+": finishing holes reachable from each vacancy", b, values,
		func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) + " finishing holes" })
}

// FeasibleMap draws board b with each hole coloured by the number of
// finishing holes the position classes allow from its vacancy.
func FeasibleMap(b *engine.Board) (Figure, error) {
	values := make([]float64, b.Holes())
	for s := range b.Holes() {
		start := b.Full() &^ (1 << uint(s))
		for f := range b.Holes() {
			if b.Feasible(start, engine.Goal{Kind: engine.OnePegAt, Hole: f}) {
				values[s]++
			}
		}
	}
	return BoardMap(b.Name()+": class-feasible finishing holes from each vacancy", b, values,
		func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) + " feasible finishes" })
}
