package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/internal/sysmem"
)

// TestBuildOutOfCore: build --shards writes the same file as the
// in-memory build and removes its shard folder; --shard-stats gets one
// JSON line per shard Step.
func TestBuildOutOfCore(t *testing.T) {
	dir := t.TempDir()
	mem, ooc, shards := filepath.Join(dir, "mem"), filepath.Join(dir, "ooc"), filepath.Join(dir, "shards")
	const file = "4x4_1-2-3-4.pdb"
	wantCode(t, pdbgen(t, "", "build", "--quiet", "--board", "4x4", "--tiles", "1-4", "-o", mem), 0)
	stats := filepath.Join(dir, "stats.jsonl")
	r := pdbgen(t, "", "build", "--board", "4x4", "--tiles", "1-4", "-o", ooc, "--shards", "3", "--shard-dir", shards, "--shard-stats", stats, "-j", "2")
	wantCode(t, r, 0)
	if !bytes.Equal(readBytes(t, filepath.Join(mem, file)), readBytes(t, filepath.Join(ooc, file))) {
		t.Fatal("out-of-core file differs from the in-memory one")
	}
	for _, want := range []string{"out of core", "3 shards", "level 3 done", "wrote "} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if got := dirEntries(t, shards); len(got) != 0 {
		t.Errorf("shard folder left: %v", got)
	}
	b, err := os.ReadFile(stats)
	if err != nil || !strings.Contains(string(b), `"frontier":`) || len(lines(string(b))) < 10 {
		t.Errorf("--shard-stats: %v\n%s", err, b)
	}
}

// TestBuildOutOfCoreRefusals: a used shard folder without --resume, a
// folder of another table with --resume, and an exact table out of core
// are refused with one line.
func TestBuildOutOfCoreRefusals(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "3x3_1-2-3.pdb.shards")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, "PLAN"), []byte("tilepdb shard kernel 1: another table\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := pdbgen(t, "", "build", "--quiet", "--board", "3x3", "--tiles", "1,2,3", "-o", dir, "--shards", "2")
	wantCode(t, r, exitTrouble)
	oneErrorLine(t, r, "build", "--resume")
	r = pdbgen(t, "", "build", "--quiet", "--board", "3x3", "--tiles", "1,2,3", "-o", dir, "--shards", "2", "--resume")
	wantCode(t, r, exitTrouble)
	oneErrorLine(t, r, "build", "cannot resume: shard folder")
	if _, err := os.Stat(filepath.Join(dir, "3x3_1-2-3.pdb")); !os.IsNotExist(err) {
		t.Errorf("a table was written: %v", err)
	}
	r = pdbgen(t, "", "build", "--quiet", "--preset", "8puzzle", "-o", dir, "--shards", "2")
	wantCode(t, r, exitTrouble)
	oneErrorLine(t, r, "build", "exact tables are built in memory only")
}

// TestVerifyFrames: verify --frames checks an additive table frame by
// frame (exit 0, the neighbour rules skipped with the reason) and refuses
// an exact table with one line.
func TestVerifyFrames(t *testing.T) {
	dir := t.TempDir()
	wantCode(t, pdbgen(t, "", "build", "--quiet", "--board", "4x4", "--tiles", "1-3", "--preset", "", "-o", dir), 0)
	r := pdbgen(t, "", "verify", "--frames", filepath.Join(dir, "4x4_1-2-3.pdb"))
	wantCode(t, r, 0)
	checkedAligned(t, r.stdout)
	if !strings.Contains(r.stdout, "skipped step: verified frame by frame") || !strings.Contains(r.stdout, "checked manhattan  ok") {
		t.Errorf("report:\n%s", r.stdout)
	}
	wantCode(t, pdbgen(t, "", "build", "--quiet", "--preset", "8puzzle", "-o", dir), 0)
	r = pdbgen(t, "", "verify", "--frames", filepath.Join(dir, "8puzzle.pdb"))
	wantCode(t, r, exitTrouble)
}

// TestBuildSmallBudget: --shards or --max-memory on a table that fits in
// memory but not in the budget's out-of-core minimum (the zstd encoder
// alone takes about 50 MiB) builds it in memory, saying so in one line,
// instead of refusing it; the file is the in-memory build's.
func TestBuildSmallBudget(t *testing.T) {
	dir := t.TempDir()
	mem, small := filepath.Join(dir, "mem"), filepath.Join(dir, "small")
	const file = "4x4_1-2-3-4-5.pdb"
	wantCode(t, pdbgen(t, "", "build", "--quiet", "--board", "4x4", "--tiles", "1-5", "-o", mem), 0)
	r := pdbgen(t, "", "build", "--quiet", "--board", "4x4", "--tiles", "1-5", "-o", small, "--max-memory", "64M", "--shards", "4")
	wantCode(t, r, 0)
	if got := lines(r.stderr); len(got) != 1 || !strings.Contains(got[0], "building it in memory") {
		t.Errorf("stderr: want one line saying it builds in memory\n%v", r)
	}
	if !bytes.Equal(readBytes(t, filepath.Join(mem, file)), readBytes(t, filepath.Join(small, file))) {
		t.Fatal("file differs from the in-memory one")
	}
	if got := dirEntries(t, small); len(got) != 1 {
		t.Errorf("output folder: %v", got)
	}
	// It is written with one zstd encoder (about 50 MiB), not -j 2's
	// two; with room for more, -j of them.
	for _, c := range []struct {
		maxMemory string
		writers   int
	}{{"64M", 1}, {"1G", 2}} {
		cfg, err := parseBuildFlags(&env{stderr: io.Discard}, []string{"--board", "4x4", "--tiles", "1-5", "-j", "2", "--max-memory", c.maxMemory})
		if err != nil {
			t.Fatal(err)
		}
		p, err := planBuild(cfg)
		if err != nil || p.tables[0].ooc != nil || p.tables[0].writers != c.writers {
			t.Errorf("--max-memory %s: %v, %+v; want %d writers in memory", c.maxMemory, err, p.tables[0], c.writers)
		}
	}
}

// sizeFlag is the first "--max-memory SIZE" in s.
var sizeFlag = regexp.MustCompile(`--max-memory ([0-9.]+[MG])\b`)

// TestBuildOutOfCoreMinimum: a table too large for the memory and for the
// budget out of core is refused with one line naming the smallest
// --max-memory that builds it out of core and its shard count; that
// budget plans an out-of-core build and 1 MiB less is refused. A forced
// --shards that does not fit is raised, with a notice.
func TestBuildOutOfCoreMinimum(t *testing.T) {
	dir := t.TempDir()
	args := []string{"build", "--board", "4x4", "--tiles", "1-7", "-o", dir, "-j", "1"}
	r := pdbgen(t, "", append(args, "--max-memory", "40M")...)
	wantCode(t, r, exitTrouble)
	oneErrorLine(t, r, "build", "4x4_1-2-3-4-5-6-7.pdb needs ")
	m := sizeFlag.FindAllStringSubmatch(r.stderr, -1)
	if len(m) != 1 || !regexp.MustCompile(`; out of core it needs at least [0-9.]+ MiB: --max-memory \d+M builds it so \(\d+ shards\)$`).MatchString(strings.TrimSpace(r.stderr)) {
		t.Fatalf("the refusal does not give the --max-memory and shards that work:\n%v", r)
	}
	minimum, err := sysmem.ParseSize(m[0][1])
	if err != nil {
		t.Fatal(err)
	}
	plan := func(maxMemory string, shards int) (*buildPlan, error) {
		flags := append(args[1:], "--max-memory", maxMemory)
		if shards > 0 { // 0: the chosen count (--shards 0 is refused)
			flags = append(flags, "--shards", strconv.Itoa(shards))
		}
		cfg, err := parseBuildFlags(&env{stderr: io.Discard}, flags)
		if err != nil {
			t.Fatal(err)
		}
		return planBuild(cfg)
	}
	p, err := plan(m[0][1], 0)
	if err != nil || p.tables[0].ooc == nil || p.tables[0].ooc.need > minimum {
		t.Fatalf("--max-memory %s: %v %+v", m[0][1], err, p)
	}
	if _, err := plan(strconv.FormatUint(minimum-1<<20, 10), 0); err == nil {
		t.Errorf("1 MiB below the minimum %s is not refused", m[0][1])
	}
	// --shards 1 within the minimum: raised to the count that fits.
	p, err = plan(m[0][1], 1)
	if err != nil || p.tables[0].ooc.shards < 2 || !strings.Contains(p.tables[0].notice, "--shards 1 does not fit") {
		t.Errorf("--shards 1: %v %+v", err, p.tables[0])
	}
}

// TestBuildResumeNothing: --resume without a shard folder is refused with
// one line (a wrong -o or --shard-dir would otherwise start a long build
// afresh), and nothing is written.
func TestBuildResumeNothing(t *testing.T) {
	dir := t.TempDir()
	r := pdbgen(t, "", "build", "--quiet", "--board", "3x3", "--tiles", "1,2,3", "-o", dir, "--resume")
	wantCode(t, r, exitTrouble)
	oneErrorLine(t, r, "build", "nothing to resume: no shard folder "+filepath.Join(dir, "3x3_1-2-3.pdb.shards"))
	if got := dirEntries(t, dir); len(got) != 0 {
		t.Errorf("written: %v", got)
	}
}

// TestBuildOutOfCoreDisk: the out-of-core build states its shard folder's
// disk need, and refuses up front with one line when the file system has
// clearly less free.
func TestBuildOutOfCoreDisk(t *testing.T) {
	dir := t.TempDir()
	args := []string{"build", "--board", "4x4", "--tiles", "1-5", "-o", dir, "--shards", "2", "-j", "1"}
	r := pdbgen(t, "", args...)
	wantCode(t, r, 0)
	if !regexp.MustCompile(`in \S+\.shards \(about [0-9.]+ [KMG]iB of disk at the peak\)`).MatchString(r.stderr) {
		t.Errorf("the disk need is not stated:\n%v", r)
	}
	old := freeDisk
	t.Cleanup(func() { freeDisk = old })
	freeDisk = func(string) (uint64, bool) { return 100 << 10, true }
	os.Remove(filepath.Join(dir, "4x4_1-2-3-4-5.pdb"))
	r = pdbgen(t, "", args...)
	wantCode(t, r, exitTrouble)
	oneErrorLine(t, r, "build", "of disk at its peak, its file system has 100.0 KiB free")
	if got := dirEntries(t, dir); len(got) != 0 {
		t.Errorf("written: %v", got)
	}
}

// TestCollectorFor: an out-of-core table under --max-memory runs with the
// memory limit and the collector off until it; the table after it gets
// the collector back (with it off, an in-memory table built next went
// over the budget); a table in memory is left alone.
func TestCollectorFor(t *testing.T) {
	budget := sysmem.Budget{Limit: 256 << 20, Known: true, FromFlag: true}
	plan := &buildPlan{budget: budget}
	gc0, lim0 := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	defer func() { debug.SetGCPercent(gc0); debug.SetMemoryLimit(lim0) }()
	restore := collectorFor(plan, plannedTable{ooc: &oocPlan{}})
	if gc, lim := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1); gc != -1 || lim != builder.MemoryLimitFor(budget.Limit) {
		t.Errorf("out of core: GC percent %d, memory limit %d", gc, lim)
	}
	restore()
	if gc, lim := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); gc != 100 || lim != math.MaxInt64 {
		t.Errorf("after: GC percent %d, memory limit %d", gc, lim)
	}
	collectorFor(plan, plannedTable{})()
	if gc := debug.SetGCPercent(100); gc != 100 {
		t.Errorf("in memory: GC percent %d", gc)
	}
}

// TestBuildShardsClamped: --shards beyond the table's blocks is lowered to
// one block per shard with a notice (a fresh-user trial's --shards 1048576
// on a 3x3 table wrote 700,000 files and ran for minutes), and the build
// equals the in-memory one.
func TestBuildShardsClamped(t *testing.T) {
	cfg, err := parseBuildFlags(&env{stderr: io.Discard}, []string{"--board", "3x3", "--tiles", "1-3", "--shards", "1048576"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := planBuild(cfg)
	if err != nil {
		t.Fatal(err)
	}
	op := p.tables[0].ooc
	if op == nil || op.shards >= 1048576 || op.shards < 1 || !strings.Contains(p.tables[0].notice, "blocks: using") {
		t.Fatalf("plan %+v, notice %q; want fewer shards and a notice", op, p.tables[0].notice)
	}
	dir := t.TempDir()
	mem, ooc := filepath.Join(dir, "mem"), filepath.Join(dir, "ooc")
	const file = "3x3_1-2-3.pdb"
	wantCode(t, pdbgen(t, "", "build", "--quiet", "--board", "3x3", "--tiles", "1-3", "-o", mem), 0)
	wantCode(t, pdbgen(t, "", "build", "--quiet", "--board", "3x3", "--tiles", "1-3", "-o", ooc, "--shards", "1048576"), 0)
	if !bytes.Equal(readBytes(t, filepath.Join(mem, file)), readBytes(t, filepath.Join(ooc, file))) {
		t.Fatal("out-of-core file differs from the in-memory one")
	}
}

// TestBuildShardsNotice: --shards lowered for a tiny table is said on
// stderr in one line, --quiet or not, and is no error (exit 0); a count
// the table's blocks need is kept without a word. Under --resume, the
// notice that a table without a shard folder starts from level 0 comes
// after that line instead of replacing it (the lowering went unsaid).
func TestBuildShardsNotice(t *testing.T) {
	for _, tc := range []struct {
		tiles, shards string
		quiet         bool
		want          string // the notice line ("": none)
	}{
		{"1", "64", true, "3x3_1.pdb: --shards 64 is more than the table's 1 block: using 1 shard"},
		{"1", "2", false, "3x3_1.pdb: --shards 2 is more than the table's 1 block: using 1 shard"},
		{"1-3", "64", true, "3x3_1-2-3.pdb: --shards 64 is more than the table's 6 blocks: using 8 shards"},
		{"1-3", "8", true, ""}, // 6 blocks: 8 is the power of two that holds them
		{"1-3", "2", true, ""},
	} {
		args := []string{"build", "--board", "3x3", "--tiles", tc.tiles, "--shards", tc.shards, "-o", t.TempDir()}
		if tc.quiet {
			args = append(args, "--quiet")
		}
		r := pdbgen(t, "", args...)
		wantCode(t, r, 0)
		var notices []string
		for _, l := range lines(r.stderr) {
			if strings.Contains(l, "--shards") {
				notices = append(notices, l)
			}
		}
		switch {
		case tc.want == "" && len(notices) != 0,
			tc.want != "" && (len(notices) != 1 || notices[0] != tc.want),
			tc.quiet && len(notices) != len(lines(r.stderr)):
			t.Errorf("%v: want the notice %q only:\n%v", args, tc.want, r)
		}
	}

	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "3x3_1-2.pdb.shards"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, err := parseBuildFlags(&env{stderr: io.Discard}, []string{"--board", "3x3", "--tiles", "1,2", "--tiles", "3,4", "-o", dir, "--shards", "64", "--resume"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := planBuild(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := "3x3_3-4.pdb: --shards 64 is more than the table's 2 blocks: using 2 shards\n3x3_3-4.pdb: no shard folder " +
		filepath.Join(dir, "3x3_3-4.pdb.shards") + " to resume: starting from level 0"
	if got := p.tables[1].notice; got != want {
		t.Errorf("--resume, no shard folder: notice\n%s\nwant\n%s", got, want)
	}
}

// TestBuildResumeCorruptShardData: a shard folder whose files were damaged
// after an interrupted build is bad data (exit 1, one line naming the
// shard data), and no table is written.
func TestBuildResumeCorruptShardData(t *testing.T) {
	dir := t.TempDir()
	p := pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3, 4)
	folder := filepath.Join(dir, "4x4_1-2-3-4.pdb.shards")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := builder.OutOfCoreOptions{Dir: folder, Shards: 2, Workers: 1, Progress: func(e builder.OutOfCoreEvent) {
		if e.Level == 6 {
			cancel()
		}
	}}
	if _, err := builder.BuildOutOfCore(ctx, p, opt); !errors.Is(err, builder.ErrCanceled) {
		t.Fatalf("interrupted build: %v", err)
	}
	damaged := 0
	err := filepath.WalkDir(folder, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "PLAN" || d.Name() == "COMPLETE" {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil || len(b) < 40 {
			return err
		}
		b[len(b)/2] ^= 0x55
		damaged++
		return os.WriteFile(path, b, 0o644)
	})
	if err != nil || damaged == 0 {
		t.Fatalf("damaging the shard files: %v (%d damaged)", err, damaged)
	}
	r := pdbgen(t, "", "build", "--quiet", "--board", "4x4", "--tiles", "1-4", "-o", dir, "--shards", "2", "--resume")
	wantCode(t, r, exitBadData)
	oneErrorLine(t, r, "build", "bad shard data")
	if _, err := os.Stat(filepath.Join(dir, "4x4_1-2-3-4.pdb")); !os.IsNotExist(err) {
		t.Errorf("a table was written: %v", err)
	}
}
