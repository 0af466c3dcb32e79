package build

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pegs/report"
	"pegs/report/reporttest"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// tinyPlan covers every kind of section item on small boards, without the
// benchmark, whose timings vary.
func tinyPlan() plan {
	return plan{
		boards:     []string{"triangle:4", "triangle", "english"},
		exploreMax: 15,
		profiles:   []string{"triangle", "english"},
		vacancies:  []string{"triangle:4:2"},
		starts:     []startPlan{{"triangle", "exact"}, {"triangle:4", "pairs"}, {"french", "feasible"}},
		pools:      []poolPlan{{"triangle", "any", 12, 5, 9}},
		pack:       3,
		classicMax: 9,
	}
}

func TestBuildGolden(t *testing.T) {
	ctx := context.Background()
	var mds [][]byte
	for _, workers := range []int{1, 2} {
		dir := t.TempDir()
		doc, err := run(ctx, dir, tinyPlan(), Options{Seed: 7, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		md, err := os.ReadFile(filepath.Join(dir, "index.md"))
		if err != nil {
			t.Fatal(err)
		}
		mds = append(mds, md)
		checkFiles(t, dir, md)
		checkTyped(t, dir, doc)
		for _, term := range doc.glossary() {
			if term.Meaning == "" {
				t.Errorf("the glossary does not explain the column %q", term.Column)
			}
		}
	}
	if !bytes.Equal(mds[0], mds[1]) {
		t.Errorf("index.md differs between 1 and 2 workers:\n%s", cmp.Diff(string(mds[0]), string(mds[1])))
	}
	reporttest.Golden(t, "tiny.md", mds[0], *update)
}

// checkFiles checks that every file the index links exists, that the data
// files parse, and that the HTML page holds every section.
func checkFiles(t *testing.T, dir string, md []byte) {
	t.Helper()
	for _, line := range strings.Split(string(md), "(") {
		end := strings.IndexByte(line, ')')
		if end < 0 {
			continue
		}
		link := line[:end]
		if !strings.HasPrefix(link, "data/") && !strings.HasPrefix(link, "figures/") {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(dir, link))
		if err != nil {
			t.Errorf("index links %s: %v", link, err)
			continue
		}
		switch filepath.Ext(link) {
		case ".csv":
			if rows, err := csv.NewReader(bytes.NewReader(raw)).ReadAll(); err != nil || len(rows) < 1 {
				t.Errorf("%s: %d rows, %v", link, len(rows), err)
			}
		case ".json":
			var v []map[string]any
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Errorf("%s: %v", link, err)
			}
		case ".svg":
			if err := wellFormed(raw); err != nil {
				t.Errorf("%s: %v", link, err)
			}
		case ".png":
			if !bytes.HasPrefix(raw, []byte("\x89PNG")) {
				t.Errorf("%s is not a PNG", link)
			}
		}
	}
	html, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`<h2 id="1-boards">1. Boards</h2>`, `<h2 id="5-solver-performance">5. Solver performance</h2>`, `<li><a href="#3-state-space-profiles">State-space profiles</a></li>`, "<table>", `<td class="num">1,544</td>`, `<img src="figures/profile-triangle.svg"`} {
		if !bytes.Contains(html, []byte(s)) {
			t.Errorf("index.html lacks %q", s)
		}
	}
}

// checkTyped walks every data/*.json file: each must be the data of a
// table of the document, with no number or boolean stored as a string
// outside the columns of labels (a triangle's hole "1" is a label); and
// every file of the report has mode 0644 under the umask.
func checkTyped(t *testing.T, dir string, doc *Document) {
	t.Helper()
	tables := map[string]*report.Table{}
	for _, s := range doc.Sections {
		for _, it := range s.Items {
			if it.Table != nil && it.Name != "" {
				tables[it.Name] = it.Table
			}
		}
	}
	names, err := filepath.Glob(filepath.Join(dir, "data", "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no data/*.json files: %v", err)
	}
	for _, name := range names {
		base := strings.TrimSuffix(filepath.Base(name), ".json")
		labels := map[string]bool{} // a file that is no table's has none
		if tbl, ok := tables[base]; ok {
			for i, h := range tbl.StoredHeader() {
				labels[h] = tbl.Kind(tbl.Header[i]) == report.Label
			}
		}
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var rows []map[string]any
		if err := json.Unmarshal(raw, &rows); err != nil {
			t.Errorf("data/%s.json: %v", base, err)
			continue
		}
		for i, row := range rows {
			for key, v := range row {
				s, isString := v.(string)
				if !isString || labels[key] {
					continue
				}
				if _, err := strconv.ParseFloat(s, 64); err == nil || s == "true" || s == "false" {
					t.Errorf("data/%s.json row %d: %q is %q, a number or boolean stored as a string", base, i, key, s)
				}
			}
		}
	}
	ref := filepath.Join(t.TempDir(), "ref")
	f, err := os.OpenFile(ref, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	want, err := os.Stat(ref)
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Mode().Perm() != want.Mode().Perm() {
			t.Errorf("%s has mode %v, want %v (0644 under the umask)", path, info.Mode().Perm(), want.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// wellFormed reports whether raw is well-formed XML with an svg element.
func wellFormed(raw []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(raw))
	svg := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "svg" {
			svg = true
		}
	}
	if !svg {
		return errors.New("no svg element")
	}
	return nil
}

// TestBuildInterrupted cancels a build as its second section starts: the
// first section stays in the index, marked as interrupted.
func TestBuildInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	opt := Options{Progress: func(step string) {
		if strings.HasPrefix(step, "section 2/") {
			cancel()
		}
	}}
	_, err := run(ctx, dir, tinyPlan(), opt)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("run = %v, want context.Canceled", err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## 1. Boards", "Interrupted during section 2 (Solvable starts)"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("index.md lacks %q:\n%s", want, md)
		}
	}
	if bytes.Contains(md, []byte("## 2.")) {
		t.Errorf("index.md holds the interrupted section")
	}
}
