package measure_test

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"pegs/engine"
	"pegs/search"
	"pegs/search/measure"
)

// BenchmarkLevel measures classic English levels to the centre: Pyramid
// (16 pegs), Diamond (24 pegs) and, with -full, Full (32 pegs, 23.5
// million positions), with the heap's allocations (B/op) and the
// collections they bring (gc/op), which a loaded machine does not blur.
func BenchmarkLevel(b *testing.B) {
	classic(b, func(b *testing.B, eng *engine.Board, p engine.Position, goal engine.Goal) {
		var m measure.Metrics
		var err error
		b.ReportAllocs()
		gcs := collections()
		for b.Loop() {
			if m, err = measure.Level(context.Background(), eng, p, goal, search.DefaultMemory); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(collections()-gcs)/float64(b.N), "gc/op")
		b.ReportMetric(float64(m.Reachable), "positions/op")
		b.ReportMetric(float64(m.Reachable)*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
	})
	eng := engine.English()
	goal, err := eng.ParseGoal("center")
	if err != nil {
		b.Fatal(err)
	}
	// The English levels of 6 to 20 pegs of the golden file, drawn by
	// generate.Generate: what it measures by the thousand.
	b.Run("level=generated", func(b *testing.B) {
		data, err := os.ReadFile(goldenFile)
		if err != nil {
			b.Fatal(err)
		}
		var levels []goldenLevel
		if err := json.Unmarshal(data, &levels); err != nil {
			b.Fatal(err)
		}
		var ps []engine.Position
		for _, l := range levels {
			if l.Board == "english" && l.Goal == "center" && l.Name == "" && l.Metrics.Solutions != "0" {
				p, err := strconv.ParseUint(l.Start, 16, 64)
				if err != nil {
					b.Fatal(err)
				}
				ps = append(ps, engine.Position(p))
			}
		}
		for b.Loop() {
			for _, p := range ps {
				if _, err := measure.Level(context.Background(), eng, p, goal, search.DefaultMemory); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(len(ps)*b.N)/b.Elapsed().Seconds(), "levels/s")
	})
}

// collections returns how many collections the heap has had.
func collections() uint32 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.NumGC
}

// BenchmarkPar times the par's search alone (Level's last step: a search
// by moves from both ends over the winnable positions, see package
// search/internal/bfs) on classic English levels to the centre, measured
// once before (see classic; Pyramid is of the size package generate
// measures by the thousand, Full has 1.7 million winnable positions).
func BenchmarkPar(b *testing.B) {
	classic(b, func(b *testing.B, eng *engine.Board, p engine.Position, goal engine.Goal) {
		ls, err := measure.MeasureLayers(context.Background(), eng, p, goal, search.DefaultMemory)
		if err != nil {
			b.Fatal(err)
		}
		moves := 0
		cpu0 := cpuTime()
		for b.Loop() {
			if moves, _, err = ls.Par(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(moves), "moves")
		b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	})
}

// classic runs f as sub-benchmarks level=NAME on classic English levels
// to the centre: Pyramid (16 pegs), Diamond (24 pegs) and, with -full,
// Full (32 pegs, 23.5 million positions).
func classic(b *testing.B, f func(b *testing.B, eng *engine.Board, p engine.Position, goal engine.Goal)) {
	eng := engine.English()
	goal, err := eng.ParseGoal("center")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, pic string }{
		{"pyramid16", "....o...ooo...ooooo.ooooooo......"},
		{"diamond24", ".o.ooo.ooooo.ooo.ooo.ooooo.ooo.o."},
		{"full32", "oooooooooooooooo.oooooooooooooooo"},
	} {
		b.Run("level="+c.name, func(b *testing.B) {
			if c.name == "full32" && !*full {
				b.Skip("measuring Full takes 5-20 s; run with -full")
			}
			p, err := eng.ParsePosition(c.pic)
			if err != nil {
				b.Fatal(err)
			}
			f(b, eng, p, goal)
		})
	}
}

// cpuTime returns the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
