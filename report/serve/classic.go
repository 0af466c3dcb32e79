package serve

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"

	"pegs/engine"
	"pegs/generate"
	"pegs/search"
)

// classicJSON is the seven classic levels graded as pegs grade grades
// them, each with a solution of the fewest moves, and soloJSON the Play
// Solo level (the English board less its centre, to one peg anywhere)
// with one: made once, at build time, so that the server answers them
// from memory (Full's grade and Solo's fewest moves take seconds each).
// TestClassicData checks that they are current; -update-classic writes
// them again.
//
//go:generate go test -run TestClassicData -update-classic .
var (
	//go:embed classic.json
	classicJSON []byte
	//go:embed solo.json
	soloJSON []byte
)

// packFile is a level pack as the server reads it: as pegs generate
// writes it (report.LevelsJSON, each level with its fewest moves), with
// the play page's mode. classic.json and solo.json have this shape.
type packFile struct {
	Board  string           `json:"board"`
	Goal   string           `json:"goal"`
	Seed   uint64           `json:"seed,omitempty"`
	Mode   string           `json:"mode,omitempty"`
	Levels []generate.Level `json:"levels"`
}

// ClassicPack returns the seven classic levels of the English board,
// toward the centre, in their traditional order (see
// engine.ClassicLevels), graded, each with a solution of the fewest
// moves.
func ClassicPack() (Pack, error) {
	var file packFile
	if err := json.Unmarshal(classicJSON, &file); err != nil {
		return Pack{}, fmt.Errorf("classic.json: %w", err)
	}
	b := engine.English()
	goal, err := b.ParseGoal(file.Goal)
	if err != nil {
		return Pack{}, fmt.Errorf("classic.json: %w", err)
	}
	levels := engine.ClassicLevels()
	if len(file.Levels) != len(levels) {
		return Pack{}, fmt.Errorf("classic.json has %d levels, not %d: run go generate", len(file.Levels), len(levels))
	}
	pack := Pack{ID: "classic", Name: "classic", Mode: "selminha", Board: b, Goal: goal}
	for i, l := range levels {
		cl := file.Levels[i]
		if cl.Picture != b.Line(l.Position) || cl.Name != l.Name {
			return Pack{}, fmt.Errorf("classic.json: level %d is %s %s, not %s %s: run go generate", i+1, cl.Name, cl.Picture, l.Name, b.Line(l.Position))
		}
		sol, err := movesSolution(b, l.Position, goal, cl.Moves)
		if err != nil {
			return Pack{}, fmt.Errorf("classic.json: level %s: %w", l.Name, err)
		}
		pack.Levels = append(pack.Levels, Level{Name: l.Name, Start: l.Position, Info: cl, Graded: true, Fewest: &sol})
	}
	return pack, nil
}

// SoloPack returns the Play Solo level: the English board less its
// centre, to one peg anywhere, not graded, with a solution of the fewest
// moves.
func SoloPack() (Pack, error) {
	var file packFile
	if err := json.Unmarshal(soloJSON, &file); err != nil {
		return Pack{}, fmt.Errorf("solo.json: %w", err)
	}
	b := engine.English()
	any := engine.Goal{Kind: engine.OnePeg}
	if len(file.Levels) != 1 || file.Levels[0].Picture != b.Line(b.Start()) || file.Goal != b.FormatGoal(any) {
		return Pack{}, errors.New("solo.json is not the English board less its centre to one peg anywhere: run go generate")
	}
	l := plainLevel(b, any, "solo", b.Start())
	sol, err := movesSolution(b, l.Start, any, file.Levels[0].Moves)
	if err != nil {
		return Pack{}, fmt.Errorf("solo.json: %w", err)
	}
	l.Info.Moves, l.Info.Par, l.Fewest = file.Levels[0].Moves, file.Levels[0].Par, &sol
	return Pack{ID: "solo", Name: "solo", Mode: "solo", Board: b, Goal: any, Levels: []Level{l}}, nil
}

// movesSolution replays moves from start: a solution toward goal, or an
// error.
func movesSolution(b *engine.Board, start engine.Position, goal engine.Goal, moves []string) (search.Solution, error) {
	var jumps []engine.Jump
	for _, m := range moves {
		js, err := b.ParseMoves(m)
		if err != nil {
			return search.Solution{}, err
		}
		jumps = append(jumps, js...)
	}
	final, err := b.Replay(start, jumps)
	if err != nil {
		return search.Solution{}, err
	}
	if !goal.Reached(final) {
		return search.Solution{}, fmt.Errorf("the moves end in %s, which does not meet goal %s", b.Line(final), b.FormatGoal(goal))
	}
	return search.Solution{Solvable: true, Jumps: jumps, Final: final, Layered: true}, nil
}

// BuiltinPacks returns the packs every server offers, one for each game
// of the play page: the classic seven (selminha), the English board less
// its centre to one peg anywhere (solo), and the 15-hole triangle less
// any one hole to one peg anywhere (tricky, played as the triangle game).
// The last two are not graded.
func BuiltinPacks() ([]Pack, error) {
	classic, err := ClassicPack()
	if err != nil {
		return nil, err
	}
	solo, err := SoloPack()
	if err != nil {
		return nil, err
	}
	any := engine.Goal{Kind: engine.OnePeg}
	tri, err := engine.Lookup("triangle")
	if err != nil {
		return nil, err
	}
	tricky := Pack{ID: "tricky", Name: "tricky triangle", Mode: "triangle", Board: tri, Goal: any}
	for h := range tri.Holes() {
		tricky.Levels = append(tricky.Levels, plainLevel(tri, any, "hole "+tri.Label(h), tri.Full()&^(1<<uint(h))))
	}
	return []Pack{classic, solo, tricky}, nil
}

// plainLevel returns a level not graded.
func plainLevel(b *engine.Board, goal engine.Goal, name string, start engine.Position) Level {
	return Level{Name: name, Start: start, Info: generate.Level{Board: b.Name(), Goal: b.FormatGoal(goal),
		Picture: b.Line(start), Pegs: start.Pegs(), Symmetries: b.Symmetry().Stabilizer(start).Len()}}
}
