package report

import (
	"fmt"
	"io"
	"strconv"

	"pegs/engine"
	"pegs/generate"
)

// LevelsTable tabulates graded levels: their metrics, the foresight they
// need, score, grade and what the grade means. Rows are labelled by the
// levels' names, or numbered.
func LevelsTable(levels []generate.Level) *Table {
	t := &Table{Header: []string{"level", "pegs", "reachable", "win share", "solutions", "games", "P0", "P1", "J1", "critical", "unique first",
		"groups", "symmetry", "compactness", "par", "branching", "foresight needed", "length part", "foresight part", "score", "grade", "rank", "explanation"},
		Counts: []string{"pegs", "reachable", "solutions", "games", "critical", "groups", "par"},
		Kinds: map[string]Kind{"win share": Probability, "P0": Probability, "P1": Probability, "J1": Number, "unique first": Flag,
			"compactness": Number, "branching": Number, "foresight needed": Number, "length part": Number, "foresight part": Number,
			"score": Number, "grade": Count}}
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for i, l := range levels {
		name := l.Name
		if name == "" {
			name = strconv.Itoa(i + 1)
		}
		if l.Failure != "" {
			row := make([]string, len(t.Header))
			row[0], row[1], row[len(row)-1] = name, strconv.Itoa(l.Pegs), "cannot grade: "+l.Failure
			t.Add(row...)
			continue
		}
		m, d := l.Metrics, l.Difficulty
		rank := ""
		if l.Rank != nil {
			rank = l.Rank.Words
		}
		t.Add(name, strconv.Itoa(l.Pegs), strconv.FormatInt(m.Reachable, 10), g(m.WinShare), m.Solutions, m.Games,
			g(m.P0), g(m.P1), g(m.J1), strconv.Itoa(m.Critical), strconv.FormatBool(m.UniqueFirst),
			strconv.Itoa(m.Groups), m.Symmetry, g(m.Compactness), strconv.Itoa(l.Par),
			g(m.Branching), g(m.ForesightNeeded), g(d.LengthPart), g(d.ForesightPart), g(d.Score), strconv.Itoa(l.Grade), rank, l.Explanation)
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
// GradesJSON, otherwise their LevelsTable.
func WriteGrades(w io.Writer, f Format, b *engine.Board, goal engine.Goal, levels []generate.Level) error {
	if f == JSON {
		return encodeJSON(w, GradesJSON{Board: b.Name(), Goal: b.FormatGoal(goal), Levels: levels})
	}
	return LevelsTable(levels).Write(w, f)
}

// LevelsJSON is the JSON output of pegs generate: a level pack.
type LevelsJSON struct {
	Board  string           `json:"board"`
	Goal   string           `json:"goal"`
	Levels []generate.Level `json:"levels"`
	Seed   uint64           `json:"seed"`
}

// WriteLevels writes generated levels: in JSON a level pack (LevelsJSON),
// in text each level's measures, its design properties and rank, what its
// grade means and its picture.
func WriteLevels(w io.Writer, f Format, b *engine.Board, goal engine.Goal, seed uint64, levels []generate.Level) error {
	if f == JSON {
		return encodeJSON(w, LevelsJSON{Board: b.Name(), Goal: b.FormatGoal(goal), Levels: levels, Seed: seed})
	}
	for i, l := range levels {
		m := l.Metrics
		groups := "one group"
		if m.Groups != 1 {
			groups = fmt.Sprintf("%d groups", m.Groups)
		}
		rank := ""
		if l.Rank != nil {
			rank = "; " + l.Rank.Words
		}
		if _, err := fmt.Fprintf(w, "level %d: %d pegs, grade %d, score %.3f, par %d\n%s, symmetry %s, compactness %.2f%s\n%s\n%s\n",
			i+1, l.Pegs, l.Grade, l.Score, l.Par, groups, m.Symmetry, m.Compactness, rank, l.Explanation, b.Picture(l.Position())); err != nil {
			return err
		}
	}
	return nil
}

// WriteCalibration writes a grade scale as JSON, a generate/calibration.json.
func WriteCalibration(w io.Writer, c generate.Calibration) error {
	return encodeJSON(w, c)
}
