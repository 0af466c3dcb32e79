package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"pegs/engine"
	"pegs/generate"
	"pegs/search/hint"
)

// A request's fields are named as the flags of the command that answers
// the same question (pegs hint, solve, grade, generate), plus level, a
// loaded level's id, which stands for its board, start and goal.

// problemFields select a board, a position on it and a goal.
type problemFields struct {
	Level    string `json:"level"`
	Board    string `json:"board"`
	Start    string `json:"start"`
	Position string `json:"position"`
	Goal     string `json:"goal"`
}

// hintRequest is the body of POST /api/hint.
type hintRequest struct {
	problemFields
	History string `json:"history"`
}

// solveRequest is the body of POST /api/solve.
type solveRequest struct {
	problemFields
	Metric string `json:"metric"`
}

// gradeRequest is the body of POST /api/grade.
type gradeRequest struct {
	problemFields
}

// generateRequest is the body of POST /api/generate.
type generateRequest struct {
	Board     string  `json:"board"`
	Goal      string  `json:"goal"`
	Count     int     `json:"count"`
	Pack      int     `json:"pack"`
	Pegs      string  `json:"pegs"`
	Seed      *uint64 `json:"seed"`
	Shape     string  `json:"shape"`
	Symmetric bool    `json:"symmetric"`
}

// requestError is a request the server will not answer, and the status
// that says why: 4xx for the client's errors.
type requestError struct {
	status int
	err    error
}

func (e *requestError) Error() string { return e.err.Error() }
func (e *requestError) Unwrap() error { return e.err }

// badRequest returns a 400 error.
func badRequest(format string, args ...any) error {
	return &requestError{http.StatusBadRequest, fmt.Errorf(format, args...)}
}

// tooBig returns a 422 error: a well-formed request past the server's
// limits, or one that cannot be met.
func tooBig(format string, args ...any) error {
	return &requestError{http.StatusUnprocessableEntity, fmt.Errorf(format, args...)}
}

// readRequest decodes r's JSON body into v, refusing a body over the
// server's limit.
// A body must be sent as application/json: a form or text/plain, which a
// browser sends from any page without asking, is refused with 415.
func (s *Server) readRequest(w http.ResponseWriter, r *http.Request, v any) error {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return &requestError{http.StatusUnsupportedMediaType, fmt.Errorf("Content-Type %q: want application/json", r.Header.Get("Content-Type"))}
	}
	return decode(http.MaxBytesReader(w, r.Body, s.lim.Body), s.lim.Body, v)
}

// decode reads a request body of at most limit bytes into v: one JSON
// object of known fields.
func decode(body io.Reader, limit int64, v any) error {
	data, err := io.ReadAll(io.LimitReader(body, limit+1))
	if err != nil {
		if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return &requestError{http.StatusRequestEntityTooLarge, fmt.Errorf("request body over %d bytes", mbe.Limit)}
		}
		return badRequest("reading the request body: %v", err)
	}
	if int64(len(data)) > limit {
		return &requestError{http.StatusRequestEntityTooLarge, fmt.Errorf("request body over %d bytes", limit)}
	}
	return decodeBytes(data, v)
}

// decodeBytes reads one JSON object of known fields from data into v.
func decodeBytes(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return badRequest("empty request body: want a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return badRequest("malformed JSON at byte %d: %v", syn.Offset, err)
		case errors.As(err, &typ):
			field := typ.Field[strings.LastIndex(typ.Field, ".")+1:] // not its embedded struct's name
			return badRequest("field %q: want %s, not JSON %s", field, typ.Type, typ.Value)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return badRequest("malformed JSON: the body ends early")
		}
		return badRequest("%s", oneLine(strings.TrimPrefix(err.Error(), "json: ")))
	}
	if _, err := dec.Token(); err != io.EOF {
		return badRequest("malformed JSON: more after the object")
	}
	return nil
}

// oneLine returns s on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// problem is a request's board, position and goal, resolved.
type problem struct {
	b     *engine.Board
	start engine.Position
	goal  engine.Goal
	level *level // the loaded level it names, or nil
}

// board returns the board a request names: built in, or a loaded pack's;
// english if none.
func (s *Server) board(name string) (*engine.Board, error) {
	b, err := s.rules(false, false).Board(name)
	if err != nil {
		return nil, badRequest("board: %v", err)
	}
	return b, nil
}

// rules are the engine's rules for a request's game: the boards built in
// and the loaded packs'.
func (s *Server) rules(fewest, history bool) engine.GameRules {
	return engine.GameRules{Fewest: fewest, History: history, Boards: func(name string) (*engine.Board, error) {
		if b, ok := s.boards[name]; ok {
			return b, nil
		}
		want := engine.BoardNames()
		if len(s.boards) > 0 {
			want += ", or a loaded pack's: " + strings.Join(slices.Sorted(maps.Keys(s.boards)), ", ")
		}
		return nil, fmt.Errorf("%w %q (want %s)", engine.ErrUnknownBoard, name, want)
	}}
}

// goalOf reads a goal of board b as engine.ResolveGame does.
func goalOf(b *engine.Board, s string, fewest bool) (engine.Goal, error) {
	g, err := engine.DefaultGoal(b, s)
	if err != nil {
		return g, badRequest("%v", err)
	}
	if g.Kind == engine.FewestPegs && !fewest {
		return g, badRequest("goal %v", engine.ErrFewest)
	}
	return g, nil
}

// text returns a request's game as text: a level's board, start and goal
// where it names one, whose fields must then be empty.
func (s *Server) text(f problemFields, history string) (engine.GameText, *level, error) {
	t := engine.GameText{Board: f.Board, Start: f.Start, Position: f.Position, Goal: f.Goal, History: history}
	if f.Level == "" {
		return t, nil, nil
	}
	l, ok := s.levels[f.Level]
	if !ok {
		return t, nil, badRequest("level %q: no such level (see GET /api/levels)", f.Level)
	}
	for name, v := range map[string]string{"board": f.Board, "start": f.Start, "goal": f.Goal} {
		if v != "" {
			return t, nil, badRequest("level %s sets the board, start and goal: leave out %s", f.Level, name)
		}
	}
	b := l.pack.Board
	t.Board, t.Start, t.Goal = b.Name(), b.Line(l.Start), b.FormatGoal(l.pack.Goal)
	return t, l, nil
}

// resolve reads a solve or grade request's problem: a level, or a board
// with a start (holes to vacate) or a position (a picture), the board's
// usual start if neither, and a goal.
func (s *Server) resolve(f problemFields, fewest bool) (problem, error) {
	if f.Level != "" && f.Position != "" {
		return problem{}, badRequest("level %s sets the board, start and goal: leave out position", f.Level)
	}
	t, _, err := s.text(f, "")
	if err != nil {
		return problem{}, err
	}
	g, err := engine.ResolveGame(t, s.rules(fewest, false))
	if err != nil {
		return problem{}, badRequest("%v", err)
	}
	return problem{b: g.Board, start: g.Start, goal: g.Goal, level: s.levelAt(g.Board, g.Start, g.Goal)}, nil
}

// game is a hint request resolved: the position, and how the game got
// there when a start (or level) was given.
type game struct {
	problem
	p    engine.Position
	hist *hint.History
}

// resolveGame reads a hint request as pegs hint reads its flags: a level
// or a board and a goal; the position, or a start (holes to vacate, or a
// picture) and the history of jumps played from it, or both.
func (s *Server) resolveGame(req hintRequest) (game, error) {
	t, _, err := s.text(req.problemFields, req.History)
	if err != nil {
		return game{}, err
	}
	g, err := engine.ResolveGame(t, s.rules(false, true))
	if err != nil {
		return game{}, badRequest("%v", err)
	}
	out := game{problem: problem{b: g.Board, start: g.Start, goal: g.Goal}, p: g.Position}
	if g.Played {
		out.hist = &hint.History{Start: g.Start, Jumps: g.Jumps}
		out.level = s.levelAt(g.Board, g.Start, g.Goal)
	}
	return out, nil
}

// pegRange reads generate's pegs, MIN-MAX, for board b; empty means
// generate.DefaultPegs.
func pegRange(b *engine.Board, s string) (lo, hi int, err error) {
	if s == "" {
		lo, hi = generate.DefaultPegs(b.Holes())
		return lo, hi, nil
	}
	l, h, ok := strings.Cut(s, "-")
	lo, err1 := strconv.Atoi(strings.TrimSpace(l))
	hi, err2 := strconv.Atoi(strings.TrimSpace(h))
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, badRequest("pegs %q: want MIN-MAX, such as 6-20", s)
	}
	if lo < 2 || hi < lo || hi >= b.Holes() {
		return 0, 0, badRequest("pegs %s: want 2 <= MIN <= MAX < %d (board %s has %d holes)", s, b.Holes(), b.Name(), b.Holes())
	}
	return lo, hi, nil
}
