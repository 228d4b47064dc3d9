package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/manifest"
	"github.com/tilepdb/tilepdb/preset"
	"github.com/tilepdb/tilepdb/puzzle"
)

// buildCmd is "pdbgen build": its usage line, summary and help (the flags are
// defined where it parses them).
var buildCmd = &command{name: "build", usage: "[-j N] [-o DIR] [--quiet] [--preset NAME[,NAME...] | --board WxH --tiles LIST [--tiles LIST...]] [--goal GOAL] [--manifest FILE] [--write-manifest FILE] [--if-needed] [--json] [--format 2|1] [--max-memory SIZE] [--shards N] [--shard-dir DIR] [--resume] [--shard-stats FILE] [--zero-aware]",
	short: "build tables into a directory (--if-needed: only the missing or bad ones)",
	help: `Writes one .pdb file per table into the output directory and prints each
path on stdout when it is written. Before the first search, build checks
that every table fits in memory and that the output directory and the
manifest paths can be written, then prints its plan on stderr (not with
--quiet): per table its kind, entries, in memory or out of core, memory
and a rough CPU and wall time from the builder's cost model. A file is written to a temporary file and
renamed, so an interrupted build never leaves a partial table; temporaries
left by a killed build are removed by the next build into that directory.
With --manifest and neither --preset nor --board, the tables are the ones
the manifest lists.

--if-needed keeps each table already in the directory whose header
matches the manifest and which passes verify (the file is not touched),
and builds only the missing or bad ones; a table built is compared with
the manifest and verified before it is written. One line per table on
stdout: "kept PATH: ...", "built PATH: missing", "replaced PATH because
...", "failed PATH: ...". --json prints one JSON object per table instead
(docs/ci.md, "JSON reports").

Out of core: with --max-memory SIZE, a table whose search needs more than
SIZE is built out of core (--shards, --shard-dir or --resume ask for it
for every table): the search is split into shards (ranges of the search's
order blocks) whose 2-bit state arrays, the batches of states they send
each other and the value logs of every level are files in the shard
folder DIR/FILE.shards (DIR: --shard-dir, default the output directory),
with only some shards in memory; the table is then written from the value
logs one shard at a time. The shard count is the smallest power of two
whose shards fit SIZE (--shards N asks for N, raised with a notice when N
does not fit, lowered with a notice when N is more than the power of two
that holds the table's order blocks one per shard). A table that fits SIZE in memory but not out of core is
built in memory, with a notice; one that fits neither is refused with the
smallest SIZE that builds it out of core. The first line gives the shard
folder and its estimated peak disk use; a file system with clearly less
free is refused before anything is written. An interrupted or failed
build (Ctrl-C, a full disk) keeps its finished levels: the same command
with --resume continues from the last one, and refuses a folder of another
table, shard count or version, and a build with no folder to resume. The
folder is removed once the table is written. docs/sharding.md, "Building
beyond memory".

Exit status: 0 success; 1 a malformed manifest, a built table that differs
from --manifest or fails verify (it is not written), or damaged shard data
met by --resume; 2 usage or I/O
trouble, or not enough memory; 130 on Ctrl-C and 143 on SIGTERM (tables
already written stay).`,
	run: runBuild}

// buildConfig is the parsed command line of build.
type buildConfig struct {
	workers       int
	out           string
	quiet         bool
	presets       string
	board         string
	tiles         []string
	goal          string
	manifest      string // check against this manifest ("" = none)
	writeManifest string // write a manifest here ("" = none)
	maxMemory     string // --max-memory as given ("" = available memory)
	ifNeeded      bool   // keep the existing good tables, build only the missing or bad ones
	asJSON        bool   // one JSON object per table on stdout
	fileFormat    int    // major file format version to write: 2 (default) or 1
	shards        int    // --shards: out of core with this many shards (0: chosen)
	shardDir      string // --shard-dir: where the shard folders go ("" = the output directory)
	resume        bool   // --resume: continue out-of-core builds from their shard folders
	shardStats    string // --shard-stats: append one JSON line per shard Step to this file
	zeroAware     bool   // --zero-aware: write zero-aware tables (zeroaware.go)
}

// outOfCore reports whether the flags ask for out-of-core builds of
// every table.
func (cfg *buildConfig) outOfCore() bool { return cfg.shards > 0 || cfg.shardDir != "" || cfg.resume }

// plannedTable is one table to build.
type plannedTable struct {
	pattern *puzzle.Pattern
	file    string   // file name in the output directory
	memory  uint64   // builder.MemoryEstimate, computed once (out of core: ooc.need)
	ooc     *oocPlan // nil: built in memory
	notice  string   // lines for stderr before the table is built, without the last newline ("": none)
	// writers is the goroutines compressing an in-memory table (0:
	// -j); under --max-memory, only as many zstd encoders as fit beside
	// the table.
	writers int
	// kind is the table's kind (preset.Table.Kind): exact, additive or
	// zero-aware (--zero-aware, or a zero-aware preset).
	kind format.Kind
	// estimate is the in-memory build's memory and search states
	// (builder.EstimateBuild), computed once.
	estimate builder.Estimate
}

// plannedTables turns the resolved tables into the plan's, not yet
// estimated.
func plannedTables(tables []preset.Table) []plannedTable {
	out := make([]plannedTable, len(tables))
	for i, t := range tables {
		out[i] = plannedTable{pattern: t.Pattern, file: t.File, kind: t.Kind}
	}
	return out
}

// buildPlan is everything decided before the first search starts.
type buildPlan struct {
	tables []plannedTable
	sets   []preset.Set       // set files to write once their tables are there
	want   *manifest.Manifest // the --manifest, nil without one
	budget sysmem.Budget      // the memory a search may take
}

// runBuild builds tables in four steps: plan (read the manifest, resolve
// the tables, check memory), then for each table build (BFS and
// encoding), compare with the manifest, write; finally the manifest of
// the tables. With --if-needed each table starts with a check of the
// file already there (checkExisting): a good one is kept untouched, and a
// table built in its place is verified before it is written.
func runBuild(e *env, args []string) error {
	cfg, err := parseBuildFlags(e, args)
	if err != nil {
		return err
	}
	plan, err := planBuild(cfg)
	if err != nil {
		return err
	}
	if err := checkTargets(cfg, plan); err != nil {
		return err
	}
	printPlan(e, cfg, plan)
	ctx := e.context()
	var entries []manifest.Entry // the tables in the folder at the end, for --write-manifest
	counts := map[string]int{}
	for _, pt := range plan.tables {
		if pt.notice != "" {
			fmt.Fprintln(e.stderr, pt.notice)
		}
		restore := collectorFor(plan, pt)
		res, err := buildOne(ctx, e, cfg, plan, pt)
		restore()
		if err != nil {
			return err
		}
		counts[res.Action]++
		if res.Action != actionFailed {
			entries = append(entries, manifest.Entry{Name: pt.file, Entries: res.Entries, MaxValue: res.MaxValue, RawSHA256: res.RawSHA256})
		}
		if err := reportTable(e, cfg, res); err != nil {
			return err
		}
	}
	for _, ps := range plan.sets {
		if err := writeSetFile(e, cfg, ps, entries); err != nil {
			return err
		}
	}
	printSummary(e, cfg, plan, counts)
	if cfg.writeManifest != "" {
		m, err := manifest.New(entries)
		if err == nil {
			err = m.WriteFile(cfg.writeManifest)
		}
		if err != nil {
			return err
		}
	}
	if n := counts[actionFailed]; n > 0 {
		if plan.want != nil {
			return dataErr(fmt.Errorf("%d table(s) differ from the manifest", n))
		}
		return dataErr(fmt.Errorf("%d table(s) failed verification (nothing written for them)", n))
	}
	return nil
}

// printSummary prints build's last lines on stderr (not with --quiet):
// the peak RSS, with --if-needed what became of the tables (counts by
// action), with --manifest that the check passed.
func printSummary(e *env, cfg *buildConfig, plan *buildPlan, counts map[string]int) {
	if cfg.quiet {
		return
	}
	if rss := peakRSS(); rss > 0 {
		fmt.Fprintf(e.stderr, "peak RSS %s\n", sysmem.FormatSize(rss))
	}
	if cfg.ifNeeded {
		fmt.Fprintf(e.stderr, "%d table(s): %d kept, %d built, %d replaced, %d failed\n", len(plan.tables),
			counts[actionKept], counts[actionBuilt], counts[actionReplaced], counts[actionFailed])
	}
	if plan.want != nil && counts[actionFailed] == 0 {
		fmt.Fprintf(e.stderr, "manifest check passed: all %d table(s) match %s\n", len(plan.tables), cfg.manifest)
	}
}

// collectorFor sets the garbage collector for building pt and returns
// the function that sets it back. Out of core under --max-memory, the
// memory limit keeps the heap within the budget (builder.MemoryLimitFor) and the
// collector runs only near it: the live heap is mostly the shard states,
// which a collection never frees. A table built in memory after it gets
// the usual collector back, and the shard arrays are returned to the OS
// first (with the collector off until the limit, a 15-78 build's 7-tile
// table, built in memory after the 8-tile one out of core, went over
// --max-memory 256M).
func collectorFor(plan *buildPlan, pt plannedTable) func() {
	if pt.ooc == nil || !plan.budget.FromFlag {
		return func() {}
	}
	prev := debug.SetMemoryLimit(builder.MemoryLimitFor(plan.budget.Limit))
	prevGC := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(prevGC)
		debug.SetMemoryLimit(prev)
		debug.FreeOSMemory()
	}
}

func parseBuildFlags(e *env, args []string) (*buildConfig, error) {
	cfg := &buildConfig{}
	fs := newFlags(e, "build")
	fs.IntVar(&cfg.workers, "j", runtime.NumCPU(), "worker goroutines per BFS level (the output does not depend on it)")
	fs.StringVar(&cfg.out, "o", "data", "output directory (created if missing)")
	fs.BoolVar(&cfg.quiet, "quiet", false, "no progress output")
	fs.StringVar(&cfg.presets, "preset", "", "comma-separated preset names (see 'pdbgen presets'); default: the tables --manifest lists, else "+strings.Join(preset.Defaults(), ","))
	fs.StringVar(&cfg.board, "board", "", "board size WxH for a custom pattern, 2x2 to 8x8 (at most 64 cells)")
	fs.Var((*stringList)(&cfg.tiles), "tiles", "pattern tiles for --board, e.g. 1,2,3 or 1-8; repeat for a disjoint set; all tiles = the exact table")
	fs.StringVar(&cfg.goal, "goal", puzzle.GoalBlankLast, "goal: blank-last, blank-first, or a board such as '1,2,3,4,5,6,7,8,0'")
	fs.StringVar(&cfg.manifest, "manifest", "", "check every table against this manifest (name, entries, max, raw SHA-256); a mismatch is written nowhere and exits 1; without --preset or --board, build the tables it lists")
	fs.StringVar(&cfg.writeManifest, "write-manifest", "", "write a manifest of the tables (built, or kept with --if-needed) to this file")
	fs.StringVar(&cfg.maxMemory, "max-memory", "", maxMemoryHelp)
	fs.BoolVar(&cfg.ifNeeded, "if-needed", false, "keep each existing table whose header matches the manifest and which passes verify (untouched); build only the missing or bad ones, verified before they are written")
	fs.IntVar(&cfg.fileFormat, "format", format.MajorVersion, "file format version to write: 2 (Manhattan-delta encoding, smaller) or 1 (format 1.0, for readers that predate format 2)")
	fs.IntVar(&cfg.shards, "shards", 0, "build out of core with this many shards, or more if they do not fit --max-memory (default: chosen from --max-memory)")
	fs.StringVar(&cfg.shardDir, "shard-dir", "", "build out of core, with the shard folders (FILE.shards) in this directory (default: the output directory)")
	fs.BoolVar(&cfg.resume, "resume", false, "build out of core, continuing each table whose shard folder is there from its last finished level (refused when no table has one)")
	fs.StringVar(&cfg.shardStats, "shard-stats", "", "out of core: append one JSON line per shard and level (the builder's StepStats, seconds, disk bytes) to this file")
	fs.BoolVar(&cfg.asJSON, "json", false, "print one JSON object per table on stdout (file, action, reason, identity, verify report)")
	fs.BoolVar(&cfg.zeroAware, "zero-aware", false, zeroAwareHelp)
	if err := noArgs(fs, args); err != nil {
		return nil, err
	}
	if err := checkWorkers(cfg.workers); err != nil {
		return nil, err
	}
	if cfg.fileFormat != format.MajorVersion && cfg.fileFormat != format.MajorVersion1 {
		return nil, usageErr("--format must be %d or %d", format.MajorVersion, format.MajorVersion1)
	}
	shardsSet := false
	fs.Visit(func(f *flag.Flag) { shardsSet = shardsSet || f.Name == "shards" })
	if cfg.shards < 0 || cfg.shards > builder.MaxShards || (shardsSet && cfg.shards == 0) {
		return nil, usageErr("--shards must be 1 to %d", builder.MaxShards)
	}
	if err := checkBuildConflicts(cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// checkBuildConflicts refuses flags that do not go together, before
// anything is read or written (a manifest, a shard folder, the output
// directory), so that the refusal is the first and only line.
func checkBuildConflicts(cfg *buildConfig) error {
	what := ""
	if cfg.zeroAware {
		what = "--zero-aware"
	} else if name := zeroAwarePreset(cfg.presets); name != "" {
		what = "--preset " + name + " (zero-aware tables)"
	}
	if what != "" {
		if cfg.manifest != "" || cfg.ifNeeded {
			return usageErr("%s does not go with --manifest or --if-needed (manifests name plain tables)", what)
		}
		if cfg.outOfCore() {
			return usageErr("%s does not go with --shards, --shard-dir or --resume (the shard kernel builds plain additive tables)", what)
		}
	}
	if cfg.ifNeeded && cfg.outOfCore() {
		return usageErr("--if-needed does not go with --shards, --shard-dir or --resume (it verifies each table in memory before writing it)")
	}
	return nil
}

// planBuild reads the manifest, resolves the tables of cfg (the ones the
// manifest lists when neither --preset nor --board is given), estimates
// the memory of each once and refuses any that needs more than the limit
// (with --if-needed, only when it comes to building it). Nothing is built
// or written.
func planBuild(cfg *buildConfig) (_ *buildPlan, err error) {
	plan := &buildPlan{}
	if err := plan.resolve(cfg); err != nil {
		return nil, err
	}
	if plan.budget, err = memoryBudget(cfg.maxMemory); err != nil {
		return nil, err
	}
	for i := range plan.tables {
		if err := plan.planTable(cfg, &plan.tables[i]); err != nil {
			return nil, err
		}
	}
	if err := plan.checkResume(cfg); err != nil {
		return nil, err
	}
	return plan, nil
}

// resolve reads the manifest and the tables and set files of cfg: the
// ones the manifest lists when neither --preset nor --board is given, else
// preset.Resolve's, made zero-aware with --zero-aware.
func (plan *buildPlan) resolve(cfg *buildConfig) (err error) {
	if cfg.manifest != "" {
		if plan.want, err = readManifestFile(cfg.manifest); err != nil {
			return err
		}
	}
	var tables []preset.Table
	if plan.want != nil && cfg.presets == "" && cfg.board == "" && len(cfg.tiles) == 0 {
		if cfg.goal != puzzle.GoalBlankLast {
			return usageErr("--goal needs --preset or --board (the file names of a manifest carry the goal)")
		}
		if tables, err = manifestTargets(plan.want); err != nil {
			return err
		}
	} else if tables, plan.sets, err = preset.Resolve(cfg.presets, cfg.board, cfg.tiles, cfg.goal); err != nil {
		return &exitError{code: exitTrouble, err: err}
	}
	if cfg.zeroAware {
		// The flags that do not go with --zero-aware are refused by
		// checkBuildConflicts.
		if err := preset.ZeroAware(tables, plan.sets); err != nil {
			return usageErr("--zero-aware: %v", err)
		}
	}
	plan.tables = plannedTables(tables)
	return nil
}

// planTable estimates pt once, plans it out of core where it must or may
// be (planTableOutOfCore; zero-aware tables are built in memory), refuses
// it when it fits the budget neither way (with --if-needed, only when it
// comes to building it) and sets the encoders that fit beside it.
func (plan *buildPlan) planTable(cfg *buildConfig, pt *plannedTable) error {
	if err := builder.CheckLimits(pt.pattern); err != nil {
		return &exitError{code: exitTrouble, err: fmt.Errorf("%s: %w", pt.file, err)}
	}
	pt.estimate = builder.EstimateBuild(pt.pattern, pt.kind == format.KindZeroAware)
	pt.memory = pt.estimate.Memory
	if pt.kind != format.KindZeroAware {
		if err := planTableOutOfCore(cfg, plan, pt); err != nil {
			return err
		}
	}
	if !cfg.ifNeeded {
		if err := plan.checkMemory(cfg, *pt); err != nil {
			return err
		}
	}
	if pt.ooc == nil && plan.budget.FromFlag && pt.memory <= plan.budget.Limit {
		// builder.MemoryEstimate leaves out the encoders (a
		// 6,375,600-entry table peaked at 56 MiB with one, 84 MiB with
		// two): as many as fit, at least one.
		pt.writers = int(max(1, min(uint64(cfg.workers), (plan.budget.Limit-pt.memory)/builder.EncoderBytes)))
	}
	return nil
}

// planTableOutOfCore decides whether pt is built out of core (the flags
// ask for it, or --max-memory is below its in-memory estimate), plans its
// shards within the budget and checks the free disk space of its shard
// folder. A table that cannot be built out of core within the budget is
// built in memory when it fits there (with a notice), else refused with
// the smallest --max-memory that builds it out of core. A table the
// memory available cannot hold in memory is refused with that figure
// too.
func planTableOutOfCore(cfg *buildConfig, plan *buildPlan, pt *plannedTable) error {
	b := plan.budget
	tooBig := b.Known && pt.memory > b.Limit
	if want, err := outOfCoreWanted(cfg, b, pt, tooBig); !want || err != nil {
		return err
	}
	dir := cfg.shardDir
	if dir == "" {
		dir = cfg.out
	}
	limit := b.Limit
	if !b.Known {
		limit = pt.memory // no limit known: as much as the in-memory build
	}
	op, notice, err := planOutOfCore(pt.pattern, pt.file, dir, limit, cfg.workers, cfg.shards)
	var small *errOOCTooSmall
	if errors.As(err, &small) {
		small.fromFlag = b.FromFlag
		switch {
		case !b.Known:
			op, notice, err = planOutOfCore(pt.pattern, pt.file, dir, small.minimum, cfg.workers, cfg.shards)
		case !tooBig && !cfg.resume:
			// It fits in memory: a build, not a refusal.
			pt.notice = fmt.Sprintf("%s: out of core it needs at least %s, more than the %s it may use, but in memory only about %s: building it in memory",
				pt.file, sysmem.FormatSize(small.minimum), sysmem.FormatSize(b.Limit), sysmem.FormatSize(pt.memory))
			return nil
		default:
			if !tooBig {
				return &exitError{code: exitTrouble, err: fmt.Errorf("%w (--resume continues out of core only)", err)}
			}
			return tooLittle(b, pt, small.minimum, small.shards)
		}
	}
	if err != nil {
		return &exitError{code: exitTrouble, err: err}
	}
	if cfg.resume {
		if _, err := os.Stat(op.dir); err == nil {
			op.resume = true
		}
	}
	if err := checkShardDisk(op); err != nil {
		return &exitError{code: exitTrouble, err: fmt.Errorf("%s: %w", pt.file, err)}
	}
	pt.ooc, pt.memory, pt.notice = op, op.need, notice
	return nil
}

// outOfCoreWanted reports whether pt is to be planned out of core: the
// flags ask for it, or --max-memory is below its in-memory estimate
// (tooBig); not an exact table, not with --if-needed (those are built in
// memory or refused by checkMemory, as before). Its error is a refusal
// decided before any plan: an exact table with the out-of-core flags, or
// one too big for the memory available, with what out of core would
// take.
func outOfCoreWanted(cfg *buildConfig, b sysmem.Budget, pt *plannedTable, tooBig bool) (bool, error) {
	if !cfg.outOfCore() && (!b.FromFlag || !tooBig) {
		if tooBig && !pt.pattern.Exact && !cfg.ifNeeded {
			// Refused by checkMemory; say what out of core would take.
			if m, err := newOOCModel(pt.pattern); err == nil {
				minimum, shards := m.Minimum()
				return false, tooLittle(b, pt, minimum, shards)
			}
		}
		return false, nil
	}
	if pt.pattern.Exact {
		if cfg.outOfCore() {
			return false, usageErr("%s: %v (--shards, --shard-dir, --resume)", pt.file, errNoOutOfCore)
		}
		return false, nil // refused by checkMemory, as before
	}
	// With --if-needed: in memory, or refused by checkMemory, as before
	// (the out-of-core flags are refused by checkBuildConflicts).
	return !cfg.ifNeeded, nil
}

// tooLittle is the refusal of a table that fits the budget neither in
// memory nor out of core: the in-memory need, then the smallest
// --max-memory that builds it out of core and its shard count.
func tooLittle(b sysmem.Budget, pt *plannedTable, minimum uint64, shards int) error {
	err := b.Check(pt.file, pt.memory)
	if minimum < pt.memory {
		err = fmt.Errorf("%w; out of core it needs at least %s: --max-memory %s builds it so (%d shards)",
			err, sysmem.FormatSize(minimum), flagSize(minimum), shards)
	} else {
		err = fmt.Errorf("%w: --max-memory %s builds it in memory (out of core it needs more: at least %s, %d shards)",
			err, flagSize(pt.memory), sysmem.FormatSize(minimum), shards)
	}
	return &exitError{code: exitTrouble, err: err}
}

// checkResume refuses --resume when no table has a shard folder to
// continue (a wrong -o or --shard-dir, or a build that finished: starting
// afresh silently could cost hours and leave the folder meant behind),
// and gives the tables without one a notice that they start from level 0.
func (plan *buildPlan) checkResume(cfg *buildConfig) error {
	if !cfg.resume {
		return nil
	}
	var missing []*plannedTable
	found := false
	for i := range plan.tables {
		pt := &plan.tables[i]
		if pt.ooc == nil {
			continue
		}
		if pt.ooc.resume {
			found = true
		} else {
			missing = append(missing, pt)
		}
	}
	if !found {
		if len(missing) == 0 {
			return usageErr("--resume: nothing to resume (no table is built out of core)")
		}
		return usageErr("--resume: nothing to resume: no shard folder %s (run without --resume to start)", missing[0].ooc.dir)
	}
	for _, pt := range missing {
		// after the notice of the shard count, if any: both hold
		pt.notice = strings.TrimPrefix(pt.notice+"\n"+fmt.Sprintf("%s: no shard folder %s to resume: starting from level 0", pt.file, pt.ooc.dir), "\n")
	}
	return nil
}

// checkMemory refuses a table whose search needs more memory than the
// budget (trouble, exit 2).
func (plan *buildPlan) checkMemory(cfg *buildConfig, pt plannedTable) error {
	if err := plan.budget.Check(pt.file, pt.memory); err != nil {
		return &exitError{code: exitTrouble, err: err}
	}
	return nil
}

// checkTargets makes the output directory and checks, before any search
// starts, that every table file and the --write-manifest file can be
// written there (format.CheckWritable), so that a read-only directory or a
// bad manifest path fails at once rather than after minutes of search. The
// errors name the target, not a temporary file. With --if-needed the
// table files are checked only when one must be built (buildOne), so a
// read-only folder whose tables are all good is not an error.
func checkTargets(cfg *buildConfig, plan *buildPlan) error {
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return fmt.Errorf("output directory: %w (nothing built)", err)
	}
	targets := make([]string, 0, len(plan.tables)+1)
	if !cfg.ifNeeded {
		for _, pt := range plan.tables {
			targets = append(targets, filepath.Join(cfg.out, pt.file))
		}
	}
	if cfg.writeManifest != "" {
		targets = append(targets, cfg.writeManifest)
	}
	for _, path := range targets {
		if err := checkWritable(path); err != nil {
			return err
		}
	}
	return nil
}

// checkWritable is format.CheckWritable with an error naming path (a
// variable so that tests can stand in for a read-only folder, which root
// can write anyway).
var checkWritable = func(path string) error {
	if err := format.CheckWritable(path); err != nil {
		return fmt.Errorf("cannot write %s: %w (nothing built)", path, unwrapPath(err))
	}
	return nil
}

// freeOSMemoryAbove is the memory estimate above which the search's
// arrays are returned to the OS before encoding (about 64 MiB of arrays;
// smaller tables skip it, it costs about 30 ms each).
const freeOSMemoryAbove = 64<<20*5/4 + 32<<20

// buildTable runs the BFS for pt with progress output and encodes the
// result as a table of pt's kind (kindBuildOf); it returns the table and
// the time the BFS took.
func buildTable(ctx context.Context, e *env, cfg *buildConfig, pt plannedTable) (*format.Table, time.Duration, error) {
	start := time.Now()
	kb, err := kindBuildOf(pt)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", pt.file, err)
	}
	if !cfg.quiet {
		fmt.Fprintf(e.stderr, "building %s: %s, %s, about %s of memory\n",
			pt.file, pt.pattern, kb.what, sysmem.FormatSize(pt.memory))
	}
	prog := newProgress(e.stderr, pt.file, kb.entries, e.stderrIsTTY, cfg.quiet)
	values, err := kb.search(ctx, pt.pattern, builder.Options{Workers: cfg.workers, Progress: prog.event})
	prog.done()
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w (nothing written)", pt.file, err)
	}
	buildTime := time.Since(start)
	// The search's state array is garbage now; return it before the
	// encoder allocates, so the peak is the search, not search + file.
	if pt.memory > freeOSMemoryAbove {
		debug.FreeOSMemory()
	}
	t, err := kb.encode(values)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", pt.file, err)
	}
	t.Header.Major = uint16(cfg.fileFormat)
	return t, buildTime, nil
}

// kindBuild is how buildTable builds a table of one kind in memory.
type kindBuild struct {
	entries uint64 // the entries the search fills
	what    string // the building line's kind and size
	search  func(context.Context, *puzzle.Pattern, builder.Options) ([]uint8, error)
	encode  func(values []uint8) (*format.Table, error)
}

// kindBuildOf is the in-memory build of pt's kind: builder.Build and
// format.NewTable for an exact or additive table, builder.BuildZeroAware
// and format.NewZeroAwareTable over the pattern's blank regions for a
// zero-aware one.
func kindBuildOf(pt plannedTable) (kindBuild, error) {
	p := pt.pattern
	if pt.kind != format.KindZeroAware {
		return kindBuild{entries: p.Size(), what: fmt.Sprintf("%d entries", p.Size()), search: builder.Build,
			encode: func(v []uint8) (*format.Table, error) { return format.NewTable(p, v, generator) }}, nil
	}
	regions, err := puzzle.NewRegions(p)
	if err != nil {
		return kindBuild{}, err
	}
	return kindBuild{entries: regions.Size(), what: fmt.Sprintf("zero-aware, %d entries (%d placements)", regions.Size(), p.Size()),
		search: builder.BuildZeroAware,
		encode: func(v []uint8) (*format.Table, error) { return format.NewZeroAwareTable(regions, v, generator) }}, nil
}

// writeTable writes t atomically into the output directory and logs it.
func writeTable(e *env, cfg *buildConfig, pt plannedTable, t *format.Table, start time.Time, buildTime time.Duration) error {
	path := filepath.Join(cfg.out, pt.file)
	writers := cfg.workers
	if pt.writers > 0 {
		writers = pt.writers
	}
	if err := format.WriteFile(path, t, writers); err != nil {
		return err
	}
	if !cfg.quiet {
		var size int64
		if st, err := os.Stat(path); err == nil {
			size = st.Size()
		}
		fmt.Fprintf(e.stderr, "wrote %s: %d entries, max %d, %s on disk, built in %.2fs, total %.2fs\n",
			path, t.Header.Entries, t.Header.MaxValue, sysmem.FormatSize(uint64(size)), buildTime.Seconds(), time.Since(start).Seconds())
	}
	return nil
}

// writeSetFile writes the set file of ps (format.SetFile) into the output
// directory once all its tables are written (written lists them with their
// raw SHA-256), and prints its path on stdout; otherwise it writes nothing.
func writeSetFile(e *env, cfg *buildConfig, ps preset.Set, written []manifest.Entry) error {
	sha := map[string]string{}
	for _, me := range written {
		sha[me.Name] = me.RawSHA256
	}
	for _, t := range ps.Tables {
		if _, ok := sha[t.File]; !ok {
			fmt.Fprintf(e.stderr, "%s: not written, table %s is missing\n", ps.File, t.File)
			return nil
		}
	}
	sf, err := ps.SetFile(sha)
	if err != nil {
		return err
	}
	path := filepath.Join(cfg.out, ps.File)
	if err := format.WriteSetFile(path, sf); err != nil {
		return err
	}
	if !cfg.quiet {
		if ps.Catalogue {
			fmt.Fprintf(e.stderr, "wrote %s: a catalogue of %d partitions, %d parts through %d tables\n", path, len(ps.Partitions), ps.Parts(), len(ps.Tables))
		} else {
			fmt.Fprintf(e.stderr, "wrote %s: %d parts through %d tables\n", path, ps.Parts(), len(ps.Tables))
		}
	}
	fmt.Fprintln(e.stdout, path)
	return nil
}
