package main

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

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
