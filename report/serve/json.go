package serve

import (
	"pegs/engine"
	"pegs/generate"
)

// The server's JSON shapes: numbers are JSON numbers, a value that is
// absent is null, and a thing has the same shape in a list as alone.

// BoardInfoJSON is a board as GET /api/boards lists it: a built-in one
// (as pegs boards describes it) or a loaded pack's, whose description is
// null.
type BoardInfoJSON struct {
	Name        string  `json:"name"`
	Description *string `json:"description"`
	Geometry    string  `json:"geometry"`
	Holes       int     `json:"holes"`
	Jumps       int     `json:"jumps"`
	Symmetries  int     `json:"symmetries"`
	Classes     int     `json:"classes"`
	// Centre is the centre hole's label, null on a board without one.
	Centre *string `json:"centre"`
}

// BoardsJSON is the body of GET /api/boards.
type BoardsJSON struct {
	Boards []BoardInfoJSON `json:"boards"`
}

// BoardJSON is the body of GET /api/boards/{name}: the board as listed,
// and drawn.
type BoardJSON struct {
	BoardInfoJSON
	Layout LayoutJSON `json:"layout"`
}

// LayoutJSON is a board as a client draws and plays it: its holes with
// their labels and places in the plane (see engine.Board.Place), and its
// jumps as indices into the holes.
type LayoutJSON struct {
	Name string `json:"name"`
	// Start is the board's usual start, as a line of 'o' and '.'.
	Start string `json:"start"`
	// Width and Height bound the holes' places.
	Width  float64    `json:"width"`
	Height float64    `json:"height"`
	Holes  []HoleJSON `json:"holes"`
	// Jumps lists each jump as its from, over and to holes.
	Jumps [][3]int `json:"jumps"`
}

// HoleJSON is one hole of a LayoutJSON: its label and its centre, in
// units of the distance between neighbouring holes, y growing downward.
type HoleJSON struct {
	Label string  `json:"label"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
}

// newBoardInfo returns board b as listed, with its description if it is
// built in.
func newBoardInfo(b *engine.Board, desc *string) BoardInfoJSON {
	out := BoardInfoJSON{Name: b.Name(), Description: desc, Geometry: b.Geometry().String(), Holes: b.Holes(),
		Jumps: len(b.Jumps()), Symmetries: b.Symmetry().Len(), Classes: b.Classes()}
	if c, ok := b.Centre(); ok {
		label := b.Label(c)
		out.Centre = &label
	}
	return out
}

// newLayout returns board b drawn.
func newLayout(b *engine.Board) LayoutJSON {
	out := LayoutJSON{Name: b.Name(), Start: b.Line(b.Start()),
		Holes: make([]HoleJSON, b.Holes()), Jumps: make([][3]int, len(b.Jumps()))}
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

// LevelJSON is a level of a pack as pegs serve lists it, alone or in its
// pack: its id and name, and the level as pegs generate writes it. Graded
// reports whether its grade, score, explanation, difficulty, metrics,
// solution and par were measured; where not, they are null.
type LevelJSON struct {
	ID         string               `json:"id"`
	Name       string               `json:"name"`
	Graded     bool                 `json:"graded"`
	Board      string               `json:"board"`
	Goal       string               `json:"goal"`
	Picture    string               `json:"picture"`
	Pegs       int                  `json:"pegs"`
	Symmetries int                  `json:"symmetries"`
	Grade      *int                 `json:"grade"`
	Score      *float64             `json:"score"`
	Explain    *string              `json:"explanation"`
	Difficulty *generate.Difficulty `json:"difficulty"`
	Metrics    *generate.Metrics    `json:"metrics"`
	Solution   []string             `json:"solution"`
	Par        *int                 `json:"par"`
}

// newLevelJSON returns a level in its JSON shape.
func newLevelJSON(id, name string, graded bool, l generate.Level) LevelJSON {
	out := LevelJSON{ID: id, Name: name, Graded: graded, Board: l.Board, Goal: l.Goal, Picture: l.Picture,
		Pegs: l.Pegs, Symmetries: l.Symmetries, Solution: l.Solution}
	if graded {
		out.Grade, out.Score, out.Explain, out.Par = &l.Grade, &l.Score, &l.Explanation, &l.Par
		out.Difficulty, out.Metrics = &l.Difficulty, &l.Metrics
	}
	return out
}

// PackJSON is a level pack as pegs serve lists it: a pack as pegs
// generate writes it, with an id, a name, the game it is played as, and
// each level with its own id.
type PackJSON struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Mode is the game the play page plays it as: selminha, solo,
	// triangle, or null for plain play.
	Mode   *string     `json:"mode"`
	Board  string      `json:"board"`
	Goal   string      `json:"goal"`
	Seed   uint64      `json:"seed"`
	Levels []LevelJSON `json:"levels"`
}

// PacksJSON is the list of the packs pegs serve offers.
type PacksJSON struct {
	Packs []PackJSON `json:"packs"`
}

// PlayJSON is one level as pegs serve gives it to play: the level as
// listed, its pack and the pack's mode, its board drawn, and the goal
// hole's label (null for one peg anywhere).
type PlayJSON struct {
	LevelJSON
	Pack     string     `json:"pack"`
	Mode     *string    `json:"mode"`
	Layout   LayoutJSON `json:"layout"`
	GoalHole *string    `json:"goal_hole"`
}
