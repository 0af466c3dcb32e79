package build

import (
	"image/color"
	"path/filepath"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"pegs/engine"
)

// Picture colours: a wooden board, dark holes and ivory pegs.
var (
	boardColour = color.RGBA{0xd9, 0xb3, 0x82, 0xff}
	holeColour  = color.RGBA{0x5a, 0x3a, 0x1a, 0xff}
	pegColour   = color.RGBA{0xf5, 0xf0, 0xe1, 0xff}
	pegEdge     = color.RGBA{0x33, 0x22, 0x11, 0xff}
)

// pictureUnit is the distance between neighbouring holes in a picture.
const pictureUnit = 0.9 * vg.Centimeter

// drawPosition draws position p on board b, holes as dark dots and pegs as
// ivory discs, the way a game shows a level.
func drawPosition(c draw.Canvas, b *engine.Board, p engine.Position) {
	c.FillPolygon(boardColour, []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}})
	for h := range b.Holes() {
		x, y := b.Place(h)
		pt := vg.Point{X: c.Min.X + vg.Length(x+0.5)*pictureUnit, Y: c.Max.Y - vg.Length(y+0.5)*pictureUnit}
		c.DrawGlyph(draw.GlyphStyle{Color: holeColour, Radius: pictureUnit * 0.12, Shape: draw.CircleGlyph{}}, pt)
		if p.Has(h) {
			c.DrawGlyph(draw.GlyphStyle{Color: pegColour, Radius: pictureUnit * 0.36, Shape: draw.CircleGlyph{}}, pt)
			c.DrawGlyph(draw.GlyphStyle{Color: pegEdge, Radius: pictureUnit * 0.36, Shape: draw.RingGlyph{}}, pt)
		}
	}
}

// pictureSize is the size of a picture of board b.
func pictureSize(b *engine.Board) (w, h vg.Length) {
	var xmax, ymax float64
	for i := range b.Holes() {
		x, y := b.Place(i)
		xmax, ymax = max(xmax, x), max(ymax, y)
	}
	return vg.Length(xmax+1) * pictureUnit, vg.Length(ymax+1) * pictureUnit
}

// SavePicture draws position p on board b as name.svg and name.png in dir:
// a level picture to paste into a game's level list.
func savePicture(dir, name string, b *engine.Board, p engine.Position) error {
	w, h := pictureSize(b)
	sv := vgsvg.New(w, h)
	drawPosition(draw.New(sv), b, p)
	if err := writeFile(filepath.Join(dir, name+".svg"), sv); err != nil {
		return err
	}
	img := vgimg.New(w, h)
	drawPosition(draw.New(img), b, p)
	return writeFile(filepath.Join(dir, name+".png"), vgimg.PngCanvas{Canvas: img})
}
