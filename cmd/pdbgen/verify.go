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
// verify.SetFile) and prints its report; exit 0 all good, 1 when a file
// failed a check, 2 when one could not be checked.
func runVerify(e *env, args []string) error {
	fs := newFlags(e, "verify")
	deep := fs.Bool("deep", false, "also rebuild each table with the simple reference BFS and compare every entry")
	workers := fs.Int("j", runtime.NumCPU(), "worker goroutines")
	maxFind := fs.Int("max-findings", verify.DefaultMaxFindings, "findings printed per check (all are counted)")
	maxMem := fs.String("max-memory", "", maxMemoryHelp)
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageErr("no table files given (usage: pdbgen verify [--deep] FILE...)")
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
	bad, trouble := 0, 0
	for _, f := range files {
		if isSet, err := format.IsSetFile(f); err == nil && isSet {
			switch err := verifySet(ctx, e, f, *deep); {
			case err != nil && ctx.Err() != nil:
				return err // interrupted: the reports printed so far stand
			case format.IsBadData(err):
				fmt.Fprintf(e.stdout, "%s: set file\n  %v\n1 findings\n", f, err)
				bad++
			case err != nil:
				fmt.Fprintf(e.stderr, "%s: %v\n", f, err)
				trouble++
			}
			continue
		}
		if err := checkVerifyMemory(budget, f, opts); err != nil {
			fmt.Fprintf(e.stderr, "%v\n", err)
			trouble++
			continue
		}
		current.Store(&f)
		pass.Store(nil)
		rep, err := verify.File(ctx, f, opts)
		current.Store(nil)
		status.clear()
		if err != nil {
			if ctx.Err() != nil {
				return err // interrupted: the reports printed so far stand
			}
			fmt.Fprintf(e.stderr, "%s: %v\n", f, err)
			trouble++
			continue
		}
		if err := rep.WriteText(e.stdout); err != nil {
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

// verifySet checks a set file and prints its one-paragraph report when it
// holds together; the error is the set's problem (bad data) or trouble.
func verifySet(ctx context.Context, e *env, path string, deep bool) error {
	s, err := verify.SetFile(ctx, path, verify.Options{Deep: deep})
	if err != nil {
		return err
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
