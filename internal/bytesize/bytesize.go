// Package bytesize reads and writes memory sizes such as "1.5GiB".
package bytesize

import (
	"fmt"
	"strconv"
	"strings"
)

var units = []struct {
	suffix string
	scale  float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40},
	{"b", 1},
}

// Parse reads a size: a number with an optional unit (B, KiB, MiB, GiB, TiB,
// or KB, MB, GB, TB; K, M, G, T mean KiB, MiB, GiB, TiB).
func Parse(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	scale := 1.0
	for _, u := range units {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, scale = strings.TrimSpace(rest), u.scale
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v*scale >= 1 && v*scale <= 1<<62) {
		return 0, fmt.Errorf("bad size %q: want a positive number with a unit, such as 512MiB or 4GiB", s)
	}
	return int64(v * scale), nil
}

// Format writes a size in binary units, such as "1.5 GiB".
func Format(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f := float64(n)
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB"} {
		f /= unit
		if f < unit || u == "TiB" {
			return strconv.FormatFloat(f, 'f', 1, 64) + " " + u
		}
	}
	return ""
}
