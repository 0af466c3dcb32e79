package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"pegs/search"
)

// routes returns the server's handler: every route, behind the recovery
// of panics and the request log.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/healthz", only("GET", s.healthz))
	mux.Handle("/readyz", only("GET", s.readyz))
	mux.Handle("/api/boards", only("GET", s.boardList))
	mux.Handle("/api/boards/{name...}", only("GET", s.boardLayout))
	mux.Handle("/api/levels", only("GET", s.packList))
	mux.Handle("/api/levels/{id}", only("GET", s.playLevel))
	mux.Handle("/api/hint", only("POST", s.hint))
	mux.Handle("/api/solve", only("POST", s.solve))
	mux.Handle("/api/grade", only("POST", s.grade))
	mux.Handle("/api/generate", only("POST", s.generate))
	mux.Handle("/api/", only("GET", func(w http.ResponseWriter, r *http.Request) error {
		return &requestError{http.StatusNotFound, fmt.Errorf("no API at %s", r.URL.Path)}
	}))
	web, err := fs.Sub(webFiles, "web")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	files := http.FileServerFS(web)
	mux.Handle("/", only("GET", func(w http.ResponseWriter, r *http.Request) error {
		// Nothing the page uses comes from elsewhere.
		w.Header().Set("Content-Security-Policy", "default-src 'self'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
		return nil
	}))
	return s.logged(s.recovered(mux))
}

// handler is an endpoint: it writes its answer, or returns an error that
// writeError turns into one.
type handler func(w http.ResponseWriter, r *http.Request) error

// only serves h for one method, and answers other methods 405 with an
// Allow header.
func only(method string, h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method && !(method == "GET" && r.Method == "HEAD") {
			w.Header().Set("Allow", method)
			writeError(w, &requestError{http.StatusMethodNotAllowed, fmt.Errorf("%s %s: want %s", r.Method, r.URL.Path, method)})
			return
		}
		if err := h(w, r); err != nil {
			if errors.Is(err, context.Canceled) && errors.Is(context.Cause(r.Context()), errShutdown) {
				err = fmt.Errorf("%w: %w", errShutdown, err)
			}
			writeError(w, err)
		}
	})
}

// ErrorJSON is the body of every error response.
type ErrorJSON struct {
	Error string `json:"error"`
}

// errBusy reports that every slot of the searching requests is taken.
var errBusy = errors.New("the server is busy with other searches: try again shortly")

// errShutdown is the cause of the requests cancelled by a shutdown.
var errShutdown = errors.New("the server is shutting down")

// writeError answers err as one line of JSON (ErrorJSON), with its status: a
// requestError's; 503 when busy (with Retry-After), past the request's
// deadline or shutting down (without); 422 past the memory budget; 500
// otherwise.
func writeError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	msg := "internal error"
	var re *requestError
	switch {
	case errors.As(err, &re):
		status, msg = re.status, re.err.Error()
	case errors.Is(err, errBusy):
		status, msg = http.StatusServiceUnavailable, err.Error()
		w.Header().Set("Retry-After", "1")
	case errors.Is(err, errShutdown):
		status, msg = http.StatusServiceUnavailable, errShutdown.Error()+": the search was cancelled"
	case errors.Is(err, context.DeadlineExceeded):
		// Not busy: trying again would take as long.
		status, msg = http.StatusServiceUnavailable, "the search did not finish within the time a request may take (the commands have no limit)"
	case errors.Is(err, context.Canceled):
		status, msg = http.StatusServiceUnavailable, "the request was cancelled"
	case errors.Is(err, search.ErrMemory):
		status, msg = http.StatusUnprocessableEntity, err.Error()
	}
	if sw, ok := w.(*statusWriter); ok {
		sw.err = err
	}
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	enc.Encode(ErrorJSON{Error: oneLine(msg)})
	writeBody(w, status, body.Bytes())
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		status, buf = http.StatusInternalServerError, *bytes.NewBufferString(`{"error": "internal error"}` + "\n")
	}
	writeBody(w, status, buf.Bytes())
}

// respond answers 200 with the JSON that write writes, or, when write
// fails before anything is sent, returns its error for the handler's
// error response.
func respond(w http.ResponseWriter, write func(io.Writer) error) error {
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	writeBody(w, http.StatusOK, buf.Bytes())
	return nil
}

// writeBody answers a JSON body with status.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// statusWriter records a response's status and size for the log, and the
// error it answers.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
	err    error
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += n
	return n, err
}

// logged logs every request of the API: method, path, status, bytes,
// milliseconds and the error answered, at info level; a busy server's 503
// at warning level; server errors at error level. The page's files and the
// health checks, which probes poll, are logged at debug level unless they
// fail.
func (s *Server) logged(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t0 := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		level := slog.LevelInfo
		switch {
		case r.URL.Path == "/healthz" || r.URL.Path == "/readyz":
			level = slog.LevelDebug
		case sw.status == http.StatusServiceUnavailable:
			level = slog.LevelWarn
		case sw.status >= 500:
			level = slog.LevelError
		case !strings.HasPrefix(r.URL.Path, "/api/") && sw.status < 400:
			level = slog.LevelDebug
		}
		if !s.log.Enabled(r.Context(), level) {
			return
		}
		attrs := []slog.Attr{slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", sw.status), slog.Int("bytes", sw.bytes),
			slog.Float64("ms", float64(time.Since(t0).Microseconds())/1000)}
		if sw.err != nil {
			attrs = append(attrs, slog.String("err", oneLine(sw.err.Error())))
		}
		s.log.LogAttrs(r.Context(), level, "request", attrs...)
	})
}

// recovered turns a panic into a 500 and a log line with its stack.
func (s *Server) recovered(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			writeError(w, errors.New("internal error"))
		}()
		next.ServeHTTP(w, r)
	})
}

// acquire takes a slot of the searching requests, waiting up to wait (or
// until ctx ends): errBusy if none came free. release gives it back.
func (s *Server) acquire(ctx context.Context, wait time.Duration) (release func(), err error) {
	release = func() { <-s.slots }
	select {
	case s.slots <- struct{}{}:
		return release, nil
	default:
	}
	if wait <= 0 {
		return nil, errBusy
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case s.slots <- struct{}{}:
		return release, nil
	case <-t.C:
		return nil, errBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
