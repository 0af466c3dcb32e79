package report

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"pegs/engine"
	"pegs/generate"
	"pegs/search"
)

// gradedClassics grades Cross, Plus and Fireplace, named.
func gradedClassics(t *testing.T) (*engine.Board, engine.Goal, []generate.Level) {
	t.Helper()
	b := engine.English()
	goal, _ := b.ParseGoal("center")
	var levels []generate.Level
	for _, c := range []struct{ name, pic string }{
		{"Cross", "....o...ooo.....o......o........."},
		{"Plus", "....o....o....ooooo....o....o...."},
		{"Fireplace", "oooooo..ooo....o.o..............."},
	} {
		p, err := b.ParsePosition(c.pic)
		if err != nil {
			t.Fatal(err)
		}
		l, err := generate.Grade(context.Background(), b, p, goal, search.Options{})
		if err != nil {
			t.Fatal(err)
		}
		l.Name = c.name
		levels = append(levels, l)
	}
	return b, goal, levels
}

// TestWriteGrades checks that every format keeps the levels' names and
// shows the foresight they need and what their grade means.
func TestWriteGrades(t *testing.T) {
	b, goal, levels := gradedClassics(t)
	for _, f := range []Format{Text, Markdown, CSV} {
		var buf bytes.Buffer
		if err := WriteGrades(&buf, f, b, goal, levels); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Cross", "Fireplace", "foresight needed", levels[2].Explanation} {
			if !strings.Contains(buf.String(), want) {
				t.Errorf("%v output lacks %q:\n%s", f, want, buf.String())
			}
		}
	}
	var buf bytes.Buffer
	if err := WriteGrades(&buf, JSON, b, goal, levels); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Levels []struct {
			Name        string `json:"name"`
			Explanation string `json:"explanation"`
			Metrics     struct {
				Foresight []struct {
					LookAhead      int     `json:"look_ahead"`
					WinProbability float64 `json:"win_probability"`
				} `json:"foresight"`
				ForesightNeeded float64 `json:"foresight_needed"`
			} `json:"metrics"`
		} `json:"levels"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for i, l := range got.Levels {
		m := l.Metrics
		if l.Name != levels[i].Name || l.Explanation == "" || len(m.Foresight) == 0 || m.Foresight[0].LookAhead != 0 ||
			m.Foresight[0].WinProbability != levels[i].Metrics.P0 || m.ForesightNeeded != levels[i].Metrics.ForesightNeeded {
			t.Errorf("JSON level %d: %+v", i, l)
		}
	}
}

func TestForesightPlot(t *testing.T) {
	_, _, levels := gradedClassics(t)
	fig, err := ForesightPlot("classic levels", levels)
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
