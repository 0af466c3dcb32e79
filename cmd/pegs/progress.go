package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"pegs/search"
)

// progress returns a callback that draws a progress bar per layer on w when
// w is a terminal, and nil (no bar) when it is not, so piped output stays
// quiet.
func progress(w io.Writer, label string) func(search.Progress) {
	if !isTerminal(w) {
		return nil
	}
	var mu sync.Mutex
	var bar *progressbar.ProgressBar
	var cur string
	return func(p search.Progress) {
		mu.Lock()
		defer mu.Unlock()
		desc := fmt.Sprintf("%s%s, %2d pegs", label, p.Phase, p.Pegs)
		if bar == nil || desc != cur {
			if bar != nil {
				bar.Finish()
			}
			cur = desc
			bar = progressbar.NewOptions(p.Total,
				progressbar.OptionSetWriter(w),
				progressbar.OptionSetDescription(desc),
				progressbar.OptionShowCount(),
				progressbar.OptionSetWidth(30),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionClearOnFinish(),
			)
		}
		bar.Set(p.Done)
	}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func numCPU() int { return runtime.GOMAXPROCS(0) }
