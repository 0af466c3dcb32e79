package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"

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
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// Write writes the table in format f. Text and Markdown tables are drawn by
// tablewriter; CSV has one header line; JSON is an array of objects keyed by
// the header.
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
	for _, r := range t.Rows {
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
