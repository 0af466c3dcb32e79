package main

import (
	"context"
	"io"
	"strconv"

	"pegs/engine"
	"pegs/report"
)

func runBoards(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("boards", "[--format text|markdown|csv|json]", stderr)
	format := fs.String("format", "text", "output format: text, markdown, csv or json")
	if err := parse(fs, args); err != nil {
		return err
	}
	f, err := parseFormat(*format)
	if err != nil {
		return err
	}
	t := report.Table{Header: []string{"name", "description", "holes", "jumps", "symmetries", "classes", "centre"}}
	for _, info := range engine.Boards() {
		b, err := engine.Lookup(info.Name)
		if err != nil {
			return err
		}
		centre := "-"
		if c, ok := b.Centre(); ok {
			centre = b.Label(c)
		}
		t.Add(b.Name(), info.Description, strconv.Itoa(b.Holes()), strconv.Itoa(len(b.Jumps())),
			strconv.Itoa(b.Symmetry().Len()), strconv.Itoa(b.Classes()), centre)
	}
	return t.Write(stdout, f)
}
