package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"unicode"

	"pegs/search/atomicfile"
)

// Document is a report: sections of text, tables and figures, written as
// Markdown (index.md) and as standalone HTML (index.html) with the figures
// beside them and every table also as CSV and JSON.
type Document struct {
	Title string
	Intro string
	// Status, if set, says the report is incomplete and why.
	Status   string
	Sections []Section
}

// Section is one numbered part of a report.
type Section struct {
	Title string
	Text  string
	Items []Item
}

// Item is one table, figure, gallery or block of text, with a sentence
// saying what it shows.
type Item struct {
	Caption string
	// Table, if set, is shown and also written as data/Name.csv and
	// data/Name.json.
	Table *Table
	Name  string
	// DataOnly writes the table to data/ and links it, without showing it.
	DataOnly bool
	// Figure, if set, names an image in figures/ without its extension
	// (both .svg and .png exist).
	Figure string
	// Gallery lists level pictures in figures/, without extension.
	Gallery []Picture
}

// Picture is a level picture and its caption.
type Picture struct {
	File, Caption string
}

// WriteData writes each table of the section as CSV and JSON under dir.
func (s Section) WriteData(dir string) error {
	for _, it := range s.Items {
		if it.Table == nil || it.Name == "" {
			continue
		}
		for _, f := range []Format{CSV, JSON} {
			var buf bytes.Buffer
			if err := it.Table.Write(&buf, f); err != nil {
				return err
			}
			if err := writeFile(filepath.Join(dir, it.Name+"."+f.String()), &buf); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteMarkdown writes the document as Markdown.
func (d *Document) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", d.Title, d.Intro)
	if d.Status != "" {
		fmt.Fprintf(&b, "**%s**\n\n", d.Status)
	}
	if len(d.Sections) > 0 {
		b.WriteString("**Contents**\n\n")
		for i, s := range d.Sections {
			fmt.Fprintf(&b, "%d. [%s](#%s)\n", i+1, s.Title, anchor(i+1, s.Title))
		}
		b.WriteString("\n")
	}
	for i, s := range d.Sections {
		fmt.Fprintf(&b, "## %d. %s\n\n%s\n\n", i+1, s.Title, s.Text)
		for _, it := range s.Items {
			fmt.Fprintf(&b, "%s\n\n", it.Caption)
			if it.Table != nil {
				if !it.DataOnly {
					if err := it.Table.Write(&b, Markdown); err != nil {
						return err
					}
				}
				if it.Name != "" {
					fmt.Fprintf(&b, "\nData: [CSV](data/%s.csv), [JSON](data/%s.json)\n", it.Name, it.Name)
				}
				b.WriteString("\n")
			}
			if it.Figure != "" {
				fmt.Fprintf(&b, "![%s](figures/%s.svg)\n\n", alt(it.Caption), it.Figure)
			}
			if len(it.Gallery) > 0 {
				for _, p := range it.Gallery {
					fmt.Fprintf(&b, "![%s](figures/%s.png) ", alt(p.Caption), p.File)
				}
				b.WriteString("\n\n")
				var caps []string
				for _, p := range it.Gallery {
					caps = append(caps, p.Caption)
				}
				fmt.Fprintf(&b, "Left to right: %s.\n\n", strings.Join(caps, "; "))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// anchor is the id of the heading of section n, titled title: the id
// GitHub and most Markdown renderers give "## n. title" (lower case,
// spaces as hyphens, other punctuation dropped: "3. State-space
// profiles" is 3-state-space-profiles), which the HTML page gives its
// heading too, so that the contents' links work in both.
func anchor(n int, title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(fmt.Sprintf("%d. %s", n, title)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func alt(s string) string {
	s = strings.ReplaceAll(s, "[", "(")
	return strings.ReplaceAll(s, "]", ")")
}

// WriteHTML writes the document as one HTML page that opens offline, its
// figures beside it.
func (d *Document) WriteHTML(w io.Writer) error {
	type section struct {
		N      int
		Anchor string
		Section
	}
	var secs []section
	for i, s := range d.Sections {
		secs = append(secs, section{i + 1, anchor(i+1, s.Title), s})
	}
	return page().Execute(w, map[string]any{"Title": d.Title, "Intro": d.Intro, "Status": d.Status, "Sections": secs})
}

// page is the report's HTML template, parsed when a report is first
// written: every command links it, and parsing it at start cost each one
// 0.16 ms.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(pageText))
})

const pageText = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; max-width: 70em; margin: 2em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #eee; }
td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; }
.gallery img { height: 8em; margin: 0.3em; }
.status { color: #a00; font-weight: bold; }
.data { font-size: 0.85em; }
.contents p { font-weight: bold; margin-bottom: 0.2em; }
.contents ol { margin-top: 0; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>{{.Intro}}</p>
{{if .Status}}<p class="status">{{.Status}}</p>{{end}}
{{if .Sections}}<nav class="contents"><p>Contents</p>
<ol>
{{range .Sections}}<li><a href="#{{.Anchor}}">{{.Title}}</a></li>
{{end}}</ol>
</nav>{{end}}
{{range .Sections}}
<h2 id="{{.Anchor}}">{{.N}}. {{.Title}}</h2>
<p>{{.Text}}</p>
{{range .Items}}
<p>{{.Caption}}</p>
{{if not .DataOnly}}{{with .Table}}<table>
<tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Shown}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>{{end}}{{end}}
{{if and .Table .Name}}<p class="data">Data: <a href="data/{{.Name}}.csv">CSV</a>, <a href="data/{{.Name}}.json">JSON</a></p>{{end}}
{{if .Figure}}<p><img src="figures/{{.Figure}}.svg" alt="{{.Caption}}"></p>{{end}}
{{if .Gallery}}<div class="gallery">{{range .Gallery}}<figure style="display:inline-block"><img src="figures/{{.File}}.png" alt="{{.Caption}}"><figcaption>{{.Caption}}</figcaption></figure>{{end}}</div>{{end}}
{{end}}
{{end}}
</body>
</html>
`

// Save writes index.md and index.html in dir, each through a temporary file
// so that an interrupted run leaves the previous complete index.
func (d *Document) Save(dir string) error {
	var md, html bytes.Buffer
	if err := d.WriteMarkdown(&md); err != nil {
		return err
	}
	if err := d.WriteHTML(&html); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "index.md"), &md); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, "index.html"), &html)
}

// writeFile writes wt to a file of mode 0644 (less the umask) through
// atomicfile, so that an interrupted report never leaves half a file.
func writeFile(name string, wt interface {
	WriteTo(w io.Writer) (int64, error)
}) error {
	return atomicfile.Write(name, 0o644, func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	})
}
