package build

import (
	"fmt"
	"image/color"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"pegs/bench"
	"pegs/engine"
	"pegs/generate"
	"pegs/report"
	"pegs/search"
)

// profilePlot draws a state space by peg count on a log scale: positions
// reachable up to symmetry, those that can still win, and dead ends. Layers
// with no position of a kind leave a gap in its line, since a log scale
// has no zero; a kind with none at all has no line.
func profilePlot(title string, layers []search.LayerStats) (Figure, error) {
	p := newPlot(title, "pegs on the board", "positions (up to symmetry, log scale)", true)
	series := []struct {
		name string
		get  func(search.LayerStats) int64
	}{
		{"reachable", func(l search.LayerStats) int64 { return l.Reachable }},
		{"can still win", func(l search.LayerStats) int64 { return l.Winnable }},
		{"dead ends (no jump left)", func(l search.LayerStats) int64 { return l.DeadEnds }},
	}
	for i, s := range series {
		var pts plotter.XYs
		some := false
		for _, l := range layers {
			v := s.get(l)
			some = some || v > 0
			pts = append(pts, plotter.XY{X: float64(l.Pegs), Y: float64(v)})
		}
		if !some {
			continue
		}
		if err := addLine(p, i, s.name, pts); err != nil {
			return Figure{}, err
		}
	}
	return newFigure(p, plotWidth, plotHeight), nil
}

// BoardMap draws a board as it looks, each hole coloured by its value, and
// labelled. Equal values share a colour and a legend entry named by label;
// a NaN value (undecided) is drawn grey.
func boardMap(title string, b *engine.Board, values []float64, label func(float64) string) (Figure, error) {
	p := sansPlot()
	p.Title.Text = title
	p.HideAxes()
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	var distinct []float64
	undecided := false
	for _, v := range values {
		if math.IsNaN(v) {
			undecided = true
		} else if !slices.Contains(distinct, v) {
			distinct = append(distinct, v)
		}
	}
	sort.Float64s(distinct)
	colour := func(v float64) color.Color {
		if math.IsNaN(v) {
			return color.Gray{Y: 0xb0}
		}
		return ramp(slices.Index(distinct, v), len(distinct))
	}
	var xmax, ymax float64
	for h := range b.Holes() {
		x, y := b.Place(h)
		xmax, ymax = max(xmax, x), max(ymax, y)
	}
	const radius = 11
	add := func(name string, v float64) error {
		var pts plotter.XYs
		for h := range b.Holes() {
			if values[h] == v || math.IsNaN(v) && math.IsNaN(values[h]) {
				x, y := b.Place(h)
				pts = append(pts, plotter.XY{X: x, Y: -y})
			}
		}
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: colour(v), Radius: radius, Shape: draw.CircleGlyph{}}
		p.Add(s)
		p.Legend.Add(name, swatch{colour(v)})
		return nil
	}
	for _, v := range distinct {
		if err := add(label(v), v); err != nil {
			return Figure{}, err
		}
	}
	if undecided {
		if err := add("undecided", math.NaN()); err != nil {
			return Figure{}, err
		}
	}
	var xys plotter.XYs
	var names []string
	for h := range b.Holes() {
		x, y := b.Place(h)
		xys = append(xys, plotter.XY{X: x, Y: -y})
		names = append(names, b.Label(h))
	}
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: names})
	if err != nil {
		return Figure{}, err
	}
	for i := range labels.TextStyle {
		if v := values[i]; !math.IsNaN(v) && 2*slices.Index(distinct, v) >= len(distinct) && len(distinct) > 1 {
			labels.TextStyle[i].Color = color.White
		}
		labels.TextStyle[i].XAlign = draw.XCenter
		labels.TextStyle[i].YAlign = draw.YCenter
		labels.TextStyle[i].Font.Size = 7
		sans(&labels.TextStyle[i])
	}
	p.Add(labels)
	// Keep the holes round: the same scale on both axes (the legend is
	// beside the plot).
	p.X.Min, p.X.Max = -0.6, xmax+0.6
	p.Y.Min, p.Y.Max = -ymax-0.6, 0.6
	unit := 1.1 * vg.Centimeter
	w := vg.Length(xmax+1.2) * unit
	h := vg.Length(ymax+1.2)*unit + 1.2*vg.Centimeter
	return newFigure(p, w, h), nil
}

// ScoreHistogram draws the distribution of difficulty scores of a pool of
// levels.
func scoreHistogram(title string, levels []generate.Level) (Figure, error) {
	p := newPlot(title, "difficulty score (log10 of the lines weighed)", "levels", false)
	vs := make(plotter.Values, len(levels))
	for i, l := range levels {
		vs[i] = l.Score
	}
	h, err := plotter.NewHist(vs, 20)
	if err != nil {
		return Figure{}, err
	}
	h.FillColor = seriesColour(0)
	h.LineStyle.Color = color.White
	p.Add(h)
	return newFigure(p, plotWidth, plotHeight), nil
}

// ScoreByPegs draws each level's difficulty against its peg count, one
// colour per grade.
func scoreByPegs(title string, levels []generate.Level) (Figure, error) {
	p := newPlot(title, "pegs at the start", "difficulty score (log10 of the lines weighed)", false)
	byGrade := map[int]plotter.XYs{}
	for _, l := range levels {
		byGrade[l.Grade] = append(byGrade[l.Grade], plotter.XY{X: float64(l.Pegs), Y: l.Score})
	}
	grades := make([]int, 0, len(byGrade))
	for g := range byGrade {
		grades = append(grades, g)
	}
	slices.Sort(grades)
	for _, g := range grades {
		s, err := plotter.NewScatter(byGrade[g])
		if err != nil {
			return Figure{}, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: gradeColour(g), Radius: 3, Shape: draw.CircleGlyph{}}
		p.Add(s)
		p.Legend.Add("grade "+strconv.Itoa(g), s)
	}
	return newFigure(p, plotWidth, plotHeight), nil
}

// ForesightPlot draws each level's win probability per attempt W_k
// against the look-ahead k of the player (package search/measure), on a
// log scale, with the line W = 1/2 where a level's foresight needed is
// read. Levels are named by their names, or numbered, and their pegs.
func foresightPlot(title string, levels []generate.Level) (Figure, error) {
	p := newPlot(title, "look-ahead k of the player (jumps)", "win probability per attempt W_k (log scale)", true)
	maxK := 1
	for i, l := range levels {
		var pts plotter.XYs
		for _, f := range l.Metrics.Foresight {
			pts = append(pts, plotter.XY{X: float64(f.LookAhead), Y: f.WinProbability})
			maxK = max(maxK, f.LookAhead)
		}
		name := l.Name
		if name == "" {
			name = strconv.Itoa(i + 1)
		}
		if err := addLine(p, i, fmt.Sprintf("%s (%d pegs)", name, l.Pegs), pts); err != nil {
			return Figure{}, err
		}
	}
	half, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0.5}, {X: float64(maxK), Y: 0.5}})
	if err != nil {
		return Figure{}, err
	}
	half.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	half.Color = color.Gray{Y: 0x80}
	p.Add(half)
	p.Legend.Add("W = 1/2", half)
	return newFigure(p, plotWidth, plotHeight), nil
}

// gradeColour runs from light green (grade 1) to dark purple (grade 5)
// along viridis, a scale readers with colour blindness see in order.
func gradeColour(g int) color.Color {
	cs := []color.RGBA{{0x99, 0x99, 0x99, 0xff}, {0x7a, 0xd1, 0x51, 0xff}, {0x22, 0xa8, 0x84, 0xff}, {0x2a, 0x78, 0x8e, 0xff}, {0x41, 0x44, 0x87, 0xff}, {0x44, 0x01, 0x54, 0xff}}
	if g < 0 || g >= len(cs) {
		g = 0
	}
	return cs[g]
}

// fastest returns, per problem and strategy, the best median over worker
// counts; timed-out results are left out.
func fastest(results []bench.Result) (problems, strategies []string, best map[[2]string]time.Duration) {
	best = map[[2]string]time.Duration{}
	for _, r := range results {
		if !slices.Contains(problems, r.Problem) {
			problems = append(problems, r.Problem)
		}
		if !slices.Contains(strategies, r.Strategy) {
			strategies = append(strategies, r.Strategy)
		}
		if r.TimedOut || r.Median <= 0 {
			continue
		}
		k := [2]string{r.Problem, r.Strategy}
		if d, ok := best[k]; !ok || r.Median < d {
			best[k] = r.Median
		}
	}
	return problems, strategies, best
}

// StrategyTimes draws each strategy's median time per problem as grouped
// bars on a log scale (its best worker count); a strategy that timed out
// has no bar.
func strategyTimes(title string, results []bench.Result) (Figure, error) {
	problems, strategies, best := fastest(results)
	p := newPlot(title, "problem", "median wall time (log scale)", true)
	p.Y.Tick.Marker = powerTicks{label: secondsLabel}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, d := range best {
		lo, hi = min(lo, d.Seconds()), max(hi, d.Seconds())
	}
	if len(best) == 0 {
		lo, hi = 1e-3, 1e-2
	}
	floor := lo / 3
	width := 0.8 / float64(len(strategies))
	for i, s := range strategies {
		bars := &logBars{floor: floor, top: hi * 2, width: width, color: seriesColour(i)}
		for j, pr := range problems {
			if d, ok := best[[2]string{pr, s}]; ok {
				bars.x = append(bars.x, float64(j)-0.4+width*(float64(i)+0.5))
				bars.y = append(bars.y, d.Seconds())
			}
		}
		p.Add(bars)
		p.Legend.Add(s, bars)
	}
	p.NominalX(problems...)
	return newFigure(p, plotWidth+4*vg.Centimeter, plotHeight), nil
}

// logBars are bars rising from a floor, for a log-scale axis, where bars
// from zero cannot be drawn.
type logBars struct {
	x, y       []float64
	floor, top float64
	width      float64 // in data units along x
	color      color.Color
}

func (b *logBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i := range b.x {
		x0, x1 := trX(b.x[i]-b.width/2), trX(b.x[i]+b.width/2)
		y0, y1 := trY(b.floor), trY(b.y[i])
		pts := c.ClipPolygonY([]vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0}})
		c.FillPolygon(b.color, pts)
	}
}

func (b *logBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = -0.5, 0.5
	for _, x := range b.x {
		xmin, xmax = min(xmin, x-0.5), max(xmax, x+0.5)
	}
	return xmin, xmax, b.floor, b.top
}

func (b *logBars) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	c.FillPolygon(b.color, c.ClipPolygonY(pts))
}

// ScalingPlot draws the speed-up of each parallel strategy against its
// worker count, summed over the problems every worker count finished, with
// the ideal (speed-up equal to workers) for reference.
func scalingPlot(title string, results []bench.Result) (Figure, error) {
	p := newPlot(title, "workers (goroutines)", "speed-up over 1 worker (×)", false)
	type key struct{ problem, strategy string }
	times := map[key]map[int]time.Duration{}
	var strategies []string
	maxW := 1
	for _, r := range results {
		if r.TimedOut || r.Median <= 0 {
			continue
		}
		k := key{r.Problem, r.Strategy}
		if times[k] == nil {
			times[k] = map[int]time.Duration{}
		}
		times[k][r.Workers] = r.Median
		maxW = max(maxW, r.Workers)
	}
	for k, ws := range times {
		if len(ws) > 1 && !slices.Contains(strategies, k.strategy) {
			strategies = append(strategies, k.strategy)
		}
	}
	slices.Sort(strategies)
	ideal, err := plotter.NewLine(plotter.XYs{{X: 1, Y: 1}, {X: float64(maxW), Y: float64(maxW)}})
	if err != nil {
		return Figure{}, err
	}
	ideal.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	ideal.Color = color.Gray{Y: 0x80}
	p.Add(ideal)
	p.Legend.Add("ideal", ideal)
	for i, s := range strategies {
		total := map[int]time.Duration{}
		for k, ws := range times {
			if k.strategy != s || len(ws) < maxW {
				continue
			}
			for w, d := range ws {
				total[w] += d
			}
		}
		if total[1] == 0 {
			continue
		}
		var pts plotter.XYs
		for w := 1; w <= maxW; w++ {
			if total[w] > 0 {
				pts = append(pts, plotter.XY{X: float64(w), Y: float64(total[1]) / float64(total[w])})
			}
		}
		if err := addLine(p, i, s, pts); err != nil {
			return Figure{}, err
		}
	}
	p.Y.Min = 0
	p.X.Min = 0.8
	p.X.Tick.Marker = integerTicks{}
	return newFigure(p, plotWidth, plotHeight), nil
}

// StartsMap draws board b with each hole coloured by the solutions to one
// peg of the start that vacates it, grey where the exhaustive search of
// that start needed more than its memory budget.
func startsMap(b *engine.Board, results []search.StartResult) (Figure, error) {
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
	return boardMap(b.Name()+": solutions to one peg from each vacancy", b, values,
		func(v float64) string { return countLabel(v) + " solutions" })
}

// PairsMap draws board b with each hole coloured by the number of finishing
// holes that one peg can reach from its vacancy, by the pairs of
// StartPairs, grey where some pair is undecided.
func pairsMap(b *engine.Board, pairs []search.Pair) (Figure, error) {
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
		for _, h := range b.Symmetry().Orbit(s) {
			values[h] = v
		}
	}
	return boardMap(b.Name()+": finishing holes reachable from each vacancy", b, values,
		func(v float64) string { return countLabel(v) + " finishing holes" })
}

// FeasibleMap draws board b with each hole coloured by the number of
// finishing holes the position classes allow from its vacancy.
func feasibleMap(b *engine.Board) (Figure, error) {
	values := make([]float64, b.Holes())
	for s := range b.Holes() {
		start := b.Full() &^ (1 << uint(s))
		for f := range b.Holes() {
			if b.Feasible(start, engine.Goal{Kind: engine.OnePegAt, Hole: f}) {
				values[s]++
			}
		}
	}
	return boardMap(b.Name()+": class-feasible finishing holes from each vacancy", b, values,
		func(v float64) string { return countLabel(v) + " feasible finishes" })
}

// countLabel writes a whole number held in a float64 as a count:
// 266,871,356,732.
func countLabel(v float64) string {
	if math.Abs(v) < 1<<62 {
		return report.FormatCount(int64(math.Round(v)))
	}
	return report.FormatNumber(v)
}

// integerTicks marks each whole number of an axis that spans at most 20,
// such as worker counts: never a tick at 1.5 workers.
type integerTicks struct{}

// Ticks returns the ticks between min and max.
func (integerTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	step := max(1, math.Ceil((hi-lo)/20))
	for v := math.Ceil(lo); v <= hi; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return ticks
}
