package main

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/verify"
)

// runVerify checks each file with verify.File (a set file with
// verify.SetFile) and prints its report (text,
// or one JSON object per file with --json); with --manifest it checks a
// folder against the manifest instead (verifyFolder). Exit 0 all good, 1
// when a file failed a check (with --manifest also: a listed table is
// missing, different or corrupt), 2 when one could not be checked.
func runVerify(e *env, args []string) error {
	fs := newFlags(e, "verify")
	deep := fs.Bool("deep", false, "also rebuild each table with the simple reference BFS and compare every entry")
	workers := fs.Int("j", runtime.NumCPU(), "worker goroutines")
	maxFind := fs.Int("max-findings", verify.DefaultMaxFindings, "findings printed per check (all are counted)")
	maxMem := fs.String("max-memory", "", maxMemoryHelp)
	asJSON := fs.Bool("json", false, "print one JSON object per file (schema in README.md, 'JSON reports') instead of the text report")
	man := fs.String("manifest", "", "check the folder DIR against this manifest: every listed table present, with the listed identity, passing verify; unlisted tables reported")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case *man != "" && len(files) != 1:
		return usageErr("--manifest takes one data folder (usage: pdbgen verify --manifest FILE DIR)")
	case len(files) == 0:
		return usageErr("no table files given (usage: pdbgen verify [--deep] [--json] FILE... or pdbgen verify --manifest FILE DIR)")
	}
	if err := checkWorkers(*workers); err != nil {
		return err
	}
	if *maxFind < 1 {
		return usageErr("--max-findings must be at least 1")
	}
	budget, err := memoryBudget(*maxMem)
	if err != nil {
		return err
	}
	ctx := e.context()
	// On a terminal, a bar follows each pass over the entries.
	var pass atomic.Pointer[string]
	var done, total atomic.Int64
	var current atomic.Pointer[string]
	status := startStatus(e, func() (string, int64, int64) {
		f, p := current.Load(), pass.Load()
		if f == nil || p == nil {
			return "", 0, 0
		}
		return fmt.Sprintf("verifying %s: %s", *f, *p), done.Load(), total.Load()
	})
	defer status.stop()
	opts := verify.Options{Deep: *deep, Workers: *workers, MaxFindingsPerCheck: *maxFind,
		Progress: func(p string, d, t uint64) {
			if cur := pass.Load(); cur == nil || *cur != p {
				pass.Store(&p)
			}
			done.Store(int64(d))
			total.Store(int64(t))
		}}
	// verifyOne checks that f fits in memory, then verifies it. The error
	// names f; it is trouble (or ctx's error when interrupted).
	verifyOne := func(f string) (*verify.Report, error) {
		if err := checkVerifyMemory(budget, f, opts); err != nil {
			return nil, err
		}
		current.Store(&f)
		pass.Store(nil)
		rep, err := verify.File(ctx, f, opts)
		current.Store(nil)
		status.clear()
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		return rep, nil
	}
	if *man != "" {
		return verifyFolder(e, *man, files[0], verifyOne, *asJSON)
	}
	bad, trouble := 0, 0
	for _, f := range files {
		if isSet, err := format.IsSetFile(f); err == nil && isSet {
			switch err := verifySet(ctx, e, f, *deep, *asJSON); {
			case err != nil && ctx.Err() != nil:
				return err // interrupted: the reports printed so far stand
			case format.IsBadData(err):
				bad++
			case err != nil:
				fmt.Fprintf(e.stderr, "%s: %v\n", f, err)
				trouble++
			}
			continue
		}
		rep, err := verifyOne(f)
		if err != nil {
			if ctx.Err() != nil {
				return err // interrupted: the reports printed so far stand
			}
			fmt.Fprintf(e.stderr, "%v\n", err)
			trouble++
			if *asJSON {
				if err := writeJSONLine(e.stdout, verify.ErrorJSON(f, err)); err != nil {
					return err
				}
			}
			continue
		}
		if *asJSON {
			err = writeJSONLine(e.stdout, rep.JSON())
		} else {
			err = rep.WriteText(e.stdout)
		}
		if err != nil {
			return err
		}
		if !rep.OK() {
			bad++
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

// setReportJSON is the --json report of a set file.
type setReportJSON struct {
	File     string   `json:"file"`
	Set      bool     `json:"set"`
	OK       bool     `json:"ok"`
	Parts    int      `json:"parts,omitempty"`
	Tables   int      `json:"tables,omitempty"`
	Error    string   `json:"error,omitempty"`    // the first problem
	Problems []string `json:"problems,omitempty"` // every problem, in reading order
}

// verifySet checks a set file with verify.SetFile and prints its report
// (text, or one JSON object): every problem, then their count. A set with
// problems is bad data, unless one of them is trouble (a table file that
// cannot be read), which is returned; either way the report is printed.
func verifySet(ctx context.Context, e *env, path string, deep, asJSON bool) error {
	s, probs, err := verify.SetFile(ctx, path, verify.Options{Deep: deep})
	if err != nil {
		return err
	}
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
			r.Error = probs[0].Error()
			for _, p := range probs {
				r.Problems = append(r.Problems, p.Error())
			}
		} else {
			r.Parts, r.Tables = len(s.Parts), len(s.Tables)
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
	fmt.Fprintf(e.stdout, "%s: set file, %s board, %d parts through %d tables\n", path, s.Geom, len(s.Parts), len(s.Tables))
	for i, p := range s.Parts {
		fmt.Fprintf(e.stdout, "  part %d: tiles %s through %s of table %s\n", i+1, tileList(p.Pattern.Tiles), p.Sym, tileList(p.Table.Pattern.Tiles))
	}
	what := "set"
	if deep {
		what = "set, deep"
	}
	fmt.Fprintf(e.stdout, "  checked %-9s %-16s\n0 findings\n", what, "ok")
	return nil
}

func tileList(ts []uint8) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = strconv.Itoa(int(t))
	}
	return strings.Join(s, ",")
}
