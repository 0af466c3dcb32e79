package serve

import (
	"embed"
	"fmt"
	"maps"
	"net/http"
	"slices"

	"pegs/engine"
)

// webFiles is the play page: HTML, CSS and JavaScript, no build step.
//
//go:embed web
var webFiles embed.FS

// healthz answers GET /healthz: the server is alive.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

// readyz answers GET /readyz: 200 once the loaded levels' oracles are
// built (or have failed), 503 before; the body says how each stands.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) error {
	st := s.readiness()
	status := http.StatusOK
	if !st.Ready {
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, st)
	return nil
}

// boardList answers GET /api/boards: the built-in boards, as pegs boards
// lists them, then the loaded packs' boards.
func (s *Server) boardList(w http.ResponseWriter, r *http.Request) error {
	out := BoardsJSON{Boards: []BoardInfoJSON{}}
	for _, info := range engine.Boards() {
		b, err := engine.Lookup(info.Name)
		if err != nil {
			return err
		}
		out.Boards = append(out.Boards, newBoardInfo(b, &info.Description))
	}
	for _, name := range slices.Sorted(maps.Keys(s.boards)) {
		out.Boards = append(out.Boards, newBoardInfo(s.boards[name], nil))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// boardLayout answers GET /api/boards/{name}: a built-in board, or a
// loaded pack's, as listed and drawn (BoardJSON).
func (s *Server) boardLayout(w http.ResponseWriter, r *http.Request) error {
	b, err := s.board(r.PathValue("name"))
	if err != nil {
		return &requestError{http.StatusNotFound, err}
	}
	var desc *string
	for _, info := range engine.Boards() {
		if info.Name == b.Name() && s.boards[b.Name()] == nil {
			desc = &info.Description
		}
	}
	writeJSON(w, http.StatusOK, BoardJSON{BoardInfoJSON: newBoardInfo(b, desc), Layout: newLayout(b)})
	return nil
}

// packList answers GET /api/levels: every pack and its levels.
func (s *Server) packList(w http.ResponseWriter, r *http.Request) error {
	out := PacksJSON{Packs: []PackJSON{}}
	for _, p := range s.packs {
		pj := PackJSON{ID: p.ID, Name: p.Name, Mode: mode(p), Board: p.Board.Name(), Goal: p.Board.FormatGoal(p.Goal), Seed: p.Seed}
		for i := range p.Levels {
			pj.Levels = append(pj.Levels, s.levels[levelID(p.ID, i)].json())
		}
		out.Packs = append(out.Packs, pj)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// playLevel answers GET /api/levels/{id}: the level, with its board drawn
// and its goal hole, to play.
func (s *Server) playLevel(w http.ResponseWriter, r *http.Request) error {
	l, ok := s.levels[r.PathValue("id")]
	if !ok {
		return &requestError{http.StatusNotFound, fmt.Errorf("level %q: no such level (see GET /api/levels)", r.PathValue("id"))}
	}
	b := l.pack.Board
	writeJSON(w, http.StatusOK, PlayJSON{LevelJSON: l.json(), Pack: l.pack.ID, Mode: mode(l.pack), Layout: newLayout(b), GoalHole: goalHole(b, l.pack.Goal)})
	return nil
}

// mode returns a pack's mode, or nil for plain play.
func mode(p *Pack) *string {
	if p.Mode == "" {
		return nil
	}
	return &p.Mode
}

// json returns the level in its listing's shape.
func (l *level) json() LevelJSON { return newLevelJSON(l.ID, l.Name, l.Graded, l.Info) }
