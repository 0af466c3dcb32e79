package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"pegs/report/reporttest"
)

// TestWriteGrades checks that every format keeps the levels' names and
// shows the foresight they need and what their grade means.
func TestWriteGrades(t *testing.T) {
	b, goal, levels := reporttest.Classics(t)
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
