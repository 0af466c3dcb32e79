package generate

import (
	_ "embed"
	"encoding/json"
	"slices"
	"sync"
)

// Calibration is the grade scale: the score cut points between grades
// 1..5, the 20th, 40th, 60th and 80th percentiles of the scores of a large
// pool of generated levels, and the pool and command that made them. The
// score counts lines, so one scale serves every board (see the package
// doc).
type Calibration struct {
	Version int       `json:"version"`
	Note    string    `json:"note,omitempty"`
	Board   string    `json:"board"`
	Goal    string    `json:"goal"`
	Pool    int       `json:"pool"`
	Command string    `json:"command"`
	Cuts    []float64 `json:"cuts"`
}

//go:embed calibration.json
var calibrationJSON []byte

// scale returns the grade scale every level is graded on, read from
// calibration.json on first use: every command links it, and reading it at
// start cost each one 0.2 ms.
var scale = sync.OnceValue(func() Calibration {
	var c Calibration
	if err := json.Unmarshal(calibrationJSON, &c); err != nil || len(c.Cuts) != 4 || !slices.IsSorted(c.Cuts) {
		panic("generate: calibration.json does not hold four rising cut points")
	}
	return c
})

// Scale returns the grade scale, as calibration.json holds it.
func Scale() Calibration {
	c := scale()
	c.Cuts = slices.Clone(c.Cuts)
	return c
}

// GradeOf returns the grade 1..5 of a score on the grade scale.
func GradeOf(score float64) int {
	g := 1
	for _, cut := range scale().Cuts {
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

// calibrationNote explains calibration.json to its reader.
const calibrationNote = "The grade scale: cut points between grades 1..5, the 20/40/60/80th percentiles of the difficulty scores of the generated pool below. " +
	"Scores count the lines a player weighs, whatever the board, so this one scale grades levels on every board. " +
	"Rebuild it with the command shown and replace this file with its output."

// Calibrate returns the grade scale that a pool of levels makes, noting
// the command that generated the pool.
func Calibrate(pool []Level, command string) Calibration {
	c := Calibration{Version: 3, Note: calibrationNote, Pool: len(pool), Command: command, Cuts: Cutoffs(pool)}
	if len(pool) > 0 {
		c.Board, c.Goal = pool[0].Board, pool[0].Goal
	}
	return c
}
