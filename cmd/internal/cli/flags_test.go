package cli

import (
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/dustin/go-humanize"
)

func TestParseMem(t *testing.T) {
	tests := []struct {
		in   string
		want int64 // 0: refused, -1: too large, -2: too large a unit
	}{
		// The cases of the former internal/bytesize test.
		{"512MiB", 512 << 20},
		{"4GiB", 4 << 30},
		{"1.5GiB", 3 << 29},
		{"2G", 2 << 30},
		{"1000", 1000},
		{"10 kb", 10000},
		{"", 0},
		{"lots", 0},
		{"-1GiB", 0},
		{"0", 0},
		{"1e30TiB", 0},
		{"0.0000001", 0},
		{"NaN", 0},
		// Every unit, in both cases.
		{"7B", 7},
		{"7b", 7},
		{"3KiB", 3 << 10},
		{"3kib", 3 << 10},
		{"3MiB", 3 << 20},
		{"3TiB", 3 << 40},
		{"3KB", 3000},
		{"3MB", 3e6},
		{"3GB", 3e9},
		{"3tb", 3e12},
		{"3K", 3 << 10},
		{"3k", 3 << 10},
		{"3M", 3 << 20},
		{"3g", 3 << 30},
		{"3T", 3 << 40},
		{"3 GIB", 3 << 30},
		{"3gIb", 3 << 30},
		// Fractions, spaces, edges.
		{"5.75GiB", 23 << 28},
		{".5KiB", 512},
		{"2.KiB", 2 << 10},
		{"1.5", 1},
		{"1", 1},
		{"0.5", 0},
		{"0.9B", 0},
		{" 4GiB ", 4 << 30},
		{"4\tGiB", 4 << 30},
		{"4194304TiB", 1 << 62},
		{"4194305TiB", -1},
		{"4611686018427387904", 1 << 62},
		{"4611686018427387905", -1},
		{"99999999999999999999999", -1},
		{"1e3", 0},   // the old parser took ParseFloat's forms: exponents,
		{"+5GiB", 0}, // a sign, hex floats and underscores; not any more
		{"0x1p10", 0},
		{"1_000", 0},
		{"Inf", 0},
		{"1,000", 0}, // humanize takes digit groups; --mem does not
		{"1.2.3MiB", 0},
		{".", 0},
		{"GiB", 0},
		{"5Ki", 0}, // units humanize knows but --mem did not
		{"5PiB", -2},
		{"5PB", -2},
		{"5E", -2},
		{"8EiB", -2},
		{"5iB", 0},
		{"5 G iB", 0},
		{"5GiBs", 0},
		{"٣GiB", 0}, // a digit, but not an ASCII one
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseMem(tt.in)
			if tt.want <= 0 {
				want := `--mem: bad size ` + strconv.Quote(tt.in) + `: want a positive number with a unit, such as 512MiB or 4GiB`
				switch tt.want {
				case -1:
					want = "--mem " + strings.TrimSpace(tt.in) + ": too large; at most 4194304TiB (2^62 bytes)"
				case -2:
					want = "--mem " + strings.TrimSpace(tt.in) + ": too large a unit; --mem takes B, KiB, MiB, GiB or TiB (at most 4194304TiB)"
				}
				if err == nil || err.Error() != want {
					t.Errorf("ParseMem(%q) = %d, %v; want error %q", tt.in, got, err, want)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseMem(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
}

// FuzzParseMem checks that ParseMem never panics, that what it accepts is
// in range, and that an accepted size reads back: exactly as a number of
// bytes, and within humanize's rounding as humanize.IBytes writes it (below
// a PiB, the largest unit --mem takes being TiB).
func FuzzParseMem(f *testing.F) {
	for _, s := range []string{"1.5GiB", "12 kb", "4G", "1000", "0.5", "5.75gib", "1,000", "1e3", "4194304TiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseMem(s)
		if err != nil {
			if strings.Count(err.Error(), "\n") > 0 {
				t.Fatalf("ParseMem(%q): error of several lines: %v", s, err)
			}
			return
		}
		if n < 1 || n > 1<<62 {
			t.Fatalf("ParseMem(%q) = %d, out of range", s, n)
		}
		if back, err := ParseMem(strconv.FormatInt(n, 10)); err != nil || back != n {
			t.Fatalf("ParseMem(%q) = %d, but ParseMem(\"%d\") = %d, %v", s, n, n, back, err)
		}
		if n >= 1<<50 {
			return
		}
		h := humanize.IBytes(uint64(n))
		back, err := ParseMem(h)
		if err != nil || back < n-n/16 || back > n+n/16 {
			t.Fatalf("ParseMem(%q) = %d, written %q, read back as %d, %v", s, n, h, back, err)
		}
	})
}

// TestLimitHeap checks that --mem bounds the whole process: the Go
// runtime's memory limit leaves room for the executable's own pages
// within it, and the search's budget leaves the runtime its slack within
// that, so that a search using all its budget keeps the process within
// --mem; and that the search keeps nearly all of a large --mem.
func TestLimitHeap(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, mem := range []int64{128 << 20, 256 << 20, 1 << 30, 6 << 30, 64 << 30} {
		t.Run(humanize.IBytes(uint64(mem)), func(t *testing.T) {
			budget := LimitHeap(mem, false)
			heap := debug.SetMemoryLimit(-1)
			if heap+programBytes > mem {
				t.Errorf("the runtime's limit is %d MiB: with the program's %d MiB, past --mem", heap>>20, programBytes>>20)
			}
			if budget+runtimeSlack(heap) > heap {
				t.Errorf("budget %d MiB: with the runtime's slack of %d MiB, past its limit of %d MiB", budget>>20, runtimeSlack(heap)>>20, heap>>20)
			}
			if budget <= 0 || mem >= 1<<30 && budget < mem-mem/32-64<<20 {
				t.Errorf("budget %d MiB of %d MiB: the search should keep all but a thirty-second and 64 MiB of a large --mem", budget>>20, mem>>20)
			}
		})
	}
	for _, mem := range []int64{1, 2, 1 << 10, 1 << 20, 2 << 20, 48 << 20, 64 << 20} {
		if heap, budget := SplitMem(mem); budget <= 0 || budget > heap || heap > mem {
			t.Errorf("SplitMem(%d) = %d, %d: want 0 < budget <= heap <= mem", mem, heap, budget)
		}
	}
}
