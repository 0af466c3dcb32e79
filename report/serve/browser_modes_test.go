package serve

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pegs/engine"
	"pegs/report"
	"pegs/report/reporttest"
)

// browse starts a server whose oracles Start builds are those of levels
// of fewer than 20 pegs, and Chromium at a width by 800 pixels; it returns
// the page and the server's address.
func browse(t *testing.T, width int) (*playPage, string, *Server) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a browser")
	}
	path := reporttest.Chromium()
	if path == "" {
		t.Skip("no Chromium found (Debian: apt-get install chromium): the play page is not played in a browser")
	}
	s, _ := testServer(t, Config{})
	s.cfg.Oracles = small(s)
	s.Start()
	ln, err := netListen(t)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	go s.Serve(ctx, ln)
	alloc, stop := reporttest.Browser(ctx, t, path, chromedp.WindowSize(width, 800))
	t.Cleanup(stop)
	tab, closeTab := chromedp.NewContext(alloc)
	t.Cleanup(closeTab)
	return &playPage{t: t, ctx: tab}, "http://" + ln.Addr().String(), s
}

// open loads the page at hash afresh, as a reload does, and waits for
// its board.
func (p *playPage) open(base, hash string) {
	p.t.Helper()
	p.do(chromedp.Navigate("about:blank"), chromedp.Navigate(base+"/"+hash), chromedp.WaitVisible(chromedp.CSS(`g.hole`)))
	p.eval(`document.getElementById('status').textContent`)
}

// js runs a script and returns its value as a string.
func (p *playPage) js(expr string) string {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[any](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return fmt.Sprint(v)
}

// await returns the string a promise resolves to.
func (p *playPage) await(expr string) string {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// tapAll plays jumps by calling the page's tap, as clicks would, in one
// script: for the long lines that clicks would make slow.
func (p *playPage) tapAll(jumps []engine.Jump) {
	p.t.Helper()
	var holes []string
	for _, j := range jumps {
		holes = append(holes, strconv.Itoa(j.From), strconv.Itoa(j.To))
	}
	p.js(`[` + strings.Join(holes, ",") + `].forEach((h) => tap(h)); 1`)
}

// noError checks that the page works: its status is no error and the
// board is drawn.
func (p *playPage) noError(when string) {
	p.t.Helper()
	if st := p.status(); strings.HasPrefix(st, "Error") || p.js(`document.querySelectorAll('g.hole').length`) == "0" {
		p.t.Errorf("%s: status %q", when, st)
	}
}

// TestBrowserSelminha plays the Selminha game: level 1 to the centre with
// the test clock at half the level's time (three stars, 300 points and a
// speed bonus of 50), the game kept across a reload with RESUME offered,
// a corrupt saved game ignored, and level 7 ending the game on the top-5
// board.
func TestBrowserSelminha(t *testing.T) {
	page, base, s := browse(t, 1000)
	b := engine.English()
	page.open(base, "#selminha/1")
	page.js(`window.__t = 0; pegsClock.now = () => window.__t; document.getElementById('restart').click(); 1`)
	cross := s.levels["classic-1"]
	sol := cross.Fewest.Jumps
	for i, j := range sol {
		if i == len(sol)-1 {
			// Level 1 has 5 jumps: the bonus drains in 20 s.
			page.js(`window.__t = 10000; 1`)
		}
		page.jump(b.FormatJump(j))
	}
	if got := page.stars(); got != "3" {
		t.Errorf("level 1 to the centre: %s stars, want 3", got)
	}
	if got := page.eval(`document.getElementById('score').dataset.points`); got != "350" {
		t.Errorf("level 1 in half its time: %s points, want 300 + 50", got)
	}

	page.open(base, "#selminha")
	if page.js(`document.getElementById('resume').hidden`) != "false" || page.eval(`document.getElementById('level').value`) != "classic-2" {
		t.Errorf("after a reload: RESUME not offered at level 2 (%s)", page.js(`document.getElementById('resume-text').textContent`))
	}
	if got := page.eval(`document.getElementById('game-points').textContent`); got != "350" {
		t.Errorf("after a reload: %s points kept, want 350", got)
	}

	page.js(`localStorage.setItem('pegs.v1.game.classic', '{"level": 3, "results": "x"'); 1`)
	page.open(base, "#selminha")
	page.noError("a corrupt saved game")
	if page.js(`document.getElementById('resume').hidden`) != "true" || page.eval(`document.getElementById('level').value`) != "classic-1" {
		t.Errorf("a corrupt saved game is not ignored")
	}

	// Level 7 from a saved game at level 7, with help: two stars, and
	// the game on the top-5 board.
	page.js(`localStorage.setItem('pegs.v1.game.classic', JSON.stringify({level: 6, results: [{stars: 3, points: 350, bonus: 50}]})); 1`)
	page.open(base, "#selminha")
	page.js(`window.__t = 0; pegsClock.now = () => window.__t; document.getElementById('restart').click(); 1`)
	page.click("#solution") // help: two stars at most
	page.eval(`document.getElementById('step').textContent`)
	page.click("#leave")
	full := s.levels["classic-7"]
	page.js(`window.__t = 1e9; 1`) // no speed bonus
	page.tapAll(full.Fewest.Jumps)
	if got := page.stars(); got != "2" {
		t.Errorf("level 7 after Show solution: %s stars, want 2", got)
	}
	want := strconv.Itoa(350 + 100*7*2)
	if got := page.eval(`document.querySelector('#top td:nth-child(2)').textContent`); got != want {
		t.Errorf("top-5 board: first %s, want %s", got, want)
	}
}

// TestBrowserSolo plays Play Solo to a dead end: Best left is its pegs,
// kept across a reload with the game in play, and New game keeps it.
func TestBrowserSolo(t *testing.T) {
	page, base, _ := browse(t, 1000)
	b := engine.English()
	page.open(base, "#solo")
	line := losingLine(b, b.Start())
	for _, j := range line[:3] {
		page.jump(b.FormatJump(j))
	}
	page.open(base, "#solo")
	if got := page.eval(`String(document.querySelectorAll('#history li').length)`); got != "3" {
		t.Errorf("after a reload: %s jumps in the game, want 3", got)
	}
	page.tapAll(line[3:])
	left := strconv.Itoa(b.Start().Pegs() - len(line))
	if got := page.eval(`document.getElementById('rating').dataset.rating`); got != left {
		t.Errorf("a dead end: %s pegs, want %s", got, left)
	}
	page.open(base, "#solo")
	page.click("#newgame")
	if got := page.eval(`document.getElementById('best').textContent`); got != left || page.js(`document.querySelectorAll('#history li').length`) != "0" {
		t.Errorf("after a reload and New game: best %s, want %s, and an empty history", got, left)
	}
	page.js(`localStorage.setItem('pegs.v1.solo.solo', '{"history": [[1, 2]], "best": 0}'); 1`)
	page.open(base, "#solo")
	page.noError("a corrupt solo record")
}

// TestBrowserTriangle picks hole 5 of the Tricky Triangle, plays by HINT
// to one peg (Genius!), and finds hole 5 solved and one game played in
// the records, across a reload; a corrupt record leaves the page working.
func TestBrowserTriangle(t *testing.T) {
	page, base, _ := browse(t, 1000)
	page.open(base, "#triangle")
	page.click(`g[data-label="5"]`)
	for range 14 {
		if page.js(`document.getElementById('rating').dataset.rating`) != "" {
			break
		}
		page.click("#hint")
		page.jump(page.eval(`document.getElementById('board').dataset.hint`))
	}
	if got := page.eval(`document.getElementById('rating').dataset.rating`); got != "Genius!" {
		t.Errorf("solved by hints: %q, want Genius! (status %q)", got, page.status())
	}
	page.open(base, "#triangle")
	if got := page.eval(`document.getElementById('played').textContent`); got != "1" {
		t.Errorf("after a reload: %s games played, want 1", got)
	}
	if got := page.js(`document.querySelector('#solved-holes circle[data-label="5"]').classList.contains('solved')`); got != "true" {
		t.Errorf("after a reload: hole 5 not filled in the record")
	}
	// Tab reaches a hole, Enter takes its peg off.
	page.do(chromedp.Focus(chromedp.CSS(`g[data-label="1"]`)), chromedp.KeyEvent("\t"), chromedp.KeyEvent("\r"))
	if got := page.eval(`document.getElementById('history').childElementCount === 0 && document.querySelectorAll('g.hole.on').length === 14 ? 'ok' : ''`); got != "ok" {
		t.Errorf("Tab and Enter did not take a peg off")
	}
	page.js(`localStorage.setItem('pegs.v1.triangle.tricky', 'null{'); 1`)
	page.open(base, "#triangle")
	page.noError("a corrupt triangle record")
	if got := page.eval(`document.getElementById('played').textContent`); got != "0" {
		t.Errorf("a corrupt record: %s games played, want 0", got)
	}
}

// TestBrowserSolutions switches the classic levels by the URL's hash and
// shows each one's solution: within a second, from the server's memory,
// the stepper naming the next jump's direction, while eight clients ask
// hints; the board redrawn while the answer is on its way keeps it.
func TestBrowserSolutions(t *testing.T) {
	page, base, s := browse(t, 1000)
	// Under load: clients asking hints meanwhile, lookups as in
	// BenchmarkServeHints (the levels of fewer than 20 pegs have their
	// oracles here).
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(stop)
	for c := range 8 {
		wg.Go(func() {
			l := s.levels[levelID("classic", c%5)]
			first := l.pack.Board.FormatJump(l.pack.Board.Moves(nil, l.Start)[0])
			for {
				select {
				case <-stop:
					return
				default:
				}
				var h report.HintJSON
				postJSON(base+"/api/hint", `{"level": "`+l.ID+`", "history": "`+first+`"}`, &h)
			}
		})
	}
	page.open(base, "#classic-1")
	for i := 1; i <= 7; i++ {
		// The hash switches the level.
		id := fmt.Sprintf("classic-%d", i)
		page.js(`location.hash = '#` + id + `'; 1`)
		page.eval(`(v => v === '` + id + `' && game.level.id === v && v)(document.getElementById('level').value)`)
		ms := page.await(`new Promise((done) => {
			const t0 = performance.now();
			document.getElementById('solution').click();
			changed(); // a redraw while the answer is on its way does not drop it
			const poll = () => document.getElementById('status').textContent.startsWith('A solution') ||
				performance.now() - t0 > 5000 ? done(String(performance.now() - t0)) : setTimeout(poll, 5);
			poll();
		})`)
		if v, _ := strconv.ParseFloat(ms, 64); v > 1000 {
			t.Errorf("classic-%d: the solution in %s ms, want at most 1000", i, ms)
		}
		if got := page.eval(`document.getElementById('step').textContent`); !strings.Contains(got, "next ") {
			t.Errorf("classic-%d: the stepper says %q, without the next jump's direction", i, got)
		}
	}
	var sol report.SolveJSON
	if err := postJSON(base+"/api/solve", `{"level": "classic-7", "metric": "moves"}`, &sol); err != nil || sol.Moves == 0 {
		t.Errorf("Full's fewest moves: %+v %v", sol, err)
	}
}
