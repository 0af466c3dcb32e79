package main

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pegs/report/reporttest"
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

// TestGradeGoesOn grades a levels file whose middle level cannot win: every
// level is a row, the middle one with its reason, and the command fails.
func TestGradeGoesOn(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), strings.Fields("grade --levels testdata/mixed.levels --format csv"), &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "1 of 3 levels could not be graded") {
		t.Errorf("grade = %v, want 1 of 3 levels could not be graded", err)
	}
	rows := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(rows) != 4 || !strings.HasPrefix(rows[1], "Cross,") || !strings.HasPrefix(rows[3], "Plus,") ||
		!strings.Contains(rows[2], "cannot grade: level Stranded has no solution to goal center") {
		t.Errorf("rows:\n%s", stdout.String())
	}
}

// TestDefaultPack makes the default pack of seven English levels: each one
// group of pegs, scores strictly rising (testdata/pack7_text.stdout holds
// their pictures). Making its pool of 56 levels takes several seconds;
// -short skips it.
func TestDefaultPack(t *testing.T) {
	if testing.Short() {
		t.Skip("making a pack's pool takes several seconds; run without -short")
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), strings.Fields("generate --pack 7 --format text"), &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	reporttest.Golden(t, "pack7_text.stdout", stdout.Bytes(), *update)
	heads := regexp.MustCompile(`(?m)^level (\d+): \d+ pegs, grade \d, score ([0-9.]+), par \d+\n(.*)$`).FindAllStringSubmatch(stdout.String(), -1)
	if len(heads) != 7 {
		t.Fatalf("%d levels, want 7:\n%s", len(heads), stdout.String())
	}
	last := -1.0
	for _, h := range heads {
		score, _ := strconv.ParseFloat(h[2], 64)
		if score <= last {
			t.Errorf("level %s: score %s does not rise above %g", h[1], h[2], last)
		}
		last = score
		if !strings.HasPrefix(h[3], "one group,") {
			t.Errorf("level %s: %s, want one group", h[1], h[3])
		}
	}
}

// TestGenerateOneGroup makes levels on the triangle (goal any), the French
// board and a board drawn in a file: each is one group of pegs.
func TestGenerateOneGroup(t *testing.T) {
	if testing.Short() {
		t.Skip("making levels on three boards takes several seconds; run without -short")
	}
	for _, args := range []string{
		"generate --board triangle --goal any --count 8 --seed 5",
		"generate --board french --count 6 --pegs 6-14 --seed 5",
		"generate --board @testdata/square5.board --goal any --count 6 --pegs 8-12 --seed 5",
	} {
		t.Run(strings.Fields(args)[2], func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if err := run(context.Background(), strings.Fields(args), &stdout, &stderr); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			var got struct {
				Levels []struct {
					Picture string `json:"picture"`
					Metrics struct {
						Groups int `json:"groups"`
					} `json:"metrics"`
				} `json:"levels"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Levels) == 0 {
				t.Fatal("no levels")
			}
			for _, l := range got.Levels {
				if l.Metrics.Groups != 1 {
					t.Errorf("level %s: %d groups, want one", l.Picture, l.Metrics.Groups)
				}
			}
		})
	}
}

// TestSymmetricAlias checks that --symmetric is --shape symmetric.
func TestSymmetricAlias(t *testing.T) {
	var outs []string
	for _, flag := range []string{"--symmetric", "--shape symmetric"} {
		var stdout, stderr bytes.Buffer
		args := strings.Fields("generate --board triangle --goal any --count 3 --seed 4 " + flag)
		if err := run(context.Background(), args, &stdout, &stderr); err != nil {
			t.Fatalf("%s: %v\n%s", flag, err, stderr.String())
		}
		outs = append(outs, stdout.String())
	}
	if outs[0] != outs[1] {
		t.Errorf("--symmetric and --shape symmetric differ:\n%s\n%s", outs[0], outs[1])
	}
	if !strings.Contains(outs[0], `"symmetry": "mirror"`) && !strings.Contains(outs[0], `"symmetry": "full"`) {
		t.Errorf("no symmetric level:\n%s", outs[0])
	}
}
