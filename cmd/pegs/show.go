package main

import (
	"context"
	"io"

	"pegs/cmd/internal/cli"

	"pegs/report"
)

func runShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("pegs", "show", "--board B [--start H,...|--position P]", stderr)
	var bf cli.BoardFlags
	var pf cli.PositionFlags
	bf.Register(fs)
	pf.Register(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	b, err := bf.Load()
	if err != nil {
		return err
	}
	p, err := pf.Load(b)
	if err != nil {
		return err
	}
	return report.WriteBoard(stdout, b, p)
}
