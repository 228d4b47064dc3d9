package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
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

// The memory model of an out-of-core build (bytes), checked against
// measured peaks (README, "Building beyond memory"). The live heap of the
// search is the plan's index, the shard states in memory (the resident
// ones and one more: the shard being stepped, or the arrays kept for the
// next one read from its file) and a Step's outputs and inputs: its value
// log (about 0.75 byte per frontier state) and batches (about 1.1 bytes
// per state sent, about one per frontier state), with at most about a
// third of a shard's states on one level's frontier, are at most about
// twice the shard's state; growing them and the output buffers the
// driver keeps for the next Step (at most one state's worth) take
// another two, and the batch files being merged one: stepMultiple state
// sizes besides the resident ones. Writing the table holds one shard's
// values (1 byte per entry), the value log being read (at most about one
// state's worth), and per compressing goroutine a frame of values, its
// codes and a zstd encoder (encoderBytes plus its input: measured 50 MiB
// plus the input at SpeedBestCompression), plus three frames in flight.
// The Go runtime's memory limit is set to the budget less nonHeapBytes
// (the binary and what else the runtime does not count), and the live
// heap planned is at most 7/8 of that limit, so that the collector, which
// runs only near the limit, has room for garbage and the resident set
// stays within the budget.
const (
	stepMultiple = 6
	encoderBytes = 52 << 20
	oocRuntime   = 8 << 20  // runtime metadata, stacks, I/O buffers
	nonHeapBytes = 12 << 20 // the binary's resident pages and the like (a 15-78 build peaked 8.4 MiB above the limit)
)

// memoryLimitFor is the Go runtime memory limit of an out-of-core build
// with a --max-memory of budget bytes.
func memoryLimitFor(budget uint64) int64 {
	return int64(budget - min(budget/2, nonHeapBytes))
}

// oocFootprint turns a planned live heap into the resident set it allows
// for: the heap is at most 7/8 of the memory limit.
func oocFootprint(heap uint64) uint64 {
	return sysmem.SatAdd(sysmem.SatMul(heap, 8)/7, nonHeapBytes)
}

// oocModel is the memory model of one table's out-of-core build.
type oocModel struct {
	blocks, S, cellSets uint64
	base                uint64 // runtime and index
	fs                  uint64 // frame size
	entries, states     uint64
}

func newOOCModel(p *puzzle.Pattern) (*oocModel, error) {
	pl, err := builder.NewShardPlan(p, 1)
	if err != nil {
		return nil, err
	}
	m := &oocModel{blocks: uint64(pl.Blocks()), S: pl.SlotsPerBlock(), entries: p.Size(), states: pl.States()}
	m.cellSets = p.Size() / m.blocks
	m.base = oocRuntime + pl.IndexBytes()
	m.fs = uint64(format.DefaultFrameSize2(p.Size()))
	if m.fs > m.entries {
		m.fs = m.entries // a frame never holds more than the table
	}
	return m, nil
}

func (m *oocModel) per(n int) uint64        { return (m.blocks + uint64(n) - 1) / uint64(n) }
func (m *oocModel) stateBytes(n int) uint64 { return m.per(n)*m.S/4 + 4096 }

// writer is the memory of w compressing goroutines and their frames.
func (m *oocModel) writer(w int) uint64 {
	return uint64(w+3)*m.fs + uint64(w)*(2*m.fs+encoderBytes)
}

// search is the peak memory of the search with n shards, r resident.
func (m *oocModel) search(n, r int) uint64 {
	return m.base + uint64(stepMultiple+r)*m.stateBytes(n)
}

// write is the peak memory of writing the table with w goroutines.
func (m *oocModel) write(n, w int) uint64 {
	return m.base + m.per(n)*m.cellSets + m.stateBytes(n) + m.writer(w)
}

// footprint is the resident set of n shards, r resident, w writers.
func (m *oocModel) footprint(n, r, w int) uint64 {
	return oocFootprint(max(m.search(n, r), m.write(n, w)))
}

// maxShards is the largest shard count worth trying: the first power of
// two with one block per shard (or builder.MaxShards).
func (m *oocModel) maxShards() int {
	n := 1
	for uint64(n) < m.blocks && n < builder.MaxShards {
		n *= 2
	}
	return n
}

// minimum is the smallest budget an out-of-core build of the table fits,
// and the shard count it takes.
func (m *oocModel) minimum() (uint64, int) {
	best := m.footprint(m.maxShards(), 0, 1)
	n := 1
	for m.footprint(n, 0, 1) > best {
		n *= 2
	}
	return best, n
}

// disk is the estimated peak of the shard folder: the states (2 bits per
// search state, twice while a level replaces them), the value logs of
// every level (measured 0.75 byte per search state on a 24-puzzle 7-tile
// table; 1 counted) and the batches of two levels (the largest level's
// measured 0.10 byte per search state; 0.15 counted each), and the
// compressed frames spooled at the end (an eighth of a byte per entry
// counted; the tables so far compress to less than a byte per 16
// entries).
func (m *oocModel) disk() uint64 {
	return sysmem.SatAdd(m.states/2+m.states+m.states*3/10, m.entries/8)
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
	fits := func(n int) bool { return m.footprint(n, 0, 1) <= budget }
	if most := m.maxShards(); forced > most {
		// More shards than blocks would only add empty shards (a fresh-user
		// trial's --shards 1048576 on a 3x3 table wrote 700,000 files).
		notice = fmt.Sprintf("%s: --shards %d is more than the table's %s: using %s", file, forced, countOf(m.blocks, "block"), countOf(most, "shard"))
		forced = most
	}
	n := max(forced, 1)
	for !fits(n) {
		if n >= m.maxShards() {
			minimum, shards := m.minimum()
			return nil, "", &errOOCTooSmall{file: file, budget: budget, minimum: minimum, shards: shards}
		}
		n *= 2
	}
	if forced > 0 && n != forced {
		notice = fmt.Sprintf("%s: --shards %d does not fit --max-memory %s: using %d shards", file, forced, sysmem.FormatSize(budget), n)
	}
	op = &oocPlan{shards: n, dir: filepath.Join(dir, file+".shards"), writers: 1, disk: m.disk()}
	for op.resident < n && m.footprint(n, op.resident+1, 1) <= budget {
		op.resident++
	}
	for op.writers < workers && m.footprint(n, op.resident, op.writers+1) <= budget {
		op.writers++
	}
	op.need = m.footprint(n, op.resident, op.writers)
	return op, notice, nil
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
			return fmt.Errorf("%w while writing the table: %v", builder.ErrCanceled, err)
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
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += uint64(fi.Size())
			}
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
