package engine

import (
	"errors"
	"fmt"
	"testing"
)

func TestResolveGame(t *testing.T) {
	tests := []struct {
		name  string
		text  GameText
		rules GameRules
		pos   string // the position's line, or the error's field
		err   error
	}{
		{"default", GameText{}, GameRules{}, "oooooooooooooooo.oooooooooooooooo", nil},
		{"start", GameText{Board: "triangle", Start: "1"}, GameRules{}, ".oooooooooooooo", nil},
		{"start picture", GameText{Board: "triangle", Start: ".oooooooooooooo"}, GameRules{}, ".oooooooooooooo", nil},
		{"history", GameText{Board: "triangle", Start: "1", History: "4-1"}, GameRules{History: true}, "o.o.ooooooooooo", nil},
		{"history and position", GameText{Board: "triangle", Start: "1", History: "4-1", Position: "o.o.ooooooooooo"}, GameRules{History: true}, "o.o.ooooooooooo", nil},
		{"history elsewhere", GameText{Board: "triangle", Start: "1", History: "4-1", Position: "ooooooooooooooo"}, GameRules{History: true}, "position", nil},
		{"illegal history", GameText{Board: "triangle", Start: "1", History: "4-1, 4-1"}, GameRules{History: true}, "history", ErrIllegalJump},
		{"history alone", GameText{History: "f4-d4"}, GameRules{History: true}, "history", ErrNoStart},
		{"history in a problem", GameText{Start: "d4", History: "f4-d4"}, GameRules{}, "history", ErrNoHistory},
		{"nothing in play", GameText{}, GameRules{History: true}, "position", ErrNoPosition},
		{"both", GameText{Start: "d4", Position: "o"}, GameRules{}, "start", ErrStartAndPosition},
		{"no pegs", GameText{Board: "triangle:4", Position: ".........."}, GameRules{}, "position", ErrNoPegs},
		{"fewest refused", GameText{Goal: "fewest"}, GameRules{}, "goal", ErrFewest},
		{"fewest", GameText{Goal: "fewest"}, GameRules{Fewest: true}, "oooooooooooooooo.oooooooooooooooo", nil},
		{"unknown board", GameText{Board: "hexagonal"}, GameRules{}, "board", ErrUnknownBoard},
		{"other board", GameText{Board: "mine", Start: "1"}, GameRules{Boards: func(string) (*Board, error) { return Triangle(4) }}, ".ooooooooo", nil},
		{"unknown hole", GameText{Start: "z9"}, GameRules{}, "start", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := ResolveGame(tt.text, tt.rules)
			if fe, ok := errors.AsType[*FieldError](err); ok {
				if fe.Field != tt.pos || tt.err != nil && !errors.Is(err, tt.err) {
					t.Errorf("error %v (field %s), want field %s and %v", err, fe.Field, tt.pos, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v, not a FieldError", err)
			}
			if got := g.Board.Line(g.Position); got != tt.pos {
				t.Errorf("position %s, want %s", got, tt.pos)
			}
		})
	}
}

func TestClassicLevels(t *testing.T) {
	levels := ClassicLevels()
	if len(levels) != 7 || levels[0].Name != "cross" || levels[6].Position != English().Full()&^(1<<16) {
		t.Errorf("ClassicLevels: %d levels, first %q, full %s", len(levels), levels[0].Name, English().Line(levels[6].Position))
	}
}

func ExampleResolveGame() {
	g, err := ResolveGame(GameText{Board: "triangle", Start: "1", History: "4-1, 6-4"}, GameRules{History: true})
	fmt.Println(g.Board.Line(g.Position), len(g.Jumps), err)
	_, err = ResolveGame(GameText{Board: "triangle", Start: "1", History: "1-4"}, GameRules{History: true})
	fmt.Println(err)
	// Output:
	// o.oo..ooooooooo 2 <nil>
	// history: illegal jump: jump 1 (1-4)
}
