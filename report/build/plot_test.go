package build

import (
	"bytes"
	"context"
	"encoding/xml"
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

// figureSVG draws a figure as SVG.
func figureSVG(t *testing.T, fig Figure) []byte {
	t.Helper()
	wt, err := fig.WriterTo("svg")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// figureOutline draws a figure as SVG and returns its outline.
func figureOutline(t *testing.T, fig Figure) string {
	t.Helper()
	out, err := svgOutline(figureSVG(t, fig))
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
	fig, err := profilePlot("triangle, vacate 1", a.Layers)
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
	for name, draw := range map[string]func(string, []bench.Result) (Figure, error){"times": strategyTimes, "scaling": scalingPlot} {
		fig, err := draw("title "+name, results)
		if err != nil {
			t.Fatal(err)
		}
		out := figureOutline(t, fig)
		want := []string{"title " + name, "layered"}
		if name == "times" {
			want = append(want, "cross", "full", "dfs-table", "median wall time (log scale)", "1 ms", "10 ms")
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

func TestForesightPlot(t *testing.T) {
	_, _, levels := reporttest.Classics(t)
	fig, err := foresightPlot("classic levels", levels)
	if err != nil {
		t.Fatal(err)
	}
	out := figureOutline(t, fig)
	for _, want := range []string{"classic levels", "look-ahead k of the player (jumps)", "win probability per attempt W_k (log scale)",
		"Cross (6 pegs)", "Plus (9 pegs)", "Fireplace (11 pegs)", "W = 1/2"} {
		if !strings.Contains(out, "  "+want+"\n") {
			t.Errorf("foresight plot lacks the text %q:\n%s", want, out)
		}
	}
}

// TestProfileZerosGolden draws a log-scale profile whose dead ends are
// zero on some layers: those layers are left out, the dead-end line broken
// into two runs around them rather than drawn down to a floor, the y axis
// ticked at powers of ten, and every text in the sans-serif face.
func TestProfileZerosGolden(t *testing.T) {
	layers := []search.LayerStats{
		{Pegs: 8, Reachable: 1, Winnable: 1},
		{Pegs: 7, Reachable: 4, Winnable: 3, DeadEnds: 0},
		{Pegs: 6, Reachable: 30, Winnable: 12, DeadEnds: 2},
		{Pegs: 5, Reachable: 120, Winnable: 20, DeadEnds: 0},
		{Pegs: 4, Reachable: 2500, Winnable: 25, DeadEnds: 0},
		{Pegs: 3, Reachable: 1800, Winnable: 8, DeadEnds: 700},
		{Pegs: 2, Reachable: 90, Winnable: 2, DeadEnds: 80},
		{Pegs: 1, Reachable: 6, Winnable: 1, DeadEnds: 0},
	}
	fig, err := profilePlot("made-up profile", layers)
	if err != nil {
		t.Fatal(err)
	}
	svg := figureSVG(t, fig)
	if n := strings.Count(string(svg), "font-family:Liberation Serif"); n > 0 {
		t.Errorf("%d texts in the serif face", n)
	}
	out, err := svgOutline(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1", "10", "100", "1,000"} {
		if !strings.Contains(out, "\n  "+want+"\n") {
			t.Errorf("the log axis lacks the tick %q:\n%s", want, out)
		}
	}
	// The golden outline counts the paths: the dead ends are drawn as two
	// runs, around the layers where they are zero.
	reporttest.Golden(t, "profile_zeros.svg.txt", []byte(out), *update)
}
