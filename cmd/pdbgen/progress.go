package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/tilepdb/tilepdb/builder"
)

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// progress turns builder events into a progress bar on a terminal, one
// plain log line per level otherwise, or nothing with --quiet. The builder
// calls it from one goroutine at a time.
type progress struct {
	w       io.Writer
	name    string
	tty     bool
	quiet   bool
	start   time.Time
	bar     *progressbar.ProgressBar
	mu      sync.Mutex
	lastLvl int
}

func newProgress(w io.Writer, name string, tty, quiet bool) *progress {
	return &progress{w: w, name: name, tty: tty, quiet: quiet, start: time.Now(), lastLvl: -1}
}

func (p *progress) event(ev builder.Event) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		if p.bar == nil {
			p.bar = progressbar.NewOptions64(int64(ev.Total),
				progressbar.OptionSetWriter(p.w),
				progressbar.OptionSetDescription(p.name),
				progressbar.OptionShowCount(),
				progressbar.OptionShowIts(),
				progressbar.OptionSetItsString("states"),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionClearOnFinish(),
			)
		}
		if ev.Level >= 0 {
			p.bar.Describe(fmt.Sprintf("%s level %d", p.name, ev.Level+1))
		}
		_ = p.bar.Set64(int64(ev.Reached))
		return
	}
	if !ev.LevelDone || ev.Level < 0 {
		return
	}
	el := time.Since(p.start).Seconds()
	rate := float64(ev.Reached) / max(el, 1e-9)
	if ev.NewStates == 0 {
		return // the last level expands the farthest states and finds nothing new
	}
	eta := "ETA -" // too early to tell: the first levels are tiny
	if ev.Reached*100 >= ev.Total {
		eta = fmt.Sprintf("ETA %.0fs", float64(ev.Total-ev.Reached)/max(rate, 1))
	}
	fmt.Fprintf(p.w, "%s: level %d: %d new, %d/%d states (%.1f%%), %.1fs, %.3g states/s, %s\n",
		p.name, ev.Level+1, ev.NewStates, ev.Reached, ev.Total,
		100*float64(ev.Reached)/float64(max(ev.Total, 1)), el, rate, eta)
}

// done removes the bar.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
		_ = p.bar.Clear()
		fmt.Fprint(p.w, "\r")
		p.bar = nil
	}
}
