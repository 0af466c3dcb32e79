package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"pegs/bench"
	"pegs/engine"
	"pegs/search"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", name, diff)
	}
}

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
		if err := build(ctx, dir, tinyPlan(), Options{Seed: 7, Workers: workers}); err != nil {
			t.Fatal(err)
		}
		md, err := os.ReadFile(filepath.Join(dir, "index.md"))
		if err != nil {
			t.Fatal(err)
		}
		mds = append(mds, md)
		checkFiles(t, dir, md)
	}
	if !bytes.Equal(mds[0], mds[1]) {
		t.Errorf("index.md differs between 1 and 2 workers:\n%s", cmp.Diff(string(mds[0]), string(mds[1])))
	}
	golden(t, "tiny.md", mds[0])
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
			var v []map[string]string
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Errorf("%s: %v", link, err)
			}
		case ".svg":
			if _, err := svgOutline(raw); err != nil {
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
	for _, s := range []string{"<h2>1. Boards</h2>", "<h2>5. Solver performance</h2>", "<table>", `<img src="figures/profile-triangle.svg"`} {
		if !bytes.Contains(html, []byte(s)) {
			t.Errorf("index.html lacks %q", s)
		}
	}
}

// svgOutline summarizes an SVG's structure: how many elements of each kind
// it has, and its text in order. It ignores coordinates, which depend on
// font metrics.
func svgOutline(raw []byte) (string, error) {
	dec := xml.NewDecoder(bytes.NewReader(raw))
	counts := map[string]int{}
	var order []string
	var texts []string
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if counts[tok.Name.Local] == 0 {
				order = append(order, tok.Name.Local)
			}
			counts[tok.Name.Local]++
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if s := strings.TrimSpace(string(tok)); inText && s != "" {
				texts = append(texts, s)
			}
		}
	}
	if counts["svg"] != 1 {
		return "", fmt.Errorf("%d svg elements", counts["svg"])
	}
	var b strings.Builder
	for _, n := range order {
		fmt.Fprintf(&b, "%s %d\n", n, counts[n])
	}
	b.WriteString("text:\n")
	for _, s := range texts {
		fmt.Fprintf(&b, "  %s\n", s)
	}
	return b.String(), nil
}

// figureOutline draws a figure as SVG and returns its outline.
func figureOutline(t *testing.T, fig Figure) string {
	t.Helper()
	wt, err := fig.Plot.WriterTo(fig.Width, fig.Height, "svg")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	out, err := svgOutline(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestProfileSVG(t *testing.T) {
	b, err := engine.Lookup("triangle")
	if err != nil {
		t.Fatal(err)
	}
	a, err := search.Explore(context.Background(), search.Problem{Board: b, Start: b.Full() &^ 1, Goal: engine.Goal{Kind: engine.OnePeg}}, search.ExploreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fig, err := ProfilePlot("triangle, vacate 1", a.Layers)
	if err != nil {
		t.Fatal(err)
	}
	out := figureOutline(t, fig)
	for _, want := range []string{"triangle, vacate 1", "pegs on the board", "positions (up to symmetry, log scale)", "reachable", "can still win", "dead ends (no jump left)"} {
		if !strings.Contains(out, "  "+want+"\n") {
			t.Errorf("profile SVG lacks the text %q", want)
		}
	}
	golden(t, "profile_triangle.svg.txt", []byte(out))
}

// TestPerformancePlots draws the benchmark figures from made-up results and
// checks what they name.
func TestPerformancePlots(t *testing.T) {
	ms := time.Millisecond
	results := []bench.Result{
		{Problem: "cross", Strategy: "dfs-table", Workers: 1, Median: 2 * ms},
		{Problem: "cross", Strategy: "layered", Workers: 1, Median: 8 * ms},
		{Problem: "cross", Strategy: "layered", Workers: 2, Median: 5 * ms},
		{Problem: "full", Strategy: "dfs-table", Workers: 1, Median: 40 * ms},
		{Problem: "full", Strategy: "layered", Workers: 1, TimedOut: true},
		{Problem: "full", Strategy: "layered", Workers: 2, TimedOut: true},
	}
	for name, draw := range map[string]func(string, []bench.Result) (Figure, error){"times": StrategyTimes, "scaling": ScalingPlot} {
		fig, err := draw("title "+name, results)
		if err != nil {
			t.Fatal(err)
		}
		out := figureOutline(t, fig)
		want := []string{"title " + name, "layered"}
		if name == "times" {
			want = append(want, "cross", "full", "dfs-table", "median wall time (ms, log scale)")
		} else {
			want = append(want, "ideal", "workers (goroutines)")
		}
		for _, w := range want {
			if !strings.Contains(out, "  "+w+"\n") {
				t.Errorf("%s plot lacks the text %q:\n%s", name, w, out)
			}
		}
	}
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
	err := build(ctx, dir, tinyPlan(), opt)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("build = %v, want context.Canceled", err)
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
