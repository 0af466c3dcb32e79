package hint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pegs/engine"
	"pegs/engine/enginetest"
	"pegs/search"
)

// smallOracles returns oracles of the triangle from hole 1: toward any
// hole and toward hole 10 (with its one-peg table), each with a fewest
// table of every peg count.
func smallOracles(t testing.TB) []*Oracle {
	t.Helper()
	b, err := engine.Lookup("triangle")
	if err != nil {
		t.Fatal(err)
	}
	start, _ := b.Vacate("1")
	var out []*Oracle
	for _, g := range []string{"any", "10"} {
		gl, _ := b.ParseGoal(g)
		o, err := NewOracle(context.Background(), search.Problem{Board: b, Start: start, Goal: gl}, search.Budget{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		o.fewestMin = 1
		if err := o.AddFewest(context.Background(), search.Budget{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
	return out
}

// answers returns what o says of every position its start reaches: one
// line per position, so that two oracles answer alike exactly when their
// answers are equal.
func answers(o *Oracle) string {
	b := o.board
	var sb strings.Builder
	seen := map[engine.Position]bool{}
	var walk func(p engine.Position)
	walk = func(p engine.Position) {
		if seen[p] {
			return
		}
		seen[p] = true
		w, wok := o.Winnable(p)
		one, ook := o.OnePeg(p)
		f, fok := o.Fewest(p)
		fmt.Fprintf(&sb, "%s %v %v %v %v %d %v\n", b.Line(p), w, wok, one, ook, f, fok)
		for _, j := range b.Moves(nil, p) {
			walk(p.Apply(j))
		}
	}
	walk(o.start)
	fmt.Fprintf(&sb, "start %s goal %s len %d fewest %d\n", b.Line(o.start), b.FormatGoal(o.goal), o.Len(), o.FewestLen())
	return sb.String()
}

// checkRefusal fails t unless err is a one-line error of a bad oracle.
func checkRefusal(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, ErrOracle) {
		t.Fatalf("%s: %v, want an error for which errors.Is(err, ErrOracle)", what, err)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Fatalf("%s: the error is not one line: %q", what, err)
	}
}

// TestOracleDamage flips every byte of small oracles written in small
// blocks, and cuts them at every length: each is refused, or answers as
// the original.
func TestOracleDamage(t *testing.T) {
	for _, o := range smallOracles(t) {
		var buf bytes.Buffer
		if err := o.write(&buf, 96); err != nil {
			t.Fatal(err)
		}
		file := buf.Bytes()
		want := answers(o)
		if n := len(o.payload()); n < 3*96 {
			t.Fatalf("a payload of %d bytes; want several blocks", n)
		}
		loaded, err := LoadOracle(bytes.NewReader(file), o.board)
		if err != nil {
			t.Fatal(err)
		}
		if got := answers(loaded); got != want {
			t.Fatal("the oracle loaded answers otherwise than the one written")
		}
		accepted, corrupt := 0, 0
		for i := range file {
			for _, x := range []byte{0x01, 0x80, 0xff} {
				bad := bytes.Clone(file)
				bad[i] ^= x
				got, err := LoadOracle(bytes.NewReader(bad), o.board)
				if err != nil {
					checkRefusal(t, fmt.Sprintf("byte %d ^ %#x", i, x), err)
					if errors.Is(err, ErrOracleCorrupt) {
						corrupt++
					}
					continue
				}
				accepted++
				if answers(got) != want {
					t.Fatalf("goal %s: with byte %d ^ %#x the oracle loads and answers otherwise", o.board.FormatGoal(o.goal), i, x)
				}
			}
		}
		for n := range len(file) {
			_, err := LoadOracle(bytes.NewReader(file[:n]), o.board)
			checkRefusal(t, fmt.Sprintf("cut to %d of %d bytes", n, len(file)), err)
		}
		_, err = LoadOracle(bytes.NewReader(append(bytes.Clone(file), 0)), o.board)
		checkRefusal(t, "a byte after the end", err)
		if !errors.Is(err, ErrOracleCorrupt) {
			t.Errorf("a byte after the end: %v, want ErrOracleCorrupt", err)
		}
		t.Logf("goal %s: %d bytes, %d flips loaded alike, %d refused as corrupt", o.board.FormatGoal(o.goal), len(file), accepted, corrupt)
		if corrupt < 3*len(file)*9/10 {
			t.Errorf("only %d of %d flips refused as corrupt", corrupt, 3*len(file))
		}
	}
}

func TestOracleRejects(t *testing.T) {
	tri := enginetest.Board(t, "triangle")
	o := smallOracles(t)[1]
	var buf bytes.Buffer
	if err := o.Write(&buf); err != nil {
		t.Fatal(err)
	}
	// Version 3, the last without checksums: the header of today's and
	// a payload.
	v3 := strings.Replace(strings.Join(strings.SplitAfter(buf.String(), "\n")[:5], ""), oracleMagic, "PEGS-ORACLE 3", 1) + "\x00\x00\x00"
	dir := t.TempDir()
	for _, c := range []struct {
		name    string
		data    string
		board   *engine.Board
		corrupt bool
		want    string
	}{
		{"garbage", "not an oracle\n\n\n\n\n", tri, false, "not an oracle file"},
		{"zeros", string(make([]byte, 1<<16)), tri, false, "not an oracle file"},
		{"empty", "", tri, false, "not an oracle file"},
		{"other board", buf.String(), engine.English(), false, "it is for board triangle"},
		{"version 3", v3, tri, false, "rebuild it: pegs oracle --board triangle --position '.oooooooooooooo' --goal 10 --out FILE"},
		{"version 5", strings.Replace(buf.String(), oracleMagic, "PEGS-ORACLE 5", 1), tri, false, "format 5, newer"},
		{"long line", oracleMagic + "\n" + strings.Repeat("x", 1<<20), tri, true, "line too long"},
		{"cut", buf.String()[:buf.Len()-3], tri, true, "the file ends inside the block"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadOracle(strings.NewReader(c.data), c.board)
			checkRefusal(t, c.name, err)
			if errors.Is(err, ErrOracleCorrupt) != c.corrupt || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v; want %q, corrupt %v", err, c.want, c.corrupt)
			}
		})
	}
	// A file whose size is not the header's is refused before its blocks
	// are read.
	path := filepath.Join(dir, "cut.oracle")
	if err := os.WriteFile(path, buf.Bytes()[:buf.Len()-1], 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := LoadOracle(f, tri); !errors.Is(err, ErrOracleCorrupt) || !strings.Contains(err.Error(), "header at byte 0: the file has") {
		t.Errorf("a file cut short: %v", err)
	}
}

func FuzzLoadOracle(f *testing.F) {
	originals := smallOracles(f)
	b := originals[0].board
	want := map[string]string{}
	for _, o := range originals {
		var buf bytes.Buffer
		o.Write(&buf)
		f.Add(buf.Bytes())
		buf.Reset()
		o.write(&buf, 64)
		f.Add(buf.Bytes())
		want[b.FormatGoal(o.goal)] = answers(o)
	}
	f.Add([]byte(oracleMagic + "\ntriangle\n15\n.oooooooooooooo\nany\n\x01\x0e\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := LoadOracle(bytes.NewReader(data), b)
		if err != nil {
			if !errors.Is(err, ErrOracle) {
				t.Fatalf("error without ErrOracle: %v", err)
			}
			return
		}
		// Checksums make a file the fuzzer changed fail to load; one
		// that loads must answer as the original of its goal.
		if got := answers(o); got != want[b.FormatGoal(o.goal)] {
			t.Fatalf("an oracle for goal %s loads and answers otherwise than the original", b.FormatGoal(o.goal))
		}
	})
}
