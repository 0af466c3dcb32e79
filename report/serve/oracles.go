package serve

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"pegs/search/hint"
)

// oracleBuild is the build of a loaded level's oracle: waiting for its
// turn, then under way (build set), then done.
type oracleBuild struct {
	level *level
	ids   []string // the loaded levels it serves: those of the same game
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
// in the background, one at a time, the levels of fewest pegs first:
// until a level's is built, its hints are searched; then they are
// lookups. It returns at once; a second call does nothing.
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
					o = &oracleBuild{level: l}
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
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.buildAll(ctx)
		}()
	})
}

// buildAll runs the builds in turn until they end or ctx does.
func (s *Server) buildAll(ctx context.Context) {
	t0 := time.Now()
	for _, o := range s.builds {
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
			continue
		}
		s.log.Info("oracle built", "levels", o.ids, "pegs", l.Start.Pegs(), "seconds", time.Since(start).Seconds())
	}
	s.log.Info("all oracles built", "levels", len(s.builds), "seconds", time.Since(t0).Seconds())
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
// have failed, which the logs and /readyz say).
func (s *Server) Ready() bool {
	if s.stop == nil {
		return false
	}
	for _, o := range s.builds {
		b := o.current()
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
	// State is "waiting", "building", "tables" (its winnable tables
	// answer, the fewest pegs of its dead ends are being built), "ready"
	// or "failed".
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
