package serve

import (
	"embed"
	"fmt"
	"io"
	"net/http"

	"pegs/report"
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

// boardList answers GET /api/boards as pegs boards --format json does.
func (s *Server) boardList(w http.ResponseWriter, r *http.Request) error {
	t, err := report.BoardsTable()
	if err != nil {
		return err
	}
	return respond(w, func(buf io.Writer) error { return t.Write(buf, report.JSON) })
}

// boardLayout answers GET /api/boards/{name}: a built-in board, or a
// loaded pack's, drawn (BoardJSON).
func (s *Server) boardLayout(w http.ResponseWriter, r *http.Request) error {
	b, err := s.board(r.PathValue("name"))
	if err != nil {
		return &requestError{http.StatusNotFound, err}
	}
	writeJSON(w, http.StatusOK, NewBoardJSON(b))
	return nil
}

// packList answers GET /api/levels: every pack and its levels.
func (s *Server) packList(w http.ResponseWriter, r *http.Request) error {
	out := PacksJSON{Packs: []PackJSON{}}
	for _, p := range s.packs {
		pj := PackJSON{ID: p.ID, Name: p.Name, Board: p.Board.Name(), Goal: p.Board.FormatGoal(p.Goal), Seed: p.Seed}
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
	writeJSON(w, http.StatusOK, PlayJSON{LevelJSON: l.json(), Pack: l.pack.ID, Layout: NewBoardJSON(b), GoalHole: goalHole(b, l.pack.Goal)})
	return nil
}

// json returns the level in its listing's shape.
func (l *level) json() LevelJSON {
	return LevelJSON{ID: l.ID, Name: l.Name, Graded: l.Graded, Level: l.Info}
}
