package report

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/vg/draw"

	"pegs/bench"
	"pegs/engine"
	"pegs/report/reporttest"
	"pegs/search"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

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
	wt, err := fig.WriterTo("svg")
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
	a, err := search.Explore(context.Background(), search.Problem{Board: b, Start: b.Full() &^ 1, Goal: engine.Goal{Kind: engine.OnePeg}}, search.Options{})
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
	reporttest.Golden(t, "profile_triangle.svg.txt", []byte(out), *update)
	// The legend is drawn beside the plot, not inside its data area.
	if w := fig.Plot.Legend.Rectangle(draw.Canvas{}).Size().X; w != 0 {
		t.Errorf("the plot's own legend, drawn over the data, is %v wide; want it empty", w)
	}
	if w, _ := fig.size(); w <= fig.Width+fig.Legend.Rectangle(draw.Canvas{}).Size().X {
		t.Errorf("figure %v wide for a plot of %v: no room beside it for the legend", w, fig.Width)
	}
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

// TestWriteInterrupted checks that what an interrupted explore writes
// says so, and that a finished one does not.
func TestWriteInterrupted(t *testing.T) {
	b, err := engine.Lookup("triangle")
	if err != nil {
		t.Fatal(err)
	}
	prob := search.Problem{Board: b, Start: b.Full() &^ 1, Goal: engine.Goal{Kind: engine.OnePeg}}
	a, err := search.Explore(context.Background(), prob, search.Options{ReachableOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		write func(io.Writer, Format, search.Problem, *search.Analysis) error
		want  bool
	}{{WriteReachable, false}, {WriteInterrupted, true}} {
		var buf bytes.Buffer
		if err := c.write(&buf, JSON, prob, a); err != nil {
			t.Fatal(err)
		}
		var got ReachableJSON
		if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Interrupted != c.want || got.Reachable != a.Reachable {
			t.Errorf("interrupted %v, reachable %d; want %v, %d", got.Interrupted, got.Reachable, c.want, a.Reachable)
		}
	}
}
