package generate

import (
	_ "embed"
	"encoding/json"
	"slices"
)

// Calibration holds, per board, the score cut points between grades 1..5:
// the 20th, 40th, 60th and 80th percentiles of the scores of a large
// generated pool, and the command that made them.
type Calibration struct {
	Version int                     `json:"version"`
	Boards  map[string]BoardCutoffs `json:"boards"`
}

// BoardCutoffs are one board's grade boundaries.
type BoardCutoffs struct {
	Goal    string    `json:"goal"`
	Pool    int       `json:"pool"`
	Command string    `json:"command"`
	Cuts    []float64 `json:"cuts"`
}

//go:embed calibration.json
var calibrationJSON []byte

var calibration = func() Calibration {
	var c Calibration
	if err := json.Unmarshal(calibrationJSON, &c); err != nil {
		panic("generate: bad calibration.json: " + err.Error())
	}
	return c
}()

// GradeOf returns the grade 1..5 of a score on a board, or 0 when the board
// has no calibration.
func GradeOf(board string, score float64) int {
	c, ok := calibration.Boards[board]
	if !ok || len(c.Cuts) != 4 {
		return 0
	}
	g := 1
	for _, cut := range c.Cuts {
		if score > cut {
			g++
		}
	}
	return g
}

// Cutoffs computes grade boundaries from a pool's scores.
func Cutoffs(pool []Level) []float64 {
	s := make([]float64, len(pool))
	for i, l := range pool {
		s[i] = l.Score
	}
	slices.Sort(s)
	cuts := make([]float64, 4)
	for i := range cuts {
		cuts[i] = s[(i+1)*len(s)/5]
	}
	return cuts
}
