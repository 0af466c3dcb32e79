package report

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
)

// Kind is what a table column holds, which says how its cells are shown
// to a reader (text, Markdown, HTML) and stored for a program (CSV, JSON).
// A cell is kept as its stored form, plain and in base units (seconds,
// bytes, a fraction), and shown through the kind's formatting, the one
// used for figures and sentences too; a column's unit is in its stored
// header ("median (s)"). A cell that does not parse as its kind (a note
// such as "timed out", or a blank) is shown as it is, and stored as a
// string (or null, if blank).
type Kind int

// The kinds of column.
const (
	Label       Kind = iota // text, kept as it is ("d4", "1 11 15", "cross")
	Count                   // an exact integer of any size: 23,475,688
	Number                  // a real number: three significant digits
	Seconds                 // a duration in seconds: 16.8 µs, 2.65 s
	Bytes                   // a size in bytes: 6.2 MiB
	Probability             // a probability from 0 to 1: 0.0260, 1.35×10⁻⁸
	Ratio                   // a ratio: 1.5×
	Percent                 // a fraction shown as a percentage: 85%
	Flag                    // true or false, shown as yes or no
)

// unit is the unit a stored header names for kind k, "" if none.
func (k Kind) unit() string {
	switch k {
	case Seconds:
		return "s"
	case Bytes:
		return "B"
	}
	return ""
}

// Show returns the stored cell as a reader sees it.
func (k Kind) Show(cell string) string {
	switch k {
	case Count:
		return grouped(cell)
	case Flag:
		switch cell {
		case "true":
			return "yes"
		case "false":
			return "no"
		}
		return cell
	case Label:
		return cell
	}
	x, err := strconv.ParseFloat(cell, 64)
	if err != nil {
		return cell
	}
	switch k {
	case Seconds:
		return FormatSeconds(x)
	case Bytes:
		return FormatBytes(int64(x))
	case Probability:
		return FormatProbability(x)
	case Ratio:
		return FormatNumber(x) + "×"
	case Percent:
		return strconv.FormatFloat(100*x, 'f', 0, 64) + "%"
	}
	return FormatNumber(x)
}

// json returns the stored cell as a JSON value: a number or boolean where
// it parses as the kind's, null if blank, else a string.
func (k Kind) json(cell string) any {
	if cell == "" {
		return nil
	}
	switch k {
	case Label:
		return cell
	case Flag:
		if b, err := strconv.ParseBool(cell); err == nil {
			return b
		}
		return cell
	case Count:
		if n, ok := new(big.Int).SetString(cell, 10); ok {
			return n
		}
		return cell
	}
	if x, err := strconv.ParseFloat(cell, 64); err == nil && !math.IsInf(x, 0) && !math.IsNaN(x) {
		if k == Bytes && x == math.Trunc(x) {
			return int64(x)
		}
		return x
	}
	return cell
}

// FormatCount writes an integer with its digits grouped in threes:
// 23,475,688.
func FormatCount(n int64) string { return humanize.Comma(n) }

// FormatNumber writes x to three significant digits, its integer part
// grouped (11,290 rather than 1.129e+04), never in exponent form.
func FormatNumber(x float64) string {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	digits := 2 - int(math.Floor(math.Log10(math.Abs(x))))
	if digits <= 0 {
		return humanize.Comma(int64(math.Round(x)))
	}
	return strconv.FormatFloat(x, 'f', digits, 64)
}

// FormatSeconds writes a duration of s seconds to three significant
// digits in the unit that suits it: 16.8 µs, 2.59 ms, 2.65 s.
func FormatSeconds(s float64) string {
	units := []struct {
		name  string
		scale float64
	}{{"s", 1}, {"ms", 1e-3}, {"µs", 1e-6}, {"ns", 1e-9}}
	for _, u := range units {
		if math.Abs(s) >= u.scale || u.name == "ns" {
			return FormatNumber(s/u.scale) + " " + u.name
		}
	}
	return "0 s"
}

// FormatDuration is FormatSeconds of d.
func FormatDuration(d time.Duration) string { return FormatSeconds(d.Seconds()) }

// FormatBytes writes a size in binary units: 512 B, 6.2 MiB.
func FormatBytes(n int64) string {
	if n < 0 {
		return "-" + humanize.IBytes(uint64(-n))
	}
	return humanize.IBytes(uint64(n))
}

// superscripts are the digits and minus sign of an exponent.
var superscripts = strings.NewReplacer("-", "⁻", "0", "⁰", "1", "¹", "2", "²", "3", "³", "4", "⁴", "5", "⁵", "6", "⁶", "7", "⁷", "8", "⁸", "9", "⁹")

// FormatProbability writes a probability to three significant digits:
// as a decimal from 0.001 up (0.0260, 0.500, 1), and below that as a
// power of ten with no space to break at (1.35×10⁻⁸).
func FormatProbability(p float64) string {
	switch {
	case p == 0 || p == 1:
		return strconv.FormatFloat(p, 'f', -1, 64)
	case p >= 0.001:
		return FormatNumber(p)
	}
	exp := int(math.Floor(math.Log10(p)))
	mant := p / math.Pow(10, float64(exp))
	if math.Round(mant*100) >= 1000 { // 9.996 rounds up to 10.0
		mant, exp = mant/10, exp+1
	}
	return strconv.FormatFloat(mant, 'f', 2, 64) + "×10" + superscripts.Replace(strconv.Itoa(exp))
}

// OneIn writes how rare an event of probability p is, as one in a round
// number, to two significant digits: "2" for 1/2, "1,400", "74 million",
// "3.1 billion". It returns "" for p outside (0, 1].
func OneIn(p float64) string {
	if !(p > 0 && p <= 1) {
		return ""
	}
	n := 1 / p
	digits := int(math.Floor(math.Log10(n)))
	scale := math.Pow(10, float64(digits-1))
	n = math.Round(n/scale) * scale
	for _, w := range []struct {
		name  string
		scale float64
	}{{"trillion", 1e12}, {"billion", 1e9}, {"million", 1e6}} {
		if n >= w.scale {
			return strconv.FormatFloat(n/w.scale, 'f', -1, 64) + " " + w.name
		}
	}
	return humanize.Comma(int64(n))
}
