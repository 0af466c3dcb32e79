package build

import (
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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
// axis on a log scale.
func newPlot(title, x, y string, logY bool) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	return p
}

// addLine adds series i as a line with marks and a legend entry.
func addLine(p *plot.Plot, i int, name string, pts plotter.XYs) error {
	line, marks, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	line.Color, line.Dashes = seriesColour(i), plotutil.Dashes(i)
	marks.Color, marks.Shape = seriesColour(i), plotutil.Shape(i)
	p.Add(line, marks)
	p.Legend.Add(name, line, marks)
	return nil
}

// swatch is a legend thumbnail: a square of colour.
type swatch struct{ color color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	side := min(c.Max.X-c.Min.X, c.Max.Y-c.Min.Y)
	x0, y0 := c.Max.X-side, c.Min.Y
	c.FillPolygon(s.color, []vg.Point{{X: x0, Y: y0}, {X: x0, Y: y0 + side}, {X: x0 + side, Y: y0 + side}, {X: x0 + side, Y: y0}})
}

// seriesColours extends gonum's default palette (seven colours) for
// figures with more series, such as the nine solver strategies: grey and
// teal, hues the palette lacks, then its dark shades.
var seriesColours = slices.Concat(plotutil.SoftColors,
	[]color.Color{color.RGBA{R: 0x80, G: 0x80, B: 0x80, A: 0xff}, color.RGBA{R: 0x00, G: 0x80, B: 0x80, A: 0xff}},
	plotutil.DarkColors)

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
