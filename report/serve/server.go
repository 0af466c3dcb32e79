package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"pegs/engine"
	"pegs/search"
	"pegs/search/hint"
)

// Config says what a Server offers and within what limits.
type Config struct {
	// Packs are the level packs offered after the built-in ones
	// (BuiltinPacks).
	Packs []Pack
	// Memory is the server's budget in bytes (see the package
	// documentation, Limits); zero means search.DefaultMemory.
	Memory int64
	// Workers is the number of goroutines of each layered search; zero
	// means all cores (the oracles' builds keep one for depth first).
	Workers int
	// Log receives the server's structured logs; nil means slog.Default().
	Log *slog.Logger
	// Oracles, if set, picks the loaded levels whose oracles Start builds,
	// by level id; nil means all.
	Oracles func(id string) bool
	// EagerPegs is the most pegs of a loaded level whose oracle Start
	// builds; the bigger levels' are built when a hint first asks for
	// them, so that the server is ready in seconds. Zero means 24.
	EagerPegs int
	Limits    Limits
}

// Limits bound what one request may cost; the zero value of each field
// means its default.
type Limits struct {
	// Body is the largest request body in bytes; default 64 KiB.
	Body int64
	// Timeout is how long a request may take; default 30 s.
	Timeout time.Duration
	// Slots is how many searching requests (solve, grade, generate, and
	// hints that are not lookups) run at once; default the number of
	// cores, at least 2. Each searches within Memory / (2 Slots).
	Slots int
	// Wait is how long a hint that searches waits for a slot before the
	// server answers 503; default 5 s. Solve, grade and generate do not
	// wait.
	Wait time.Duration
	// GradePegs is the most pegs of a level graded on request; default 24.
	GradePegs int
	// Generate is the most levels generated on request; default 10.
	Generate int
	// Levels bounds the oracles kept of levels other than the loaded
	// ones, which hints build on demand; default 16.
	Levels int
}

// withDefaults returns l with its zero fields set to their defaults.
func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	if l.Body <= 0 {
		l.Body = 64 << 10
	}
	if l.Timeout <= 0 {
		l.Timeout = 30 * time.Second
	}
	if l.Wait <= 0 {
		l.Wait = 5 * time.Second
	}
	def(&l.Slots, max(2, runtime.GOMAXPROCS(0)))
	def(&l.GradePegs, 24)
	def(&l.Generate, 10)
	def(&l.Levels, 16)
	return l
}

// Server is the level server: its packs, the Advisor that answers hints
// for its life, the builds of the loaded levels' oracles, and the slots of
// the searching requests. Make one with New, start the builds with Start,
// serve Handler (or call Serve), and Close it at the end.
type Server struct {
	cfg     Config
	lim     Limits
	log     *slog.Logger
	memory  int64 // the whole budget
	adv     *hint.Advisor
	tables  search.Tables // the solves' endgame tables, by board and goal
	packs   []*Pack
	levels  map[string]*level        // by id
	starts  map[levelKey]*level      // by board, start and goal
	boards  map[string]*engine.Board // the packs' boards that are not built in
	slots   chan struct{}
	handler http.Handler

	builds   []*oracleBuild
	stop     context.CancelFunc // stops Start's builds
	buildCtx context.Context    // the builds', until Close
	wg       sync.WaitGroup
	started  sync.Once
}

// level is a loaded level: its id and pack, its fewest-moves solution once
// asked for, and its oracle's build.
type level struct {
	Level
	ID     string
	pack   *Pack
	moves  *memo
	oracle atomic.Pointer[oracleBuild] // set by Start
}

// levelKey names a level by what it plays.
type levelKey struct {
	b     *engine.Board
	start engine.Position
	goal  engine.Goal
}

// New returns a server of the classic levels and cfg's packs. Its
// oracles are not built until Start.
func New(cfg Config) (*Server, error) {
	s := &Server{cfg: cfg, lim: cfg.Limits.withDefaults(), log: cfg.Log, memory: cfg.Memory,
		levels: map[string]*level{}, starts: map[levelKey]*level{}, boards: map[string]*engine.Board{}}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.memory <= 0 {
		s.memory = search.DefaultMemory
	}
	builtin, err := BuiltinPacks()
	if err != nil {
		return nil, err
	}
	for _, p := range append(builtin, cfg.Packs...) {
		if err := s.addPack(p); err != nil {
			return nil, err
		}
	}
	s.slots = make(chan struct{}, s.lim.Slots)
	s.adv = hint.NewAdvisor(hint.Options{
		Memory:      s.slotMemory(),
		BuildMemory: s.memory / 4,
		Workers:     cfg.Workers,
		MaxLevels:   s.lim.Levels,
		MaxBuilds:   1,
	})
	s.handler = s.routes()
	return s, nil
}

// addPack adds a pack and its levels, its id made unique.
func (s *Server) addPack(p Pack) error {
	id := p.ID
	for n := 2; slices.ContainsFunc(s.packs, func(q *Pack) bool { return q.ID == id }); n++ {
		id = fmt.Sprintf("%s-%d", p.ID, n)
	}
	p.ID = id
	if b, ok := s.boards[p.Board.Name()]; ok && b != p.Board {
		return fmt.Errorf("pack %s: two boards are named %s", p.Name, b.Name())
	}
	if _, err := engine.Lookup(p.Board.Name()); err != nil {
		s.boards[p.Board.Name()] = p.Board
	}
	pack := &p
	s.packs = append(s.packs, pack)
	for i, l := range p.Levels {
		lv := &level{Level: l, ID: levelID(p.ID, i), pack: pack, moves: newMemo()}
		if l.Fewest != nil {
			lv.moves.done, lv.moves.sol = true, *l.Fewest
		}
		if _, dup := s.levels[lv.ID]; dup {
			return fmt.Errorf("pack %s: level id %s is taken", p.Name, lv.ID)
		}
		s.levels[lv.ID] = lv
		k := levelKey{p.Board, l.Start, p.Goal}
		if _, dup := s.starts[k]; !dup {
			s.starts[k] = lv
		}
	}
	return nil
}

// levelAt returns the loaded level that starts at start toward goal on
// board b, or nil.
func (s *Server) levelAt(b *engine.Board, start engine.Position, goal engine.Goal) *level {
	return s.starts[levelKey{b, start, goal}]
}

// slotMemory is the budget of one searching request.
func (s *Server) slotMemory() int64 { return s.memory / int64(2*s.lim.Slots) }

// Handler returns the server's HTTP handler: the API, the play page, and
// the health checks.
func (s *Server) Handler() http.Handler { return s.handler }

// Close stops the oracles' builds and waits for them to end.
func (s *Server) Close() {
	if s.stop != nil {
		s.stop()
	}
	s.wg.Wait()
	s.adv.Close()
}

// Serve answers HTTP requests on ln until ctx ends, then shuts down
// gracefully: it stops listening, cancels the searches in flight (whose
// requests answer 503) and lets the requests finish, within five seconds.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	base, cancelBase := context.WithCancelCause(context.Background())
	defer cancelBase(nil)
	hs := &http.Server{
		BaseContext:       func(net.Listener) context.Context { return base },
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      s.lim.Timeout + 10*time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	s.log.Info("serving", "addr", "http://"+ln.Addr().String()+"/")
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down: cancelling the searches in flight")
	cancelBase(errShutdown)
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	s.log.Info("stopped")
	return nil
}
