package movegen

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"pegs/engine"
	"pegs/search/internal/key"
)

// eachGenerator calls f with the generator of each board of names under
// its whole group and the trivial one, where the group has eight
// symmetries or fewer, and a function that returns the numbering of a peg
// count and class, each made once (nil where the board has none); -short
// leaves the French board out.
func eachGenerator(t *testing.T, names []string, f func(b *engine.Board, gen *Gen, numbering func(pegs int, c engine.Class) *key.Dense)) {
	t.Helper()
	for _, name := range names {
		if testing.Short() && name == "french" {
			continue // -short: its numberings take seconds; the English board's go the same way
		}
		b, err := engine.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []*engine.Group{b.Symmetry(), b.Symmetry().Trivial()} {
			if g.Len() > 8 {
				continue
			}
			gen := New(b, g)
			r := gen.Ranker()
			if r == nil {
				f(b, gen, nil)
				continue
			}
			dense := map[[2]int]*key.Dense{}
			f(b, gen, func(pegs int, c engine.Class) *key.Dense {
				d, ok := dense[[2]int{pegs, int(c)}]
				if !ok {
					d = r.Layer(pegs, c)
					dense[[2]int{pegs, int(c)}] = d
				}
				return d
			})
		}
	}
}

// randomPosition returns a position of b of any peg count.
func randomPosition(rng *rand.Rand, b *engine.Board) engine.Position {
	p := engine.Position(rng.Uint64()) & b.Full()
	for range rng.IntN(b.Holes()) {
		p &^= 1 << rng.IntN(b.Holes())
	}
	return p
}

// TestRanksAgree checks Parent.Ranks and Parent.Children, in assembly
// where the processor has AVX-512 and in Go, against each child's
// canonical form made from scratch and its number by key.Dense.Rank, on
// boards of eight symmetries or fewer, from positions of every peg count.
func TestRanksAgree(t *testing.T) {
	if !haveAVX512() {
		t.Log("no AVX-512 here: the Go code alone is checked")
	}
	rng := rand.New(rand.NewPCG(9, 10))
	eachGenerator(t, []string{"english", "french", "triangle", "triangle:7", "wiegleb", "diamond"}, func(b *engine.Board, gen *Gen, numbering func(int, engine.Class) *key.Dense) {
		g := gen.Group
		if numbering == nil {
			return
		}
		for _, asm := range []bool{false, true} {
			w := gen.NewParent()
			if asm && !w.avx512 {
				continue
			}
			w.avx512 = asm
			checked := 0
			for range 3000 {
				p := randomPosition(rng, b)
				jumps := gen.AppendMoves(nil, p)
				if len(jumps) == 0 {
					continue
				}
				w.Set(p)
				kids := w.Children([]engine.Position{0}, jumps)[1:]
				c0 := g.Canonical(p ^ gen.Masks[jumps[0]])
				d := numbering(p.Pegs()-1, b.Class(c0))
				if d == nil {
					continue
				}
				ranks := w.Ranks([]uint64{7}, jumps, d)[1:]
				for i, k := range jumps {
					c := g.Canonical(p ^ gen.Masks[k])
					if kids[i] != c {
						t.Fatalf("%s, %d symmetries, asm %v: child of %s by %s = %s, want %s", b.Name(), g.Len(), asm, b.Line(p), b.FormatJump(gen.Jumps[k]), b.Line(kids[i]), b.Line(c))
					}
					if b.Class(c) != d.Class() {
						continue // a child of another class has no number by d
					}
					if want := d.Rank(c); ranks[i] != want {
						t.Fatalf("%s, %d symmetries, asm %v: number of %s = %d, want %d", b.Name(), g.Len(), asm, b.Line(c), ranks[i], want)
					}
					checked++
				}
			}
			if checked < 1000 {
				t.Errorf("%s, %d symmetries, asm %v: %d children checked, want 1000 or more", b.Name(), g.Len(), asm, checked)
			}
		}
	})
}

// BenchmarkRanks measures Parent.Ranks a child, in Go and (where the
// processor has it) with AVX-512, and MoveRanks, which finds the jumps
// too, on positions of 18 pegs of the English
// board numbered among those of 17, the Set of each parent included.
func BenchmarkRanks(b *testing.B) {
	bd := engine.English()
	gen := New(bd, bd.Symmetry())
	rng := rand.New(rand.NewPCG(1, 2))
	var ps []engine.Position
	var jumps [][]int16
	class := bd.Class(bd.Start())
	children := 0
	for len(ps) < 20000 {
		p := bd.Full()
		for p.Pegs() > 18 {
			p &^= 1 << rng.IntN(bd.Holes())
		}
		if bd.Class(p) != class {
			continue
		}
		ps = append(ps, p)
		jumps = append(jumps, gen.AppendMoves(nil, p))
		children += len(jumps[len(jumps)-1])
	}
	for _, asm := range []bool{false, true} {
		w := gen.NewParent()
		if asm && !w.avx512 {
			continue
		}
		w.avx512 = asm
		name := "code=go"
		if asm {
			name = "code=avx512"
		}
		// The children of one parent are of several classes; the
		// numbering of one class is as good to time.
		d := gen.Ranker().Layer(17, class)
		b.Run(name, func(b *testing.B) {
			dst := make([]uint64, 0, 64)
			for b.Loop() {
				for i, p := range ps {
					w.Set(p)
					dst = w.Ranks(dst[:0], jumps[i], d)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(children), "ns/child")
		})
		if !asm || w.kernel == nil {
			continue
		}
		// The legal jumps found too (MoveRanks), as the layered search
		// finds them.
		b.Run("code=avx512-moves", func(b *testing.B) {
			dst := make([]uint64, 0, kernelScratch)
			for b.Loop() {
				for _, p := range ps {
					w.Set(p)
					dst, _ = w.MoveRanks(dst[:0], p, d)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(children), "ns/child")
		})
		if w.batch == nil {
			continue
		}
		// Their parents a batch at a time (MoveRanksBatch).
		b.Run("code=avx512-batch", func(b *testing.B) {
			dst := make([]uint64, 0, MaxBatch*len(gen.Jumps))
			ends := make([]int32, MaxBatch)
			for b.Loop() {
				for i := 0; i < len(ps); i += MaxBatch {
					dst = w.MoveRanksBatch(dst[:0], ps[i:min(len(ps), i+MaxBatch)], nil, d, ends)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(children), "ns/child")
		})
	}
}

// TestMoveRanksAgree checks Parent.MoveRanks and MoveChildren, in
// assembly where the generator has a kernel and in Go alone, against the
// children of the legal jumps, each made canonical from scratch and
// numbered by key.Dense.Rank; mover the position or its complement. It
// checks the kernel's PDEP against ToLattice too.
func TestMoveRanksAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	kernels := 0
	eachGenerator(t, []string{"english", "french", "triangle", "triangle:7", "wiegleb", "diamond", "triangle:9"}, func(b *engine.Board, gen *Gen, numbering func(int, engine.Class) *key.Dense) {
		g := gen.Group
		if numbering == nil {
			return
		}
		if gen.kernel != nil {
			kernels++
			for range 1000 {
				p := engine.Position(rng.Uint64()) & b.Full()
				if got, want := engine.Position(gen.kernel.latticeOf(p)), gen.ToLattice(p); got != want {
					t.Fatalf("%s: %s in lattice order by PDEP = %x, want %x", b.Name(), b.Line(p), got, want)
				}
			}
		}
		any1 := numbering(1, b.Class(1)) // for positions without jumps
		for _, asm := range []bool{false, true} {
			w := gen.NewParent()
			if asm && w.kernel == nil {
				continue
			}
			if !asm {
				w.kernel, w.avx512 = nil, false // Go alone
			}
			checked := 0
			for range 3000 {
				p := randomPosition(rng, b)
				mover := p
				if rng.IntN(2) == 0 {
					mover = b.Full() &^ p // undo jumps
				}
				w.Set(p)
				// In the order of AppendMoves (TestMoveGenAgrees checks
				// its jumps against the board's).
				var want []engine.Position
				for _, k := range gen.AppendMoves(nil, mover) {
					want = append(want, g.Canonical(p^gen.Masks[k]))
				}
				if len(want) == 0 {
					if got, n := w.MoveRanks(nil, mover, any1); n != 0 || len(got) != 0 {
						t.Fatalf("%s, asm %v: %d jumps in %s, want none", b.Name(), asm, n, b.Line(mover))
					}
					continue
				}
				kids := w.MoveChildren([]engine.Position{7}, mover)
				if !slices.Equal(kids, append([]engine.Position{7}, want...)) {
					t.Fatalf("%s, asm %v: children of %s (mover %s) = %v, want %v", b.Name(), asm, b.Line(p), b.Line(mover), kids[1:], want)
				}
				c := b.Class(want[0])
				d := numbering(want[0].Pegs(), c)
				if d == nil {
					continue
				}
				got, n := w.MoveRanks([]uint64{7}, mover, d)
				if n != len(want) || len(got) != n+1 || got[0] != 7 {
					t.Fatalf("%s, asm %v: %d jumps in %s (%d numbers after the one there), want %d", b.Name(), asm, n, b.Line(mover), len(got)-1, len(want))
				}
				for i, x := range want {
					if b.Class(x) != c {
						continue // a child of another class has no number by d
					}
					if r := d.Rank(x); got[1+i] != r {
						t.Fatalf("%s, asm %v: number of child %d of %s (mover %s) = %d, want %d", b.Name(), asm, i, b.Line(p), b.Line(mover), got[1+i], r)
					}
					checked++
				}
			}
			if checked < 1000 {
				t.Errorf("%s, %d symmetries, asm %v: %d children checked, want 1000 or more", b.Name(), g.Len(), asm, checked)
			}
		}
	})
	if haveMovesAVX512() && kernels == 0 {
		t.Error("no generator made a kernel on a processor that runs it")
	}
}

// TestKernelLayout checks the offsets movesRanksAVX512 reads.
func TestKernelLayout(t *testing.T) {
	var k kernel
	got := []uintptr{unsafe.Offsetof(k.latFull), unsafe.Offsetof(k.groups), unsafe.Offsetof(k.images8), unsafe.Offsetof(k.group),
		unsafe.Sizeof(k.group[0]), unsafe.Offsetof(k.group[0].shr1), unsafe.Offsetof(k.group[0].shl1),
		unsafe.Offsetof(k.group[0].shr2), unsafe.Offsetof(k.group[0].shl2), unsafe.Offsetof(k.group[0].idx)}
	want := []uintptr{0, 8, 16, 48, 104, 8, 16, 24, 32, 40}
	if !slices.Equal(got, want) {
		t.Errorf("kernel offsets %v, want %v (ranks_amd64.s)", got, want)
	}
}

// latticeOf returns p in k's lattice order by depositing its bits into
// latFull's in order, as PDEP does in movesRanksAVX512.
func (k *kernel) latticeOf(p engine.Position) uint64 {
	var q uint64
	i := 0
	for m := k.latFull; m != 0; m &= m - 1 {
		if p&(1<<i) != 0 {
			q |= m & -m
		}
		i++
	}
	return q
}

// TestImagesAgree checks Images8Of, by imagesBITALG where the processor
// has it, against the group's own images, padded with the identity.
func TestImagesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	ran := false
	eachGenerator(t, []string{"english", "french", "triangle", "triangle:9", "wiegleb", "diamond"}, func(b *engine.Board, gen *Gen, _ func(int, engine.Class) *key.Dense) {
		g := gen.Group
		ran = ran || gen.imageIndex != nil
		for range 2000 {
			p := engine.Position(rng.Uint64()) & b.Full()
			var got [8]engine.Position
			gen.Images8Of(p, &got)
			want := g.Images(p, make([]engine.Position, g.Len()))
			for s := range 8 {
				w := want[0]
				if s < len(want) {
					w = want[s]
				}
				if got[s] != w {
					t.Fatalf("%s, %d symmetries: image %d of %s = %s, want %s", b.Name(), g.Len(), s, b.Line(p), b.Line(got[s]), b.Line(w))
				}
			}
		}
	})
	if haveImagesBITALG() && !ran {
		t.Error("no generator found its images by imagesBITALG on a processor that runs it")
	}
}

// TestMoveRanksBatch checks Parent.MoveRanksBatch (and
// MoveChildrenBatch), in assembly where the
// generator has a kernel and in Go, against Set and MoveRanks a parent at
// a time, and BatchOrbit against the parents' distinct images: batches of
// 1 to MaxBatch parents, their movers the parents or their complements,
// numbered by one numbering (a child of another peg count or class
// numbered by the same tables).
func TestMoveRanksBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	batched := 0
	eachGenerator(t, []string{"english", "french", "triangle", "triangle:7", "wiegleb", "diamond", "triangle:9"}, func(b *engine.Board, gen *Gen, numbering func(int, engine.Class) *key.Dense) {
		if numbering == nil {
			return
		}
		g := gen.Group
		// One numbering for every batch (each takes a table over the
		// high parts to make): both ways number every child by its
		// tables, whatever its pegs and class.
		d := numbering(b.Holes()/2, b.Class(b.Start()))
		if d == nil {
			t.Fatalf("%s: no numbering of %d pegs", b.Name(), b.Holes()/2)
		}
		for _, asm := range []bool{true, false} {
			w, one := gen.NewParent(), gen.NewParent()
			if asm && w.batch == nil {
				continue
			}
			if !asm {
				w.batch = nil
			}
			for range 300 {
				ps := make([]engine.Position, 1+rng.IntN(MaxBatch))
				var movers []engine.Position
				undo := rng.IntN(2) == 0
				for i := range ps {
					ps[i] = randomPosition(rng, b)
					if undo {
						movers = append(movers, b.Full()&^ps[i])
					}
				}
				var want []uint64
				var wantKids []engine.Position
				var wantEnds []int32
				for i, p := range ps {
					one.Set(p)
					mover := p
					if undo {
						mover = movers[i]
					}
					want, _ = one.MoveRanks(want, mover, d)
					wantKids = one.MoveChildren(wantKids, mover)
					wantEnds = append(wantEnds, int32(len(want)))
				}
				ends := make([]int32, len(ps))
				// Room past the children marked, which the assembly
				// must leave as it is: it makes eight children at a
				// time, the last ones masked.
				room := make([]uint64, 1+len(ps)*len(gen.Jumps)+64)
				for i := range room {
					room[i] = 0xdead
				}
				room[0] = 7
				got := w.MoveRanksBatch(room[:1], ps, movers, d, ends)
				if got[0] != 7 || !slices.Equal(got[1:], want) || !slices.Equal(ends, wantEnds) {
					t.Fatalf("%s, asm %v, %d parents, undo %v: numbers %v ends %v, want %v ends %v", b.Name(), asm, len(ps), undo, got[1:], ends, want, wantEnds)
				}
				if asm && &got[0] != &room[0] {
					t.Fatalf("%s, asm %v: the batch's numbers not in the room given", b.Name(), asm)
				}
				for i, r := range room[len(got):] {
					if !asm {
						break
					}
					if r != 0xdead {
						t.Fatalf("%s, asm %v, %d parents: word %d past the %d children written (%#x)", b.Name(), asm, len(ps), i, len(got)-1, r)
					}
				}
				// The same batch's children, not numbered
				// (MoveChildrenBatch).
				kids := w.MoveChildrenBatch([]engine.Position{7}, ps, movers, ends)
				if kids[0] != 7 || !slices.Equal(kids[1:], wantKids) || !slices.Equal(ends, wantEnds) {
					t.Fatalf("%s, asm %v, %d parents, undo %v: children %v ends %v, want %v ends %v", b.Name(), asm, len(ps), undo, kids[1:], ends, wantKids, wantEnds)
				}
				for i, p := range ps {
					// The orbit counted from scratch: its distinct images.
					distinct := g.Images(p, make([]engine.Position, g.Len()))
					slices.Sort(distinct)
					distinct = slices.Compact(distinct)
					if got := w.BatchOrbit(i); got != int64(len(distinct)) {
						t.Fatalf("%s, asm %v: orbit of %s = %d, want %d", b.Name(), asm, b.Line(p), got, len(distinct))
					}
				}
				if asm {
					batched++
				}
			}
		}
	})
	if haveMovesAVX512() && haveImagesBITALG() && batched == 0 {
		t.Error("no batch ran in assembly on a processor that runs it")
	}
}
