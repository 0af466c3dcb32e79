package serve

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/generate"
	"pegs/search"
)

var (
	updateClassic = flag.Bool("update-classic", false, "grade the classic levels again and write classic.json (go generate)")
	classicFull   = flag.Bool("classic-full", false, "TestClassicData grades Diamond and Full too (seconds, 270 MiB)")
)

// classicBudget is the memory budget of the classic levels' grades.
const classicBudget = 3 << 30

// TestClassicData checks the embedded classic.json and solo.json: they
// hold the classic levels and the Play Solo level, and every solution and
// fewest-moves solution in them replays. Without -short it grades the
// classic levels again and compares, those of at most 17 pegs (a second
// or two; Diamond's and Full's take seconds and 270 MiB, Solo's
// fewest moves seconds) unless the long runs (enginetest.LongRuns, as in
// CI), -classic-full or -update-classic ask for all; with -update-classic
// it writes the files.
func TestClassicData(t *testing.T) {
	pack, err := ClassicPack()
	if err != nil && !*updateClassic {
		t.Fatal(err)
	}
	for _, l := range pack.Levels {
		sol, err := pack.Board.ParseMoves(joinMoves(l.Info.Solution))
		if err == nil {
			_, err = pack.Board.Replay(l.Start, sol)
		}
		if err != nil || len(pack.Board.FormatMoves(l.Fewest.Jumps)) != l.Info.Par {
			t.Errorf("%s: solution %v; the fewest moves %d, par %d", l.Name, err, len(pack.Board.FormatMoves(l.Fewest.Jumps)), l.Info.Par)
		}
	}
	if _, err := SoloPack(); err != nil && !*updateClassic {
		t.Fatal(err)
	}
	if testing.Short() && !*updateClassic {
		t.Skip("grading the classic levels again takes seconds")
	}
	all := *updateClassic || *classicFull || enginetest.LongRuns()
	b := engine.English()
	goal, _ := b.ParseGoal("center")
	file := packFile{Board: b.Name(), Goal: b.FormatGoal(goal)}
	var want packFile
	json.Unmarshal(classicJSON, &want)
	for i, l := range engine.ClassicLevels() {
		if l.Position.Pegs() > 17 && !all {
			file.Levels = append(file.Levels, want.Levels[i])
			continue
		}
		lvl, err := generate.Grade(t.Context(), b, l.Position, goal, search.SolveOptions{Budget: search.Budget{Memory: classicBudget}})
		if err != nil {
			t.Fatalf("%s: %v", l.Name, err)
		}
		lvl.Name = l.Name
		file.Levels = append(file.Levels, lvl)
	}
	check(t, "classic.json", classicJSON, file)
	if !all {
		return
	}
	any := engine.Goal{Kind: engine.OnePeg}
	ms, err := search.FewestMoves(t.Context(), search.Problem{Board: b, Start: b.Start(), Goal: any}, search.Budget{Memory: classicBudget})
	if err != nil {
		t.Fatalf("Solo: %v", err)
	}
	solo := plainLevel(b, any, "solo", b.Start()).Info
	solo.Moves = b.FormatMoves(ms.Jumps)
	solo.Par = len(solo.Moves)
	check(t, "solo.json", soloJSON, packFile{Board: b.Name(), Goal: b.FormatGoal(any), Mode: "solo", Levels: []generate.Level{solo}})
}

// check compares the embedded file name with file, or writes file there
// with -update-classic.
func check(t *testing.T, name string, embedded []byte, file packFile) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(file); err != nil {
		t.Fatal(err)
	}
	if *updateClassic {
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(string(embedded), buf.String()); diff != "" {
		t.Errorf("%s is not current (run go generate ./report/serve): -embedded +now\n%s", name, diff)
	}
}

// joinMoves joins a solution's jumps as ParseMoves reads them.
func joinMoves(jumps []string) string {
	var buf bytes.Buffer
	for _, j := range jumps {
		buf.WriteString(j + " ")
	}
	return buf.String()
}
