package solver

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// Anytime beam search (AlgAnytimeBeamSearch, anytimeOptions.Beam): beam
// searches of growing width for ever shorter solutions, with IDA* for the
// proven lower bound between them and after them.

// FirstBeamWidth is the width of the first beam search of the anytime
// beam search (AlgAnytimeBeamSearch); each next one is twice as wide.
const FirstBeamWidth = 1000

// beamBoundShare is the share of anytimeOptions.TimeLimit that the beam
// searches leave to IDA* for the lower bound.
const beamBoundShare = 4 // a quarter

// beamPolishShare is the share of anytimeOptions.TimeLimit, taken from
// IDA*'s quarter, within which the best path's improvement (polish) must
// end; it usually takes a second or two.
const beamPolishShare = 8 // an eighth

// beamFreeBytes is the peak of a beam search above which its arrays are
// given back to the system before the next, wider one allocates.
const beamFreeBytes = 64 << 20

// solveBeamAnytime is solveAnytime with opt.Beam: beam searches of widths
// FirstBeamWidth, twice that, and so on up to opt.MaxWidth, each started
// only when a search twice as long as the last one would still leave a
// quarter of the time limit; then IDA* with the time left, up to the best
// length found: it raises the proven lower bound an iteration at a time,
// proves the solution optimal when its bound reaches the length, and
// replaces it by an optimal one when it finds one.
func (s *Solver) solveBeamAnytime(ctx context.Context, b puzzle.Board, opt anytimeOptions) (Bounded, error) {
	began := time.Now()
	maxWidth := opt.MaxWidth
	if maxWidth == 0 {
		maxWidth = MaxBeamWidth
	}
	if maxWidth < 1 || maxWidth > MaxBeamWidth {
		return Bounded{}, fmt.Errorf("solver: beam width %d: want 1 to %d", maxWidth, MaxBeamWidth)
	}
	best, work, ok, err := s.start(b, opt.Limits)
	if err != nil || !ok {
		return best, err
	}
	a := &beamAnytime{s: s, ctx: ctx, b: b, work: work, opt: opt, maxWidth: maxWidth, began: began, best: best,
		parity: s.geom.Manhattan(slices.Index(work, 0), int(s.goalPos[0])) % 2}
	err = a.run()
	a.settle()
	return a.best, err
}

// beamAnytime is one anytime beam search in progress: best is its answer
// so far.
type beamAnytime struct {
	s        *Solver
	ctx      context.Context
	b, work  puzzle.Board // the board as given, and as searched
	opt      anytimeOptions
	maxWidth int
	began    time.Time
	parity   int // of every solution's length
	best     Bounded
}

// run is the search: the beam searches (beams), then IDA* for the bound
// with the time left (lastBound).
func (a *beamAnytime) run() error {
	done, err := a.beams()
	if err != nil || done {
		return err
	}
	a.polish()
	return a.lastBound()
}

// polish improves the best path (improvePath) until an eighth of the
// time limit is left (to the end of its passes without one).
func (a *beamAnytime) polish() {
	if a.best.Length < 2 || a.s.exact != nil {
		return
	}
	var deadline time.Time
	if a.opt.TimeLimit > 0 {
		deadline = a.began.Add(a.opt.TimeLimit - a.opt.TimeLimit/beamPolishShare)
	}
	path := a.s.pathOf(a.best.Moves)
	better, nodes := a.s.improvePath(a.ctx, a.work, path, deadline)
	a.best.Stats.Generated += nodes
	if len(better) < len(path) {
		a.best.Polished += len(path) - len(better)
		a.best.Length, a.best.Moves = len(better), a.s.moveString(better)
		a.report()
	}
}

// left is the time left of the time limit (meaningless without one).
func (a *beamAnytime) left() time.Duration { return a.opt.TimeLimit - time.Since(a.began) }

// beams runs the beam searches of growing width, each followed by a short
// IDA* slice. done is true when the answer is final: proven optimal, or
// stopped by the context or the node limit (err then says so).
func (a *beamAnytime) beams() (done bool, err error) {
	var last time.Duration // the last beam's time
	first := min(FirstBeamWidth, a.maxWidth)
	for w := first; ; w = min(2*w, a.maxWidth) {
		lim, ok := a.beamLimits(w, last)
		if !ok {
			return false, nil // no time for a wider beam
		}
		out, err := a.s.runBeamSearch(a.ctx, a.b, w, lim, max(a.best.Length, 0))
		a.take(out, w == first)
		last = out.Stats.Elapsed
		switch {
		case err == nil:
			a.improve(out, w)
		case a.ctx.Err() != nil, errors.Is(err, ErrNodeLimit):
			// --max-nodes bounds the whole search: no IDA* after it.
			return true, fmt.Errorf("anytime beam search: %w", err)
		case errors.Is(err, ErrBeamExhausted):
			// No solution shorter than the best at this width: try wider.
		default:
			w = a.maxWidth // a limit of this width: the wider ones would reach it too
		}
		if a.best.Optimal || w == a.maxWidth {
			return a.best.Optimal, nil
		}
		// A short IDA* slice (a quarter of this beam's time) between beams:
		// on boards IDA* solves at once it ends the search early.
		if done, err := a.bound(max(last/4, time.Millisecond)); err != nil || done {
			if err != nil {
				return true, fmt.Errorf("anytime beam search, IDA* for the bound: %w", err)
			}
			return true, nil
		}
	}
}

// beamLimits are the limits of the beam of width w, the last one having
// taken last: the search's own, with the time left but the quarter kept
// for IDA*. ok is false when a beam twice as long as the last would not
// leave that quarter (the first beam always runs).
func (a *beamAnytime) beamLimits(w int, last time.Duration) (lim Limits, ok bool) {
	lim = a.opt.Limits
	if a.opt.TimeLimit > 0 {
		reserve := a.opt.TimeLimit / beamBoundShare
		if w > FirstBeamWidth && a.left()-reserve < 2*last {
			return lim, false
		}
		lim.TimeLimit = max(a.left()-reserve, 1)
	}
	return lim, true
}

// take adds the statistics and the lower bound of one beam search (first:
// the search's first).
func (a *beamAnytime) take(out Bounded, first bool) {
	a.best.Stats = addStats(a.best.Stats, out.Stats, first)
	a.best.Lower = max(a.best.Lower, out.Lower)
	if out.Stats.PeakBytes > beamFreeBytes {
		// Give the beam's arrays back before a wider one allocates
		// twice as much: the collector would otherwise keep both, and
		// the process would hold about twice the search's budget.
		debug.FreeOSMemory()
	}
}

// improve takes the solution of the beam of width w when it is shorter
// than the best.
func (a *beamAnytime) improve(out Bounded, w int) {
	if a.best.Length >= 0 && out.Length >= a.best.Length {
		return
	}
	a.best.Length, a.best.Moves, a.best.Width, a.best.Weight = out.Length, out.Moves, w, 0
	a.best.Polished = 0
	a.report()
}

// lastBound runs IDA* for the bound within the time left (all the time it
// takes without a time limit).
func (a *beamAnytime) lastBound() error {
	if a.best.Optimal {
		return nil
	}
	slice := time.Duration(0)
	if a.opt.TimeLimit > 0 {
		if slice = a.left(); slice <= 0 {
			return fmt.Errorf("anytime beam search: %w: %v", ErrTimeLimit, a.opt.TimeLimit)
		}
	}
	done, err := a.bound(slice)
	if err != nil {
		return fmt.Errorf("anytime beam search, IDA* for the bound: %w", err)
	}
	if !done && a.opt.TimeLimit > 0 {
		return fmt.Errorf("anytime beam search: %w: %v", ErrTimeLimit, a.opt.TimeLimit)
	}
	return nil
}

// bound runs IDA* up to the best length for at most d (0: no limit) and
// takes what it proves. done is true when the answer is then proven
// optimal; err is a context's error or trouble, not the end of d.
func (a *beamAnytime) bound(d time.Duration) (done bool, err error) {
	ictx := a.ctx
	if d > 0 {
		var cancel context.CancelFunc
		ictx, cancel = context.WithTimeout(a.ctx, d)
		defer cancel()
	}
	upper := inf
	if a.best.Length >= 0 {
		upper = a.best.Length
	}
	path, nodes, err := a.ida(ictx, upper)
	a.best.Stats.Generated += nodes
	var se *StoppedError
	switch {
	case err == nil: // the optimum, shorter than the best
		a.best.Length, a.best.Moves, a.best.Width, a.best.Weight = len(path), a.s.moveString(path), 0, 1
		a.best.Polished = 0
		a.best.Lower = a.best.Length
		a.report()
		return true, nil
	case errors.As(err, &se):
		a.raise(min(se.Lower, upper))
		if done = errors.Is(err, errUpper); done || a.ctx.Err() == nil {
			err = nil // the bound reached, or the slice's end
		}
		a.settle()
		return done, err
	}
	return false, err // trouble, not a limit
}

// ida is IDA* from the searched board up to upper, raising the bound as
// each iteration ends; an exact table gives the optimum at once (walk).
// best.Stats.Generated is left as it was; the nodes are returned.
func (a *beamAnytime) ida(ctx context.Context, upper int) ([]uint8, uint64, error) {
	if a.s.exact != nil {
		return a.s.walk(a.work)
	}
	base := a.best.Stats.Generated
	path, nodes, err := a.s.idaUpTo(ctx, a.work, upper, func(lb int, n uint64) {
		a.best.Stats.Generated = base + n
		a.raise(min(lb, upper))
	})
	a.best.Stats.Generated = base
	return path, nodes, err
}

// raise takes a proven bound (raised to the solutions' parity) and
// reports it when it is higher.
func (a *beamAnytime) raise(lb int) {
	if (lb-a.parity)%2 != 0 {
		lb++
	}
	if lb <= a.best.Lower {
		return
	}
	a.best.Lower = lb
	a.settle()
	if a.best.Length >= 0 && a.opt.OnSolution != nil {
		a.opt.OnSolution(a.best)
	}
}

// report settles a better answer and passes it to OnSolution.
func (a *beamAnytime) report() {
	a.settle()
	if a.opt.OnSolution != nil {
		a.opt.OnSolution(a.best)
	}
}

// settle fills best's bound fields from Length and Lower, and its time.
func (a *beamAnytime) settle() {
	a.best.Stats.Elapsed = time.Since(a.began)
	if a.best.Length < 0 {
		return
	}
	a.best.Lower = min(a.best.Lower, a.best.Length)
	a.best.Optimal = a.best.Length == a.best.Lower
	a.best.Bound = 1
	if a.best.Lower > 0 {
		a.best.Bound = float64(a.best.Length) / float64(a.best.Lower)
	}
}
