package main

import (
	"context"
	"fmt"
	"io"
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
	centre := "none"
	if c, ok := b.Centre(); ok {
		centre = b.Label(c)
	}
	_, err = fmt.Fprintf(stdout, "board %s: %d holes, %d jumps, %d symmetries, %d position classes, centre %s\n\n%s\n%s\n%d pegs: %s\n",
		b.Name(), b.Holes(), len(b.Jumps()), b.Symmetry().Len(), b.Classes(), centre,
		b.LabelPicture(), b.Picture(p), p.Pegs(), b.Line(p))
	return err
}
