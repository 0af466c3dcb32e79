package build

import (
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"pegs/report"
)

// Figure is a plot with the size its plot is drawn at. Its legend, if
// any, is drawn beside the plot, to the right of the data, where it covers
// none of it: the figure is that much wider than Width, and wider still,
// the plot centred, if its title needs it.
type Figure struct {
	Plot          *plot.Plot
	Width, Height vg.Length
	// Legend is drawn beside the plot; the plot's own legend is left
	// empty, since gonum draws that inside the data area.
	Legend plot.Legend
}

// newFigure makes a figure of p whose legend goes beside the plot.
func newFigure(p *plot.Plot, w, h vg.Length) Figure {
	legend := p.Legend
	legend.Top, legend.Left = true, true
	legend.Padding = vg.Points(3) // room between entries, so that swatches do not touch
	p.Legend = plot.NewLegend()
	return Figure{Plot: p, Width: w, Height: h, Legend: legend}
}

// legendGap is the room between the data area and the legend, and after
// the legend.
const legendGap = 0.4 * vg.Centimeter

// legendWidth is the width the legend takes beside the plot, 0 if it has
// no entries.
func (f Figure) legendWidth() vg.Length {
	w := f.Legend.Rectangle(draw.Canvas{}).Size().X
	if w == 0 {
		return 0
	}
	return w + 2*legendGap
}

// size is the size of the whole figure.
func (f Figure) size() (w, h vg.Length) {
	w = f.Width + f.legendWidth()
	if t := f.Plot.Title; t.Text != "" {
		w = max(w, t.TextStyle.Width(t.Text)+2*legendGap)
	}
	return w, f.Height
}

// Draw draws the figure on c: the title across the top, the plot centred
// below it and the legend to the plot's right, level with the top of the
// data area.
//
// The title and the y axis's label are drawn here rather than by gonum:
// the title so that it spans the legend too, and the label so that it is
// centred on the data area. (gonum makes room for the label around the
// middle of the axis's values, which on a log axis lies near the top, and
// leaves an empty band above the data.)
func (f Figure) Draw(c draw.Canvas) {
	p := *f.Plot
	p.Title.Text, p.Y.Label.Text = "", ""
	if p.BackgroundColor != nil {
		c.SetColor(p.BackgroundColor)
		c.Fill(c.Rectangle.Path())
	}
	if t := f.Plot.Title; t.Text != "" {
		c.FillText(t.TextStyle, vg.Point{X: c.Center().X, Y: c.Max.Y + t.TextStyle.FontExtents().Descent}, t.Text)
		c.Max.Y -= t.TextStyle.Rectangle(t.Text).Size().Y + t.Padding
	}
	lw := f.legendWidth()
	margin := (c.Size().X - f.Width - lw) / 2
	pc := draw.Crop(c, margin, -(margin + lw), 0, 0)
	legendX := pc.Max.X + legendGap
	label := f.Plot.Y.Label
	var labelX vg.Length
	if label.Text != "" {
		// Where and how gonum draws it, rotated to read upwards.
		descent := label.TextStyle.FontExtents().Descent
		labelX = pc.Min.X + label.TextStyle.Height(label.Text) - descent
		pc = draw.Crop(pc, label.TextStyle.Height(label.Text)+descent+label.Padding, 0, 0, 0)
	}
	p.Draw(pc)
	data := p.DataCanvas(pc)
	if label.Text != "" {
		sty := label.TextStyle
		sty.Rotation += math.Pi / 2
		c.FillText(sty, vg.Point{X: labelX, Y: data.Center().Y}, label.Text)
	}
	if lw > 0 {
		f.Legend.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: legendX, Y: data.Min.Y},
			Max: vg.Point{X: legendX + lw - 2*legendGap, Y: data.Max.Y},
		}})
	}
}

// WriterTo draws the figure in format ext: svg, png or another that gonum
// draws.
func (f Figure) WriterTo(ext string) (io.WriterTo, error) {
	w, h := f.size()
	c, err := draw.NewFormattedCanvas(w, h, ext)
	if err != nil {
		return nil, err
	}
	f.Draw(draw.New(c))
	return c, nil
}

// Save writes the figure as name.svg and name.png in dir.
func (f Figure) Save(dir, name string) error {
	for _, ext := range []string{"svg", "png"} {
		wt, err := f.WriterTo(ext)
		if err != nil {
			return err
		}
		if err := writeFile(filepath.Join(dir, name+"."+ext), wt); err != nil {
			return err
		}
	}
	return nil
}

const (
	plotWidth  = 16 * vg.Centimeter
	plotHeight = 10 * vg.Centimeter
)

// newPlot starts a plot with its title and axis labels; logY puts the y
// axis on a log scale, ticked at powers of ten labelled as counts.
func newPlot(title, x, y string, logY bool) *plot.Plot {
	p := sansPlot()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = powerTicks{label: powerLabel}
	}
	return p
}

// sansPlot is a new plot whose text is all in Liberation Sans, the
// sans-serif face gonum embeds (its default is the serif one).
func sansPlot() *plot.Plot {
	p := plot.New()
	for _, sty := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
		&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		sans(sty)
	}
	return p
}

// sans sets a text style's face to Liberation Sans.
func sans(sty *text.Style) { sty.Font.Variant = "Sans" }

// powerTicks marks a log axis at each power of ten, labelled by label,
// with unlabelled minor ticks between at 2..9 times each while the axis
// spans no more than six powers.
type powerTicks struct {
	label func(exp int) string
}

// Ticks returns the ticks between min and max.
func (pt powerTicks) Ticks(min, max float64) []plot.Tick {
	if min <= 0 || max <= min {
		return nil
	}
	lo, hi := int(math.Floor(math.Log10(min))), int(math.Ceil(math.Log10(max)))
	var ticks []plot.Tick
	for e := lo; e <= hi; e++ {
		v := math.Pow(10, float64(e))
		if v >= min*(1-1e-9) && v <= max*(1+1e-9) {
			ticks = append(ticks, plot.Tick{Value: v, Label: pt.label(e)})
		}
		if hi-lo > 6 {
			continue
		}
		for k := 2; k <= 9; k++ {
			if m := float64(k) * v; m >= min && m <= max {
				ticks = append(ticks, plot.Tick{Value: m})
			}
		}
	}
	return ticks
}

// powerLabel writes 10^exp as a number: 1, 10, 1,000, 10 million, 0.001,
// 1/100,000 (gonum's fonts have no superscript digits to write 10⁵).
func powerLabel(exp int) string {
	switch {
	case exp >= 0 && exp < 6:
		return report.FormatCount(int64(math.Pow(10, float64(exp))))
	case exp >= 6:
		return report.OneIn(math.Pow(10, float64(-exp)))
	case exp >= -4:
		return strconv.FormatFloat(math.Pow(10, float64(exp)), 'f', -exp, 64)
	}
	return "1/" + powerLabel(-exp)
}

// secondsLabel writes 10^exp seconds: 1 µs, 100 ms, 10 s.
func secondsLabel(exp int) string {
	num, unit, _ := strings.Cut(report.FormatSeconds(math.Pow(10, float64(exp))), " ")
	if strings.Contains(num, ".") {
		num = strings.TrimRight(strings.TrimRight(num, "0"), ".")
	}
	return num + " " + unit
}

// addLine adds series i as a line with marks and a legend entry. A point
// whose Y is not positive is left out, and the line broken there, as a log
// axis has no zero.
func addLine(p *plot.Plot, i int, name string, pts plotter.XYs) error {
	_, logY := p.Y.Scale.(plot.LogScale)
	var runs []plotter.XYs
	var run plotter.XYs
	for _, pt := range pts {
		if pt.Y > 0 || !logY {
			run = append(run, pt)
			continue
		}
		if len(run) > 0 {
			runs = append(runs, run)
		}
		run = nil
	}
	if len(run) > 0 {
		runs = append(runs, run)
	}
	for k, r := range runs {
		line, marks, err := plotter.NewLinePoints(r)
		if err != nil {
			return err
		}
		line.Color, line.Dashes = seriesColour(i), plotutil.Dashes(i)
		line.Width = vg.Points(1.5)
		marks.Color, marks.Shape = seriesColour(i), plotutil.Shape(i)
		p.Add(line, marks)
		if k == 0 {
			p.Legend.Add(name, line, marks)
		}
	}
	return nil
}

// swatch is a legend thumbnail: a square of colour.
type swatch struct{ color color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	side := min(c.Max.X-c.Min.X, c.Max.Y-c.Min.Y)
	x0, y0 := c.Max.X-side, c.Min.Y
	c.FillPolygon(s.color, []vg.Point{{X: x0, Y: y0}, {X: x0, Y: y0 + side}, {X: x0 + side, Y: y0 + side}, {X: x0 + side, Y: y0}})
}

// seriesColours is Okabe and Ito's palette, told apart by readers with
// any common colour blindness, without its yellow (faint on white) and
// with grey for a ninth series; series differ in dashes and marks too.
var seriesColours = []color.Color{
	color.RGBA{0x00, 0x72, 0xb2, 0xff}, // blue
	color.RGBA{0xe6, 0x9f, 0x00, 0xff}, // orange
	color.RGBA{0x00, 0x9e, 0x73, 0xff}, // bluish green
	color.RGBA{0xd5, 0x5e, 0x00, 0xff}, // vermilion
	color.RGBA{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	color.RGBA{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
	color.RGBA{0x99, 0x99, 0x99, 0xff}, // grey
	color.RGBA{0x8c, 0x56, 0x1e, 0xff}, // brown
}

// seriesColour returns the colour of series i.
func seriesColour(i int) color.Color { return seriesColours[i%len(seriesColours)] }

// ramp returns colour i of n on a light-to-dark blue scale.
func ramp(i, n int) color.Color {
	t := 0.0
	if n > 1 {
		t = float64(i) / float64(n-1)
	}
	lerp := func(a, b float64) uint8 { return uint8(math.Round(a + (b-a)*t)) }
	return color.RGBA{R: lerp(0xde, 0x08), G: lerp(0xeb, 0x30), B: lerp(0xf7, 0x6b), A: 0xff}
}
