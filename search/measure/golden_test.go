package measure_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"pegs/engine"
	"pegs/generate"
	"pegs/search"
	"pegs/search/measure"
)

var (
	update = flag.Bool("update", false, "rewrite testdata/levels.golden from the code under test")
	full   = flag.Bool("full", false, "measure the golden file's big levels too, the English board's full 32-peg start among them (tens of seconds, 270 MiB)")
)

// goldenFile holds the metrics of a fixed list of levels: the classic
// English levels of generate/testdata/classic.levels but Full, levels
// drawn by generate.Generate on the English and 15-hole triangle boards,
// and random layouts (mostly unsolvable). It was recorded with -update
// from the depth-first walk (main at d0a2b52), before the layered measure
// replaced it. The levels of more than bigLevel positions (Diamond, Full
// and 8 of the drawn levels, 8.5 million positions besides Full's 23.5
// million) are measured only with -full, to keep CI short; -update needs
// -full.
const goldenFile = "testdata/levels.golden"

// goldenLevel is one level and its metrics, floats as their exact bits.
// bigLevel is the most positions of a level that TestGolden measures
// without -full: the 228 levels within it have 1.6 million in all.
const bigLevel = 200_000

type goldenLevel struct {
	Board   string        `json:"board"`
	Goal    string        `json:"goal"`
	Start   string        `json:"start"` // hex of the position
	Name    string        `json:"name,omitempty"`
	Metrics goldenMetrics `json:"metrics"`
}

type goldenMetrics struct {
	Pegs        int      `json:"pegs"`
	Reachable   int64    `json:"reachable"`
	Winnable    int64    `json:"winnable"`
	Solutions   string   `json:"solutions"`
	Games       string   `json:"games"`
	P0          string   `json:"p0"`
	P1          string   `json:"p1"`
	MeanAttempt string   `json:"mean_attempt"`
	J1          string   `json:"j1"`
	Critical    int      `json:"critical"`
	UniqueFirst bool     `json:"unique_first"`
	FewestMoves int      `json:"fewest_moves"`
	Foresight   []string `json:"foresight"`
	Attempts    []string `json:"attempts"`
	Branching   string   `json:"branching"`
}

// bitsOf writes f's exact bits (and its value, for a reader).
func bitsOf(f float64) string {
	return strconv.FormatUint(math.Float64bits(f), 16) + " " + strconv.FormatFloat(f, 'g', -1, 64)
}

func bitsOfAll(fs []float64) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, bitsOf(f))
	}
	return out
}

func toGolden(m measure.Metrics) goldenMetrics {
	str := func(x *big.Int) string {
		if x == nil {
			return "nil"
		}
		return x.String()
	}
	return goldenMetrics{
		Pegs: m.Pegs, Reachable: m.Reachable, Winnable: m.Winnable,
		Solutions: str(m.Solutions), Games: str(m.Games),
		P0: bitsOf(m.P0), P1: bitsOf(m.P1), MeanAttempt: bitsOf(m.MeanAttempt), J1: bitsOf(m.J1),
		Critical: m.Critical, UniqueFirst: m.UniqueFirst, FewestMoves: m.FewestMoves,
		Foresight: bitsOfAll(m.Foresight), Attempts: bitsOfAll(m.Attempts), Branching: bitsOf(m.Branching),
	}
}

// goldenLevels draws the levels of the golden file.
func goldenLevels(t *testing.T) []goldenLevel {
	var out []goldenLevel
	add := func(b *engine.Board, goal string, p engine.Position, name string) {
		out = append(out, goldenLevel{Board: b.Name(), Goal: goal, Start: strconv.FormatUint(uint64(p), 16), Name: name})
	}
	eng := engine.English()
	fh, err := os.Open("../../generate/testdata/classic.levels")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	classic, err := eng.ReadLevels(fh)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range classic {
		add(eng, "center", l.Position, l.Name)
	}
	for _, c := range []struct {
		board, goal string
		min, max    int
	}{{"english", "center", 6, 20}, {"triangle", "any", 5, 13}, {"triangle", "1", 5, 13}} {
		b, err := engine.Lookup(c.board)
		if err != nil {
			t.Fatal(err)
		}
		g, err := b.ParseGoal(c.goal)
		if err != nil {
			t.Fatal(err)
		}
		n := 80
		if c.board == "triangle" {
			n = 60
		}
		levels, err := generate.Generate(context.Background(), b, n, generate.Options{Goal: g, MinPegs: c.min, MaxPegs: c.max, Seed: 7, Workers: 2})
		if err != nil {
			t.Fatalf("%s %s: %v", c.board, c.goal, err)
		}
		for _, l := range levels {
			add(b, c.goal, l.Position(), "")
		}
	}
	// Random layouts, most of which cannot win: the measures of a lost
	// level.
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct{ board, goal string }{{"english", "center"}, {"english", "any"}, {"triangle:6", "any"}} {
		b, err := engine.Lookup(c.board)
		if err != nil {
			t.Fatal(err)
		}
		for range 10 {
			var p engine.Position
			for pegs := 6 + rng.IntN(10); p.Pegs() < pegs; {
				p |= 1 << uint(rng.IntN(b.Holes()))
			}
			add(b, c.goal, p, "")
		}
	}
	return out
}

func (l goldenLevel) load(t *testing.T) (*engine.Board, engine.Position, engine.Goal) {
	b, err := engine.Lookup(l.Board)
	if err != nil {
		t.Fatal(err)
	}
	g, err := b.ParseGoal(l.Goal)
	if err != nil {
		t.Fatal(err)
	}
	p, err := strconv.ParseUint(l.Start, 16, 64)
	if err != nil {
		t.Fatal(err)
	}
	return b, engine.Position(p), g
}

func (l goldenLevel) String() string {
	if l.Name != "" {
		return l.Name
	}
	return l.Board + "/" + l.Goal + "/" + l.Start
}

// TestGolden measures the levels of the golden file and checks every
// metric, floats to the last bit, against the recorded ones. With -update
// it draws the levels again and records what the code under test
// measures.
func TestGolden(t *testing.T) {
	var levels []goldenLevel
	if *update {
		if !*full {
			t.Fatal("-update needs -full, to record Full too")
		}
		levels = goldenLevels(t)
	} else {
		data, err := os.ReadFile(goldenFile)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &levels); err != nil {
			t.Fatal(err)
		}
		if len(levels) < 200 {
			t.Fatalf("%s holds %d levels, want 200 or more", goldenFile, len(levels))
		}
	}
	for i := range levels {
		l := &levels[i]
		if l.Metrics.Reachable > bigLevel && !*full && !*update {
			continue
		}
		b, p, g := l.load(t)
		m, err := measure.Level(context.Background(), b, p, g, search.DefaultMemory)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		got := toGolden(m)
		if *update {
			l.Metrics = got
			continue
		}
		if want := l.Metrics; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s:\n got %+v\nwant %+v", l, got, want)
		}
	}
	if *update {
		data, err := json.MarshalIndent(levels, "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenFile, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
