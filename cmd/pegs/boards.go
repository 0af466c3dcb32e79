package main

import (
	"context"
	"io"

	"pegs/cmd/internal/cli"

	"pegs/report"
)

func runBoards(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs", "boards", "[--format text|markdown|csv|json]", stderr)
	format := fs.String("format", "text", "output format: text, markdown, csv or json")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	f, err := cli.ParseFormat(*format)
	if err != nil {
		return err
	}
	t, err := report.BoardsTable()
	if err != nil {
		return err
	}
	return t.Write(stdout, f)
}
