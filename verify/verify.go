package verify

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/regular"
	"github.com/tilepdb/tilepdb/puzzle"
)

// DefaultMaxFindings is the number of findings kept per check when
// Options.MaxFindingsPerCheck is not positive.
const DefaultMaxFindings = 20

// Options control a verification. The zero value runs the fast checks on
// every CPU.
type Options struct {
	// Deep also rebuilds the table with Reference and compares every entry.
	// It needs p.Size()*N bytes of memory for an additive pattern.
	Deep bool
	// Workers is the number of goroutines sharing each pass; <= 0 means
	// runtime.NumCPU(). The report does not depend on it.
	Workers int
	// MaxFindingsPerCheck caps the findings kept in the report per check;
	// all are still counted. <= 0 means DefaultMaxFindings.
	MaxFindingsPerCheck int
	// Progress, when set, is told how the passes over the entries advance,
	// for a progress display: pass is the first check of the pass
	// (CheckRanking, CheckGoal, CheckSymmetry, CheckReference), done and
	// total count entries (done = total when the pass ends; the reference
	// rebuild reports only its start and end). It is called from several
	// goroutines at once and must be quick; it does not affect the report.
	Progress func(pass string, done, total uint64)
}

func (o Options) normalized() Options {
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	if o.MaxFindingsPerCheck <= 0 {
		o.MaxFindingsPerCheck = DefaultMaxFindings
	}
	return o
}

// File verifies the table file at path. A file that cannot be decoded is
// bad data and yields a report with integrity findings; the error is
// reserved for trouble that says nothing about the data: the file cannot
// be opened or read (missing, permission, a directory), or ctx ends the
// work early.
//
// The integrity check is format.Inspect: magic, version, header checksum,
// structure and sizes, the raw SHA-256, the histogram and maximum value
// against a recount. Each of its findings is one integrity finding. When
// the values can be decoded, the checks of Table follow.
func File(ctx context.Context, path string, opts Options) (*Report, error) {
	opts = opts.normalized()
	if err := regular.Check(path); err != nil { // never open a named pipe: it would block
		return nil, err
	}

	r := newReport(path)
	start := time.Now()
	defer func() { r.Wall = time.Since(start) }()
	t, problems, err := format.Inspect(path)
	if err != nil {
		// Bad data is an integrity finding; anything else (I/O) is
		// trouble running.
		if !format.IsBadData(err) {
			return nil, err
		}
		problems = append(problems, err)
	}
	tl := newTally(opts.MaxFindingsPerCheck)
	for _, p := range problems {
		tl.addf(CheckIntegrity, -1, "%v", p)
	}
	r.merge(tl, opts.MaxFindingsPerCheck)
	r.ran(CheckIntegrity, start)
	if t == nil {
		r.skipAll("the table could not be decoded")
		return r, nil
	}
	if n := undecodedFrames(problems); n > 0 {
		// Their entries are placeholders: checking them would only
		// report the placeholders.
		r.Pattern, r.Entries = t.Pattern.String(), t.Pattern.Size()
		r.skipAll(fmt.Sprintf("%d of %d frame(s) could not be decoded", n, len(t.Header.Frames)))
		return r, nil
	}
	if err := checkTable(ctx, r, t, opts, false); err != nil {
		return nil, err
	}
	return r, nil
}

// undecodedFrames counts the frames that Inspect could not decode.
func undecodedFrames(problems []error) int {
	n := 0
	for _, p := range problems {
		var fe *format.UndecodedFrameError
		if errors.As(p, &fe) {
			n++
		}
	}
	return n
}

// Table verifies an in-memory table: the header check (including a
// recount of the histogram and maximum value), then the checks on the
// entries (see the Check* constants), then with opts.Deep the comparison
// with Reference. The error is non-nil only when ctx ends the work early.
func Table(ctx context.Context, t *format.Table, opts Options) (*Report, error) {
	opts = opts.normalized()
	r := newReport("")
	start := time.Now()
	defer func() { r.Wall = time.Since(start) }()
	r.Skipped = append(r.Skipped, CheckIntegrity+": not a file")
	if err := checkTable(ctx, r, t, opts, true); err != nil {
		return nil, err
	}
	return r, nil
}

func newReport(path string) *Report {
	return &Report{Path: path, Counts: map[string]uint64{}, Elapsed: map[string]time.Duration{}}
}

// ran records that check ran, started at start.
func (r *Report) ran(check string, start time.Time) {
	r.Checked = append(r.Checked, check)
	r.Elapsed[check] += time.Since(start)
}

// skipAll marks every check after integrity as skipped.
func (r *Report) skipAll(reason string) {
	for _, c := range checkOrder {
		if c == CheckIntegrity || c == CheckReference || c == CheckZeroAware {
			continue
		}
		r.Skipped = append(r.Skipped, c+": "+reason)
	}
	r.Skipped = append(r.Skipped, CheckReference+": "+reason)
}

// checkTable runs every check after integrity on t, dispatching once on
// its kind (tableKind): zero-aware tables have their own checks
// (checkZeroAware); exact and additive ones share the passes below, each
// kind with its own functions (kindPasses).
func checkTable(ctx context.Context, r *Report, t *format.Table, opts Options, recount bool) error {
	kind := tableKind(t)
	if kind == format.KindZeroAware {
		return checkZeroAware(ctx, r, t, opts, recount)
	}
	defer r.sortFindings()
	start := time.Now()
	tl := newTally(opts.MaxFindingsPerCheck)
	usable := checkHeader(t, recount, tl)
	r.merge(tl, opts.MaxFindingsPerCheck)
	r.ran(CheckHeader, start)
	if t != nil && t.Pattern != nil {
		r.Pattern = t.Pattern.String()
		r.Entries = t.Pattern.Size()
	}
	if !usable {
		r.skipAll("the values cannot be indexed by the pattern")
		return nil
	}
	p := t.Pattern
	ps := kindPasses[kind]
	c := &checker{p: p, values: t.Values, opts: opts, r: r}
	c.goal = p.RankCells(p.GoalCells())
	if ps.prepare != nil {
		ps.prepare(c)
	}

	start = time.Now()
	c.pass = CheckRanking
	if err := c.scan(ctx, ps.ranking(c)); err != nil {
		return err
	}
	r.ran(CheckRanking, start)

	start = time.Now()
	c.pass = CheckGoal
	if err := c.scan(ctx, ps.entries(c)); err != nil {
		return err
	}
	// These five checks share one pass, and its time.
	pass := []string{CheckGoal, CheckUnreached, CheckManhattan, CheckDescent, CheckStep}
	for _, name := range pass {
		r.ran(name, start)
	}
	r.Passes = append(r.Passes, pass)

	start = time.Now()
	if syms := symmetries(p); len(syms) == 0 {
		r.Skipped = append(r.Skipped, CheckSymmetry+": no board symmetry fixes the goal and the tile set")
	} else {
		c.syms = syms
		if ps.prepareSymmetry != nil {
			ps.prepareSymmetry(c)
		}
		c.pass = CheckSymmetry
		if err := c.scan(ctx, ps.symmetry(c)); err != nil {
			return err
		}
		r.ran(CheckSymmetry, start)
	}

	if !opts.Deep {
		r.Skipped = append(r.Skipped, CheckReference+": not requested (--deep)")
		return nil
	}
	start = time.Now()
	if err := c.reference(ctx); err != nil {
		return err
	}
	r.ran(CheckReference, start)
	return nil
}

// checkHeader is the header check. It compares every header field that
// the pattern determines (geometry, goal, tiles, kind, ranking scheme and
// version, entry count, entry width) with t.Pattern, and len(Values) with
// the pattern's size; with recount it also recounts the histogram and the
// maximum value (File leaves those to format.Inspect). It returns whether
// the values can be indexed by the pattern (Pattern set, length right).
func checkHeader(t *format.Table, recount bool, tl *tally) bool {
	const c = CheckHeader
	if t == nil || t.Pattern == nil {
		tl.addf(c, -1, "no pattern")
		return false
	}
	h, p := &t.Header, t.Pattern
	checkHeaderFields(h, p, tl)
	if uint64(len(t.Values)) != p.Size() {
		tl.addf(c, -1, "%d values, pattern size %d", len(t.Values), p.Size())
		return false
	}
	if recount {
		counts := format.CountValues(t.Values)
		for _, m := range counts.Mismatches(h) {
			tl.addf(c, -1, "%s", m)
		}
	}
	return true
}

// checkHeaderFields is the part of the header check that compares the
// header's fields with the pattern.
func checkHeaderFields(h *format.Header, p *puzzle.Pattern, tl *tally) {
	const c = CheckHeader
	if h.Width != p.Geom.W || h.Height != p.Geom.H {
		tl.addf(c, -1, "board %dx%d, pattern %s", h.Width, h.Height, p.Geom)
	}
	if !slices.EqualFunc(h.Goal, p.Goal, intIs) {
		tl.addf(c, -1, "goal %v, pattern goal %v", h.Goal, p.Goal)
	}
	if !slices.EqualFunc(h.Tiles, p.Tiles, intIs) {
		tl.addf(c, -1, "tiles %v, pattern tiles %v", h.Tiles, p.Tiles)
	}
	kind := format.KindAdditive
	if p.Exact {
		kind = format.KindExact
	}
	if h.Kind != kind {
		tl.addf(c, -1, "kind %q, want %q", h.Kind, kind)
	}
	if h.Ranking != p.Ranking() || h.RankingVersion != puzzle.RankingVersion {
		tl.addf(c, -1, "ranking %q version %d, want %q version %d", h.Ranking, h.RankingVersion, p.Ranking(), puzzle.RankingVersion)
	}
	if h.Entries != p.Size() {
		tl.addf(c, -1, "entries %d, pattern size %d", h.Entries, p.Size())
	}
	if h.BitsPerEntry != format.BitsPerEntry {
		tl.addf(c, -1, "bits per entry %d, want %d", h.BitsPerEntry, format.BitsPerEntry)
	}
}

// intIs reports whether a header int is the tile or cell b.
func intIs(a int, b uint8) bool { return a == int(b) }

// checker holds what the passes over the entries share.
type checker struct {
	p      *puzzle.Pattern
	values []uint8
	goal   uint64 // index of the goal entry
	opts   Options
	r      *Report
	syms   []symmetry
	pass   string // the pass scan runs, for Options.Progress
	// Additive tables: the tables of the index walk (sweep.go).
	cellSets  *cellSets
	symImages []symmetryImage // symImages[i] tabulates syms[i]
}

// chunkSize is the number of entries per unit of parallel work.
const chunkSize = 1 << 16

// scan runs fn over [0, Size) in chunks on opts.Workers goroutines and
// merges the chunks' findings into the report in index order, so the
// report does not depend on the number of workers.
func (c *checker) scan(ctx context.Context, fn func(lo, hi uint64, tl *tally)) error {
	size := c.p.Size()
	chunks := (size + chunkSize - 1) / chunkSize
	tallies := make([]*tally, chunks)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(c.opts.Workers)
	var done atomic.Uint64
	for i := uint64(0); i < chunks; i++ {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			tl := newTally(c.opts.MaxFindingsPerCheck)
			lo, hi := i*chunkSize, min((i+1)*chunkSize, size)
			fn(lo, hi, tl)
			if tl.counts != nil {
				tallies[i] = tl
			}
			if c.opts.Progress != nil {
				c.opts.Progress(c.pass, done.Add(hi-lo), size)
			}
			return nil
		})
	}
	if err := mergeTallies(ctx, g, c.r, tallies, c.opts.MaxFindingsPerCheck); err != nil {
		return err
	}
	return nil
}

// mergeTallies waits for the workers of g, then merges the findings each
// gathered (nil where it found none) into r in worker order, so that the
// report does not depend on scheduling. It returns g's error or ctx's.
func mergeTallies(ctx context.Context, g *errgroup.Group, r *Report, tallies []*tally, limit int) error {
	if err := g.Wait(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, tl := range tallies {
		r.merge(tl, limit)
	}
	return nil
}
