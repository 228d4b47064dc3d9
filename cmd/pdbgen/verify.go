package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"

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
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageErr("no table files given (usage: pdbgen verify [--deep] FILE...)")
	}
	if *workers < 1 || *maxFind < 1 {
		return usageErr("-j and --max-findings must be at least 1")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bad, trouble := 0, 0
	for _, f := range files {
		if isSet, err := format.IsSetFile(f); err == nil && isSet {
			switch err := verifySet(ctx, e, f, *deep); {
			case format.IsBadData(err):
				fmt.Fprintf(e.stdout, "%s: set file\n  %v\n1 findings\n", f, err)
				bad++
			case err != nil:
				fmt.Fprintf(e.stderr, "%s: %v\n", f, err)
				trouble++
			}
			continue
		}
		rep, err := verify.File(ctx, f, verify.Options{Deep: *deep, Workers: *workers, MaxFindingsPerCheck: *maxFind})
		if err != nil {
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
