package generate

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestDefaultPegs(t *testing.T) {
	tests := []struct {
		name           string
		holes          int
		wantLo, wantHi int
	}{
		{"english keeps 6-20", 33, 6, 20},
		{"triangle:6, 20 pegs fit", 21, 6, 20},
		{"triangle", 15, 5, 13},
		{"triangle:4", 10, 3, 8},
		{"smallest board with a jump", 3, 2, 2},
		{"four holes", 4, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := DefaultPegs(tt.holes)
			if lo != tt.wantLo || hi != tt.wantHi {
				t.Errorf("DefaultPegs(%d) = %d-%d, want %d-%d", tt.holes, lo, hi, tt.wantLo, tt.wantHi)
			}
			if lo < 2 || hi < lo || hi >= tt.holes {
				t.Errorf("DefaultPegs(%d) = %d-%d does not fit the board", tt.holes, lo, hi)
			}
		})
	}
}

// TestGradeKeepsNames grades a levels file as JSON: each level keeps its
// name from the file, with the foresight it needs and what its grade
// means.
func TestGradeKeepsNames(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), strings.Fields("grade --levels testdata/classic3.levels --format json"), &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var got struct {
		Levels []struct {
			Name        string `json:"name"`
			Grade       int    `json:"grade"`
			Explanation string `json:"explanation"`
			Metrics     struct {
				Foresight       []map[string]float64 `json:"foresight"`
				ForesightNeeded float64              `json:"foresight_needed"`
			} `json:"metrics"`
		} `json:"levels"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range got.Levels {
		names = append(names, l.Name)
		if l.Grade < 1 || l.Grade > 5 || l.Explanation == "" || len(l.Metrics.Foresight) < 2 || l.Metrics.ForesightNeeded <= 0 {
			t.Errorf("level %s: %+v", l.Name, l)
		}
	}
	if want := []string{"Cross", "Plus", "Fireplace"}; !slices.Equal(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
}
