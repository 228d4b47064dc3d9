package verify

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/regular"
	"github.com/tilepdb/tilepdb/puzzle"
)

// FramesMemory is the memory FileFrames takes for a table file with
// header h and opts.Workers goroutines: two frames per goroutine (one
// decoded, one compressed at most) and the zstd decoder's, plus the
// per-entry tables of the checks (small).
func FramesMemory(h *format.Header, opts Options) uint64 {
	opts = opts.normalized()
	return uint64(opts.Workers)*3*uint64(max(h.FrameSize, 0)) + 8<<20
}

// FileFrames verifies the table file at path frame by frame, for an
// additive table larger than the memory at hand (a table built out of
// core, say): format.ScanFile's integrity checks (every frame, the
// payload and raw SHA-256, the histogram), the header check, and on every
// entry the checks that read that entry alone: ranking, goal, unreached
// and manhattan. Descent, step and symmetry look up neighbouring or
// symmetric entries anywhere in the table, so they are skipped (the
// report says so), and so is the reference rebuild; run File where the
// table fits in memory for them. Its memory is FramesMemory; each entry
// is read once, so its CPU is below File's. An integrity problem stops
// the scan (it is reported as File reports it); errors are reserved for
// trouble running, as with File. An exact table is refused (error): those
// fit in memory.
func FileFrames(ctx context.Context, path string, opts Options) (*Report, error) {
	opts = opts.normalized()
	if err := regular.Check(path); err != nil {
		return nil, err
	}
	r := newReport(path)
	start := time.Now()
	defer func() { r.Wall = time.Since(start) }()
	tl := newTally(opts.MaxFindingsPerCheck)
	var c *checker
	var entryTime time.Duration
	_, p, err := format.ScanFile(path, opts.Workers, func(h *format.Header, p *puzzle.Pattern) error {
		if k := tableKindOf(h, p); k != format.KindAdditive {
			return fmt.Errorf("%s: %s tables are verified in memory (verify.File), not frame by frame", path, k)
		}
		r.Pattern, r.Entries = p.String(), p.Size()
		c = &checker{p: p, opts: opts, r: r}
		c.goal = p.RankCells(p.GoalCells())
		ht := newTally(opts.MaxFindingsPerCheck)
		checkHeaderFields(h, p, ht)
		r.merge(ht, opts.MaxFindingsPerCheck)
		return nil
	}, func(lo uint64, vals []uint8) error {
		t0 := time.Now()
		defer func() { entryTime += time.Since(t0) }()
		return c.frame(ctx, lo, vals)
	})
	if err != nil && !format.IsBadData(err) {
		return nil, err
	}
	if err != nil {
		tl.addf(CheckIntegrity, -1, "%v", err)
	}
	r.merge(tl, opts.MaxFindingsPerCheck)
	r.ran(CheckIntegrity, start)
	if p == nil || c == nil {
		r.skipAll("the table could not be decoded")
		return r, nil
	}
	r.ran(CheckHeader, start)
	if err != nil {
		r.skipAll("the scan stopped at an integrity problem")
		r.sortFindings()
		return r, nil
	}
	for _, name := range []string{CheckRanking, CheckGoal, CheckUnreached, CheckManhattan} {
		r.Checked = append(r.Checked, name)
		r.Elapsed[name] += entryTime
	}
	r.Passes = append(r.Passes, []string{CheckRanking, CheckGoal, CheckUnreached, CheckManhattan})
	why := fmt.Sprintf("verified frame by frame (%d entries): this rule reads entries anywhere in the table", p.Size())
	for _, name := range []string{CheckDescent, CheckStep, CheckSymmetry} {
		r.Skipped = append(r.Skipped, name+": "+why)
	}
	r.Skipped = append(r.Skipped, CheckReference+": "+why)
	r.sortFindings()
	return r, nil
}

// frame runs the checks on one entry alone over a frame's values (entry
// lo+j is vals[j]), in chunks on opts.Workers goroutines, merging the
// chunks' findings in index order.
func (c *checker) frame(ctx context.Context, lo uint64, vals []uint8) error {
	p := c.p
	n := uint64(len(vals))
	chunks := (n + chunkSize - 1) / chunkSize
	tallies := make([]*tally, chunks)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(c.opts.Workers)
	for i := uint64(0); i < chunks; i++ {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			tl := newTally(c.opts.MaxFindingsPerCheck)
			a, b := lo+i*chunkSize, lo+min((i+1)*chunkSize, n)
			c.additiveRanking(a, b, tl)
			c.localEntries(a, vals[a-lo:b-lo], tl)
			if tl.counts != nil {
				tallies[i] = tl
			}
			return nil
		})
	}
	if err := mergeTallies(ctx, g, c.r, tallies, c.opts.MaxFindingsPerCheck); err != nil {
		return err
	}
	if c.opts.Progress != nil {
		c.opts.Progress(CheckRanking, lo+n, p.Size())
	}
	return nil
}

// localEntries applies entryRules to the entries lo, lo+1, ... of an
// additive table (vals), walking the index for their cells.
func (c *checker) localEntries(lo uint64, vals []uint8, tl *tally) {
	p := c.p
	g := p.Geom
	goalPos := p.GoalPositions()
	var manhattan [puzzle.MaxCells][puzzle.MaxCells]uint8
	for j, t := range p.Tiles {
		for x := 0; x < g.N(); x++ {
			manhattan[j][x] = uint8(g.Manhattan(x, int(goalPos[t])))
		}
	}
	w := newWalk(p, lo, false)
	for j, v := range vals {
		md := 0
		for q, x := range w.cells {
			md += int(manhattan[q][x])
		}
		c.entryRules(lo+uint64(j), v, md, tl)
		if j+1 < len(vals) {
			w.advance()
		}
	}
}
