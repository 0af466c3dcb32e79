package build

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pegs/report/reporttest"
)

// pageCheck is what the browser reports of the open page.
type pageCheck struct {
	ScrollWidth, InnerWidth int
	Broken                  []string // images not loaded
	Links                   []string // every link's href
	Anchors                 []string // internal links (#id) with no element of that id
	Backticks               bool
}

const pageCheckJS = `(() => {
	const links = Array.from(document.querySelectorAll('a')).map(a => a.getAttribute('href'));
	return {
		ScrollWidth: document.documentElement.scrollWidth,
		InnerWidth: window.innerWidth,
		Broken: Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).map(i => i.getAttribute('src')),
		Links: links,
		Anchors: links.filter(h => h.startsWith('#') && !document.getElementById(h.slice(1))),
		Backticks: document.body.innerText.includes('` + "`" + `'),
	};
})()`

// TestBrowserReport opens the small report's index.html in headless
// Chromium at a laptop's width and a phone's: the page never scrolls
// sideways (wide tables scroll in their boxes), every image has loaded,
// every link leads somewhere, and no Markdown backtick shows. It saves a
// screenshot of each in the test's temporary folder.
func TestBrowserReport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a report and starts a browser")
	}
	path := reporttest.Chromium()
	if path == "" {
		t.Skip("no Chromium found (Debian: apt-get install chromium): the report is not opened in a browser")
	}
	t0 := time.Now()
	dir := t.TempDir()
	if _, err := run(t.Context(), dir, tinyPlan(), Options{Seed: 7, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	t.Logf("report built in %v", time.Since(t0).Round(time.Millisecond))
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	alloc, stop := reporttest.Browser(ctx, t, path)
	defer stop()
	shots := t.TempDir()
	for _, size := range []struct{ w, h int64 }{{1280, 800}, {390, 844}} {
		t.Run(fmt.Sprintf("width=%d", size.w), func(t *testing.T) {
			tab, closeTab := chromedp.NewContext(alloc)
			defer closeTab()
			t0 := time.Now()
			err := chromedp.Do(tab,
				chromedp.EmulateViewport(size.w, size.h),
				chromedp.Navigate("file://"+filepath.Join(dir, "index.html")),
			)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(tab, chromedp.Poll[bool](`Array.from(document.images).every(i => i.complete)`,
				chromedp.WithPollingTimeout(20*time.Second))); err != nil {
				t.Fatalf("waiting for the images: %v", err)
			}
			got, err := chromedp.Run(tab, chromedp.Evaluate[pageCheck](pageCheckJS))
			if err != nil {
				t.Fatal(err)
			}
			shot, err := chromedp.Run(tab, chromedp.FullScreenshot(80))
			if err != nil {
				t.Fatal(err)
			}
			if got.ScrollWidth > got.InnerWidth {
				t.Errorf("the page is %d px wide in a %d px window: it scrolls sideways", got.ScrollWidth, got.InnerWidth)
			}
			if len(got.Broken) > 0 {
				t.Errorf("images not loaded: %q", got.Broken)
			}
			if len(got.Anchors) > 0 {
				t.Errorf("links to no heading: %q", got.Anchors)
			}
			if len(got.Links) == 0 {
				t.Error("the page has no links")
			}
			for _, href := range got.Links {
				if strings.HasPrefix(href, "#") {
					continue
				}
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(href))); err != nil {
					t.Errorf("link %s: %v", href, err)
				}
			}
			if got.Backticks {
				t.Error("a Markdown backtick shows in the page's text")
			}
			name := filepath.Join(shots, fmt.Sprintf("index-%d.jpeg", size.w))
			if err := os.WriteFile(name, shot, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("page %d of %d px wide, %d links; screenshot %s; %v", got.ScrollWidth, got.InnerWidth, len(got.Links), name, time.Since(t0).Round(time.Millisecond))
		})
	}
}
