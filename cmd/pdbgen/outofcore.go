package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
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
	need     uint64 // the estimated peak memory
}

// The memory model of an out-of-core build (bytes). A Step holds the
// shard's state (2 bits per search state) and its outputs: the value log
// (about 1 byte per frontier state), the batches (about 1.5 bytes per
// state sent, about one per frontier state) and the slack of growing
// slices; with at most about a third of a shard's states on one level's
// frontier, stepMultiple states' worth covers it (calibrated on 15-78:
// README, "Building beyond memory"). Writing the table holds one shard's
// values (1 byte per entry) and, per compressing goroutine, a frame of
// values, its codes and a zstd encoder (encoderBytes, measured 42 MiB at
// SpeedBestCompression on a 16 MiB frame), plus two frames in flight.
const (
	stepMultiple = 6
	encoderBytes = 48 << 20
	oocRuntime   = 40 << 20 // Go runtime, binary, buffers, GC slack
)

// planOutOfCore picks the shard count (the smallest power of two, or
// forced when > 0) whose search and write phases fit budget bytes, the
// resident shards and the compressing goroutines, and names the shard
// folder dir/<file>.shards.
func planOutOfCore(p *puzzle.Pattern, file, dir string, budget uint64, workers, forced int) (*oocPlan, error) {
	pl, err := builder.NewShardPlan(p, 1)
	if err != nil {
		return nil, err
	}
	blocks, S := uint64(pl.Blocks()), pl.SlotsPerBlock()
	cellSets := p.Size() / blocks
	base := oocRuntime + pl.IndexBytes()
	fs := uint64(format.DefaultFrameSize2(p.Size()))
	writer := func(w int) uint64 { return uint64(w+2)*fs + uint64(w)*(fs+encoderBytes) }
	per := func(n int) uint64 { return (blocks + uint64(n) - 1) / uint64(n) }
	stateBytes := func(n int) uint64 { return per(n)*S/4 + 4096 }
	fits := func(n int) bool {
		return base+stepMultiple*stateBytes(n) <= budget && base+per(n)*cellSets+writer(1) <= budget
	}
	n := forced
	if n <= 0 {
		for n = 1; !fits(n); n *= 2 {
			if uint64(n) >= blocks || n >= builder.MaxShards {
				return nil, fmt.Errorf("%s: %s of memory is too little for an out-of-core build of %s (its %d blocks of %d states each need %s)",
					file, sysmem.FormatSize(budget), p, blocks, S, sysmem.FormatSize(base+stepMultiple*stateBytes(n)))
			}
		}
	}
	op := &oocPlan{shards: n, dir: filepath.Join(dir, file+".shards"), writers: 1}
	st := stateBytes(n)
	if used := base + stepMultiple*st; used < budget {
		op.resident = int(min(uint64(n), (budget-used)/st))
	}
	for op.writers < workers && base+per(n)*cellSets+writer(op.writers+1) <= budget {
		op.writers++
	}
	op.need = max(base+stepMultiple*st+uint64(op.resident)*st, base+per(n)*cellSets+writer(op.writers))
	return op, nil
}

// buildOutOfCore runs the out-of-core search of pt and encodes its table
// into a spooled stream; the caller writes it and removes the shard
// folder. On failure the folder is kept for --resume and the error says
// so.
func buildOutOfCore(ctx context.Context, e *env, cfg *buildConfig, pt plannedTable) (*format.Stream, time.Duration, error) {
	op := pt.ooc
	resume := false
	if cfg.resume {
		if _, err := os.Stat(op.dir); err == nil {
			resume = true
		}
	}
	if !cfg.quiet {
		verb := "building"
		if resume {
			verb = "resuming"
		}
		fmt.Fprintf(e.stderr, "%s %s out of core: %s, %d entries, %d shards (%d kept in memory) in %s, about %s of memory\n",
			verb, pt.file, pt.pattern, pt.pattern.Size(), op.shards, op.resident, op.dir, sysmem.FormatSize(op.need))
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
		return nil, 0, fmt.Errorf("%s: %w (nothing written; %s)", pt.file, err, keptFor(op.dir))
	}
	buildTime := time.Since(start)
	if !cfg.quiet {
		fmt.Fprintf(e.stderr, "%s: search done in %.1fs; writing the table from the value logs, %d shard(s), %d compressing goroutine(s)\n",
			pt.file, buildTime.Seconds(), op.shards, op.writers)
	}
	s, err := format.EncodeStream(pt.pattern, o.Source(), format.StreamOptions{
		Major: uint16(cfg.fileFormat), Workers: op.writers, Generator: generator, TempDir: op.dir,
	})
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w (nothing written; %s)", pt.file, err, keptFor(op.dir))
	}
	return s, buildTime, nil
}

// keptFor says that a shard folder is kept, when it exists.
func keptFor(dir string) string {
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
		return fmt.Errorf("%w (%s)", err, keptFor(pt.ooc.dir))
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
