package builder

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// BuildZeroAware computes the zero-aware table of the additive pattern p
// (Clausecker & Reinefeld's zero-aware pattern databases): one value per
// abstract state (placement of the pattern tiles, region of the blank),
// the fewest pattern-tile moves from that state to the goal, instead of
// Build's minimum over the regions of a placement. It runs the same
// search as Build and records the level of every state. The result has
// puzzle.Regions.Size() = k!·S entries in the order of
// puzzle.RankingCellsetOrderRegion (state P·S + slotStart[M] + region, the
// index anatomy of additive.go), values 0..MaxLevel. Its minimum over each
// placement's regions is Build's table. Memory: Build's plus k!·S bytes.
// It fails for an exact pattern, when ctx is canceled, or as Build does.
func BuildZeroAware(ctx context.Context, p *puzzle.Pattern, opt Options) ([]uint8, error) {
	if p.Exact {
		return nil, fmt.Errorf("builder: %s: a zero-aware table needs an additive pattern, not all tiles", p)
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.NumCPU()
	}
	if opt.ProgressInterval <= 0 {
		opt.ProgressInterval = 250 * time.Millisecond
	}
	s, err := newAdditiveSearch(p, opt)
	if err != nil {
		return nil, err
	}
	s.states = make([]uint8, s.sp.stateCount())
	if err := s.runAll(ctx, p); err != nil {
		return nil, err
	}
	return s.states, nil
}

// ZeroAwareMemoryEstimate is MemoryEstimate for BuildZeroAware: it adds
// the k!·S bytes of the state values (times the same 1.25).
func ZeroAwareMemoryEstimate(p *puzzle.Pattern) uint64 {
	return EstimateBuild(p, true).Memory
}
