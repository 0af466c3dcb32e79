package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
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
// limits.
func tooBig(format string, args ...any) error {
	return &requestError{http.StatusUnprocessableEntity, fmt.Errorf(format, args...)}
}

// readRequest decodes r's JSON body into v, refusing a body over the
// server's limit.
func (s *Server) readRequest(w http.ResponseWriter, r *http.Request, v any) error {
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
	if name == "" {
		return engine.English(), nil
	}
	if b, ok := s.boards[name]; ok {
		return b, nil
	}
	b, err := engine.Lookup(name)
	if errors.Is(err, engine.ErrUnknownBoard) {
		want := "english, french, triangle, triangle:N (N=4..10), diamond, wiegleb"
		if len(s.boards) > 0 {
			names := slices.Sorted(maps.Keys(s.boards))
			want += ", or a loaded pack's: " + strings.Join(names, ", ")
		}
		return nil, badRequest("unknown board %q (want %s)", name, want)
	}
	if err != nil {
		return nil, badRequest("board: %v", err)
	}
	return b, nil
}

// goal reads a goal of board b: default center where b has a centre, else
// any; a one-peg goal unless fewest is allowed.
func goalOf(b *engine.Board, s string, fewest bool) (engine.Goal, error) {
	if s == "" {
		if c, ok := b.Centre(); ok {
			return engine.Goal{Kind: engine.OnePegAt, Hole: c}, nil
		}
		return engine.Goal{Kind: engine.OnePeg}, nil
	}
	g, err := b.ParseGoal(s)
	if err != nil {
		return g, badRequest("%v", err)
	}
	if g.Kind == engine.FewestPegs && !fewest {
		return g, badRequest("goal fewest: want a one-peg goal (any, center or a hole)")
	}
	return g, nil
}

// fromLevel resolves a request that names a loaded level, which sets the
// board, start and goal: the fields in others must then be empty.
func (s *Server) fromLevel(id string, others map[string]string) (problem, error) {
	l, ok := s.levels[id]
	if !ok {
		return problem{}, badRequest("level %q: no such level (see GET /api/levels)", id)
	}
	for _, name := range []string{"board", "start", "position", "goal"} {
		if v, given := others[name]; given && v != "" {
			return problem{}, badRequest("level %s sets the board, start and goal: leave out %s", id, name)
		}
	}
	return problem{b: l.pack.Board, start: l.Start, goal: l.pack.Goal, level: l}, nil
}

// resolve reads a solve or grade request's problem: a level, or a board
// with a start (holes to vacate) or a position (a picture), the board's
// usual start if neither, and a goal.
func (s *Server) resolve(f problemFields, fewest bool) (problem, error) {
	if f.Level != "" {
		return s.fromLevel(f.Level, map[string]string{"board": f.Board, "start": f.Start, "position": f.Position, "goal": f.Goal})
	}
	b, err := s.board(f.Board)
	if err != nil {
		return problem{}, err
	}
	pr := problem{b: b, start: b.Start()}
	switch {
	case f.Start != "" && f.Position != "":
		return problem{}, badRequest("give start or position, not both")
	case f.Start != "":
		if pr.start, err = b.Vacate(f.Start); err != nil {
			return problem{}, badRequest("start: %v", err)
		}
	case f.Position != "":
		if pr.start, err = b.ParsePosition(f.Position); err != nil {
			return problem{}, badRequest("position: %v", err)
		}
	}
	if pr.start == 0 {
		return problem{}, badRequest("the position has no pegs")
	}
	if pr.goal, err = goalOf(b, f.Goal, fewest); err != nil {
		return problem{}, err
	}
	pr.level = s.levelAt(b, pr.start, pr.goal)
	return pr, nil
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
	var g game
	var err error
	hasStart := false
	switch {
	case req.Level != "":
		g.problem, err = s.fromLevel(req.Level, map[string]string{"board": req.Board, "start": req.Start, "goal": req.Goal})
		hasStart = true
	default:
		if g.b, err = s.board(req.Board); err != nil {
			return g, err
		}
		if g.goal, err = goalOf(g.b, req.Goal, false); err != nil {
			return g, err
		}
		if req.Start != "" {
			g.start, err = startOrPicture(g.b, req.Start)
			hasStart = true
		} else if req.History != "" {
			return g, badRequest("history needs start (or level)")
		}
	}
	if err != nil {
		return g, err
	}
	if hasStart {
		jumps, err := g.b.ParseMoves(req.History)
		if err != nil {
			return g, badRequest("history: %v", err)
		}
		g.hist = &hint.History{Start: g.start, Jumps: jumps}
		g.p = g.start
		for i, j := range jumps {
			if g.p, err = g.b.Replay(g.p, []engine.Jump{j}); err != nil {
				return g, badRequest("history: jump %d (%s) is illegal", i+1, g.b.FormatJump(j))
			}
		}
		g.level = s.levelAt(g.b, g.start, g.goal)
	}
	if req.Position != "" {
		p, err := g.b.ParsePosition(req.Position)
		if err != nil {
			return g, badRequest("position: %v", err)
		}
		if g.hist != nil && p != g.p {
			return g, badRequest("history ends in %s, not position %s", g.b.Line(g.p), g.b.Line(p))
		}
		g.p = p
	} else if g.hist == nil {
		return g, badRequest("give position, or start (or level) with history")
	}
	if g.p == 0 {
		return g, badRequest("the position has no pegs")
	}
	return g, nil
}

// startOrPicture reads a hint's start: holes to vacate (such as d4 or
// 1,6), or a picture of 'o' and '.'.
func startOrPicture(b *engine.Board, s string) (engine.Position, error) {
	if strings.Trim(s, "o. \t\r\n") == "" {
		p, err := b.ParsePosition(s)
		if err != nil {
			return 0, badRequest("start: %v", err)
		}
		return p, nil
	}
	p, err := b.Vacate(s)
	if err != nil {
		return 0, badRequest("start: %v", err)
	}
	return p, nil
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
