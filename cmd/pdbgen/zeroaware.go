package main

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
)

const zeroAwareHelp = "write zero-aware tables (one value per placement and region of the blank, format/SPEC.md section 11; file names end in _za.pdb, set files in _za.set.json): at least the additive table's value on every board; built in memory, not with --manifest, --if-needed or the out-of-core flags"

// buildZeroAware is buildTable for a zero-aware table.
func buildZeroAware(ctx context.Context, e *env, cfg *buildConfig, pt plannedTable) (*format.Table, time.Duration, error) {
	start := time.Now()
	regions, err := puzzle.NewRegions(pt.pattern)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", pt.file, err)
	}
	if !cfg.quiet {
		fmt.Fprintf(e.stderr, "building %s: %s, zero-aware, %d entries (%d placements), about %s of memory\n",
			pt.file, pt.pattern, regions.Size(), pt.pattern.Size(), sysmem.FormatSize(pt.memory))
	}
	prog := newProgress(e.stderr, pt.file, regions.Size(), e.stderrIsTTY, cfg.quiet)
	values, err := builder.BuildZeroAware(ctx, pt.pattern, builder.Options{Workers: cfg.workers, Progress: prog.event})
	prog.done()
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w (nothing written)", pt.file, err)
	}
	buildTime := time.Since(start)
	if pt.memory > freeOSMemoryAbove {
		debug.FreeOSMemory()
	}
	t, err := format.NewZeroAwareTable(regions, values, generator)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", pt.file, err)
	}
	t.Header.Major = uint16(cfg.fileFormat)
	return t, buildTime, nil
}
