package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"

	"github.com/tilepdb/tilepdb/verify"
)

// runVerify checks each file with verify.File and prints its report; exit
// 0 all good, 1 when a file failed a check, 2 when one could not be
// checked.
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
