package serve

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"pegs/search"
	"pegs/search/hint"
)

// oracleBuild is the build of a loaded level's oracle: waiting for its
// turn, then under way (build set), then done.
type oracleBuild struct {
	level *level
	ids   []string // the loaded levels it serves: those of the same game
	// lazy reports a build begun when a hint first asks for it, not by
	// Start: a level of more than Config.EagerPegs pegs.
	lazy  bool
	begin sync.Once
	mu    sync.Mutex
	build *hint.Build
}

// current returns the build once it has begun, else nil.
func (o *oracleBuild) current() *hint.Build {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.build
}

// Start builds the oracles of the loaded levels (those cfg.Oracles picks)
// of at most Config.EagerPegs pegs in the background, one at a time, the
// levels of fewest pegs first: until a level's is built, its hints are
// searched; then they are lookups. A bigger level's oracle is built when
// a hint first asks for it. Start returns at once; a second call does
// nothing.
func (s *Server) Start() {
	s.started.Do(func() {
		ctx, cancel := context.WithCancel(context.Background())
		s.stop = cancel
		byKey := map[levelKey]*oracleBuild{}
		for _, pack := range s.packs {
			for i := range pack.Levels {
				l := s.levels[levelID(pack.ID, i)]
				if s.cfg.Oracles != nil && !s.cfg.Oracles(l.ID) {
					continue
				}
				k := levelKey{pack.Board, l.Start, pack.Goal}
				o := byKey[k]
				if o == nil {
					o = &oracleBuild{level: l, lazy: l.Start.Pegs() > s.eagerPegs()}
					byKey[k] = o
					s.builds = append(s.builds, o)
				}
				o.ids = append(o.ids, l.ID)
				l.oracle.Store(o)
			}
		}
		slices.SortStableFunc(s.builds, func(a, b *oracleBuild) int {
			return cmp.Compare(a.level.Start.Pegs(), b.level.Start.Pegs())
		})
		s.buildCtx = ctx
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.buildAll(ctx)
		}()
	})
}

// eagerPegs returns the most pegs of a level whose oracle Start builds.
func (s *Server) eagerPegs() int {
	if s.cfg.EagerPegs > 0 {
		return s.cfg.EagerPegs
	}
	return 24
}

// buildAll runs the builds that are not lazy in turn until they end or
// ctx does.
func (s *Server) buildAll(ctx context.Context) {
	t0 := time.Now()
	n := 0
	for _, o := range s.builds {
		if !o.lazy {
			n++
			o.begin.Do(func() { s.runBuild(ctx, o) })
		}
	}
	s.log.Info("all oracles built", "levels", n, "seconds", time.Since(t0).Seconds())
	s.findMoves(ctx)
}

// findMoves finds the fewest moves of the loaded levels that have none
// yet and at most Config.EagerPegs pegs, once, in the background, so
// that Show solution answers from memory; a request that asks first finds
// them itself, and this then waits.
func (s *Server) findMoves(ctx context.Context) {
	for _, p := range s.packs {
		for i := range p.Levels {
			l := s.levels[levelID(p.ID, i)]
			if l.Start.Pegs() > s.eagerPegs() {
				continue
			}
			prob := search.Problem{Board: p.Board, Start: l.Start, Goal: p.Goal}
			_, _, err := l.moves.get(ctx, func(ctx context.Context) (search.Solution, time.Duration, error) {
				// As an oracle's build: within a quarter of the budget,
				// taking no slot of the requests.
				t0 := time.Now()
				ms, err := search.FewestMoves(ctx, prob, search.Budget{Workers: s.workers(), Memory: s.memory / 4})
				return ms.Solution, time.Since(t0), err
			})
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				s.log.Warn("fewest moves not found", "level", l.ID, "err", err)
			}
		}
	}
}

// runBuild builds o's oracle and waits until it is built or ctx ends.
func (s *Server) runBuild(ctx context.Context, o *oracleBuild) {
	l := o.level
	b := s.adv.Prepare(l.pack.Board, l.Start, l.pack.Goal)
	o.mu.Lock()
	o.build = b
	o.mu.Unlock()
	start := time.Now()
	select {
	case <-b.Done():
	case <-ctx.Done():
		return
	}
	if err := b.Err(); err != nil {
		s.log.Warn("oracle not built: its hints search", "levels", o.ids, "err", err)
		return
	}
	s.log.Info("oracle built", "levels", o.ids, "pegs", l.Start.Pegs(), "seconds", time.Since(start).Seconds())
}

// wake begins l's oracle build if it is lazy and not begun: the first
// hint of a big level asks for it.
func (s *Server) wake(l *level) {
	if l == nil || s.buildCtx == nil {
		return
	}
	o := l.oracle.Load()
	if o == nil || !o.lazy {
		return
	}
	o.begin.Do(func() {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.runBuild(s.buildCtx, o)
		}()
	})
}

// answers reports whether l's oracle answers its hints by lookup.
func (s *Server) answers(l *level) bool {
	if l == nil {
		return false
	}
	o := l.oracle.Load()
	if o == nil {
		return false
	}
	b := o.current()
	return b != nil && b.Answers()
}

// Ready reports whether the oracles Start builds have all been built (or
// have failed, which the logs and /readyz say); the lazy ones are not
// waited for.
func (s *Server) Ready() bool {
	if s.stop == nil {
		return false
	}
	for _, o := range s.builds {
		b := o.current()
		if b == nil && o.lazy {
			continue
		}
		if b == nil {
			return false
		}
		select {
		case <-b.Done():
		default:
			return false
		}
	}
	return true
}

// OracleJSON is the state of a loaded level's oracle in GET /readyz.
type OracleJSON struct {
	Levels []string `json:"levels"`
	// State is "waiting", "on demand" (built when a hint first asks),
	// "building", "tables" (its winnable tables answer, the fewest pegs
	// of its dead ends are being built), "ready" or "failed".
	State string `json:"state"`
	Error string `json:"error,omitempty"`
}

// ReadyJSON is the body of GET /readyz.
type ReadyJSON struct {
	Ready   bool         `json:"ready"`
	Oracles []OracleJSON `json:"oracles"`
}

// readiness returns the state of every oracle Start builds.
func (s *Server) readiness() ReadyJSON {
	out := ReadyJSON{Ready: s.Ready(), Oracles: []OracleJSON{}}
	for _, o := range s.builds {
		st := OracleJSON{Levels: o.ids, State: "waiting"}
		if o.lazy {
			st.State = "on demand"
		}
		if b := o.current(); b != nil {
			st.State = "building"
			select {
			case <-b.Done():
				st.State = "ready"
				if err := b.Err(); err != nil {
					st.State, st.Error = "failed", err.Error()
				}
			default:
				if b.Answers() {
					st.State = "tables"
				}
			}
		}
		out.Oracles = append(out.Oracles, st)
	}
	return out
}
