package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"

	"github.com/tilepdb/tilepdb/verify"
)

// runVerify checks each file with verify.File and prints its report (text,
// or one JSON object per file with --json); with --manifest it checks a
// folder against the manifest instead (verifyFolder). Exit 0 all good, 1
// when a file failed a check (or, with --manifest, a listed table is
// missing or different), 2 when one could not be checked.
func runVerify(e *env, args []string) error {
	fs := newFlags(e, "verify")
	deep := fs.Bool("deep", false, "also rebuild each table with the simple reference BFS and compare every entry")
	workers := fs.Int("j", runtime.NumCPU(), "worker goroutines")
	maxFind := fs.Int("max-findings", verify.DefaultMaxFindings, "findings printed per check (all are counted)")
	asJSON := fs.Bool("json", false, "print one JSON object per file (schema in README.md, 'JSON reports') instead of the text report")
	man := fs.String("manifest", "", "check the folder DIR against this manifest: every listed table present, with the listed identity, passing verify; unlisted tables reported")
	args, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *workers < 1 || *maxFind < 1 {
		return usageErr("-j and --max-findings must be at least 1")
	}
	opts := verify.Options{Deep: *deep, Workers: *workers, MaxFindingsPerCheck: *maxFind}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *man != "" {
		if len(args) != 1 {
			return usageErr("--manifest takes one data folder (usage: pdbgen verify --manifest FILE DIR)")
		}
		return verifyFolder(ctx, e, *man, args[0], opts, *asJSON)
	}
	files := args
	if len(files) == 0 {
		return usageErr("no table files given (usage: pdbgen verify [--deep] [--json] FILE... or pdbgen verify --manifest FILE DIR)")
	}
	bad, trouble := 0, 0
	for _, f := range files {
		rep, err := verify.File(ctx, f, opts)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "%s: %v\n", f, err)
			trouble++
			if *asJSON {
				if err := writeJSONLine(e.stdout, verify.ErrorJSON(f, err)); err != nil {
					return fmt.Errorf("writing output: %w", err)
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
			return fmt.Errorf("writing output: %w", err)
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
