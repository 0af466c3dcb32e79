// Package engine holds the rules of peg solitaire: boards, positions, jumps,
// symmetry, position classes and pagoda functions.
//
// A board is a set of holes on a lattice (square, square with diagonal jumps,
// or triangular). A position is a bitset over the board's holes, so boards
// have at most 64 holes. Square boards label holes by column letter and row
// number (a1 is top left, d4 the centre of the English board); triangular
// boards number holes 1..N row by row from the top.
package engine

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// MaxHoles is the largest number of holes a board may have: a position is a
// 64-bit set.
const MaxHoles = 64

// Geometry says which lattice a board lies on and so which jumps exist.
type Geometry int

const (
	// Square boards jump orthogonally.
	Square Geometry = iota
	// Diagonal boards are square boards that also jump diagonally.
	Diagonal
	// Triangular boards jump in the six directions of the triangular lattice.
	Triangular
)

var geometryNames = []string{"square", "diagonal", "triangular"}

func (g Geometry) String() string {
	if g >= 0 && int(g) < len(geometryNames) {
		return geometryNames[g]
	}
	return "Geometry(" + strconv.Itoa(int(g)) + ")"
}

// ParseGeometry reads a geometry name: square, diagonal or triangular.
func ParseGeometry(s string) (Geometry, error) {
	for i, n := range geometryNames {
		if strings.EqualFold(s, n) {
			return Geometry(i), nil
		}
	}
	return 0, fmt.Errorf("unknown geometry %q (want square, diagonal or triangular)", s)
}

// directions returns the lattice steps along which jumps run.
func (g Geometry) directions() []point {
	switch g {
	case Diagonal:
		return []point{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}}
	case Triangular:
		// Axial coordinates: (row, index in row); the lattice neighbours of
		// hole (r, c) are (r, c±1), (r-1, c-1), (r-1, c), (r+1, c), (r+1, c+1).
		return []point{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, -1}}
	default:
		return []point{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}
	}
}

// point is a lattice coordinate: row and column (for triangular boards, the
// index within the row, counted so that the row below has the same index down
// and to the left).
type point struct{ r, c int }

func (p point) add(q point) point { return point{p.r + q.r, p.c + q.c} }

// Jump is one jump: the peg in From jumps over the peg in Over into the empty
// hole To. Holes are indices into the board's hole list.
type Jump struct {
	From, Over, To int
}

// Board is a peg solitaire board: its holes, their labels, every jump and its
// symmetry group. A Board is immutable and safe for concurrent use.
type Board struct {
	name   string
	geom   Geometry
	holes  []point
	labels []string
	index  map[string]int
	at     map[point]int
	jumps  []Jump
	group  *Group
	centre int
	start  Position
	// drawing: each hole's text row and column in Picture output.
	drawRow, drawCol []int
	drawW, drawH     int
	// parity holds, for each 3-colouring, the holes of two of its colours
	// and of the other two (see Class).
	parity [8]Position
	nclass int
}

// Errors reported when a board cannot be built.
var (
	ErrTooManyHoles = errors.New("too many holes")
	ErrNoJumps      = errors.New("board has no jumps")
	ErrUnknownBoard = errors.New("unknown board")
)

// Name returns the board's name, such as "english" or "triangle:6".
func (b *Board) Name() string { return b.name }

// Geometry returns the lattice the board lies on.
func (b *Board) Geometry() Geometry { return b.geom }

// Holes returns the number of holes.
func (b *Board) Holes() int { return len(b.holes) }

// Label returns the name of hole h, such as "d4" or "13".
func (b *Board) Label(h int) string { return b.labels[h] }

// Coord returns the row and column of hole h on the board's lattice: every
// jump steps by the same amount in both from its from hole to its over hole
// and from there to its to hole. Rows and columns start at 0.
func (b *Board) Coord(h int) (row, col int) {
	minR, minC := b.holes[0].r, b.holes[0].c
	for _, p := range b.holes {
		minR, minC = min(minR, p.r), min(minC, p.c)
	}
	return b.holes[h].r - minR, b.holes[h].c - minC
}

// Jumps returns every jump of the board, in a fixed order. The caller must
// not modify the slice.
func (b *Board) Jumps() []Jump { return b.jumps }

// Symmetry returns the board's symmetry group, computed from its shape.
func (b *Board) Symmetry() *Group { return b.group }

// Centre returns the board's central hole: the hole at the centroid of all
// holes, which every symmetry fixes. ok is false if there is none.
func (b *Board) Centre() (h int, ok bool) { return b.centre, b.centre >= 0 }

// Full returns the position with a peg in every hole.
func (b *Board) Full() Position { return Position(1)<<uint(len(b.holes)) - 1 }

// Start returns the board's usual starting position: for built-in boards the
// full board with the centre empty (the top hole on a triangle without a
// centre); for boards read from a picture, the pegs the picture shows.
func (b *Board) Start() Position { return b.start }

// Hole returns the index of the hole with the given label (case-insensitive).
func (b *Board) Hole(label string) (int, error) {
	if h, ok := b.index[strings.ToLower(strings.TrimSpace(label))]; ok {
		return h, nil
	}
	return 0, fmt.Errorf("unknown hole %q on board %s", label, b.name)
}

// neighbour returns the hole at p+d, or -1.
func (b *Board) holeAt(p point) int {
	if h, ok := b.at[p]; ok {
		return h
	}
	return -1
}

// newBoard builds a board from lattice points; start marks the holes that
// hold a peg at the start. Holes are numbered in reading order.
func newBoard(name string, geom Geometry, pts []point, pegs []bool) (*Board, error) {
	if len(pts) == 0 {
		return nil, errors.New("board has no holes")
	}
	if len(pts) > MaxHoles {
		return nil, fmt.Errorf("%w: %d holes, at most %d", ErrTooManyHoles, len(pts), MaxHoles)
	}
	order := make([]int, len(pts))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		if pts[i].r != pts[j].r {
			return pts[i].r - pts[j].r
		}
		return pts[i].c - pts[j].c
	})
	b := &Board{name: name, geom: geom, at: make(map[point]int, len(pts)), index: make(map[string]int, len(pts)), centre: -1}
	for _, i := range order {
		if _, dup := b.at[pts[i]]; dup {
			continue
		}
		b.at[pts[i]] = len(b.holes)
		if pegs == nil || pegs[i] {
			b.start |= 1 << uint(len(b.holes))
		}
		b.holes = append(b.holes, pts[i])
	}
	b.label()
	for h, p := range b.holes {
		for _, d := range geom.directions() {
			over := b.holeAt(p.add(d))
			to := b.holeAt(p.add(d).add(d))
			if over >= 0 && to >= 0 {
				b.jumps = append(b.jumps, Jump{From: h, Over: over, To: to})
			}
		}
	}
	if len(b.jumps) == 0 {
		return nil, ErrNoJumps
	}
	b.group = newGroup(b.symmetries())
	b.findCentre()
	b.layout()
	b.colour()
	return b, nil
}

// label names the holes: column letter and row number on square lattices,
// 1..N in reading order on triangular ones.
func (b *Board) label() {
	b.labels = make([]string, len(b.holes))
	minR, minC := b.holes[0].r, b.holes[0].c
	for _, p := range b.holes {
		minR, minC = min(minR, p.r), min(minC, p.c)
	}
	for h, p := range b.holes {
		var l string
		if b.geom == Triangular {
			l = strconv.Itoa(h + 1)
		} else {
			l = columnName(p.c-minC) + strconv.Itoa(p.r-minR+1)
		}
		b.labels[h] = l
		b.index[strings.ToLower(l)] = h
	}
}

// columnName returns a, b, ..., z, aa, ab, ... for columns 0, 1, ...
func columnName(c int) string {
	s := ""
	for {
		s = string(rune('a'+c%26)) + s
		c = c/26 - 1
		if c < 0 {
			return s
		}
	}
}

// findCentre sets the centre to the hole at the centroid of all holes.
func (b *Board) findCentre() {
	var sr, sc int
	for _, p := range b.holes {
		sr += p.r
		sc += p.c
	}
	n := len(b.holes)
	if sr%n != 0 || sc%n != 0 {
		return
	}
	b.centre = b.holeAt(point{sr / n, sc / n})
}

// layout places holes on a text grid: one column per lattice column on square
// boards; on triangular boards, holes two columns apart with each row offset
// by one, so the picture looks like the board.
func (b *Board) layout() {
	b.drawRow = make([]int, len(b.holes))
	b.drawCol = make([]int, len(b.holes))
	minR, minX := 1<<30, 1<<30
	x := func(p point) int {
		if b.geom == Triangular {
			return 2*p.c - p.r
		}
		return p.c
	}
	for _, p := range b.holes {
		minR, minX = min(minR, p.r), min(minX, x(p))
	}
	for h, p := range b.holes {
		b.drawRow[h] = p.r - minR
		b.drawCol[h] = x(p) - minX
		b.drawH = max(b.drawH, b.drawRow[h]+1)
		b.drawW = max(b.drawW, b.drawCol[h]+1)
	}
}

// Builtin names the built-in boards, in the order Boards lists them.
var builtin = []struct {
	name, desc string
	make       func() (*Board, error)
}{
	{"english", "English 33-hole cross", func() (*Board, error) { return fromRows("english", Square, englishRows) }},
	{"french", "French (European) 37-hole board", func() (*Board, error) { return fromRows("french", Square, frenchRows) }},
	{"triangle", "15-hole triangle (5 rows)", func() (*Board, error) { return Triangle(5) }},
	{"diamond", "41-hole diamond", func() (*Board, error) { return fromRows("diamond", Square, diamondRows) }},
	{"wiegleb", "Wiegleb's 45-hole cross", func() (*Board, error) { return fromRows("wiegleb", Square, wieglebRows) }},
}

var englishRows = []string{
	"  ooo  ",
	"  ooo  ",
	"ooooooo",
	"ooooooo",
	"ooooooo",
	"  ooo  ",
	"  ooo  ",
}

var frenchRows = []string{
	"  ooo  ",
	" ooooo ",
	"ooooooo",
	"ooooooo",
	"ooooooo",
	" ooooo ",
	"  ooo  ",
}

var diamondRows = []string{
	"    o    ",
	"   ooo   ",
	"  ooooo  ",
	" ooooooo ",
	"ooooooooo",
	" ooooooo ",
	"  ooooo  ",
	"   ooo   ",
	"    o    ",
}

var wieglebRows = []string{
	"   ooo   ",
	"   ooo   ",
	"   ooo   ",
	"ooooooooo",
	"ooooooooo",
	"ooooooooo",
	"   ooo   ",
	"   ooo   ",
	"   ooo   ",
}

// fromRows builds a built-in square board whose start is the full board less
// its centre.
func fromRows(name string, g Geometry, rows []string) (*Board, error) {
	b, err := Parse(name, strings.Join(rows, "\n"), g)
	if err != nil {
		return nil, err
	}
	b.start = b.Full()
	if c, ok := b.Centre(); ok {
		b.start &^= 1 << uint(c)
	}
	return b, nil
}

// English returns the English 33-hole cross board.
func English() *Board { return must(Lookup("english")) }

// French returns the French 37-hole board.
func French() *Board { return must(Lookup("french")) }

func must(b *Board, err error) *Board {
	if err != nil {
		panic(err)
	}
	return b
}

// Triangle returns the triangular board with the given number of rows
// (4..10); its holes are numbered 1..N row by row from the top. Its start is
// the full board less its centre, or less hole 1 where there is no centre.
func Triangle(rows int) (*Board, error) {
	if rows < 4 || rows > 10 {
		return nil, fmt.Errorf("triangle:%d: rows must be 4..10", rows)
	}
	var pts []point
	for r := range rows {
		for c := 0; c <= r; c++ {
			pts = append(pts, point{r, c})
		}
	}
	name := "triangle:" + strconv.Itoa(rows)
	if rows == 5 {
		name = "triangle"
	}
	b, err := newBoard(name, Triangular, pts, nil)
	if err != nil {
		return nil, err
	}
	empty, ok := b.Centre()
	if !ok {
		empty = 0
	}
	b.start &^= 1 << uint(empty)
	return b, nil
}

// BoardInfo describes a built-in board for listings.
type BoardInfo struct {
	Name, Description string
}

// Boards lists the built-in boards; triangle:N for N = 4..10 is accepted by
// Lookup too.
func Boards() []BoardInfo {
	var out []BoardInfo
	for _, e := range builtin {
		out = append(out, BoardInfo{e.name, e.desc})
	}
	for n := 4; n <= 10; n++ {
		if n == 5 {
			continue
		}
		out = append(out, BoardInfo{"triangle:" + strconv.Itoa(n), fmt.Sprintf("%d-hole triangle (%d rows)", n*(n+1)/2, n)})
	}
	return out
}

// Lookup returns the built-in board with the given name: english, french,
// triangle, triangle:N (N = 4..10), diamond or wiegleb. Each built-in board
// is built once and then shared: a Board is immutable, and searches may
// key tables by it.
func Lookup(name string) (*Board, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "triangle:5" {
		n = "triangle"
	}
	if b, ok := builtBoards[n]; ok {
		return b()
	}
	return lookup(n, name)
}

// builtBoards builds each built-in board once, by name.
var builtBoards = func() map[string]func() (*Board, error) {
	m := map[string]func() (*Board, error){}
	for _, e := range builtin {
		m[e.name] = sync.OnceValues(e.make)
	}
	for rows := 4; rows <= 10; rows++ {
		if rows != 5 {
			m["triangle:"+strconv.Itoa(rows)] = sync.OnceValues(func() (*Board, error) { return Triangle(rows) })
		}
	}
	return m
}()

func lookup(n, name string) (*Board, error) {
	for _, e := range builtin {
		if e.name == n {
			return e.make()
		}
	}
	if rest, ok := strings.CutPrefix(n, "triangle:"); ok {
		rows, err := strconv.Atoi(rest)
		if err != nil {
			return nil, fmt.Errorf("%w %q: triangle:N takes a number of rows 4..10", ErrUnknownBoard, name)
		}
		return Triangle(rows)
	}
	return nil, fmt.Errorf("%w %q (want %s)", ErrUnknownBoard, name, BoardNames())
}

// Parse reads a board drawn as text: every 'o' (peg) or '.' (empty hole) is a
// hole, any other character is no hole. On a square or diagonal board each
// character is one lattice column. On a triangular board holes in a row stand
// two columns apart and each row is offset by one from the next, as in
//
//	  .
//	 o o
//	o o o
//
// The pegs drawn become the board's start position.
func Parse(name, text string, g Geometry) (*Board, error) {
	var pts []point
	var pegs []bool
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for y, line := range lines {
		for x, ch := range []rune(line) {
			if ch != 'o' && ch != '.' {
				continue
			}
			p := point{y, x}
			if g == Triangular && len(pts) > 0 && (x+y)%2 != (pts[0].r+pts[0].c)%2 {
				return nil, fmt.Errorf("line %d column %d: a triangular board puts holes two columns apart, each row offset by one", y+1, x+1)
			}
			pts = append(pts, p)
			pegs = append(pegs, ch == 'o')
			if len(pts) > MaxHoles {
				return nil, fmt.Errorf("%w: more than %d holes (line %d)", ErrTooManyHoles, MaxHoles, y+1)
			}
		}
	}
	if len(pts) == 0 {
		return nil, errors.New("board picture has no holes ('o' or '.')")
	}
	if g == Triangular {
		for i, p := range pts {
			// Screen (y, x) to axial (r, c): neighbours in a row are two
			// columns apart; down-left is (r+1, c), down-right (r+1, c+1).
			pts[i] = point{p.r, (p.c + p.r) / 2}
		}
	}
	return newBoard(name, g, pts, pegs)
}

// Place returns the centre of hole h in the plane, in units of the distance
// between neighbouring holes: x grows to the right and y downward, with the
// board's top-left corner at (0, 0). Triangle rows are offset by half a hole
// and sit √3/2 apart, as the board looks.
func (b *Board) Place(h int) (x, y float64) {
	x, y = float64(b.drawCol[h]), float64(b.drawRow[h])
	if b.geom == Triangular {
		x, y = x/2, y*math.Sqrt(3)/2
	}
	return x, y
}
