package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"pegs/engine"
)

// BoardsTable lists the built-in boards: their holes, jumps, symmetries,
// position classes and centre.
func BoardsTable() (*Table, error) {
	t := &Table{Header: []string{"name", "description", "holes", "jumps", "symmetries", "classes", "centre"},
		Counts: []string{"holes", "jumps", "symmetries", "classes"}}
	for _, info := range engine.Boards() {
		b, err := engine.Lookup(info.Name)
		if err != nil {
			return nil, err
		}
		centre := "-"
		if c, ok := b.Centre(); ok {
			centre = b.Label(c)
		}
		t.Add(b.Name(), info.Description, strconv.Itoa(b.Holes()), strconv.Itoa(len(b.Jumps())),
			strconv.Itoa(b.Symmetry().Len()), strconv.Itoa(b.Classes()), centre)
	}
	return t, nil
}

// WriteBoard describes board b and draws it with its hole labels and with
// position p.
func WriteBoard(w io.Writer, b *engine.Board, p engine.Position) error {
	centre := "none"
	if c, ok := b.Centre(); ok {
		centre = b.Label(c)
	}
	_, err := fmt.Fprintf(w, "board %s: %d holes, %d jumps, %d symmetries, %d position classes, centre %s\n\n%s\n%s\n%d pegs: %s\n",
		b.Name(), b.Holes(), len(b.Jumps()), b.Symmetry().Len(), b.Classes(), centre,
		b.LabelPicture(), b.Picture(p), p.Pegs(), b.Line(p))
	return err
}

// HoleList writes holes by label, separated by spaces.
func HoleList(b *engine.Board, holes []int) string {
	s := make([]string, len(holes))
	for i, h := range holes {
		s[i] = b.Label(h)
	}
	return strings.Join(s, " ")
}
