package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/diskspace"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
)

// oocPlan is how build runs a table out of core (builder.BuildOutOfCore,
// then format.EncodeStream).
type oocPlan struct {
	shards   int    // shard count
	resident int    // shard states kept in memory between levels
	writers  int    // goroutines compressing frames at the end
	dir      string // the shard folder
	need     uint64 // the estimated peak memory (resident set), at most the budget
	disk     uint64 // the estimated peak bytes of the shard folder
	resume   bool   // --resume and the shard folder is there
}

// newOOCModel is the out-of-core model of p's build (builder.OutOfCoreModel)
// with the frames format.EncodeStream writes.
func newOOCModel(p *puzzle.Pattern) (*builder.OutOfCoreModel, error) {
	return builder.NewOutOfCoreModel(p, format.DefaultFrameSize2(p.Size()))
}

// errOOCTooSmall is planOutOfCore's refusal: the budget is below the
// minimum of an out-of-core build.
type errOOCTooSmall struct {
	file            string
	budget, minimum uint64
	shards          int
	fromFlag        bool // budget is --max-memory, not the memory available
}

func (e *errOOCTooSmall) Error() string {
	have := "--max-memory " + sysmem.FormatSize(e.budget) + " is"
	if !e.fromFlag {
		have = "the " + sysmem.FormatSize(e.budget) + " of memory available are"
	}
	return fmt.Sprintf("%s: %s too little to build it out of core: that needs at least %s (--max-memory %s, %d shards)",
		e.file, have, sysmem.FormatSize(e.minimum), flagSize(e.minimum), e.shards)
}

// flagSize writes n bytes as a --max-memory value that is at least n:
// whole mebibytes, or gibibytes with one decimal from 10G up.
func flagSize(n uint64) string {
	const mi, gi = 1 << 20, 1 << 30
	if n >= 10*gi {
		return fmt.Sprintf("%.1fG", float64((n+gi/10-1)/(gi/10))/10)
	}
	return fmt.Sprintf("%dM", (n+mi-1)/mi)
}

// planOutOfCore picks the shard count (the smallest power of two, or at
// least forced when > 0) whose search and write phases fit budget bytes,
// the resident shards and the compressing goroutines, and names the shard
// folder dir/<file>.shards. It returns an *errOOCTooSmall when no shard
// count fits; a forced count that does not fit is raised to one that
// does (notice says so).
func planOutOfCore(p *puzzle.Pattern, file, dir string, budget uint64, workers, forced int) (op *oocPlan, notice string, err error) {
	m, err := newOOCModel(p)
	if err != nil {
		return nil, "", err
	}
	if most := m.MaxShards(); forced > most {
		// More shards than blocks would only add empty shards (a fresh-user
		// trial's --shards 1048576 on a 3x3 table wrote 700,000 files).
		notice = fmt.Sprintf("%s: --shards %d is more than the table's %s: using %s", file, forced, countOf(m.Blocks(), "block"), countOf(most, "shard"))
		forced = most
	}
	fit, ok := m.Fit(budget, workers, forced)
	if !ok {
		minimum, shards := m.Minimum()
		return nil, "", &errOOCTooSmall{file: file, budget: budget, minimum: minimum, shards: shards}
	}
	if forced > 0 && fit.Shards != forced {
		notice = fmt.Sprintf("%s: --shards %d does not fit --max-memory %s: using %d shards", file, forced, sysmem.FormatSize(budget), fit.Shards)
	}
	return &oocPlan{shards: fit.Shards, resident: fit.Resident, writers: fit.Writers, need: fit.Need,
		dir: filepath.Join(dir, file+".shards"), disk: m.Disk()}, notice, nil
}

// buildOutOfCore runs the out-of-core search of pt and encodes its table
// into a spooled stream; the caller writes it and removes the shard
// folder. On failure the folder is kept for --resume and the error says
// so.
func buildOutOfCore(ctx context.Context, e *env, cfg *buildConfig, pt plannedTable) (*format.Stream, time.Duration, error) {
	op := pt.ooc
	resume := op.resume
	if !cfg.quiet {
		verb := "building"
		if resume {
			verb = "resuming"
		}
		fmt.Fprintf(e.stderr, "%s %s out of core: %s, %d entries, %d shards (%d kept in memory) in %s (about %s of disk at the peak), about %s of memory\n",
			verb, pt.file, pt.pattern, pt.pattern.Size(), op.shards, op.resident, op.dir, sysmem.FormatSize(op.disk), sysmem.FormatSize(op.need))
	}
	var stats io.Writer
	if cfg.shardStats != "" {
		f, err := os.OpenFile(cfg.shardStats, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, 0, fmt.Errorf("--shard-stats: %w", err)
		}
		defer f.Close()
		stats = f
	}
	start := time.Now()
	prog := &oocProgress{e: e, name: pt.file, quiet: cfg.quiet, start: start, last: start, stats: stats}
	o, err := builder.BuildOutOfCore(ctx, pt.pattern, builder.OutOfCoreOptions{
		Dir: op.dir, Shards: op.shards, Resident: op.resident, Workers: cfg.workers, Resume: resume, Progress: prog.event,
	})
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w (nothing written; %s)", pt.file, err, keptFor(op.dir, err))
	}
	buildTime := time.Since(start)
	// The shard states and output buffers are garbage now: collect and
	// return them before the writing allocates its encoder and frames.
	// With the collector off until the memory limit, the heap was near
	// it, and the writing's first allocations, made while the collection
	// they started ran, took 15-78's 8-tile table 15 MiB over
	// --max-memory 256M.
	debug.FreeOSMemory()
	// The writing allocates a shard's values and value logs at a time:
	// collecting when the heap has grown by a quarter, rather than only
	// at the memory limit, keeps those allocations off the limit (with
	// the collector off until it, the writing went 10.7 MiB over it).
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	if !cfg.quiet {
		fmt.Fprintf(e.stderr, "%s: search done in %.1fs; writing the table from the value logs, %d shard(s), %d compressing goroutine(s)\n",
			pt.file, buildTime.Seconds(), op.shards, op.writers)
	}
	// Ctrl-C is honoured between frames of the writing too (the 24-puzzle
	// 7-tile table writes for about a minute); the finished search stays
	// for --resume, which then only writes.
	src := o.Source()
	source := func(lo uint64, dst []uint8) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%w while writing the table: %w", builder.ErrCanceled, err)
		}
		return src(lo, dst)
	}
	s, err := format.EncodeStream(pt.pattern, source, format.StreamOptions{
		Major: uint16(cfg.fileFormat), Workers: op.writers, Generator: generator, TempDir: op.dir,
	})
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w (nothing written; %s)", pt.file, err, keptFor(op.dir, err))
	}
	return s, buildTime, nil
}

// keptFor says what became of the shard folder after err: kept for
// --resume when the build can continue from it, or why it cannot (a
// refused folder, damaged shard data).
func keptFor(dir string, err error) string {
	switch {
	case errors.Is(err, builder.ErrShardFolder):
		return "the shard folder is left as it was"
	case errors.Is(err, builder.ErrShardData):
		return fmt.Sprintf("the shard folder %s holds damaged data: remove it and build again", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "PLAN")); err != nil {
		return "no shard data kept"
	}
	return fmt.Sprintf("the finished levels are kept in %s: run the same command with --resume to continue", dir)
}

// oocProgress prints the out-of-core search's progress: a line per level,
// and a line per shard at most every 10 seconds; --shard-stats gets one
// JSON line per Step.
type oocProgress struct {
	e          *env
	name       string
	quiet      bool
	start      time.Time
	last       time.Time // the last line printed
	stepStart  time.Time
	stats      io.Writer
	statsError bool
}

// stepRecord is a --shard-stats line.
type stepRecord struct {
	Table string `json:"table"`
	builder.StepStats
	Seconds     float64 `json:"seconds"` // wall time of the Step, its reads and writes
	DiskRead    uint64  `json:"disk_read"`
	DiskWritten uint64  `json:"disk_written"`
}

func (p *oocProgress) event(ev builder.OutOfCoreEvent) {
	now := time.Now()
	if p.stepStart.IsZero() {
		p.stepStart = p.start
	}
	if !ev.LevelDone && p.stats != nil && !p.statsError {
		rec := stepRecord{Table: p.name, StepStats: ev.Step, Seconds: now.Sub(p.stepStart).Seconds(), DiskRead: ev.DiskRead, DiskWritten: ev.DiskWritten}
		if err := json.NewEncoder(p.stats).Encode(rec); err != nil {
			p.statsError = true
			fmt.Fprintf(p.e.stderr, "--shard-stats: %v (no more lines written)\n", err)
		}
	}
	p.stepStart = now
	if p.quiet {
		return
	}
	pct := 100 * float64(ev.Expanded) / float64(max(ev.Total, 1))
	el := now.Sub(p.start).Seconds()
	switch {
	case ev.LevelDone:
		fmt.Fprintf(p.e.stderr, "%s: level %d done: %d of %d search states expanded (%.1f%%), %s read, %s written, %.1fs\n",
			p.name, ev.Level, ev.Expanded, ev.Total, pct, sysmem.FormatSize(ev.DiskRead), sysmem.FormatSize(ev.DiskWritten), el)
		p.last = now
	case ev.Resumed:
		fmt.Fprintf(p.e.stderr, "%s: resumed at level %d\n", p.name, ev.Level)
	case now.Sub(p.last) >= 10*time.Second:
		fmt.Fprintf(p.e.stderr, "%s: level %d, shard %d of %d: %d frontier states, %d sent, %.1fs\n",
			p.name, ev.Level, ev.Shard+1, ev.Shards, ev.Step.Frontier, ev.Step.Sent, el)
		p.last = now
	}
}

// writeStream writes an out-of-core table, removes its shard folder and
// logs it.
func writeStream(e *env, cfg *buildConfig, pt plannedTable, s *format.Stream, start time.Time, buildTime time.Duration) error {
	path := filepath.Join(cfg.out, pt.file)
	if err := s.WriteFile(path); err != nil {
		return fmt.Errorf("%w (%s)", err, keptFor(pt.ooc.dir, err))
	}
	s.Close()
	if err := os.RemoveAll(pt.ooc.dir); err != nil {
		return fmt.Errorf("removing the shard folder: %w", err)
	}
	if !cfg.quiet {
		var size int64
		if st, err := os.Stat(path); err == nil {
			size = st.Size()
		}
		h := &s.Header
		fmt.Fprintf(e.stderr, "wrote %s: %d entries, max %d, %s on disk, built in %.2fs, total %.2fs\n",
			path, h.Entries, h.MaxValue, sysmem.FormatSize(uint64(size)), buildTime.Seconds(), time.Since(start).Seconds())
	}
	return nil
}

// errNoOutOfCore is the refusal of an exact table out of core.
var errNoOutOfCore = errors.New("exact tables are built in memory only")

// freeDisk is diskspace.Free (a variable so that tests can stand in for a
// small file system).
var freeDisk = diskspace.Free

// checkShardDisk refuses a build whose shard folder clearly will not fit:
// when the free space of its file system, plus what a folder to resume
// holds already, is below 4/5 of the estimated peak (the estimate counts
// about a quarter more than the builds measured). Without a known free
// space it does nothing.
func checkShardDisk(op *oocPlan) error {
	free, ok := freeDisk(op.dir)
	if !ok {
		return nil
	}
	have := free
	if op.resume {
		have = sysmem.SatAdd(have, dirBytes(op.dir))
	}
	if have < op.disk/5*4 {
		return fmt.Errorf("the shard folder %s needs about %s of disk at its peak, its file system has %s free (--shard-dir puts it elsewhere)",
			op.dir, sysmem.FormatSize(op.disk), sysmem.FormatSize(free))
	}
	return nil
}

// dirBytes is the size of the files under dir (0 where it cannot be read).
func dirBytes(dir string) uint64 {
	var n uint64
	_ = filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			n += uint64(fi.Size())
		}
		return nil
	})
	return n
}

// countOf is n and the noun, plural unless n is 1: "1 block", "6 blocks".
func countOf[T int | uint64](n T, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
