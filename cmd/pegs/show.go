package main

import (
	"context"
	"io"

	"pegs/report"
)

func runShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("show", "--board B [--start H,...|--position P]", stderr)
	var bf boardFlags
	var pf positionFlags
	bf.register(fs)
	pf.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	b, err := bf.load()
	if err != nil {
		return err
	}
	p, err := pf.load(b)
	if err != nil {
		return err
	}
	return report.WriteBoard(stdout, b, p)
}
