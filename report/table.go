package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Format is an output format.
type Format int

// The output formats every command offers.
const (
	Text Format = iota
	Markdown
	CSV
	JSON
)

var formatNames = []string{"text", "markdown", "csv", "json"}

func (f Format) String() string { return formatNames[f] }

// ParseFormat reads text, markdown, csv or json.
func ParseFormat(s string) (Format, error) {
	for i, n := range formatNames {
		if strings.EqualFold(s, n) {
			return Format(i), nil
		}
	}
	return 0, fmt.Errorf("unknown format %q (want text, markdown, csv or json)", s)
}

// Table is a titled table of strings; numbers are formatted by the caller so
// that every format shows the same digits.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	// Counts names the columns of counts. Text, Markdown and HTML show
	// the integer that begins each of their cells, alone or followed by a
	// space and words ("3408 each", "12 MiB"), with its digits grouped in
	// threes (23,475,688), for a reader; CSV and JSON keep every cell as
	// it is, for a program. Other cells of a count column (a note, a
	// blank, a fraction) are shown as they are. Columns are named rather
	// than every integer grouped so that integers that are not counts
	// (hole labels, level names such as a year) are never touched.
	Counts []string
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// Shown returns the rows as text, Markdown and HTML show them: the
// counts of the Counts columns with their digits grouped.
func (t *Table) Shown() [][]string {
	var counts []int
	for j, h := range t.Header {
		if slices.Contains(t.Counts, h) {
			counts = append(counts, j)
		}
	}
	if len(counts) == 0 {
		return t.Rows
	}
	rows := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = slices.Clone(r)
		for _, j := range counts {
			if j < len(r) {
				rows[i][j] = grouped(r[j])
			}
		}
	}
	return rows
}

// grouped returns cell with the digits of the integer, of any size, that
// it begins with, alone or before a space, grouped in threes; any other
// cell ("", "not counted", "0.5", "2ms", "007", "1: 6816 each") it
// returns as it is.
func grouped(cell string) string {
	num, rest, words := strings.Cut(cell, " ")
	n, ok := new(big.Int).SetString(num, 10)
	if !ok || n.String() != num {
		return cell
	}
	if words {
		return humanize.BigComma(n) + " " + rest
	}
	return humanize.BigComma(n)
}

// Write writes the table in format f. Text and Markdown tables are drawn by
// tablewriter, their counts grouped (see Counts); CSV has one header line;
// JSON is an array of objects keyed by the header.
func (t *Table) Write(w io.Writer, f Format) error {
	switch f {
	case CSV:
		cw := csv.NewWriter(w)
		if err := cw.Write(t.Header); err != nil {
			return err
		}
		if err := cw.WriteAll(t.Rows); err != nil {
			return err
		}
		return cw.Error()
	case JSON:
		objs := make([]map[string]string, len(t.Rows))
		for i, r := range t.Rows {
			objs[i] = make(map[string]string, len(r))
			for j, c := range r {
				if j < len(t.Header) {
					objs[i][t.Header[j]] = c
				}
			}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(objs)
	}
	opts := []tablewriter.Option{tablewriter.WithHeaderAutoFormat(tw.Off)}
	if f == Markdown {
		opts = append(opts, tablewriter.WithRenderer(renderer.NewMarkdown()))
		if t.Title != "" {
			fmt.Fprintf(w, "**%s**\n\n", t.Title)
		}
	} else if t.Title != "" {
		fmt.Fprintln(w, t.Title)
	}
	tbl := tablewriter.NewTable(w, opts...)
	tbl.Header(toAny(t.Header)...)
	for _, r := range t.Shown() {
		if err := tbl.Append(toAny(r)...); err != nil {
			return err
		}
	}
	return tbl.Render()
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
