package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/verify"
)

// verifyCmd is "pdbgen verify": its usage line, summary and help (the flags are
// defined where it parses them).
var verifyCmd = &command{name: "verify", usage: "[--deep] [--frames] [-j N] [--max-findings N] [--max-memory SIZE] [--json] FILE... | --manifest FILE DIR",
	short: "check table and set files, or a folder against its manifest (exit 0 all good, 1 bad data, 2 trouble)",
	help: `Checks each file's integrity (checksums, structure, histogram), the ranking
(a round trip over every entry) and rules every correct table satisfies
(goal 0, Manhattan bound and parity, a closer neighbour for every entry,
symmetry); --deep also rebuilds the table with a simple reference search
and compares every entry. One report per file on stdout; --json prints one
JSON object per file instead (docs/ci.md, "JSON reports"). A set file
(format/SPEC.md section 10) is checked as a whole: its tables' board, goal,
tiles and checksums, and that each part's symmetry maps its goal cells onto
its table's (--deep: each symmetric part is rebuilt and compared).

A table too large for the memory (--max-memory, or what is available) is
refused at once (exit 2), and so is a set file whose tables together do
not fit (pdbgen info checks it against its tables' headers without
loading them). --frames verifies an additive table frame by
frame instead: integrity, header, ranking, goal, unreached and Manhattan
on every entry, holding a few frames at a time; the rules that read
neighbouring entries anywhere in the table (descent, step, symmetry) are
skipped, and the report says so.

Progress: a status bar on a terminal; otherwise, for a check that takes
longer, a line on stderr every 10 s (pass, share done, rate, time left).

--manifest FILE DIR checks the folder DIR against the manifest: every
listed table present, with the listed identity, passing verify; table
files the manifest does not list are reported, not fatal.

Exit status: 0 all files good; 1 a file failed a check (with --manifest:
a listed table missing, different or corrupt, or a malformed manifest);
2 a file could not be checked (missing, unreadable, too large for the
memory; with --manifest: the manifest or the folder cannot be read); 130
on Ctrl-C and 143 on SIGTERM (reports of files already checked stand).`,
	run: runVerify}

// verifyConfig is verify's command line.
type verifyConfig struct {
	deep     bool
	frames   bool // verify frame by frame (verify.FileFrames)
	workers  int
	maxFind  int
	maxMem   string
	asJSON   bool
	manifest string
}

// parseVerifyFlags parses verify's command line: the flags and the files
// (with --manifest, the one data folder).
func parseVerifyFlags(e *env, args []string) (*verifyConfig, []string, error) {
	cfg := &verifyConfig{}
	fs := newFlags(e, "verify")
	fs.BoolVar(&cfg.deep, "deep", false, "also rebuild each table with the simple reference BFS and compare every entry")
	fs.BoolVar(&cfg.frames, "frames", false, "verify additive tables frame by frame in little memory: integrity and the rules on single entries, not those on neighbours (what verify proposes for a table too large for the memory)")
	fs.IntVar(&cfg.workers, "j", runtime.NumCPU(), "worker goroutines")
	fs.IntVar(&cfg.maxFind, "max-findings", verify.DefaultMaxFindings, "findings printed per check (all are counted)")
	fs.StringVar(&cfg.maxMem, "max-memory", "", maxMemoryHelp)
	fs.BoolVar(&cfg.asJSON, "json", false, "print one JSON object per file (schema in docs/ci.md, 'JSON reports') instead of the text report")
	fs.StringVar(&cfg.manifest, "manifest", "", "check the folder DIR against this manifest: every listed table present, with the listed identity, passing verify; unlisted tables reported")
	files, err := parseFlags(fs, args)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case cfg.manifest != "" && len(files) != 1:
		return nil, nil, usageErr("--manifest takes one data folder (usage: pdbgen verify --manifest FILE DIR)")
	case len(files) == 0:
		return nil, nil, usageErr("no table files given (usage: pdbgen verify [--deep] [--json] FILE... or pdbgen verify --manifest FILE DIR)")
	}
	if err := checkWorkers(cfg.workers); err != nil {
		return nil, nil, err
	}
	if cfg.maxFind < 1 {
		return nil, nil, usageErr("--max-findings must be at least 1")
	}
	return cfg, files, nil
}

// runVerify checks each file with verify.File (a set file with
// verify.SetFile) and prints its report (text,
// or one JSON object per file with --json); with --manifest it checks a
// folder against the manifest instead (verifyFolder). Exit 0 all good, 1
// when a file failed a check (with --manifest also: a listed table is
// missing, different or corrupt), 2 when one could not be checked.
func runVerify(e *env, args []string) error {
	cfg, files, err := parseVerifyFlags(e, args)
	if err != nil {
		return err
	}
	budget, err := memoryBudget(cfg.maxMem)
	if err != nil {
		return err
	}
	v := newTableVerifier(e, cfg, budget)
	defer v.status.stop()
	if cfg.manifest != "" {
		return verifyFolder(e, cfg.manifest, files[0], v.verify, cfg.asJSON)
	}
	bad, trouble := 0, 0
	for _, f := range files {
		isBad, isTrouble, err := v.report(f)
		if err != nil {
			return err // interrupted or a write error: the reports printed so far stand
		}
		if isBad {
			bad++
		}
		if isTrouble {
			trouble++
		}
	}
	switch {
	case trouble > 0:
		return &exitError{code: exitTrouble, err: fmt.Errorf("%d of %d file(s) could not be checked", trouble, len(files))}
	case bad > 0:
		return dataErr(fmt.Errorf("%d of %d file(s) failed verification", bad, len(files)))
	}
	return nil
}

// tableVerifier verifies table files one after the other, with a status
// line on a terminal (a bar follows each pass over the entries).
type tableVerifier struct {
	e      *env
	cfg    *verifyConfig
	budget sysmem.Budget
	opts   verify.Options
	status *liveStatus

	pass, current atomic.Pointer[string]
	done, total   atomic.Int64
	lines         *progressLines // set during a verification when stderr is not a terminal
}

func newTableVerifier(e *env, cfg *verifyConfig, budget sysmem.Budget) *tableVerifier {
	v := &tableVerifier{e: e, cfg: cfg, budget: budget}
	v.status = startStatus(e, func() (string, int64, int64) {
		f, p := v.current.Load(), v.pass.Load()
		if f == nil || p == nil {
			return "", 0, 0
		}
		return fmt.Sprintf("verifying %s: %s", *f, *p), v.done.Load(), v.total.Load()
	})
	v.opts = verify.Options{Deep: cfg.deep, Workers: cfg.workers, MaxFindingsPerCheck: cfg.maxFind,
		Progress: func(p string, d, t uint64) {
			if cur := v.pass.Load(); cur == nil || *cur != p {
				v.pass.Store(&p)
			}
			v.done.Store(int64(d))
			v.total.Store(int64(t))
			if l := v.lines; l != nil {
				l.report(p, d, t)
			}
		}}
	return v
}

// verify checks that the table file f fits in memory, then verifies it;
// with --frames it verifies an additive table frame by frame instead
// (verify.FileFrames), within the memory, with a progress line on stderr
// A verification that runs longer than progressEvery prints a line of
// progress that often when stderr is not a terminal (progressLines). A table that
// does not fit is refused at once (a scan of a table declaring tens of
// GiB takes an hour), naming --frames when that would fit. The error
// names f; it is trouble (or ctx's error when interrupted).
func (v *tableVerifier) verify(f string) (*verify.Report, error) {
	check, frames := verify.File, false
	memErr := checkVerifyMemory(v.budget, f, v.opts)
	var h *format.Header
	var need uint64
	fits := false
	if memErr != nil || v.cfg.frames {
		h, need, fits = v.framesPlan(f)
	}
	switch {
	case v.cfg.frames && h != nil && !fits:
		return nil, v.framesTooLarge(f, need)
	case v.cfg.frames && h == nil && memErr != nil:
		return nil, memErr
	case v.cfg.frames && h == nil:
		return nil, fmt.Errorf("%s: --frames verifies additive tables only, within the memory (not with --deep)", f)
	case v.cfg.frames:
		check, frames = verify.FileFrames, true
		fmt.Fprintf(v.e.stderr, "verifying %s frame by frame: %d entries in %d frames\n", f, h.Entries, len(h.Frames))
	case memErr != nil && fits:
		return nil, fmt.Errorf("%w; --frames checks its %d entries frame by frame in %s (the rules on single entries only)",
			memErr, h.Entries, sysmem.FormatSize(need))
	case memErr != nil:
		return nil, memErr
	}
	ctx := v.e.context()
	v.current.Store(&f)
	v.pass.Store(nil)
	v.lines = nil
	if !v.e.stderrIsTTY {
		v.lines = &progressLines{w: v.e.stderr, file: f, frames: frames, every: progressEvery, last: time.Now()}
	}
	rep, err := check(ctx, f, v.opts)
	v.lines = nil
	v.current.Store(nil)
	v.status.clear()
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, namingFile(f, err)
	}
	return rep, nil
}

// progressEvery is the interval between the progress lines of a
// verification when stderr is not a terminal (a variable for the tests).
var progressEvery = 10 * time.Second

// progressLines prints a verification's progress as lines (stderr not a
// terminal, where the status bar is not shown): at most one per interval,
// the first after one interval, each with the pass (frame by frame: the
// one pass), the share of its entries done, the rate and the time left at
// that rate. Options.Progress calls it from several goroutines.
type progressLines struct {
	mu              sync.Mutex
	w               io.Writer
	file            string
	frames          bool
	every           time.Duration
	pass            string
	passStart, last time.Time
}

func (p *progressLines) report(pass string, done, total uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if pass != p.pass {
		p.pass, p.passStart = pass, now
	}
	if done == 0 || done >= total || now.Sub(p.last) < p.every {
		return
	}
	p.last = now
	rate := float64(done) / max(now.Sub(p.passStart).Seconds(), 1e-9)
	left := time.Duration(float64(total-done) / max(rate, 1) * float64(time.Second)).Round(time.Second)
	what := p.file + " frame by frame"
	if !p.frames {
		what = p.file + ", " + pass + " pass"
	}
	fmt.Fprintf(p.w, "verifying %s: %.1f%% (%d of %d entries, %.1f M entries/s, about %v left)\n",
		what, 100*float64(done)/float64(total), done, total, rate/1e6, left)
}

// framesPlan says whether --frames can check f: its header when f is an
// additive table (not with --deep), else nil, and the memory the
// frame-by-frame check needs; fits when that is within the budget.
func (v *tableVerifier) framesPlan(f string) (h *format.Header, need uint64, fits bool) {
	if v.opts.Deep {
		return nil, 0, false
	}
	h, _, err := format.InspectHeaderFile(f)
	if err != nil || h.Kind != format.KindAdditive {
		return nil, 0, false
	}
	need = sysmem.SatAdd(runtimeBase, verify.FramesMemory(h, v.opts))
	return h, need, !v.budget.Known || need <= v.budget.Limit
}

// framesTooLarge is the refusal of --frames for an additive table whose
// frame-by-frame check (need bytes) does not fit the budget either.
func (v *tableVerifier) framesTooLarge(f string, need uint64) error {
	limit := sysmem.FormatSize(v.budget.Limit) + " available (--max-memory overrides)"
	if v.budget.FromFlag {
		limit = "more than --max-memory " + sysmem.FormatSize(v.budget.Limit)
	}
	return fmt.Errorf("%s: --frames needs %s of memory, %s", f, sysmem.FormatSize(need), limit)
}

// namingFile returns err with f's name in front, unless it starts with it
// already (a set file's problems, a file that is not regular).
func namingFile(f string, err error) error {
	if strings.HasPrefix(err.Error(), f+": ") {
		return err
	}
	return fmt.Errorf("%s: %w", f, err)
}

// report verifies the table or set file f and prints its report: bad when
// it failed a check, trouble when it could not be checked (said on
// stderr). The error stops the command: an interruption or a write error.
func (v *tableVerifier) report(f string) (bad, trouble bool, err error) {
	e, ctx := v.e, v.e.context()
	if isSet, err := format.IsSetFile(f); err == nil && isSet {
		if err := v.setFits(f); err != nil {
			fmt.Fprintf(e.stderr, "%v\n", err)
			if v.cfg.asJSON {
				if err := writeJSONLine(e.stdout, setReportJSON{File: f, Set: true, Error: err.Error()}); err != nil {
					return false, true, err
				}
			}
			return false, true, nil
		}
		switch err := verifySet(ctx, e, f, v.cfg.deep, v.cfg.asJSON); {
		case err != nil && ctx.Err() != nil:
			return false, false, err
		case format.IsBadData(err):
			return true, false, nil
		case err != nil:
			fmt.Fprintf(e.stderr, "%v\n", namingFile(f, err))
			return false, true, nil
		}
		return false, false, nil
	}
	rep, err := v.verify(f)
	if err != nil {
		if ctx.Err() != nil {
			return false, false, err
		}
		fmt.Fprintf(e.stderr, "%v\n", err)
		if v.cfg.asJSON {
			if err := writeJSONLine(e.stdout, verify.ErrorJSON(f, err)); err != nil {
				return false, true, err
			}
		}
		return false, true, nil
	}
	if v.cfg.asJSON {
		err = writeJSONLine(e.stdout, rep.JSON())
	} else {
		err = rep.WriteText(e.stdout)
	}
	return !rep.OK(), false, err
}

// setFits refuses at once the set file f when loading its tables together
// (format.PlanSet(f).Memory, plus runtimeBase) needs more memory than the
// budget, as verify refuses a table too large (a set file naming a table
// that declares tens of GiB would otherwise be loaded whole). The set's
// own checks against its tables' headers need no table loaded: the
// refusal names pdbgen info, which makes them. A set file that does not
// parse counts 0 and is left for the check to report.
func (v *tableVerifier) setFits(f string) error {
	if !v.budget.Known {
		return nil
	}
	pl := format.PlanSet(f)
	if err := v.budget.Check(f, sysmem.SatAdd(runtimeBase, pl.Memory())); err != nil {
		return fmt.Errorf("%w to load its tables; pdbgen info %s checks the set file against its tables' headers without loading them", err, f)
	}
	return nil
}

// setReportJSON is the --json report of a set file.
type setReportJSON struct {
	File       string   `json:"file"`
	Set        bool     `json:"set"`
	OK         bool     `json:"ok"`
	Partitions int      `json:"partitions,omitempty"` // a catalogue (SPEC.md section 12): its partitions
	Parts      int      `json:"parts,omitempty"`      // the parts of the set file (of all partitions of a catalogue)
	Tables     int      `json:"tables,omitempty"`
	Error      string   `json:"error,omitempty"`    // why the set file could not be checked (exit 2), as in a table's report
	Problems   []string `json:"problems,omitempty"` // every problem, in reading order
}

// checkSetFile is verify.SetFile (a variable so that a test can make the
// check slow).
var checkSetFile = verify.SetFile

// verifySet checks a set file with verify.SetFile and prints its report
// (text, or one JSON object): every problem, then their count. A set with
// problems is bad data, unless one of them is trouble (a table file that
// cannot be read), which is returned; either way the report is printed.
func verifySet(ctx context.Context, e *env, path string, deep, asJSON bool) error {
	// The set's tables load whole (seconds for big ones): Ctrl-C or
	// SIGTERM ends the wait at once, abandoning the check to the exiting
	// process.
	type checked struct {
		s     *format.Set
		probs []error
	}
	check := checkSetFile // read here: the check may outlive the command
	c, err := untilDone(ctx, func() (checked, error) {
		s, probs, err := check(ctx, path, verify.Options{Deep: deep})
		return checked{s, probs}, err
	})
	if err != nil {
		return err
	}
	s, probs := c.s, c.probs
	var ret error
	for _, p := range probs {
		if !format.IsBadData(p) {
			ret = p
			break
		}
	}
	if ret == nil && len(probs) > 0 {
		ret = probs[0]
	}
	if asJSON {
		r := setReportJSON{File: path, Set: true, OK: len(probs) == 0}
		if len(probs) > 0 {
			if !format.IsBadData(ret) {
				r.Error = ret.Error() // could not be checked: exit 2
			}
			for _, p := range probs {
				r.Problems = append(r.Problems, p.Error())
			}
		} else {
			r.Partitions, r.Parts, r.Tables = len(s.Partitions), fileParts(s), len(s.Tables)
		}
		if werr := writeJSONLine(e.stdout, r); werr != nil {
			return werr
		}
		return ret
	}
	if len(probs) > 0 {
		fmt.Fprintf(e.stdout, "%s: set file\n", path)
		for _, p := range probs {
			fmt.Fprintf(e.stdout, "  %v\n", p)
		}
		fmt.Fprintf(e.stdout, "%d findings\n", len(probs))
		return ret
	}
	if s.Catalogue() {
		fmt.Fprintf(e.stdout, "%s: set file, catalogue, %s board, %d partitions of %d parts (%d distinct) through %d tables\n", path, s.Geom, len(s.Partitions), fileParts(s), len(s.Parts), len(s.Tables))
		for i, idx := range s.Partitions {
			for j, k := range idx {
				p := s.Parts[k]
				fmt.Fprintf(e.stdout, "  partition %d part %d: tiles %s through %s of table %s\n", i+1, j+1, tileList(p.Pattern.Tiles), p.Sym, tileList(p.Table.Pattern.Tiles))
			}
		}
	} else {
		fmt.Fprintf(e.stdout, "%s: set file, %s board, %d parts through %d tables\n", path, s.Geom, len(s.Parts), len(s.Tables))
		for i, p := range s.Parts {
			fmt.Fprintf(e.stdout, "  part %d: tiles %s through %s of table %s\n", i+1, tileList(p.Pattern.Tiles), p.Sym, tileList(p.Table.Pattern.Tiles))
		}
	}
	what := "set"
	if deep {
		what = "set, deep"
	}
	fmt.Fprintf(e.stdout, "%s\n0 findings\n", verify.CheckedLine(what, "ok", ""))
	return nil
}

// fileParts is the number of parts s's set file lists: len(s.Parts), or
// for a catalogue the sum over its partitions (a part used by several
// partitions counts in each).
func fileParts(s *format.Set) int {
	if !s.Catalogue() {
		return len(s.Parts)
	}
	n := 0
	for _, idx := range s.Partitions {
		n += len(idx)
	}
	return n
}
