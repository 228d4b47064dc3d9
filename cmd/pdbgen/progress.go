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

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
)

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// progress turns builder events into a progress bar on a terminal, one
// plain log line per level otherwise, or nothing with --quiet. The builder
// calls it from one goroutine at a time.
type progress struct {
	w       io.Writer
	name    string
	entries uint64 // entries of the table being built
	told    bool   // the states-versus-entries note was printed
	tty     bool
	quiet   bool
	start   time.Time
	bar     *progressbar.ProgressBar
	mu      sync.Mutex
	lastLvl int
}

func newProgress(w io.Writer, name string, entries uint64, tty, quiet bool) *progress {
	return &progress{w: w, name: name, entries: entries, tty: tty, quiet: quiet, start: time.Now(), lastLvl: -1}
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
	if !p.told && ev.Total != p.entries {
		// An additive search runs over (placement, region of the blank)
		// states: more of them than the table has entries.
		fmt.Fprintf(p.w, "%s: the search visits %d states (placement of the tiles x region of the blank) to fill %d entries (one per placement)\n",
			p.name, ev.Total, p.entries)
		p.told = true
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
	fmt.Fprintf(p.w, "%s: level %d: %d new, %d/%d search states (%.1f%%), %.1fs, %.3g states/s, %s\n",
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

// liveStatus is a one-line status on stderr for long runs of verify and
// solve, drawn only when stderr is a terminal (a log file gets nothing):
// a bar when the work has a known total, a spinner otherwise. The work
// reports through atomic counters read by status; one goroutine refreshes
// the line every 200 ms (progressbar's methods take a lock, so workers do
// not call them). clear erases the line before the command writes to a
// terminal's stdout.
type liveStatus struct {
	mu     sync.Mutex
	bar    *progressbar.ProgressBar
	total  int64
	stopc  chan struct{}
	done   chan struct{}
	status func() (desc string, done, total int64)
}

// startStatus starts the status line (nil on a non-terminal: every method
// of a nil *liveStatus does nothing). status returns the description ("" to
// show nothing for now) and, when total > 0, how much of total is done.
func startStatus(e *env, status func() (desc string, done, total int64)) *liveStatus {
	if !e.stderrIsTTY {
		return nil
	}
	s := &liveStatus{stopc: make(chan struct{}), done: make(chan struct{}), status: status, total: -2}
	go func() {
		defer close(s.done)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-s.stopc:
				return
			case <-t.C:
				s.refresh(e.stderr)
			}
		}
	}()
	return s
}

func (s *liveStatus) refresh(w io.Writer) {
	desc, done, total := s.status()
	s.mu.Lock()
	defer s.mu.Unlock()
	if desc == "" { // nothing worth showing now
		if s.bar != nil {
			_ = s.bar.Clear()
		}
		return
	}
	if total <= 0 {
		total = -1 // spinner
	}
	if s.bar == nil || total != s.total {
		if s.bar != nil {
			_ = s.bar.Clear()
		}
		opts := []progressbar.Option{
			progressbar.OptionSetWriter(w),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetElapsedTime(total > 0), // a spinner's description says the time
			progressbar.OptionThrottle(100 * time.Millisecond),
		}
		if total > 0 {
			opts = append(opts, progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true))
		} else {
			opts = append(opts, progressbar.OptionSpinnerType(14))
		}
		s.bar = progressbar.NewOptions64(total, opts...)
		s.total = total
	}
	s.bar.Describe(desc)
	if total > 0 {
		_ = s.bar.Set64(done)
	} else {
		_ = s.bar.Add64(1)
	}
}

// clear erases the line; the next refresh draws it again.
func (s *liveStatus) clear() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bar != nil {
		_ = s.bar.Clear()
	}
}

// stop erases the line for good.
func (s *liveStatus) stop() {
	if s == nil {
		return
	}
	close(s.stopc)
	<-s.done
	s.clear()
}

// clearingWriter clears a status line before each write, so that answers
// printed on the same terminal do not run into it.
type clearingWriter struct {
	w io.Writer
	s *liveStatus
}

func (c clearingWriter) Write(p []byte) (int, error) {
	c.s.clear()
	return c.w.Write(p)
}

// printPlan prints the build's plan on stderr before any search starts
// (not with --quiet), one line per table: its kind and entries, in memory
// or out of core (shards, those kept in memory, disk at the peak), the
// memory it is planned to take and the CPU and wall time the cost model
// estimates (builder.Estimate.CPU); with several tables, the total. A large
// build so says at once what it will take, before the first minutes of
// search.
func printPlan(e *env, cfg *buildConfig, plan *buildPlan) {
	if cfg.quiet {
		return
	}
	cores := max(1, min(cfg.workers, runtime.NumCPU()))
	var total time.Duration
	for _, pt := range plan.tables {
		entries := pt.pattern.Size()
		if pt.kind == format.KindZeroAware {
			entries = pt.estimate.States // one entry per placement and region of the blank
		}
		where := "in memory"
		if pt.ooc != nil {
			where = fmt.Sprintf("out of core (%s, %d kept in memory; about %s of disk at the peak)",
				countOf(pt.ooc.shards, "shard"), pt.ooc.resident, sysmem.FormatSize(pt.ooc.disk))
		}
		cpu := pt.estimate.CPU(pt.ooc != nil)
		total += cpu
		if cfg.ifNeeded {
			where += ", if missing or bad"
		}
		fmt.Fprintf(e.stderr, "plan %s: %s, %d entries, %s, about %s of memory, %s\n",
			pt.file, pt.kind, entries, where, sysmem.FormatSize(pt.memory), roughTime(cpu, cores))
	}
	if len(plan.tables) > 1 {
		fmt.Fprintf(e.stderr, "plan: %d tables in all, %s\n", len(plan.tables), roughTime(total, cores))
	}
}

// roughTime says an estimated CPU time and the wall time it takes on
// cores cores: "about 22 min of CPU, 11 min wall on 2 cores"; less than
// a second is "under a second of CPU".
func roughTime(cpu time.Duration, cores int) string {
	if cpu < time.Second {
		return "under a second of CPU"
	}
	s := "about " + roughDuration(cpu) + " of CPU"
	if cores > 1 {
		s += fmt.Sprintf(", %s wall on %d cores", roughDuration(cpu/time.Duration(cores)), cores)
	}
	return s
}

// roughDuration is d to two significant figures at most, in seconds,
// minutes or hours: "40 s", "12 min", "3.5 h".
func roughDuration(d time.Duration) string {
	switch {
	case d < 100*time.Second:
		return fmt.Sprintf("%.0f s", max(1, d.Seconds()))
	case d < 100*time.Minute:
		return fmt.Sprintf("%.0f min", d.Minutes())
	case d < 10*time.Hour:
		return fmt.Sprintf("%.1f h", d.Hours())
	}
	return fmt.Sprintf("%.0f h", d.Hours())
}
