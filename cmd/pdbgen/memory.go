package main

import (
	"fmt"
	"slices"

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

// tablePlan is the plan of a command's table files, made once
// (format.PlanSet: each set file read and each table header read once).
type tablePlan struct {
	files []string
	plan  *format.SetPlan
}

// planFor returns the plan of files: the one made earlier in this command
// for the same files, else a new one. loadMemoryNeed, heldLoadMemoryNeed and
// openTables all go through it, so that the memory check and the load
// read each file's header and set file once.
func (e *env) planFor(files []string) *format.SetPlan {
	if e.plan == nil || !slices.Equal(e.plan.files, files) {
		e.plan = &tablePlan{files: slices.Clone(files), plan: format.PlanSet(files...)}
	}
	return e.plan.plan
}

// checkLoadMemoryNeed refuses, before anything is loaded, a set of table
// files whose tables together need more memory (need bytes: loadMemoryNeed,
// or heldLoadMemoryNeed for solve's and lookup's load) than the budget. The
// refusal is a usage-class error (exit 2) naming the files.
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

// loadMemoryNeed is the memory estimated for loading the table files (the
// command's plan of them: format.SetPlan.Memory) plus runtimeBase; a file
// whose header cannot be read counts 0 (the load reports it).
func loadMemoryNeed(e *env, files []string) uint64 {
	return sysmem.SatAdd(runtimeBase, e.planFor(files).Memory())
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
	return verifyFits(b, file, h, opts)
}

// verifyFits is checkVerifyMemory with the header h of file read already.
func verifyFits(b sysmem.Budget, file string, h *format.Header, opts verify.Options) error {
	if !b.Known {
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
