package bytesize

import "testing"

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"512MiB", 512 << 20},
		{"4GiB", 4 << 30},
		{"1.5GiB", 3 << 29},
		{"2G", 2 << 30},
		{"1000", 1000},
		{"10 kb", 10000},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Parse(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "lots", "-1GiB", "0", "1e30TiB", "0.0000001", "NaN"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{{100, "100 B"}, {1536, "1.5 KiB"}, {3 << 29, "1.5 GiB"}} {
		if got := Format(tt.n); got != tt.want {
			t.Errorf("Format(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("1.5GiB")
	f.Add("12 kb")
	f.Fuzz(func(t *testing.T, s string) {
		if n, err := Parse(s); err == nil && n <= 0 {
			t.Fatalf("Parse(%q) = %d with no error", s, n)
		}
	})
}
