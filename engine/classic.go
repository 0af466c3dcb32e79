package engine

// classicLevels are the seven classic levels of the English board, in
// the order the Selminha game lists them, easiest first (pictures from
// the project's published figures, "The seven classic English-board
// levels").
var classicLevels = []struct{ name, picture string }{
	{"cross", "....o...ooo.....o......o........."},
	{"plus", "....o....o....ooooo....o....o...."},
	{"fireplace", "oooooo..ooo....o.o..............."},
	{"pyramid", "....o...ooo...ooooo.ooooooo......"},
	{"arrow", ".o.ooo.ooooo....o......o...oooooo"},
	{"diamond", ".o.ooo.ooooo.ooo.ooo.ooooo.ooo.o."},
	{"full", "oooooooooooooooo.oooooooooooooooo"},
}

// ClassicLevels returns the seven classic levels of the English board,
// each played to one peg in the centre, in their traditional order,
// easiest first: cross, plus, fireplace, pyramid, arrow, diamond and
// full. They live here, beside the board, because every layer plays
// them: the benchmarks, the grader's checks and the level server.
func ClassicLevels() []NamedPosition {
	b := English()
	out := make([]NamedPosition, len(classicLevels))
	for i, l := range classicLevels {
		p, err := b.ParsePosition(l.picture)
		if err != nil {
			panic(err) // fixed at build time; TestClassicLevels reads them
		}
		out[i] = NamedPosition{Name: l.name, Position: p}
	}
	return out
}
