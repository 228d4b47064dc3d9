package main

import (
	"fmt"
	"path/filepath"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/verify"
)

// maxMemoryHelp is the help of every --max-memory flag.
const maxMemoryHelp = "refuse work needing more than this much memory, e.g. 512M, 4G, 1.5GiB (powers of 1024, at least 1M); default: the memory available (Linux), else no limit"

// memoryBudget is the budget for a --max-memory value (sysmem.NewBudget);
// a bad value is a usage error.
func memoryBudget(flagValue string) (sysmem.Budget, error) {
	b, err := sysmem.NewBudget(flagValue)
	if err != nil {
		return b, usageErr("%v", err)
	}
	return b, nil
}

// runtimeBase is the memory of the process before it loads anything (Go
// runtime, binary, buffers: pdbgen lookup with the 3,360-entry table peaks
// at 7.5 MiB resident), added once to every estimate.
const runtimeBase = 8 << 20

// checkLoadMemory refuses, before anything is loaded, a set of table files
// whose tables together need more memory than the budget (their headers
// say how much: format.Header.DecodeMemory). It reads only the headers; a
// file whose header cannot be read is left for the load to report. The
// refusal is a usage-class error (exit 2) naming the files.
func checkLoadMemory(b sysmem.Budget, files []string) error {
	if !b.Known {
		return nil
	}
	return checkLoadMemoryNeed(b, files, loadMemoryNeed(files))
}

// checkLoadMemoryNeed is checkLoadMemory for a load estimated at need
// bytes.
func checkLoadMemoryNeed(b sysmem.Budget, files []string, need uint64) error {
	if !b.Known {
		return nil
	}
	what := files[0]
	if len(files) > 1 {
		what = fmt.Sprintf("loading the %d tables", len(files))
	}
	if err := b.Check(what, need); err != nil {
		return &exitError{code: exitTrouble, err: err}
	}
	return nil
}

// loadMemoryNeed is the memory estimated for loading the table files (their
// headers' format.Header.DecodeMemory) plus runtimeBase; a file whose header
// cannot be read counts 0 (the load reports it).
func loadMemoryNeed(files []string) uint64 {
	need := uint64(runtimeBase)
	for _, f := range withSetTables(files) {
		h, err := format.ReadHeaderFile(f)
		if err != nil {
			continue
		}
		need = sysmem.SatAdd(need, h.DecodeMemory())
	}
	return need
}

// checkVerifyMemory refuses to verify a file that needs more memory than
// the budget (verify.MemoryNeed: load, plus the reference search with
// --deep). It reads the header as leniently as verify does, so that a
// broken header checksum does not hide a huge declared size; a file whose
// header cannot be read at all is left for verify to report.
func checkVerifyMemory(b sysmem.Budget, file string, opts verify.Options) error {
	if !b.Known {
		return nil
	}
	h, _, err := format.InspectHeaderFile(file)
	if err != nil {
		return nil
	}
	if err := b.Check(file, sysmem.SatAdd(runtimeBase, verify.MemoryNeed(h, opts))); err != nil {
		if opts.Deep {
			return fmt.Errorf("%w with --deep", err)
		}
		return err
	}
	return nil
}

// withSetTables replaces each set file among files by the tables it names
// and drops repeated paths, so that the tables of a set are counted once.
func withSetTables(files []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(f string) {
		key := filepath.Clean(f)
		if !seen[key] {
			seen[key] = true
			out = append(out, f)
		}
	}
	for _, f := range files {
		if isSet, err := format.IsSetFile(f); err == nil && isSet {
			if tables, err := format.SetFileTables(f); err == nil {
				for _, t := range tables {
					add(t)
				}
				continue
			}
		}
		add(f)
	}
	return out
}
