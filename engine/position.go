package engine

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"strings"
	"unicode"
)

// Position is a set of pegs: bit h is set when hole h holds a peg. The
// meaning of the bits belongs to a board.
type Position uint64

// Has reports whether hole h holds a peg.
func (p Position) Has(h int) bool { return p&(1<<uint(h)) != 0 }

// Pegs returns the number of pegs.
func (p Position) Pegs() int { return bits.OnesCount64(uint64(p)) }

// Apply returns the position after jump j, without checking that j is legal.
func (p Position) Apply(j Jump) Position {
	return p ^ (1<<uint(j.From) | 1<<uint(j.Over) | 1<<uint(j.To))
}

// Mask returns the holes a jump touches.
func (j Jump) Mask() Position { return 1<<uint(j.From) | 1<<uint(j.Over) | 1<<uint(j.To) }

// Complement returns the position with pegs and holes swapped. Backward play
// on p is forward play on its complement.
func (b *Board) Complement(p Position) Position { return b.Full() &^ p }

// Legal reports whether jump j can be played in p.
func (b *Board) Legal(p Position, j Jump) bool {
	return p.Has(j.From) && p.Has(j.Over) && !p.Has(j.To)
}

// Moves appends the legal jumps in p to dst, in the board's jump order.
func (b *Board) Moves(dst []Jump, p Position) []Jump {
	for _, j := range b.jumps {
		if b.Legal(p, j) {
			dst = append(dst, j)
		}
	}
	return dst
}

// ErrIllegalJump reports a jump that cannot be played in a position.
var ErrIllegalJump = errors.New("illegal jump")

// Replay plays the jumps from p in order, checking each, and returns the
// final position.
func (b *Board) Replay(p Position, jumps []Jump) (Position, error) {
	for i, j := range jumps {
		if !b.valid(j) || !b.Legal(p, j) {
			return p, fmt.Errorf("%w: jump %d (%s)", ErrIllegalJump, i+1, b.FormatJump(j))
		}
		p = p.Apply(j)
	}
	return p, nil
}

func (b *Board) valid(j Jump) bool {
	n := len(b.holes)
	if j.From < 0 || j.From >= n || j.To < 0 || j.To >= n {
		return false
	}
	k, ok := b.jumpIndex(j.From, j.To)
	return ok && b.jumps[k] == j
}

func (b *Board) jumpIndex(from, to int) (int, bool) {
	for k, j := range b.jumps {
		if j.From == from && j.To == to {
			return k, true
		}
	}
	return 0, false
}

// FormatJump writes a jump as FROM-TO, such as "f4-d4" or "4-1".
func (b *Board) FormatJump(j Jump) string {
	return b.labelOrIndex(j.From) + "-" + b.labelOrIndex(j.To)
}

func (b *Board) labelOrIndex(h int) string {
	if h >= 0 && h < len(b.labels) {
		return b.labels[h]
	}
	return fmt.Sprintf("#%d", h)
}

// FormatMoves writes jumps as moves: consecutive jumps by the same peg become
// one chain, such as "f4-d4-b4".
func (b *Board) FormatMoves(jumps []Jump) []string {
	var out []string
	for i, j := range jumps {
		if i > 0 && jumps[i-1].To == j.From {
			out[len(out)-1] += "-" + b.labelOrIndex(j.To)
			continue
		}
		out = append(out, b.FormatJump(j))
	}
	return out
}

// ParseMoves reads jumps and chains of jumps separated by commas or white
// space: "f4-d4, d2-d4" or "f4-d4-b4". It checks that each is a jump of the
// board, not that it is legal in any position.
func (b *Board) ParseMoves(s string) ([]Jump, error) {
	var out []Jump
	if n := strings.Count(s, "-"); n > 0 {
		out = make([]Jump, 0, n) // a jump a dash, where the text is well formed
	}
	for f := range strings.FieldsFuncSeq(s, isMoveSeparator) {
		if !strings.Contains(f, "-") {
			return nil, fmt.Errorf("move %q: want FROM-TO, such as %s", f, b.FormatJump(b.jumps[0]))
		}
		// Every hole first, then every jump, so a move with an unknown
		// hole says so whatever its jumps.
		var room [16]int
		holes := room[:0]
		for part := range strings.SplitSeq(f, "-") {
			h, err := b.Hole(part)
			if err != nil {
				return nil, fmt.Errorf("move %q: %w", f, err)
			}
			holes = append(holes, h)
		}
		for i := 1; i < len(holes); i++ {
			k, ok := b.jumpIndex(holes[i-1], holes[i])
			if !ok {
				parts := strings.Split(f, "-")
				return nil, fmt.Errorf("move %q: %s-%s is not a jump on board %s", f, parts[i-1], parts[i], b.name)
			}
			out = append(out, b.jumps[k])
		}
	}
	return out, nil
}

// isMoveSeparator reports whether r separates the moves of a list: a
// comma, a semicolon or a space.
func isMoveSeparator(r rune) bool { return r == ',' || r == ';' || unicode.IsSpace(r) }

// Vacate returns the full board with the named holes empty, as in
// "--start d4" or "--start 1,6".
func (b *Board) Vacate(labels string) (Position, error) {
	p := b.Full()
	fields := strings.FieldsFunc(labels, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	if len(fields) == 0 {
		return 0, errors.New("no hole to vacate")
	}
	for _, f := range fields {
		h, err := b.Hole(f)
		if err != nil {
			return 0, err
		}
		p &^= 1 << uint(h)
	}
	return p, nil
}

// ErrPicture reports a position picture that does not fit its board.
var ErrPicture = errors.New("bad position picture")

// ParsePosition reads a position picture: one symbol per hole in reading
// order, 'o' for a peg and '.' for an empty hole; white space is ignored, so
// both a one-line picture and a drawn board are accepted.
func (b *Board) ParsePosition(s string) (Position, error) {
	var p Position
	n := 0
	for i, r := range []rune(s) {
		if unicode.IsSpace(r) {
			continue
		}
		if r != 'o' && r != '.' {
			return 0, fmt.Errorf("%w: symbol %q at character %d: want 'o' (peg) or '.' (empty hole)", ErrPicture, r, i+1)
		}
		if n >= len(b.holes) {
			return 0, fmt.Errorf("%w: more than %d symbols; board %s has %d holes", ErrPicture, len(b.holes), b.name, len(b.holes))
		}
		if r == 'o' {
			p |= 1 << uint(n)
		}
		n++
	}
	if n != len(b.holes) {
		return 0, fmt.Errorf("%w: %d symbols; board %s has %d holes", ErrPicture, n, b.name, len(b.holes))
	}
	return p, nil
}

// Line writes p as a one-line picture, one symbol per hole in reading order.
func (b *Board) Line(p Position) string {
	var sb strings.Builder
	for h := range b.holes {
		sb.WriteByte(symbol(p, h))
	}
	return sb.String()
}

func symbol(p Position, h int) byte {
	if p.Has(h) {
		return 'o'
	}
	return '.'
}

// Picture draws p as the board looks: 'o' for a peg, '.' for an empty hole,
// blank where there is no hole, one line per row.
func (b *Board) Picture(p Position) string {
	return b.draw(1, func(h int) string { return string(symbol(p, h)) })
}

// LabelPicture draws the board with each hole's label in its place.
func (b *Board) LabelPicture() string {
	w := 0
	for _, l := range b.labels {
		w = max(w, len(l))
	}
	return b.draw(w, func(h int) string { return b.labels[h] })
}

// draw lays out one cell per hole; cells are w characters wide and stand two
// half-cells apart, so triangular rows interleave.
func (b *Board) draw(w int, cell func(h int) string) string {
	half := (w + 2) / 2
	if b.geom != Triangular {
		half = w + 1
	}
	width := b.drawW*half + w
	rows := make([][]byte, b.drawH)
	for i := range rows {
		rows[i] = []byte(strings.Repeat(" ", width))
	}
	for h := range b.holes {
		s := cell(h)
		x := b.drawCol[h] * half
		copy(rows[b.drawRow[h]][x+w-len(s):], s)
	}
	var sb strings.Builder
	for _, r := range rows {
		sb.WriteString(strings.TrimRight(string(r), " "))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// NamedPosition is a position with a name, as in a level file.
type NamedPosition struct {
	Name     string
	Position Position
}

// MaxLevelLine is the longest line ReadLevels reads.
const MaxLevelLine = bufio.MaxScanTokenSize

// ReadLevels reads a level file: one "name picture" per line, of at most
// MaxLevelLine bytes; blank lines and lines starting with # are skipped,
// and a byte-order mark before the first line too. Errors name the line.
func (b *Board) ReadLevels(r io.Reader) ([]NamedPosition, error) {
	var out []NamedPosition
	sc := bufio.NewScanner(r)
	n := 1
	for ; sc.Scan(); n++ {
		text := sc.Text()
		if n == 1 {
			text = strings.TrimPrefix(text, "\uFEFF")
		}
		line := strings.TrimSpace(text)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, pic, ok := strings.Cut(line, " ")
		if !ok {
			return nil, fmt.Errorf("line %d: want a name and a picture", n)
		}
		p, err := b.ParsePosition(pic)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, NamedPosition{name, p})
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return nil, fmt.Errorf("line %d: longer than %d bytes", n, MaxLevelLine)
	}
	return out, sc.Err()
}

// RandomGame plays from start as a random player does, each jump chosen
// uniformly among the legal ones by rng, until no jump is left, and
// returns the jumps.
func (b *Board) RandomGame(start Position, rng *rand.Rand) []Jump {
	var jumps, moves []Jump
	for p := start; ; {
		moves = b.Moves(moves[:0], p)
		if len(moves) == 0 {
			return jumps
		}
		j := moves[rng.IntN(len(moves))]
		jumps = append(jumps, j)
		p = p.Apply(j)
	}
}
