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

// Table is a titled table of strings: each cell in its stored form,
// plain and in base units, formatted for a reader by its column's Kind.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	// Counts names the columns of counts (Kind Count): text, Markdown and
	// HTML show the integer that begins each of their cells, alone or
	// followed by a space and words ("3408 each"), with its digits grouped
	// in threes (23,475,688), for a reader; CSV and JSON keep it plain, for
	// a program. Columns are named rather than every integer grouped so
	// that integers that are not counts (hole labels, level names such as
	// a year) are never touched.
	Counts []string
	// Kinds gives the kind of the other columns that are not Labels.
	Kinds map[string]Kind
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// Kind returns the kind of the column headed h.
func (t *Table) Kind(h string) Kind {
	if k, ok := t.Kinds[h]; ok {
		return k
	}
	if slices.Contains(t.Counts, h) {
		return Count
	}
	return Label
}

// Shown returns the rows as text, Markdown and HTML show them: each cell
// formatted by its column's kind.
func (t *Table) Shown() [][]string {
	kinds := make([]Kind, len(t.Header))
	plain := true
	for j, h := range t.Header {
		kinds[j] = t.Kind(h)
		plain = plain && kinds[j] == Label
	}
	if plain {
		return t.Rows
	}
	rows := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = slices.Clone(r)
		for j, c := range r {
			if j < len(kinds) {
				rows[i][j] = kinds[j].Show(c)
			}
		}
	}
	return rows
}

// Numeric reports, for each column, whether it holds numbers rather than
// labels, for a page to align them to the right.
func (t *Table) Numeric() []bool {
	out := make([]bool, len(t.Header))
	for j, h := range t.Header {
		out[j] = t.Kind(h) != Label
	}
	return out
}

// StoredHeader returns the header as CSV and JSON name the columns: with
// the unit of their stored values, if any ("median (s)").
func (t *Table) StoredHeader() []string {
	out := make([]string, len(t.Header))
	for j, h := range t.Header {
		out[j] = h
		if u := t.Kind(h).unit(); u != "" {
			out[j] += " (" + u + ")"
		}
	}
	return out
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
// tablewriter, each cell shown by its column's Kind; CSV has one header
// line, StoredHeader, and the stored cells; JSON is an array of objects
// keyed by StoredHeader, each cell a number, boolean or null where its
// kind says so and it parses as one.
func (t *Table) Write(w io.Writer, f Format) error {
	switch f {
	case CSV:
		cw := csv.NewWriter(w)
		if err := cw.Write(t.StoredHeader()); err != nil {
			return err
		}
		if err := cw.WriteAll(t.Rows); err != nil {
			return err
		}
		return cw.Error()
	case JSON:
		header := t.StoredHeader()
		objs := make([]map[string]any, len(t.Rows))
		for i, r := range t.Rows {
			objs[i] = make(map[string]any, len(r))
			for j, c := range r {
				if j < len(header) {
					objs[i][header[j]] = t.Kind(t.Header[j]).json(c)
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
