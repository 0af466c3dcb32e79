package serve

import (
	"pegs/engine"
	"pegs/generate"
)

// BoardJSON is a board as a client draws and plays it: its holes with
// their labels and places in the plane (see engine.Board.Place), and its
// jumps as indices into the holes.
type BoardJSON struct {
	Name     string `json:"name"`
	Geometry string `json:"geometry"`
	// Centre is the centre hole's label, null on a board without one.
	Centre *string `json:"centre"`
	// Start is the board's usual start, as a line of 'o' and '.'.
	Start string `json:"start"`
	// Width and Height bound the holes' places.
	Width  float64    `json:"width"`
	Height float64    `json:"height"`
	Holes  []HoleJSON `json:"holes"`
	// Jumps lists each jump as its from, over and to holes.
	Jumps [][3]int `json:"jumps"`
}

// HoleJSON is one hole of a BoardJSON: its label and its centre, in units
// of the distance between neighbouring holes, y growing downward.
type HoleJSON struct {
	Label string  `json:"label"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
}

// NewBoardJSON returns board b in its JSON shape.
func NewBoardJSON(b *engine.Board) BoardJSON {
	out := BoardJSON{Name: b.Name(), Geometry: b.Geometry().String(), Start: b.Line(b.Start()),
		Holes: make([]HoleJSON, b.Holes()), Jumps: make([][3]int, len(b.Jumps()))}
	if c, ok := b.Centre(); ok {
		label := b.Label(c)
		out.Centre = &label
	}
	for h := range b.Holes() {
		x, y := b.Place(h)
		out.Holes[h] = HoleJSON{Label: b.Label(h), X: x, Y: y}
		out.Width, out.Height = max(out.Width, x), max(out.Height, y)
	}
	for i, j := range b.Jumps() {
		out.Jumps[i] = [3]int{j.From, j.Over, j.To}
	}
	return out
}

// LevelJSON is a level of a pack as pegs serve lists it: a level as pegs
// generate writes it, with an id and a name. Graded reports whether its
// grade, score, difficulty, metrics and solution were measured: the
// classic levels are listed without them (pegs grade measures them).
type LevelJSON struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Graded bool   `json:"graded"`
	generate.Level
}

// PackJSON is a level pack as pegs serve lists it: a pack as pegs
// generate writes it (LevelsJSON), with an id and a name, and each level
// with its own.
type PackJSON struct {
	ID     string      `json:"id"`
	Name   string      `json:"name"`
	Board  string      `json:"board"`
	Goal   string      `json:"goal"`
	Seed   uint64      `json:"seed"`
	Levels []LevelJSON `json:"levels"`
}

// PacksJSON is the list of the packs pegs serve offers.
type PacksJSON struct {
	Packs []PackJSON `json:"packs"`
}

// PlayJSON is one level as pegs serve gives it to play: the level, its
// pack, its board drawn, and the goal hole's label (null for one peg
// anywhere).
type PlayJSON struct {
	LevelJSON
	Pack     string    `json:"pack"`
	Layout   BoardJSON `json:"layout"`
	GoalHole *string   `json:"goal_hole"`
}
