// Package plan tabulates the plans of package search/cluster: what a
// distributed run will need, layer by layer (Table), and the plans of
// several boards side by side (SideBySide). It is apart from package report
// so that only the commands that plan a Beam run link Beam.
package plan

import (
	"fmt"
	"strconv"

	"github.com/dustin/go-humanize"

	"pegs/report"
	"pegs/search/cluster"
)

// Table returns plan pl as a table: a row a layer, its title the run's
// totals.
func Table(pl *cluster.Plan) *report.Table {
	t := &report.Table{
		Title: fmt.Sprintf("%d partitions a layer; %d workers of %s; %s of partitions on disk; from %d layers run exactly",
			pl.Parts, pl.Workers, humanize.IBytes(uint64(pl.WorkerMem)), humanize.IBytes(uint64(pl.Disk)), pl.Sampled),
		Header: []string{"pegs", "positions", "how", "disk", "shuffle", "step memory", "workers"},
		Counts: []string{"positions", "workers"},
	}
	for _, l := range pl.Layers {
		how := "estimate"
		if l.Exact {
			how = "exact"
		}
		t.Add(strconv.Itoa(l.Pegs), strconv.FormatInt(l.Positions, 10), how, humanize.IBytes(uint64(l.Disk)),
			humanize.IBytes(uint64(l.Shuffle)), humanize.IBytes(uint64(l.Step)), strconv.Itoa(l.Workers))
	}
	return t
}

// SideBySide returns plans side by side, a row a plan, named by names.
func SideBySide(names []string, plans []*cluster.Plan) *report.Table {
	t := &report.Table{
		Header: []string{"board", "layers run", "positions", "widest layer", "disk", "shuffle", "partitions", "workers", "worker memory"},
		Counts: []string{"positions", "widest layer", "workers"},
	}
	for i, pl := range plans {
		positions, widest, shuffle := pl.Totals()
		t.Add(names[i], strconv.Itoa(pl.Sampled), strconv.FormatInt(positions, 10), strconv.FormatInt(widest, 10),
			humanize.IBytes(uint64(pl.Disk)), humanize.IBytes(uint64(shuffle)), strconv.Itoa(pl.Parts), strconv.Itoa(pl.Workers),
			humanize.IBytes(uint64(pl.WorkerMem)))
	}
	return t
}
