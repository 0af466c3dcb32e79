package report

import (
	"fmt"
	"io"
	"strconv"

	"pegs/engine"
	"pegs/generate"
)

// LevelsTable tabulates graded levels: their metrics, score and the score's
// parts. names label the rows; when shorter than levels, rows are numbered.
func LevelsTable(levels []generate.Level, names []string) *Table {
	t := &Table{Header: []string{"level", "pegs", "reachable", "win share", "solutions", "games", "P0", "P1", "J1", "critical", "unique first", "par", "score", "grade", "log10 J1", "critical part", "unique part", "solutions part"},
		Counts: []string{"reachable", "solutions", "games"}}
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

// GradesJSON is the JSON output of pegs grade.
type GradesJSON struct {
	Board  string           `json:"board"`
	Goal   string           `json:"goal"`
	Levels []generate.Level `json:"levels"`
}

// WriteGrades writes graded levels toward goal on board b: in JSON
// GradesJSON, otherwise their LevelsTable, rows labelled by names.
func WriteGrades(w io.Writer, f Format, b *engine.Board, goal engine.Goal, levels []generate.Level, names []string) error {
	if f == JSON {
		return encodeJSON(w, GradesJSON{Board: b.Name(), Goal: b.FormatGoal(goal), Levels: levels})
	}
	return LevelsTable(levels, names).Write(w, f)
}

// LevelsJSON is the JSON output of pegs generate: a level pack.
type LevelsJSON struct {
	Board  string           `json:"board"`
	Goal   string           `json:"goal"`
	Levels []generate.Level `json:"levels"`
	Seed   uint64           `json:"seed"`
}

// WriteLevels writes generated levels: in JSON a level pack (LevelsJSON),
// in text each level's measures and picture.
func WriteLevels(w io.Writer, f Format, b *engine.Board, goal engine.Goal, seed uint64, levels []generate.Level) error {
	if f == JSON {
		return encodeJSON(w, LevelsJSON{Board: b.Name(), Goal: b.FormatGoal(goal), Levels: levels, Seed: seed})
	}
	for i, l := range levels {
		if _, err := fmt.Fprintf(w, "level %d: %d pegs, grade %d, score %.3f, par %d\n%s\n", i+1, l.Pegs, l.Grade, l.Score, l.Par, b.Picture(l.Position())); err != nil {
			return err
		}
	}
	return nil
}

// WriteCutoffs writes a board's grade cut points as JSON, an entry for
// generate/calibration.json keyed by the board's name.
func WriteCutoffs(w io.Writer, board string, c generate.BoardCutoffs) error {
	return encodeJSON(w, map[string]generate.BoardCutoffs{board: c})
}
