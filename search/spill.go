package search

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"pegs/engine"
	"pegs/search/internal/layered"
	"pegs/search/internal/memory"
	"pegs/search/internal/movegen"
	"pegs/search/internal/partition"
	"pegs/search/internal/spill"
)

// Spill puts an exhaustive search's layers on disk
// (ExploreOptions.Spill), so that memory bounds one partition's work
// instead of the whole state space, and a run killed at any point can be
// resumed. The files' format
// is package spill's.
type Spill struct {
	// Dir is the directory of the layers' files; "" searches in memory.
	Dir string
	// Resume continues the run in Dir from the last partition it
	// completed, with the same results as a run never stopped; without
	// it, a Dir that holds a run is refused.
	Resume bool
	// Keep leaves the files in Dir at the end; without it they are
	// removed once the analysis is done.
	Keep bool
	// NoEstimate starts a new run without first estimating the most it
	// holds on disk (a bound, which a run can stay well below, from its
	// first layers run in memory), and so without a refusal by it; each
	// layer is still checked against the free space before it is
	// written, and a run stopped there continues with Resume once there
	// is room.
	NoEstimate bool
}

// SpillStats says what a spilled run did (Analysis.Spilled).
type SpillStats struct {
	Dir string
	// Partitions counts the layer partitions this process expanded (not
	// those a resumed run found done); Widest is the most partitions of
	// one layer.
	Partitions int64
	Widest     int
	// Chunked counts the partitions expanded in more than one chunk
	// (their layer came out larger than estimated); Passes is the most
	// passes the walk back made over one layer (more than one where the
	// winnable positions of the layer below pass half the budget).
	Chunked int64
	Passes  int
	// Intermediate counts the runs the merges wrote between passes (where
	// a group's runs passed what the budget reads at once).
	Intermediate int64
	// Held counts the layers expanded held whole in memory, their
	// children written as the partitions of the layer below at once,
	// without runs (where they fit the budget beside the layer, in as few
	// parts as do).
	Held int64
	// Files and Bytes count the files this process wrote, runs and
	// winnable files included; PeakDisk is the most that its files held
	// on disk at once, each rounded up to whole blocks of 4 KiB.
	Files    int
	Bytes    int64
	PeakDisk int64
}

// spillIdentity names the problem and the options that change what a
// spilled run counts, for its manifest.
func spillIdentity(prob Problem, group *engine.Group, opt ExploreOptions) map[string]string {
	b := prob.Board
	return map[string]string{
		"board":      b.Name(),
		"holes":      b.Line(b.Full()),
		"start":      b.Line(prob.Start),
		"goal":       b.FormatGoal(prob.Goal),
		"symmetries": strconv.Itoa(group.Len()),
		"whole":      strconv.FormatBool(opt.WholeGroup),
		"raw":        strconv.FormatBool(opt.NoSymmetry),
	}
}

// exploreSpilled is Explore with ExploreOptions.Spill: the forward pass,
// the walk back and the random player's chances read and write the layers
// in the spill directory a partition at a time (see partition.Spilled). Path
// counts are carried forward always; with NoGames only the games total is
// left out.
func exploreSpilled(ctx context.Context, a *Analysis, prob Problem, gen *movegen.Gen, opt ExploreOptions, mem *memory.Budget) error {
	id := spillIdentity(prob, gen.Group, opt)
	open := spill.Start
	if opt.Spill.Resume {
		open = spill.Resume
	}
	d, err := open(opt.Spill.Dir, id)
	if err != nil {
		return err
	}
	defer d.Close()
	d.NoSync = opt.knobs.spillNoSync
	e, err := layered.NewExpander(layered.Paths, layered.Setup{Gen: gen, Mem: mem, Workers: opt.Workers, Tuning: opt.knobs.layered})
	if err != nil {
		return err
	}
	s := partition.NewSpilled(d, e, partition.Knobs{MaxPartition: opt.knobs.spillPartition, MaxChunk: opt.knobs.spillChunk,
		WalkRoom: opt.knobs.spillWalkRoom, Free: opt.knobs.spillFree, MaxFanIn: opt.knobs.spillFanIn, Parts: opt.knobs.spillParts})
	s.Progress = opt.config().Progress
	defer func() {
		a.Spilled = &SpillStats{Dir: d.Path, Partitions: s.Expanded.Load(), Files: d.Written, Bytes: d.Bytes,
			Chunked: s.Chunked.Load(), Passes: s.Passes, Intermediate: s.Intermediate.Load(), Held: s.Held, PeakDisk: d.Peak}
		for _, l := range d.M.Layers {
			a.Spilled.Widest = max(a.Spilled.Widest, l.Partitions)
		}
	}()
	p0 := prob.Start.Pegs()
	first := layered.First(gen.Group, prob.Start, true)
	if !opt.Spill.Resume && !opt.Spill.NoEstimate {
		if err := s.CheckRunDisk(ctx, first, spillSample); err != nil {
			d.Clear() // what Start made
			return err
		}
	}
	index := map[int]int{}
	err = s.Forward(ctx, first, func(pegs int, st layered.Stats) {
		index[pegs] = len(a.Layers)
		a.Layers = append(a.Layers, LayerStats{Pegs: pegs, Reachable: st.Positions, ReachableRaw: st.Raw, DeadEnds: st.DeadEnds})
		a.Games.Add(a.Games, st.Games.Big())
	})
	if err != nil {
		return err
	}
	if _, ok := index[1]; ok {
		l, err := s.Load(1)
		if err != nil {
			return err
		}
		a.countFinishes(prob, gen.Group, l)
		mem.Give(l.Bytes())
	}
	if len(layered.BackwardSeeds(prob.Board, prob.Start, prob.Goal, gen.Group)) > 0 {
		err := s.WalkBack(ctx, prob.Goal, p0, func(pegs int, n int64) error {
			if i, ok := index[pegs]; ok {
				a.Layers[i].Winnable = n
			}
			return nil
		})
		if err != nil {
			return err
		}
		if !opt.Spill.Keep {
			if err := s.DropLayers(p0); err != nil {
				return err
			}
		}
		v, ok, err := s.Chances(ctx, p0)
		if err != nil {
			return err
		}
		if ok {
			if a.RandomWin, err = chanceFloat64(v, p0); err != nil {
				return err
			}
		}
	}
	if opt.NoGames {
		a.Games = nil
	}
	if err := d.Wait(); err != nil { // the manifest's last saves
		return err
	}
	if !opt.Spill.Keep {
		if err := d.Clear(); err != nil {
			return fmt.Errorf("spill: removing the files: %w", err)
		}
	}
	return nil
}

// spillSample is about how long a new spilled run may spend running its
// first layers in memory to estimate the disk it needs (see
// partition.Spilled.CheckRunDisk).
const spillSample = 2 * time.Second
