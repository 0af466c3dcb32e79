package cli

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/dustin/go-humanize"

	"pegs/engine"
	"pegs/report"
)

// NewFlagSet returns a flag set for one subcommand that reports errors
// instead of exiting.
func NewFlagSet(prog, name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: %s %s %s\n\nFlags:\n", prog, name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// Parse parses args and turns flag errors into usage errors.
func Parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return UsageError{Err: err, Printed: true}
	}
	if fs.NArg() > 0 {
		return Usagef("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return nil
}

// BoardFlags select a board: a built-in name or @FILE with a geometry.
type BoardFlags struct {
	board, geometry string
}

// Register defines --board and --geometry on fs.
func (f *BoardFlags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.board, "board", "english", "board: "+engine.BoardNames()+", or @FILE (a picture: 'o' or '.' per hole)")
	fs.StringVar(&f.geometry, "geometry", "", "geometry of a board read from @FILE: square, diagonal (square with diagonal jumps) or triangular (default square)")
}

// Limits on the files that flags name: a board or a position is a picture
// of at most engine.MaxHoles holes, a levels file a line per level.
const (
	MaxPictureFile = 64 << 10
	MaxLevelsFile  = 64 << 20
)

// Load returns the board the flags name, reading @FILE where given.
func (f *BoardFlags) Load() (*engine.Board, error) {
	r, err := f.rules()
	if err != nil {
		return nil, err
	}
	b, err := r.Board(f.board)
	return b, flagError(err)
}

// rules returns the engine's rules for a game on the board the flags
// name: built in, or read from @FILE. --geometry goes with @FILE alone.
func (f *BoardFlags) rules() (engine.GameRules, error) {
	if f.geometry != "" && !strings.HasPrefix(f.board, "@") {
		return engine.GameRules{}, Usagef("--geometry %s is for a board read from @FILE; board %s has its own", f.geometry, f.board)
	}
	return engine.GameRules{Boards: func(name string) (*engine.Board, error) {
		file, ok := strings.CutPrefix(name, "@")
		if !ok {
			return nil, Usagef("--board: %w %q (want %s, or @FILE)", engine.ErrUnknownBoard, name, engine.BoardNames())
		}
		g, err := engine.ParseGeometry(cmp.Or(f.geometry, "square"))
		if err != nil {
			return nil, Usagef("--geometry: %w", err)
		}
		text, err := ReadFile("--board", file, MaxPictureFile)
		if err != nil {
			return nil, err
		}
		b, err := engine.Parse(file, string(text), g)
		if err != nil {
			return nil, Usagef("--board %s: %w", file, err)
		}
		return b, nil
	}}, nil
}

// flagError turns the engine's errors about a game's fields into usage
// errors naming the flag; an error of the flags' own reading (a file too
// large, a board file that does not parse) names its flag already, and a
// file that cannot be read is not a usage error.
func flagError(err error) error {
	if err == nil {
		return nil
	}
	fe, field := errors.AsType[*engine.FieldError](err)
	if field {
		err = fe.Err
	}
	var ue UsageError
	var pe *os.PathError
	switch {
	case errors.As(err, &ue), errors.As(err, &pe):
		return err
	case field:
		return Usagef("--%s: %w", fe.Field, fe.Err)
	}
	return UsageError{Err: err}
}

// readAt returns s, or the contents of file FILE where s is @FILE, read
// through ReadFile's limit for a picture.
func readAt(flag, s string) (string, error) {
	name, ok := strings.CutPrefix(s, "@")
	if !ok {
		return s, nil
	}
	data, err := ReadFile(flag, name, MaxPictureFile)
	return string(data), err
}

// PositionFlags select a position: --start (holes to vacate) or --position
// (a picture or @FILE); neither means the board's usual start.
type PositionFlags struct {
	Start, Position string
}

// Register defines --start and --position on fs.
func (f *PositionFlags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.Start, "start", "", "start with the full board less these holes, such as d4 or 1,6")
	fs.StringVar(&f.Position, "position", "", "position as a picture ('o' peg, '.' empty, one per hole in reading order; spaces ignored) or @FILE")
}

// Load returns the position the flags name on b, or b's usual start.
func (f *PositionFlags) Load(b *engine.Board) (engine.Position, error) {
	t, err := f.text()
	if err != nil {
		return 0, err
	}
	t.Board = b.Name()
	g, err := engine.ResolveGame(t, engine.GameRules{Boards: func(string) (*engine.Board, error) { return b, nil }})
	if errors.Is(err, engine.ErrNoPegs) {
		return g.Position, nil // the callers say where a position must hold pegs
	}
	return g.Position, flagError(err)
}

// text returns the flags as the engine reads a game, with @FILE read.
func (f *PositionFlags) text() (engine.GameText, error) {
	pos, err := readAt("--position", f.Position)
	if err != nil {
		return engine.GameText{}, err
	}
	start := f.Start
	if strings.HasPrefix(start, "@") {
		if start, err = readAt("--start", start); err != nil {
			return engine.GameText{}, err
		}
	}
	return engine.GameText{Start: start, Position: pos}, nil
}

// ReadFile reads the file path that flag names (as @FILE, or a file
// flag), of at most limit bytes, without a leading byte-order mark. A
// larger file, a folder or a device that never ends is refused in one line
// naming the flag, after reading at most limit bytes and one more.
func ReadFile(flag, path string, limit int64) ([]byte, error) {
	f, err := OpenFile(flag, path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return bytes.TrimPrefix(data, []byte("\uFEFF")), nil
}

// OpenFile opens the file path that flag names for reading at most limit
// bytes: reading past them fails with an error naming the flag (see
// ReadFile).
func OpenFile(flag, path string, limit int64) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, Usagef("%s %s is a directory, not a file", flag, path)
	} else if err == nil && st.Mode().IsRegular() && st.Size() > limit {
		f.Close()
		return nil, Usagef("%s %s: larger than %s", flag, path, humanize.IBytes(uint64(limit)))
	}
	return &limitedFile{f: f, flag: flag, path: path, left: limit, limit: limit}, nil
}

// limitedFile reads a file up to a limit, past which it fails.
type limitedFile struct {
	f           *os.File
	flag, path  string
	left, limit int64
}

func (l *limitedFile) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, Usagef("%s %s: larger than %s", l.flag, l.path, humanize.IBytes(uint64(l.limit)))
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.f.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n - 1, Usagef("%s %s: larger than %s", l.flag, l.path, humanize.IBytes(uint64(l.limit)))
	}
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s: %w", l.flag, err)
	}
	return n, err
}

func (l *limitedFile) Close() error { return l.f.Close() }

// ParseGoal reads --goal for board b.
func ParseGoal(b *engine.Board, s string) (engine.Goal, error) {
	g, err := b.ParseGoal(s)
	if err != nil {
		return g, Usagef("--goal: %w", err)
	}
	return g, nil
}

// DefaultGoal is "center" where the board has a centre, else "any".
func DefaultGoal(b *engine.Board) string {
	if _, ok := b.Centre(); ok {
		return "center"
	}
	return "any"
}

// ParseFormat reads --format; with allowed given, other formats are a
// usage error naming the ones offered.
func ParseFormat(s string, allowed ...report.Format) (report.Format, error) {
	f, err := report.ParseFormat(s)
	if err != nil {
		return 0, Usagef("--format: %w", err)
	}
	if len(allowed) > 0 {
		for _, a := range allowed {
			if a == f {
				return f, nil
			}
		}
		names := make([]string, len(allowed))
		for i, a := range allowed {
			names[i] = a.String()
		}
		return 0, Usagef("--format %s is not offered here (want %s)", s, strings.Join(names, " or "))
	}
	return f, nil
}

// LimitHeap splits mem, the memory of the whole process (--mem), between
// the program and its search (see SplitMem), asks the garbage collector to
// keep the heap within the program's share, and returns the search's
// budget. Unless the command runs many small searches, it also asks the
// collector to collect early: a big search's arrays hold no pointers, so
// frequent collections cost little and freed layers are reused sooner
// (English full analysis: 1.8 GB peak RSS at the default, 1.4 GB here, at
// the same speed). Many small searches allocate fast and keep little, so
// early collection only costs them time (generating 300 levels: 10-20%
// slower at 25%).
func LimitHeap(mem int64, many bool) int64 {
	heap, budget := SplitMem(mem)
	debug.SetMemoryLimit(heap)
	if !many {
		debug.SetGCPercent(25)
	}
	return budget
}

// SplitMem returns what of mem bytes, the process's memory (--mem), the
// Go runtime may hold (its memory limit: the heap, goroutine stacks and
// its own metadata) and, of that, the search's budget: mem less the
// executable's own pages (programBytes), and less what the runtime holds
// beyond what a search charges (runtimeSlack). The heap's soft limit was
// the budget and a sixteenth and 128 MiB, so that a search using its
// budget took that much more: French d3 with complete games at --mem 6GiB
// peaked at 6.35 GiB of RSS, at 5.6GiB at 6.09 GiB. Below 2*programBytes
// (56 MiB) the program itself takes most of mem: the search gets half of the
// runtime's share, and the process passes mem. The budget is at least
// one byte (a budget of 0 means none), as is the runtime's limit.
func SplitMem(mem int64) (heap, budget int64) {
	heap = max(mem-programBytes, mem/2, 1)
	return heap, max(heap-runtimeSlack(heap), heap/2, 1)
}

// programBytes is what the process takes beside the Go runtime's limit:
// the executable's own pages (14 MiB of the English spilled run's RSS was
// its file pages, RssFile), and what the runtime holds past its limit
// before it hands memory back (3 MiB in that run at --mem 128MiB), and
// what it holds outside its own count: the English spilled run at --mem
// 256MiB and 320MiB still passed them by 1.2 and 2.2 MiB with 20 MiB here.
const programBytes = 28 << 20

// runtimeSlack is what the Go runtime holding heap bytes keeps beyond a
// search's charges: objects too small to charge and its own metadata (3
// MiB at a heap of 256 MiB), and garbage not yet collected, which the
// runtime cannot hand back until a collection frees it, however near its
// limit. The English spilled run at --mem 128MiB, its runtime's limit 112
// MiB, peaked at 169, 143, 139 and 126-130 MiB of RSS with 2, 8, 12.6 and
// 17.75 MiB of slack; the English analysis in memory at --mem 160MiB, with
// 26 MiB, at 161 MiB.
func runtimeSlack(heap int64) int64 { return heap/64 + 32<<20 }

// memUnits maps the units --mem takes, in lower case, to the unit
// humanize.ParseBytes reads with the same meaning: a bare K, M, G or T is
// binary here (as in 512M) but decimal there, so it becomes KiB, MiB, GiB
// or TiB. Units humanize takes beyond these (Ki, PB, EiB...) are refused.
var memUnits = map[string]string{
	"": "", "b": "b",
	"kib": "kib", "mib": "mib", "gib": "gib", "tib": "tib",
	"kb": "kb", "mb": "mb", "gb": "gb", "tb": "tb",
	"k": "kib", "m": "mib", "g": "gib", "t": "tib",
}

// ParseMem reads --mem: a decimal number (digits with an optional point,
// such as 5.75), an optional space and an optional unit, in any case: B,
// KiB, MiB, GiB, TiB (binary), KB, MB, GB, TB (decimal), or K, M, G, T
// (binary, as KiB...TiB). The size must be 1 byte to 2^62 bytes; a
// fraction of a byte is dropped.
func ParseMem(s string) (int64, error) { return ParseSize("--mem", s) }

// ParseSize reads a size as ParseMem does, for the flag named flag; a
// size past 2^62 bytes, or in a unit past TiB, is refused as too large.
func ParseSize(flag, s string) (int64, error) {
	t := strings.TrimSpace(s)
	digits := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if digits < 0 {
		digits = len(t)
	}
	num, unit := t[:digits], strings.ToLower(strings.TrimSpace(t[digits:]))
	// humanize would also take digit groups (1,000); ParseBytes refuses a
	// number without digits or with two points.
	if strings.ContainsAny(num, "0123456789") {
		if hu, ok := memUnits[unit]; ok {
			n, err := humanize.ParseBytes(num + hu)
			if err == nil && n >= 1 && n <= 1<<62 {
				return int64(n), nil
			}
			if err == nil && n > 1<<62 || err != nil && strings.HasPrefix(err.Error(), "too large") {
				return 0, Usagef("%s %s: too large; at most 4194304TiB (2^62 bytes)", flag, t)
			}
		}
		if bigUnits[unit] {
			return 0, Usagef("%s %s: too large a unit; %s takes B, KiB, MiB, GiB or TiB (at most 4194304TiB)", flag, t, flag)
		}
	}
	return 0, Usagef("%s: bad size %q: want a positive number with a unit, such as 512MiB or 4GiB", flag, s)
}

// bigUnits are the units past TiB, in lower case: a size in them is
// refused as too large.
var bigUnits = map[string]bool{"pib": true, "eib": true, "zib": true, "yib": true, "pb": true, "eb": true, "zb": true, "yb": true, "p": true, "e": true, "z": true, "y": true}

// ProblemFlags select a board, a position on it and a goal.
type ProblemFlags struct {
	BoardFlags
	PositionFlags
	goal       string
	allowFewer bool // whether --goal fewest is accepted
}

// Register defines the board, position and goal flags on fs; allowFewest
// says whether --goal fewest is accepted.
func (f *ProblemFlags) Register(fs *flag.FlagSet, allowFewest bool) {
	f.BoardFlags.Register(fs)
	f.PositionFlags.Register(fs)
	f.RegisterGoal(fs, allowFewest)
}

// RegisterGoal defines --goal alone, for commands that register the
// board flags themselves and read positions their own way.
func (f *ProblemFlags) RegisterGoal(fs *flag.FlagSet, allowFewest bool) {
	f.allowFewer = allowFewest
	usage := "goal: any, center or a hole (default center where the board has one, else any)"
	if allowFewest {
		usage = "goal: any, center, fewest or a hole (default center where the board has one, else any)"
	}
	fs.StringVar(&f.goal, "goal", "", usage)
}

// LoadGoal reads --goal for board b, applying the default.
func (f *ProblemFlags) LoadGoal(b *engine.Board) (engine.Goal, error) {
	s := f.goal
	if s == "" {
		s = DefaultGoal(b)
	}
	g, err := ParseGoal(b, s)
	if err != nil {
		return g, err
	}
	if g.Kind == engine.FewestPegs && !f.allowFewer {
		return g, Usagef("--goal fewest: this command needs a one-peg goal (any, center or a hole)")
	}
	return g, nil
}

// LoadBoardGoal returns the board and the goal, for commands that read
// positions their own way.
func (f *ProblemFlags) LoadBoardGoal() (*engine.Board, engine.Goal, error) {
	b, err := f.BoardFlags.Load()
	if err != nil {
		return nil, engine.Goal{}, err
	}
	g, err := f.LoadGoal(b)
	return b, g, err
}

// Load returns the board, the position (which must hold a peg) and the goal.
func (f *ProblemFlags) Load() (*engine.Board, engine.Position, engine.Goal, error) {
	g, err := f.Game("", false)
	return g.Board, g.Position, g.Goal, err
}

// Game reads the flags and history, the jumps played from --start, as
// engine.ResolveGame reads a game: a game in play if played is set, else
// a problem (--start or --position, the board's usual start if neither).
func (f *ProblemFlags) Game(history string, played bool) (engine.Game, error) {
	t, err := f.PositionFlags.text()
	if err != nil {
		return engine.Game{}, err
	}
	t.Board, t.Goal, t.History = f.board, f.goal, history
	r, err := f.rules()
	if err != nil {
		return engine.Game{}, err
	}
	r.Fewest, r.History = f.allowFewer, played
	g, err := engine.ResolveGame(t, r)
	return g, flagError(err)
}

// SearchFlags set the worker count and memory budget of a search.
type SearchFlags struct {
	Workers int
	mem     string
	// Many reports a command that runs many small searches (generate),
	// or one that is mostly small (solve): it keeps the collector's
	// default pace, which costs it less time; the memory limit still
	// holds.
	Many bool
}

// Register adds --workers and --mem, whose default is mem bytes (one of
// search's default budgets).
func (f *SearchFlags) Register(fs *flag.FlagSet, mem int64) {
	fs.IntVar(&f.Workers, "workers", 0, "worker goroutines (default: one per CPU)")
	fs.StringVar(&f.mem, "mem", humanize.IBytes(uint64(mem)), "memory budget of the whole process; a search stops with a message before passing it")
}

// MaxWorkers is the most worker goroutines --workers may ask for: each
// holds buffers of its own, so that asking for millions runs out of
// memory before the search starts.
const MaxWorkers = 1024

// Load checks the flags and returns the search's budget in bytes: --mem
// less the program's own memory (see LimitHeap, which it calls).
func (f *SearchFlags) Load() (int64, error) {
	if f.Workers < 0 || f.Workers > MaxWorkers {
		return 0, Usagef("--workers %d: want 1 to %d (0 or none: one per CPU, %d here)", f.Workers, MaxWorkers, runtime.GOMAXPROCS(0))
	}
	budget, err := ParseMem(f.mem)
	if err != nil {
		return 0, err
	}
	return LimitHeap(budget, f.Many), nil
}
