package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"pegs/engine"
	"pegs/report"
	"pegs/report/reporttest"
)

// TestBrowserPlay plays the Cross level in headless Chromium, by clicks:
// to one peg in the centre along a solution (three stars), again
// following HINT (two stars), and along a losing line to its end, where
// HINT says it is a dead end and how many jumps to take back.
func TestBrowserPlay(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	path := reporttest.Chromium()
	if path == "" {
		t.Skip("no Chromium found (Debian: apt-get install chromium): the play page is not played in a browser")
	}
	t0 := time.Now()
	s, _ := testServer(t, Config{})
	s.cfg.Oracles = func(id string) bool { return id == "classic-1" }
	s.Start()
	ln, err := netListen(t)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	go s.Serve(ctx, ln)
	base := "http://" + ln.Addr().String()
	cross := s.levels["classic-1"]

	alloc, stop := reporttest.Browser(ctx, t, path, chromedp.WindowSize(1000, 800))
	defer stop()
	tab, closeTab := chromedp.NewContext(alloc)
	defer closeTab()
	page := &playPage{t: t, ctx: tab}
	page.do(chromedp.Navigate(base+"/#"+cross.ID), chromedp.WaitVisible(chromedp.CSS(`g[data-label="d4"]`)))

	// Along a solution from the API: three stars.
	var sol report.SolveJSON
	if err := postJSON(base+"/api/solve", `{"level": "classic-1"}`, &sol); err != nil || !sol.Solvable {
		t.Fatalf("the Cross level's solution: %+v %v", sol, err)
	}
	for _, j := range sol.Solution {
		page.jump(j)
	}
	if stars := page.stars(); stars != "3" {
		t.Errorf("solved by clicks: %s stars, want 3 (status %q)", stars, page.status())
	}

	// Following HINT: two stars.
	page.click("#restart")
	for range cross.Start.Pegs() {
		if page.starsNow() != "" {
			break
		}
		page.click("#hint")
		page.jump(page.eval(`document.getElementById('board').dataset.hint`))
	}
	if stars := page.stars(); stars != "2" {
		t.Errorf("solved by hints: %s stars, want 2 (status %q)", stars, page.status())
	}

	// The keyboard: Z takes the last jump back, an arrow moves the cursor
	// to the next hole, H shows a hint.
	page.do(chromedp.KeyEvent("z"))
	want := strconv.Itoa(cross.Start.Pegs() - 2) // a solution's jumps but the last
	if got := page.eval(`String(document.querySelectorAll('#history li').length)`); got != want || page.starsNow() != "" {
		t.Errorf("after Z: %s jumps played, stars %q; want %s, none", got, page.starsNow(), want)
	}
	at := page.eval(`document.querySelector('.hole.cursor').dataset.label`)
	if right := holeRight(cross.pack.Board, at); right != "" {
		page.do(chromedp.KeyEvent(kb.ArrowRight))
		if got := page.eval(`document.querySelector('.hole.cursor').dataset.label`); got != right {
			t.Errorf("ArrowRight from %s: the cursor is at %s, want %s", at, got, right)
		}
	}
	page.do(chromedp.KeyEvent("h"))
	page.eval(`document.getElementById('board').dataset.hint`)

	// A losing line to its end: no stars, and HINT says it is a dead end.
	page.click("#restart")
	line := losingLine(cross.pack.Board, cross.Start)
	if line == nil {
		t.Fatal("the Cross level has no losing line")
	}
	for _, j := range line {
		page.jump(cross.pack.Board.FormatJump(j))
	}
	if stars := page.stars(); stars != "0" {
		t.Errorf("after a losing line: %s stars, want 0 (status %q)", stars, page.status())
	}
	page.click("#hint")
	msg := page.eval(`(s => s.startsWith('Dead end') && s)(document.getElementById('status').textContent)`)
	if !strings.Contains(msg, "Take back") {
		t.Errorf("HINT after a losing line: %q, want a dead end and the jumps to take back", msg)
	}
	t.Logf("%s; played in %v", msg, time.Since(t0).Round(time.Millisecond))
}

// playPage drives the play page in a browser tab.
type playPage struct {
	t   *testing.T
	ctx context.Context
}

func (p *playPage) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
		p.t.Fatal(err)
	}
}

// click clicks the element of a CSS selector.
func (p *playPage) click(sel string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(sel)))
}

// jump clicks the from hole, then the to hole, of a jump such as d3-f3.
func (p *playPage) jump(j string) {
	p.t.Helper()
	from, to, ok := strings.Cut(j, "-")
	if !ok {
		p.t.Fatalf("jump %q", j)
	}
	p.click(fmt.Sprintf(`g[data-label=%q]`, from))
	p.click(fmt.Sprintf(`g[data-label=%q]`, to))
}

// eval waits until a JavaScript expression is a non-empty string, and
// returns it.
func (p *playPage) eval(expr string) string {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Poll[string](expr, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		p.t.Fatalf("waiting for %s: %v (status %q)", expr, err, p.status())
	}
	return v
}

// stars waits for the game's end and returns its stars.
func (p *playPage) stars() string {
	p.t.Helper()
	return p.eval(`document.getElementById('stars').dataset.stars`)
}

// starsNow returns the stars shown now: "" while the game goes on.
func (p *playPage) starsNow() string {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.getElementById('stars').dataset.stars`))
	if err != nil {
		p.t.Fatal(err)
	}
	return v
}

// status returns the status line.
func (p *playPage) status() string {
	v, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.getElementById('status').textContent`))
	return v
}

// holeRight returns the label of the hole right of the one labelled at,
// or "" if there is none.
func holeRight(b *engine.Board, at string) string {
	h, err := b.Hole(at)
	if err != nil {
		return ""
	}
	row, col := b.Coord(h)
	for k := range b.Holes() {
		if r, c := b.Coord(k); r == row && c == col+1 {
			return b.Label(k)
		}
	}
	return ""
}

// postJSON posts body to url and decodes the answer into v.
func postJSON(url, body string, v any) error {
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, res.Status)
	}
	return json.NewDecoder(res.Body).Decode(v)
}

// losingLine returns jumps from start that end with no jump left and more
// than one peg, the first found depth first, or nil.
func losingLine(b *engine.Board, start engine.Position) []engine.Jump {
	moves := b.Moves(nil, start)
	if len(moves) == 0 {
		if start.Pegs() == 1 {
			return nil
		}
		return []engine.Jump{}
	}
	for _, j := range moves {
		if rest := losingLine(b, start.Apply(j)); rest != nil {
			return append([]engine.Jump{j}, rest...)
		}
	}
	return nil
}
