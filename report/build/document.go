package build

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"pegs/report"
	"pegs/search/atomicfile"
)

// Document is a report: its findings first, then sections of text,
// tables, figures and level cards, and a glossary of every column, written
// as Markdown (index.md) and as standalone HTML (index.html) with the
// figures beside them and every table also as CSV and JSON.
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
	// Lead is one line saying what the section shows; Text says how.
	Lead string
	Text string
	// Findings are sentences computed from the section's results, shown
	// together at the top of the report.
	Findings []string
	Items    []Item
}

// Item is one table, figure, gallery, set of cards or block of text, with
// a sentence saying what it shows.
type Item struct {
	Caption string
	// Table, if set, is shown and also written as data/Name.csv and
	// data/Name.json.
	Table *report.Table
	Name  string
	// DataOnly writes the table to data/ and links it, without showing it.
	DataOnly bool
	// Figure, if set, names an image in figures/ without its extension
	// (both .svg and .png exist); Alt describes it for a reader who
	// cannot see it (the caption, if empty).
	Figure string
	Alt    string
	// Gallery lists level pictures in figures/, without extension.
	Gallery []Picture
	// Cards show levels one by one, in place of a wide table.
	Cards []Card
}

// Picture is a level picture and its caption.
type Picture struct {
	File, Caption string
}

// Card is a level as a reader meets it: its picture, its grade, what the
// grade means, and a few facts, each a label and a value.
type Card struct {
	Name        string
	Picture     string // a level picture in figures/, without extension
	Grade       int
	Explanation string
	Facts       []Fact
}

// Fact is one labelled value of a card: "pegs", "12".
type Fact struct {
	Label, Value string
}

// AltText returns the figure's alternative text: Alt, or the caption.
func (it Item) AltText() string {
	if it.Alt != "" {
		return it.Alt
	}
	return it.Caption
}

// WriteData writes each table of the section as CSV and JSON under dir.
func (s Section) WriteData(dir string) error {
	for _, it := range s.Items {
		if it.Table == nil || it.Name == "" {
			continue
		}
		for _, f := range []report.Format{report.CSV, report.JSON} {
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

// findings returns the findings of every section, in order.
func (d *Document) findings() []string {
	var out []string
	for _, s := range d.Sections {
		out = append(out, s.Findings...)
	}
	return out
}

// Term is a column of the report's tables and what it means.
type Term struct {
	Column, Meaning string
}

// glossary returns every column of the document's tables, shown or not,
// in the order they first appear, with its meaning (report.Meaning).
func (d *Document) glossary() []Term {
	var out []Term
	seen := map[string]bool{}
	for _, s := range d.Sections {
		for _, it := range s.Items {
			if it.Table == nil {
				continue
			}
			for _, h := range it.Table.Header {
				if !seen[h] {
					seen[h] = true
					out = append(out, Term{h, report.Meaning(h)})
				}
			}
		}
	}
	return out
}

// WriteMarkdown writes the document as Markdown.
func (d *Document) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", d.Title, d.Intro)
	if d.Status != "" {
		fmt.Fprintf(&b, "**%s**\n\n", d.Status)
	}
	if f := d.findings(); len(f) > 0 {
		b.WriteString("## Findings\n\n")
		for _, s := range f {
			fmt.Fprintf(&b, "- %s\n", s)
		}
		b.WriteString("\n")
	}
	gloss := d.glossary()
	if len(d.Sections) > 0 {
		b.WriteString("**Contents**\n\n")
		for i, s := range d.Sections {
			fmt.Fprintf(&b, "%d. [%s](#%s)\n", i+1, s.Title, anchor(i+1, s.Title))
		}
		if len(gloss) > 0 {
			b.WriteString("- [Glossary](#glossary)\n")
		}
		b.WriteString("\n")
	}
	for i, s := range d.Sections {
		fmt.Fprintf(&b, "## %d. %s\n\n", i+1, s.Title)
		if s.Lead != "" {
			fmt.Fprintf(&b, "*%s*\n\n", s.Lead)
		}
		fmt.Fprintf(&b, "%s\n\n", s.Text)
		for _, it := range s.Items {
			fmt.Fprintf(&b, "%s\n\n", it.Caption)
			if it.Table != nil {
				if !it.DataOnly {
					if err := it.Table.Write(&b, report.Markdown); err != nil {
						return err
					}
				}
				if it.Name != "" {
					fmt.Fprintf(&b, "\nData: [CSV](data/%s.csv), [JSON](data/%s.json)\n", it.Name, it.Name)
				}
				b.WriteString("\n")
			}
			if it.Figure != "" {
				fmt.Fprintf(&b, "![%s](figures/%s.svg)\n\n", alt(it.AltText()), it.Figure)
			}
			for _, c := range it.Cards {
				fmt.Fprintf(&b, "- ![%s](figures/%s.png) **%s**, grade %d: %s.", alt(c.Name), c.Picture, c.Name, c.Grade, c.Explanation)
				for _, f := range c.Facts {
					fmt.Fprintf(&b, " %s: %s.", f.Label, f.Value)
				}
				b.WriteString("\n")
			}
			if len(it.Cards) > 0 {
				b.WriteString("\n")
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
	if len(gloss) > 0 {
		b.WriteString("## Glossary\n\nWhat each column of the tables holds (in the data files too).\n\n")
		for _, t := range gloss {
			fmt.Fprintf(&b, "- **%s**: %s\n", t.Column, t.Meaning)
		}
		b.WriteString("\n")
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
	return page().Execute(w, map[string]any{"Title": d.Title, "Intro": d.Intro, "Status": d.Status,
		"Findings": d.findings(), "Sections": secs, "Glossary": d.glossary()})
}

// code matches Markdown's inline code: text between backticks.
var code = regexp.MustCompile("`([^`]+)`")

// inline returns Markdown text as HTML: escaped, with its inline code
// (`pegs report`) as code elements.
func inline(s string) template.HTML {
	return template.HTML(code.ReplaceAllString(template.HTMLEscapeString(s), "<code>$1</code>"))
}

// page is the report's HTML template, parsed when a report is first
// written.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{"inline": inline, "meaning": report.Meaning}).Parse(pageText))
})

const pageText = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; max-width: 70em; margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; overflow-wrap: break-word; }
h1 { font-size: 1.6em; }
.scroll { overflow-x: auto; max-width: 100%; margin: 0.5em 0 0.5em; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; white-space: nowrap; }
th { background: #eee; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
img { max-width: 100%; height: auto; }
figure { margin: 0.5em 0 1.5em; }
figcaption, .caption { color: #444; }
.gallery figure { display: inline-block; margin: 0.3em; vertical-align: top; }
.gallery img { height: 8em; }
.status { color: #a00; font-weight: bold; }
.data { font-size: 0.85em; }
.lead { font-size: 1.1em; font-style: italic; }
.findings { background: #f4f7fb; border-left: 4px solid #0072b2; padding: 0.2em 1em; }
.findings ul { padding-left: 1.2em; }
.findings li { margin: 0.3em 0; }
.contents p { font-weight: bold; margin-bottom: 0.2em; }
.contents ol { margin-top: 0; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(15em, 1fr)); gap: 1em; margin: 0.5em 0 1.5em; }
.card { border: 1px solid #ccc; border-radius: 6px; padding: 0.6em; }
.card img { height: 7em; display: block; margin: 0 auto 0.4em; }
.card h3 { margin: 0 0 0.2em; font-size: 1em; }
.card .grade { display: inline-block; color: #fff; background: #2a788e; border-radius: 3px; padding: 0 0.4em; font-size: 0.85em; }
.card dl { display: grid; grid-template-columns: auto 1fr; gap: 0 0.6em; font-size: 0.85em; margin: 0.4em 0 0; }
.card dd { margin: 0; }
.glossary dt { font-weight: bold; }
.glossary dd { margin: 0 0 0.5em 1.5em; }
code { background: #f2f2f2; padding: 0 0.2em; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>{{inline .Intro}}</p>
{{if .Status}}<p class="status">{{.Status}}</p>{{end}}
{{if .Findings}}<section class="findings" id="findings"><h2>Findings</h2>
<ul>
{{range .Findings}}<li>{{inline .}}</li>
{{end}}</ul>
</section>{{end}}
{{if .Sections}}<nav class="contents"><p>Contents</p>
<ol>
{{range .Sections}}<li><a href="#{{.Anchor}}">{{.Title}}</a></li>
{{end}}{{if .Glossary}}<li><a href="#glossary">Glossary</a></li>
{{end}}</ol>
</nav>{{end}}
{{range .Sections}}
<h2 id="{{.Anchor}}">{{.N}}. {{.Title}}</h2>
{{if .Lead}}<p class="lead">{{inline .Lead}}</p>{{end}}
<p>{{inline .Text}}</p>
{{range .Items}}
<p class="caption">{{inline .Caption}}</p>
{{if not .DataOnly}}{{with .Table}}{{$num := .Numeric}}<div class="scroll"><table>
<tr>{{range $j, $h := .Header}}<th{{if index $num $j}} class="num"{{end}} title="{{meaning $h}}">{{$h}}</th>{{end}}</tr>
{{range .Shown}}<tr>{{range $j, $c := .}}<td{{if index $num $j}} class="num"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</table></div>{{end}}{{end}}
{{if and .Table .Name}}<p class="data">Data: <a href="data/{{.Name}}.csv">CSV</a>, <a href="data/{{.Name}}.json">JSON</a></p>{{end}}
{{if .Figure}}<figure><img src="figures/{{.Figure}}.svg" alt="{{.AltText}}"></figure>{{end}}
{{if .Cards}}<div class="cards">{{range .Cards}}<div class="card"><img src="figures/{{.Picture}}.png" alt="{{.Name}} at the start"><h3>{{.Name}}</h3><span class="grade">grade {{.Grade}}</span><p>{{.Explanation}}</p>{{if .Facts}}<dl>{{range .Facts}}<dt>{{.Label}}</dt><dd>{{.Value}}</dd>{{end}}</dl>{{end}}</div>
{{end}}</div>{{end}}
{{if .Gallery}}<div class="gallery">{{range .Gallery}}<figure><img src="figures/{{.File}}.png" alt="{{.Caption}}"><figcaption>{{.Caption}}</figcaption></figure>{{end}}</div>{{end}}
{{end}}
{{end}}
{{if .Glossary}}<h2 id="glossary">Glossary</h2>
<p>What each column of the tables holds (in the data files too).</p>
<dl class="glossary">
{{range .Glossary}}<dt>{{.Column}}</dt><dd>{{inline .Meaning}}</dd>
{{end}}</dl>{{end}}
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
