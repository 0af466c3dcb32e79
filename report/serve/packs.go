package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"pegs/engine"
	"pegs/generate"
	"pegs/search"
)

// Pack is a pack of levels the server offers: the classic seven
// (ClassicPack), or a pack pegs generate wrote (LoadPack).
type Pack struct {
	// ID names the pack in level ids: lower-case letters, digits and
	// dashes.
	ID   string
	Name string
	// Mode is the game the play page plays the pack as: selminha, solo,
	// triangle, or "" for plain play (see the package documentation).
	Mode   string
	Board  *engine.Board
	Goal   engine.Goal
	Seed   uint64
	Levels []Level
}

// Level is one level of a pack.
type Level struct {
	Name  string
	Start engine.Position
	// Info is the level as pegs generate writes it; Graded reports
	// whether its measures are filled in.
	Info   generate.Level
	Graded bool
	// Fewest is a solution of the fewest moves, if one is known (the
	// classic levels'); the server finds the others' once, when first
	// asked.
	Fewest *search.Solution
}

// MaxPackBytes is the most LoadPack reads of a pack file, as pegs reads
// a levels file.
const MaxPackBytes = 64 << 20

// LoadPack reads a level pack as pegs generate writes it (--format json),
// with two fields more where given: the pack's mode, and each level's
// moves, a solution of the fewest moves (replayed here; the server finds
// the others' itself).
// Its board is a built-in one, or a board file (see engine.Parse) of
// geometry geom named as pegs generate was given it: found as named, or
// beside the pack. The pack's id is its file name without extension.
func LoadPack(path string, geom engine.Geometry) (Pack, error) {
	f, err := os.Open(path)
	if err != nil {
		return Pack{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxPackBytes+1))
	if err != nil {
		return Pack{}, err
	}
	if len(data) > MaxPackBytes {
		return Pack{}, fmt.Errorf("%s: larger than %d MiB, more than a level pack", path, MaxPackBytes>>20)
	}
	var file packFile
	if err := json.Unmarshal(data, &file); err != nil {
		return Pack{}, fmt.Errorf("%s: not a level pack of pegs generate: %w", path, err)
	}
	b, err := packBoard(path, file.Board, geom)
	if err != nil {
		return Pack{}, fmt.Errorf("%s: %w", path, err)
	}
	goal, err := b.ParseGoal(file.Goal)
	if err != nil || goal.Kind == engine.FewestPegs {
		return Pack{}, fmt.Errorf("%s: goal %q: want a one-peg goal of board %s", path, file.Goal, b.Name())
	}
	if !slices.Contains(Modes, file.Mode) {
		return Pack{}, fmt.Errorf("%s: mode %q: want one of %s, or none", path, file.Mode, strings.Join(Modes[1:], ", "))
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	pack := Pack{ID: slug(name), Name: name, Mode: file.Mode, Board: b, Goal: goal, Seed: file.Seed}
	if len(file.Levels) == 0 {
		return Pack{}, fmt.Errorf("%s: the pack has no levels", path)
	}
	for i, l := range file.Levels {
		p, err := b.ParsePosition(l.Picture)
		if err == nil && p == 0 {
			err = errors.New("no pegs")
		}
		if err == nil && (l.Board != file.Board || l.Goal != file.Goal) {
			err = fmt.Errorf("board %s and goal %s, not the pack's %s and %s", l.Board, l.Goal, file.Board, file.Goal)
		}
		lvl := Level{Name: strconv.Itoa(i + 1), Start: p, Info: l, Graded: true}
		if err == nil && len(l.Moves) > 0 && len(l.Moves) != l.Par {
			err = fmt.Errorf("moves: %d moves, not the level's par %d", len(l.Moves), l.Par)
		}
		if err == nil && len(l.Moves) > 0 {
			var sol search.Solution
			sol, err = movesSolution(b, p, goal, l.Moves)
			lvl.Fewest = &sol
		}
		if err != nil {
			return Pack{}, fmt.Errorf("%s: level %d: %w", path, i+1, err)
		}
		pack.Levels = append(pack.Levels, lvl)
	}
	return pack, nil
}

// Modes are the games of the play page: plain play (""), and the three
// the package documentation describes.
var Modes = []string{"", "selminha", "solo", "triangle"}

// packBoard returns a pack's board: built-in, or a board file named as
// given or beside the pack.
func packBoard(path, name string, geom engine.Geometry) (*engine.Board, error) {
	b, err := engine.Lookup(name)
	if err == nil || !errors.Is(err, engine.ErrUnknownBoard) || strings.HasPrefix(name, "triangle:") {
		return b, err
	}
	text, err := os.ReadFile(name)
	if errors.Is(err, os.ErrNotExist) && !filepath.IsAbs(name) {
		text, err = os.ReadFile(filepath.Join(filepath.Dir(path), name))
	}
	if err != nil {
		return nil, fmt.Errorf("board %q is neither built in nor a board file: %w", name, err)
	}
	b, err = engine.Parse(name, string(text), geom)
	if err != nil {
		return nil, fmt.Errorf("board %s: %w", name, err)
	}
	return b, nil
}

// slug returns s in lower case with every run of characters other than
// letters and digits turned into one dash: a pack's id.
func slug(s string) string {
	var sb strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && sb.Len() > 0 {
				sb.WriteByte('-')
			}
			sb.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	if sb.Len() == 0 {
		return "pack"
	}
	return sb.String()
}

// levelID returns the id of level i (from 0) of the pack with id pack.
func levelID(pack string, i int) string { return pack + "-" + strconv.Itoa(i+1) }
