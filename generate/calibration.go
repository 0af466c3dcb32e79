package generate

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
)

// Calibration is the grade scale: the score cut points between grades
// 1..5, the 20th, 40th, 60th and 80th percentiles of the scores of a large
// pool of generated levels, and the pool and command that made them. The
// score counts lines, so one scale serves every board (see the package
// doc). It also holds, for each peg count, the foresight needed by the
// pool's levels of that count, which ranks a level of its board and goal
// among the levels of its size (Rank).
type Calibration struct {
	Version int       `json:"version"`
	Note    string    `json:"note,omitempty"`
	Board   string    `json:"board"`
	Goal    string    `json:"goal"`
	Pool    int       `json:"pool"`
	Command string    `json:"command"`
	Cuts    []float64 `json:"cuts"`
	// Foresight maps a peg count to the foresight needed by the pool's
	// levels of that count, sorted.
	Foresight map[int][]float64 `json:"foresight"`
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

// Rank is a level's rank among the levels of its size, board and goal in
// the calibration pool: the share of them that need less foresight.
type Rank struct {
	// Percentile is the whole percentage of the pool's levels of the same
	// board, goal and pegs that need less foresight than the level.
	Percentile int `json:"percentile"`
	// Of counts those levels of the pool.
	Of int `json:"of"`
	// Words says it for a person: "harder than 85% of 12-peg levels".
	Words string `json:"words"`
}

// RankOf ranks a level of pegs pegs on board toward goal (names as a
// Level holds them) that needs foresight f among the calibration pool's
// levels of its size; ok is false where the pool has none of that board,
// goal and size.
func RankOf(board, goal string, pegs int, f float64) (r Rank, ok bool) {
	c := scale()
	pool := c.Foresight[pegs]
	if board != c.Board || goal != c.Goal || len(pool) == 0 {
		return Rank{}, false
	}
	below, _ := slices.BinarySearch(pool, f) // pool levels with less foresight
	pct := 100 * below / len(pool)
	return Rank{Percentile: pct, Of: len(pool), Words: fmt.Sprintf("harder than %d%% of %d-peg levels", pct, pegs)}, true
}

// Scale returns the grade scale, as calibration.json holds it.
func Scale() Calibration {
	c := scale()
	c.Cuts = slices.Clone(c.Cuts)
	c.Foresight = maps.Clone(c.Foresight)
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
const calibrationNote = "The grade scale: cut points between grades 1..5, the 20/40/60/80th percentiles of the difficulty scores of the generated pool below; " +
	"and for each peg count the foresight needed by the pool's levels of that count, which rank a level among the levels of its size. " +
	"Scores count the lines a player weighs, whatever the board, so this one scale grades levels on every board. " +
	"Rebuild it with the command shown and replace this file with its output."

// Calibrate returns the grade scale that a pool of levels makes, noting
// the command that generated the pool.
func Calibrate(pool []Level, command string) Calibration {
	c := Calibration{Version: 4, Note: calibrationNote, Pool: len(pool), Command: command, Cuts: Cutoffs(pool), Foresight: map[int][]float64{}}
	if len(pool) > 0 {
		c.Board, c.Goal = pool[0].Board, pool[0].Goal
	}
	for _, l := range pool {
		c.Foresight[l.Pegs] = append(c.Foresight[l.Pegs], l.Metrics.ForesightNeeded)
	}
	for _, f := range c.Foresight {
		slices.Sort(f)
	}
	return c
}
