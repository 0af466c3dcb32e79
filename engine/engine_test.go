package engine

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestBuiltinBoards(t *testing.T) {
	tests := []struct {
		name                     string
		holes, jumps, syms, clss int
		centre                   string
	}{
		{"english", 33, 76, 8, 16, "d4"},
		{"french", 37, 92, 8, 16, "d4"},
		{"triangle", 15, 36, 6, 4, ""},
		{"triangle:4", 10, 18, 6, 4, "5"},
		{"triangle:7", 28, 90, 6, 4, "13"},
		{"triangle:10", 55, 216, 6, 4, "25"},
		{"diamond", 41, 100, 8, 16, "e5"},
		{"wiegleb", 45, 108, 8, 16, "e5"},
	}
	for _, tt := range tests {
		b, err := Lookup(tt.name)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", tt.name, err)
		}
		if got := b.Holes(); got != tt.holes {
			t.Errorf("%s: %d holes, want %d", tt.name, got, tt.holes)
		}
		if got := len(b.Jumps()); got != tt.jumps {
			t.Errorf("%s: %d jumps, want %d", tt.name, got, tt.jumps)
		}
		if got := b.Symmetry().Len(); got != tt.syms {
			t.Errorf("%s: %d symmetries, want %d", tt.name, got, tt.syms)
		}
		if got := b.Classes(); got != tt.clss {
			t.Errorf("%s: %d position classes, want %d", tt.name, got, tt.clss)
		}
		c, ok := b.Centre()
		got := ""
		if ok {
			got = b.Label(c)
		}
		if got != tt.centre {
			t.Errorf("%s: centre %q, want %q", tt.name, got, tt.centre)
		}
	}
}

func TestCustomBoardSymmetry(t *testing.T) {
	tests := []struct {
		name, pic string
		g         Geometry
		holes     int
		syms      int
	}{
		{"L shape", "ooo\no  \no  ", Square, 5, 2},
		{"irregular", "oooo\no-o-\noo--", Square, 8, 1},
		{"square diag", "ooo\nooo\nooo", Diagonal, 9, 8},
		{"hexagon", "  o o\n o o o\n  o o", Triangular, 7, 12},
		{"triangle", "  o\n o o\no o o", Triangular, 6, 6},
	}
	for _, tt := range tests {
		b, err := Parse(tt.name, tt.pic, tt.g)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if b.Holes() != tt.holes || b.Symmetry().Len() != tt.syms {
			t.Errorf("%s: %d holes, %d symmetries; want %d, %d", tt.name, b.Holes(), b.Symmetry().Len(), tt.holes, tt.syms)
		}
	}
}

// TestSymmetriesPreserveJumps checks that every symmetry maps jumps to jumps.
func TestSymmetriesPreserveJumps(t *testing.T) {
	for _, info := range Boards() {
		b := must(Lookup(info.Name))
		jumps := map[Jump]bool{}
		for _, j := range b.Jumps() {
			jumps[j] = true
		}
		g := b.Symmetry()
		for s := range g.Len() {
			perm := g.Perm(s)
			for _, j := range b.Jumps() {
				img := Jump{perm[j.From], perm[j.Over], perm[j.To]}
				if !jumps[img] {
					t.Fatalf("%s: symmetry %d maps jump %v to %v, not a jump", b.Name(), s, j, img)
				}
			}
		}
	}
}

func TestCanonicalInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"english", "french", "triangle", "triangle:10", "wiegleb"} {
		b := must(Lookup(name))
		g := b.Symmetry()
		for range 2000 {
			p := Position(rng.Uint64()) & b.Full()
			c := g.Canonical(p)
			for s := range g.Len() {
				img := g.Apply(s, p)
				if img.Pegs() != p.Pegs() {
					t.Fatalf("%s: image has %d pegs, want %d", name, img.Pegs(), p.Pegs())
				}
				if got := g.Canonical(img); got != c {
					t.Fatalf("%s: Canonical(image %d of %s) = %s, want %s", name, s, b.Line(p), b.Line(got), b.Line(c))
				}
			}
		}
	}
}

// TestHalfTurn checks the images a group finds by reversing the reading
// order (see Group): on boards a half turn maps onto itself, and on their
// stabilizers that keep the half turn, Images and Canonical give what moving
// each peg by the symmetry's permutation gives; elsewhere the group finds
// every image by its tables.
func TestHalfTurn(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		board string
		fix   string // a hole whose stabilizer is checked too
		half  bool
	}{
		{"english", "d4", true},
		{"english", "d1", false},
		{"french", "d4", true},
		{"wiegleb", "e5", true},
		{"diamond", "e5", true},
		{"triangle", "1", false},
	} {
		b := must(Lookup(c.board))
		h, _ := b.Hole(c.fix)
		g := b.Symmetry().Stabilizer(1 << uint(h))
		if got := g.half != nil; got != c.half {
			t.Errorf("%s, stabilizer of %s: pairs by half turns %v, want %v", c.board, c.fix, got, c.half)
		}
		for _, g := range []*Group{b.Symmetry(), g} {
			imgs := make([]Position, g.Len())
			for range 500 {
				p := Position(rng.Uint64()) & b.Full()
				g.Images(p, imgs)
				want := p
				for s := range g.Len() {
					var img Position
					for h := range b.Holes() {
						if p.Has(h) {
							img |= 1 << uint(g.Perm(s)[h])
						}
					}
					if imgs[s] != img {
						t.Fatalf("%s: image %d of %s = %s, want %s", c.board, s, b.Line(p), b.Line(imgs[s]), b.Line(img))
					}
					want = min(want, img)
				}
				if got := g.Canonical(p); got != want {
					t.Fatalf("%s: Canonical(%s) = %s, want %s", c.board, b.Line(p), b.Line(got), b.Line(want))
				}
			}
		}
	}
}

func TestStabilizer(t *testing.T) {
	b := English()
	h, _ := b.Hole("d4")
	if got := b.Symmetry().Stabilizer(1 << uint(h)).Len(); got != 8 {
		t.Errorf("stabilizer of d4 has %d elements, want 8", got)
	}
	h, _ = b.Hole("d1")
	if got := b.Symmetry().Stabilizer(1 << uint(h)).Len(); got != 2 {
		t.Errorf("stabilizer of d1 has %d elements, want 2", got)
	}
	h, _ = b.Hole("c1")
	if got := b.Symmetry().Stabilizer(1 << uint(h)).Len(); got != 1 {
		t.Errorf("stabilizer of c1 has %d elements, want 1", got)
	}
}

// TestClassInvariant plays random games and checks that no jump changes the
// position class.
func TestClassInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, name := range []string{"english", "french", "triangle", "triangle:8"} {
		b := must(Lookup(name))
		for range 200 {
			p := b.Start()
			c := b.Class(p)
			for {
				moves := b.Moves(nil, p)
				if len(moves) == 0 {
					break
				}
				p = p.Apply(moves[rng.IntN(len(moves))])
				if b.Class(p) != c {
					t.Fatalf("%s: class changed to %d after reaching %s", name, b.Class(p), b.Line(p))
				}
			}
		}
	}
}

// TestRuleOfThree checks the classic consequence of the classes: from the
// English centre start one peg can finish only at d4 and the holes three
// steps from it.
func TestRuleOfThree(t *testing.T) {
	b := English()
	var got []string
	for h := range b.Holes() {
		if b.Class(b.Start()) == b.Class(1<<uint(h)) {
			got = append(got, b.Label(h))
		}
	}
	if want := "d1 a4 d4 g4 d7"; strings.Join(got, " ") != want {
		t.Errorf("finishes in the start's class: %v, want %s", got, want)
	}
	f := French()
	if f.Feasible(f.Start(), Goal{Kind: OnePeg}) {
		t.Errorf("French centre start: class allows one peg, want refuted")
	}
}

func TestPagodas(t *testing.T) {
	for _, info := range Boards() {
		b := must(Lookup(info.Name))
		for h := range b.Holes() {
			pg := b.DistancePagoda(h)
			for _, j := range b.Jumps() {
				if pg.Weight(j.From)+pg.Weight(j.Over) < pg.Weight(j.To) {
					t.Fatalf("%s: distance pagoda to %s fails on jump %s", b.Name(), b.Label(h), b.FormatJump(j))
				}
			}
		}
	}
	b := English()
	bad := make([]int, b.Holes())
	bad[0] = 1
	if _, ok := b.NewPagoda(bad); ok {
		t.Errorf("NewPagoda accepted weights that a jump into c1 breaks")
	}
}

func TestNotation(t *testing.T) {
	b := English()
	jumps, err := b.ParseMoves("f4-d4, d2-d4 d5-d3-d1")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, j := range jumps {
		got = append(got, b.FormatJump(j))
	}
	if want := "f4-d4 d2-d4 d5-d3 d3-d1"; strings.Join(got, " ") != want {
		t.Errorf("ParseMoves: %v, want %s", got, want)
	}
	if got, want := strings.Join(b.FormatMoves(jumps), " "), "f4-d4 d2-d4 d5-d3-d1"; got != want {
		t.Errorf("FormatMoves: %s, want %s", got, want)
	}
	tri := must(Lookup("triangle"))
	j, err := tri.ParseMoves("4-1")
	if err != nil || len(j) != 1 || tri.FormatJump(j[0]) != "4-1" {
		t.Errorf("triangle 4-1: %v %v", j, err)
	}
	for _, bad := range []string{"f4", "z9-d4", "d4-d5", "a1-a3"} {
		if _, err := b.ParseMoves(bad); err == nil {
			t.Errorf("ParseMoves(%q): no error", bad)
		}
	}
}

func TestReplay(t *testing.T) {
	b := English()
	jumps, _ := b.ParseMoves("f4-d4 d2-d4")
	if _, err := b.Replay(b.Start(), jumps); !errors.Is(err, ErrIllegalJump) {
		t.Errorf("Replay(f4-d4 d2-d4): %v, want ErrIllegalJump (d3 is empty)", err)
	}
	jumps, _ = b.ParseMoves("f4-d4 e6-e4")
	p, err := b.Replay(b.Start(), jumps)
	if err != nil || p.Pegs() != 30 {
		t.Errorf("Replay: %v, %d pegs", err, p.Pegs())
	}
}

func TestPositionPictures(t *testing.T) {
	b := English()
	p := b.Start()
	for _, pic := range []string{b.Line(p), b.Picture(p)} {
		got, err := b.ParsePosition(pic)
		if err != nil || got != p {
			t.Errorf("ParsePosition(%q) = %s, %v; want %s", pic, b.Line(got), err, b.Line(p))
		}
	}
	tests := []struct{ pic, want string }{
		{"ooo", "3 symbols"},
		{strings.Repeat("o", 34), "more than 33"},
		{strings.Repeat("o", 32) + "x", "symbol 'x' at character 33"},
	}
	for _, tt := range tests {
		_, err := b.ParsePosition(tt.pic)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, ErrPicture) {
			t.Errorf("ParsePosition(%q): %v, want an ErrPicture naming %q", tt.pic, err, tt.want)
		}
	}
}

func TestParseBoardErrors(t *testing.T) {
	tests := []struct {
		pic  string
		g    Geometry
		want string
	}{
		{"", Square, "no holes"},
		{"o.o", Square, ""},
		{"o", Square, "no jumps"},
		{"o o\n o", Square, "no jumps"},
		{strings.Repeat("ooooooooo\n", 8), Square, "too many holes"},
		{"o o\no", Triangular, "two columns apart"},
	}
	for _, tt := range tests {
		_, err := Parse("t", tt.pic, tt.g)
		if tt.want == "" {
			if err != nil {
				t.Errorf("Parse(%q): %v", tt.pic, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q): %v, want error containing %q", tt.pic, err, tt.want)
		}
	}
	if _, err := Lookup("square"); !errors.Is(err, ErrUnknownBoard) {
		t.Errorf("Lookup(square): %v", err)
	}
	for _, n := range []string{"triangle:3", "triangle:11", "triangle:x"} {
		if _, err := Lookup(n); err == nil {
			t.Errorf("Lookup(%s): no error", n)
		}
	}
}

func TestGoals(t *testing.T) {
	b := English()
	for _, s := range []string{"any", "center", "centre", "fewest", "c1"} {
		g, err := b.ParseGoal(s)
		if err != nil {
			t.Errorf("ParseGoal(%q): %v", s, err)
		}
		if s != "centre" && b.FormatGoal(g) != s {
			t.Errorf("FormatGoal(ParseGoal(%q)) = %q", s, b.FormatGoal(g))
		}
	}
	tri := must(Lookup("triangle"))
	if _, err := tri.ParseGoal("center"); !errors.Is(err, ErrNoCentre) {
		t.Errorf("triangle centre goal: %v, want ErrNoCentre", err)
	}
	if _, err := b.ParseGoal("x9"); err == nil {
		t.Errorf("ParseGoal(x9): no error")
	}
}

func FuzzParsePosition(f *testing.F) {
	b := English()
	f.Add(b.Line(b.Start()))
	f.Add(b.Picture(b.Start()))
	f.Add("o.x")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := b.ParsePosition(s)
		if err != nil {
			return
		}
		if p&^b.Full() != 0 {
			t.Fatalf("position %x has pegs outside the board", p)
		}
		if q, err := b.ParsePosition(b.Line(p)); err != nil || q != p {
			t.Fatalf("round trip: %v %v", q, err)
		}
	})
}

func FuzzParseBoard(f *testing.F) {
	f.Add(strings.Join(englishRows, "\n"), 0)
	f.Add("  .\n o o\no o o", 2)
	f.Add("ooo\nooo", 1)
	f.Fuzz(func(t *testing.T, s string, geom int) {
		g := Geometry(((geom % 3) + 3) % 3)
		b, err := Parse("fuzz", s, g)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error has more than one line: %q", err)
			}
			return
		}
		if b.Holes() == 0 || b.Holes() > MaxHoles || len(b.Jumps()) == 0 || b.Symmetry().Len() == 0 {
			t.Fatalf("board with %d holes, %d jumps, %d symmetries", b.Holes(), len(b.Jumps()), b.Symmetry().Len())
		}
		p := b.Start()
		if q, err := b.ParsePosition(b.Picture(p)); err != nil || q != p {
			t.Fatalf("picture round trip: %v", err)
		}
		sym := b.Symmetry()
		if sym.Canonical(sym.Apply(sym.Len()-1, p)) != sym.Canonical(p) {
			t.Fatalf("canonical form not invariant")
		}
		// Images found by half turns (see Group) are the permutations'.
		q := p &^ (p >> 1) // some position other than the start's
		for s, img := range sym.Images(q, make([]Position, sym.Len())) {
			var want Position
			for h := range b.Holes() {
				if q.Has(h) {
					want |= 1 << uint(sym.Perm(s)[h])
				}
			}
			if img != want {
				t.Fatalf("image %d of %s = %s, want %s", s, b.Line(q), b.Line(img), b.Line(want))
			}
		}
	})
}

func FuzzParseMoves(f *testing.F) {
	b := English()
	f.Add("f4-d4, d2-d4")
	f.Add("f4-d4-b4")
	f.Add("--,,a1-")
	f.Fuzz(func(t *testing.T, s string) {
		jumps, err := b.ParseMoves(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error has more than one line: %q", err)
			}
			return
		}
		for _, j := range jumps {
			if !b.valid(j) {
				t.Fatalf("ParseMoves(%q) returned %v, not a jump of the board", s, j)
			}
		}
	})
}

func FuzzParseGoalAndVacate(f *testing.F) {
	b := English()
	f.Add("center")
	f.Add("d4,c1")
	f.Fuzz(func(t *testing.T, s string) {
		if g, err := b.ParseGoal(s); err == nil && g.Kind == OnePegAt && (g.Hole < 0 || g.Hole >= b.Holes()) {
			t.Fatalf("ParseGoal(%q) gave hole %d", s, g.Hole)
		}
		if p, err := b.Vacate(s); err == nil && p&^b.Full() != 0 {
			t.Fatalf("Vacate(%q) gave pegs outside the board", s)
		}
	})
}

func TestReadLevels(t *testing.T) {
	b := English()
	got, err := b.ReadLevels(strings.NewReader("# classic\nCross ....o...ooo.....o......o.........\n\nPlus ....o....o....ooooo....o....o....\n"))
	if err != nil || len(got) != 2 || got[1].Name != "Plus" || got[1].Position.Pegs() != 9 {
		t.Errorf("ReadLevels: %+v, %v", got, err)
	}
	if _, err := b.ReadLevels(strings.NewReader("Cross ooo\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("bad picture: %v, want an error naming line 1", err)
	}
	// A byte-order mark is no part of the first level's name.
	got, err = b.ReadLevels(strings.NewReader("\uFEFFCross ....o...ooo.....o......o.........\n"))
	if err != nil || len(got) != 1 || got[0].Name != "Cross" {
		t.Errorf("with a byte-order mark: %+v, %v; want the level Cross", got, err)
	}
	long := "# ok\nCross ....o...ooo.....o......o.........\n" + strings.Repeat("x", 1<<20) + "\n"
	if _, err := b.ReadLevels(strings.NewReader(long)); err == nil || err.Error() != "line 3: longer than 65536 bytes" {
		t.Errorf("a line of 1 MiB: %v, want it named as line 3", err)
	}
}

func TestPlace(t *testing.T) {
	tests := []struct {
		board, hole string
		x, y        float64
	}{
		{"english", "c1", 2, 0},
		{"english", "d4", 3, 3},
		{"english", "a3", 0, 2},
		{"triangle", "1", 2, 0},
		{"triangle", "11", 0, 4 * math.Sqrt(3) / 2},
		{"triangle", "15", 4, 4 * math.Sqrt(3) / 2},
	}
	for _, tt := range tests {
		b, err := Lookup(tt.board)
		if err != nil {
			t.Fatal(err)
		}
		h, err := b.Hole(tt.hole)
		if err != nil {
			t.Fatal(err)
		}
		if x, y := b.Place(h); math.Abs(x-tt.x) > 1e-9 || math.Abs(y-tt.y) > 1e-9 {
			t.Errorf("%s %s: Place = (%g, %g), want (%g, %g)", tt.board, tt.hole, x, y, tt.x, tt.y)
		}
	}
}

func TestCoordSteps(t *testing.T) {
	boards := []*Board{}
	for _, info := range Boards() {
		boards = append(boards, must(Lookup(info.Name)))
	}
	hex, err := Parse("hexagon", "  o o\n o o o\no o o o\n o o o\n  o o", Triangular)
	if err != nil {
		t.Fatal(err)
	}
	boards = append(boards, hex)
	for _, b := range boards {
		seen := map[[2]int]int{}
		for h := range b.Holes() {
			r, c := b.Coord(h)
			if r < 0 || c < 0 {
				t.Errorf("%s: Coord(%s) = (%d, %d), want both >= 0", b.Name(), b.Label(h), r, c)
			}
			if o, dup := seen[[2]int{r, c}]; dup {
				t.Errorf("%s: holes %s and %s share Coord (%d, %d)", b.Name(), b.Label(o), b.Label(h), r, c)
			}
			seen[[2]int{r, c}] = h
		}
		for _, j := range b.Jumps() {
			fr, fc := b.Coord(j.From)
			or, oc := b.Coord(j.Over)
			tr, tc := b.Coord(j.To)
			if or-fr != tr-or || oc-fc != tc-oc {
				t.Errorf("%s: jump %s steps unevenly: (%d,%d) (%d,%d) (%d,%d)", b.Name(), b.FormatJump(j), fr, fc, or, oc, tr, tc)
			}
		}
	}
}

// BenchmarkSymmetry measures the reduction of positions by symmetry
// (op=canonical) and their images (op=images), which exhaustive searches
// find for every position they meet or expand, on 1024 random positions.
func BenchmarkSymmetry(b *testing.B) {
	ops := map[string]func(g *Group, p Position, imgs []Position) Position{
		"canonical": func(g *Group, p Position, _ []Position) Position { return g.Canonical(p) },
		"images":    func(g *Group, p Position, imgs []Position) Position { return g.Images(p, imgs)[1] },
	}
	for _, op := range []string{"canonical", "images"} {
		for _, name := range []string{"english", "triangle", "french"} {
			bd := must(Lookup(name))
			rng := rand.New(rand.NewPCG(7, 8))
			ps := make([]Position, 1024)
			for i := range ps {
				ps[i] = Position(rng.Uint64()) & bd.Full()
			}
			g := bd.Symmetry()
			imgs := make([]Position, g.Len())
			b.Run("op="+op+"/board="+name, func(b *testing.B) {
				var sink Position
				for b.Loop() {
					for _, p := range ps {
						sink ^= ops[op](g, p, imgs)
					}
				}
				b.ReportMetric(float64(b.N*len(ps))/b.Elapsed().Seconds(), "positions/s")
				if sink == 1 {
					b.Log(sink)
				}
			})
		}
	}
}

// TestRandomGame checks that a random game replays from its start and ends
// where no jump is left, and that the same seed plays the same game.
func TestRandomGame(t *testing.T) {
	b := English()
	for seed := range uint64(20) {
		jumps := b.RandomGame(b.Start(), rand.New(rand.NewPCG(seed, 1)))
		end, err := b.Replay(b.Start(), jumps)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if moves := b.Moves(nil, end); len(moves) != 0 {
			t.Errorf("seed %d: the game stops with %d jumps left", seed, len(moves))
		}
		again := b.RandomGame(b.Start(), rand.New(rand.NewPCG(seed, 1)))
		if !slices.Equal(jumps, again) {
			t.Errorf("seed %d: two games differ", seed)
		}
	}
}
