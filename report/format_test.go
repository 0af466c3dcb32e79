package report

import (
	"bytes"
	"flag"
	"testing"
	"time"

	"pegs/report/reporttest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestFormatters(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"count", FormatCount(23475688), "23,475,688"},
		{"count small", FormatCount(7), "7"},
		{"number large", FormatNumber(11290.4), "11,290"},
		{"number", FormatNumber(316.84), "317"},
		{"number small", FormatNumber(0.02597), "0.0260"},
		{"seconds µs", FormatSeconds(16.8e-6), "16.8 µs"},
		{"seconds ms", FormatSeconds(0.00259), "2.59 ms"},
		{"seconds s", FormatSeconds(2.648), "2.65 s"},
		{"seconds ns", FormatSeconds(5e-10), "0.500 ns"},
		{"duration", FormatDuration(1500 * time.Millisecond), "1.50 s"},
		{"bytes", FormatBytes(6505968), "6.2 MiB"},
		{"bytes small", FormatBytes(512), "512 B"},
		{"probability", FormatProbability(0.02597), "0.0260"},
		{"probability tiny", FormatProbability(1.349e-08), "1.35×10⁻⁸"},
		{"probability rounds up", FormatProbability(9.9996e-5), "1.00×10⁻⁴"},
		{"probability one", FormatProbability(1), "1"},
		{"one in", OneIn(1.349e-08), "74 million"},
		{"one in thousands", OneIn(1.0 / 1432), "1,400"},
		{"one in half", OneIn(0.5), "2"},
		{"one in billions", OneIn(1 / 3.14e9), "3.1 billion"},
		{"one in zero", OneIn(0), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

// TestKindsGolden writes one table with a column of each kind, notes and
// blanks among them, in every format: a reader's form in text and
// Markdown, the stored form with units in the header in CSV, and JSON
// values typed by kind.
func TestKindsGolden(t *testing.T) {
	tbl := &Table{
		Header: []string{"name", "positions", "median", "memory", "win chance", "speed-up", "efficiency", "solvable", "score"},
		Counts: []string{"positions"},
		Kinds: map[string]Kind{"median": Seconds, "memory": Bytes, "win chance": Probability, "speed-up": Ratio,
			"efficiency": Percent, "solvable": Flag, "score": Number},
	}
	tbl.Add("english", "23475688", "2.648", "6505968", "1.349e-08", "1.93", "0.965", "true", "11290.4")
	tbl.Add("cross", "17", "0.0000168", "4120", "0.02597", "1", "0.5", "false", "0.0137")
	tbl.Add("big", "266871356732", "timed out", "", "0", "", "", "", "")
	var buf bytes.Buffer
	for _, f := range []Format{Text, Markdown, CSV, JSON} {
		buf.WriteString(f.String() + ":\n")
		if err := tbl.Write(&buf, f); err != nil {
			t.Fatal(err)
		}
		buf.WriteString("\n")
	}
	reporttest.Golden(t, "kinds.stdout", buf.Bytes(), *update)
}
