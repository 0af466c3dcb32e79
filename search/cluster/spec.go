package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"pegs/engine"
	"pegs/search"
	"pegs/search/cluster/internal/part"
	"pegs/search/internal/kernel"
)

// Spec is what every step of a run needs to rebuild its problem on a
// worker: it travels inside the steps, JSON-encoded, so only plain fields.
type Spec struct {
	Board string // a name engine.Lookup knows, or a board's name
	// Picture and Geometry, for a board that is not built in (as read
	// from a file), are its text, as engine.Parse reads it, and lattice.
	Picture    string
	Geometry   string
	Start      uint64
	Goal       string // as engine.Board.ParseGoal reads it
	Whole      bool   // search.ExploreOptions.WholeGroup
	NoSymmetry bool
	Dir        string // the run's directory or URL prefix
	Bits       int    // a layer has 1<<Bits partitions
	Workers    int    // each step's goroutines; zero for one per CPU
	Mem        int64  // each step's memory budget in bytes
	// FailOnce, if set, is a file: the first forward expansion of
	// FailPegs pegs to find it missing creates it and fails (a test's
	// injected worker failure).
	FailOnce string
	FailPegs int
}

// newSpec describes prob with opt for the steps.
func newSpec(prob search.Problem, opt Options, dir string, bits int) (Spec, error) {
	spec := Spec{Board: prob.Board.Name(), Start: uint64(prob.Start), Goal: prob.Board.FormatGoal(prob.Goal),
		Whole: opt.WholeGroup, NoSymmetry: opt.NoSymmetry, Dir: dir, Bits: bits,
		Workers: opt.Workers, Mem: opt.stepMemory(), FailOnce: opt.failOnce, FailPegs: opt.failPegs}
	if b, err := engine.Lookup(spec.Board); err != nil || !sameBoard(b, prob.Board) {
		spec.Picture, spec.Geometry = picture(prob.Board), prob.Board.Geometry().String()
	}
	b, err := spec.board()
	if err != nil || !sameBoard(b, prob.Board) {
		return Spec{}, fmt.Errorf("board %s: its picture does not make the same board again", prob.Board.Name())
	}
	return spec, nil
}

// sameBoard reports whether a and b have the same holes, labels and jumps.
func sameBoard(a, b *engine.Board) bool {
	if a.Holes() != b.Holes() || a.Geometry() != b.Geometry() || !slices.Equal(a.Jumps(), b.Jumps()) {
		return false
	}
	for h := range a.Holes() {
		if a.Label(h) != b.Label(h) {
			return false
		}
	}
	return true
}

// picture draws board b as engine.Parse reads it, its start's pegs 'o'
// and its other holes '.', each hole where its lattice coordinates put it
// (on a triangular board, two columns from its row's neighbours and a
// column to the side of the row above's), so that its holes come in the
// same reading order.
func picture(b *engine.Board) string {
	type at struct{ y, x int }
	holes := make([]at, b.Holes())
	shift := 0
	for h := range holes {
		r, c := b.Coord(h)
		holes[h] = at{r, c}
		if b.Geometry() == engine.Triangular {
			holes[h].x = 2*c - r
			shift = max(shift, r-2*c)
		}
	}
	var rows [][]byte
	for h, p := range holes {
		p.x += shift
		for len(rows) <= p.y {
			rows = append(rows, nil)
		}
		for len(rows[p.y]) <= p.x {
			rows[p.y] = append(rows[p.y], ' ')
		}
		rows[p.y][p.x] = '.'
		if b.Start()&(1<<uint(h)) != 0 {
			rows[p.y][p.x] = 'o'
		}
	}
	var out strings.Builder
	for _, r := range rows {
		out.Write(r)
		out.WriteByte('\n')
	}
	return out.String()
}

// board rebuilds the spec's board.
func (s Spec) board() (*engine.Board, error) {
	if s.Picture == "" {
		return engine.Lookup(s.Board)
	}
	g, err := engine.ParseGeometry(s.Geometry)
	if err != nil {
		return nil, err
	}
	return engine.Parse(s.Board, s.Picture, g)
}

// problem rebuilds the spec's problem and its move generator.
func (s Spec) problem() (search.Problem, *kernel.Gen, error) {
	b, err := s.board()
	if err != nil {
		return search.Problem{}, nil, err
	}
	g, err := b.ParseGoal(s.Goal)
	if err != nil {
		return search.Problem{}, nil, err
	}
	prob := search.Problem{Board: b, Start: engine.Position(s.Start), Goal: g}
	group := search.ExploreGroup(prob, search.ExploreOptions{WholeGroup: s.Whole, NoSymmetry: s.NoSymmetry})
	return prob, kernel.NewGen(b, group), nil
}

// parts returns a layer's partitions.
func (s Spec) parts() int { return 1 << s.Bits }

// statsPath names the stats file of forward partition t of pegs pegs.
func (s Spec) statsPath(pegs, t int) string {
	return fmt.Sprintf("%s/%s/%02d/s%04d", s.Dir, part.KindFwd, pegs, t)
}

// partOf returns the partition number in a path made by Spec.path.
func partOf(path string) (int, error) {
	i := strings.LastIndex(path, "/p")
	var t int
	if i < 0 {
		return 0, fmt.Errorf("%s: not a partition", path)
	}
	if _, err := fmt.Sscanf(path[i+2:], "%d", &t); err != nil {
		return 0, fmt.Errorf("%s: not a partition: %w", path, err)
	}
	return t, nil
}

// step is what every step holds once set up on a worker.
type step struct {
	prob  search.Problem
	gen   *kernel.Gen
	store part.Store
}

func (s Spec) setup(ctx context.Context) (*step, error) {
	prob, gen, err := s.problem()
	if err != nil {
		return nil, err
	}
	fs, err := filesystem.New(ctx, s.Dir)
	if err != nil {
		return nil, err
	}
	return &step{prob: prob, gen: gen, store: part.Store{FS: fs, Dir: s.Dir}}, nil
}

func (st *step) close() {
	if st != nil && st.store.FS != nil {
		st.store.FS.Close()
	}
}

// budget returns a fresh memory budget for one step.
func (s Spec) budget() *kernel.Budget { return kernel.NewBudget(s.Mem) }

// expander returns an expander of purpose p for one step.
func (s Spec) expander(gen *kernel.Gen, p kernel.Purpose) (*kernel.Expander, error) {
	return kernel.NewExpander(p, kernel.Setup{Gen: gen, Mem: s.budget(), Workers: s.Workers})
}

// steps returns the partition steps of one step over the run's store,
// with a fresh budget.
func (s Spec) steps(st *step) (*kernel.Steps, error) {
	e, err := s.expander(st.gen, kernel.Paths)
	if err != nil {
		return nil, err
	}
	return kernel.NewSteps(st.store, e, kernel.Knobs{}), nil
}

// ErrInjected is the failure a test injects into one step (Spec.FailOnce).
var ErrInjected = errors.New("injected worker failure")

// failOnce fails the step, once per marker file, where the spec asks.
func (s Spec) failOnce(pegs int) error {
	if s.FailOnce == "" || pegs != s.FailPegs {
		return nil
	}
	f, err := os.OpenFile(s.FailOnce, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil // failed already
	}
	fmt.Fprintf(f, "failed at %s\n", time.Now().UTC().Format(time.RFC3339Nano))
	f.Close()
	return fmt.Errorf("expanding %d pegs: %w", pegs, ErrInjected)
}

// layerStats is a forward partition's stats, as its stats file holds them.
type layerStats struct {
	Positions, Raw, DeadEnds int64
	Games                    kernel.U128
	// Peak is the most bytes the expansion's memory budget held at once:
	// the partition's positions, its children's tables and the children.
	Peak int64
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
