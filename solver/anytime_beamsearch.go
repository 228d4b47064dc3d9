package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// Anytime beam search (AlgAnytimeBeamSearch, anytimeOptions.Beam): beam
// searches of growing width for ever shorter solutions, with IDA* for the
// proven lower bound between them and after them.

// FirstBeamWidth is the width of the first beam search of the anytime
// beam search (AlgAnytimeBeamSearch); each next one is twice as wide, but
// the last (nextWidth).
const FirstBeamWidth = 1000

// beamBoundShare is the share of anytimeOptions.TimeLimit that the beam
// searches leave to the polish and IDA* while IDA* may still prove the
// answer optimal (closeGap).
const beamBoundShare = 4 // a quarter

// beamFarShare is that share when the gap between the best length and
// the proven bound is wider than beamCloseGap: IDA* would need more
// iterations than a time limit allows (each costs about six times the
// last on these boards), so the time goes to the beams instead.
const beamFarShare = 16

// beamCloseGap is the widest gap, in moves, between the best length and
// the proven lower bound for which the anytime beam search still keeps a
// quarter of its time for IDA* and runs IDA* slices between its beams:
// 12 moves are 6 iterations of IDA*.
const beamCloseGap = 12

// beamPolishShare is the share of the reserve (beamBoundShare or
// beamFarShare of the time limit) within which the best path's
// improvement (polish) must end, the rest being IDA*'s; it usually takes
// a second or two.
const beamPolishShare = 2 // a half

// beamFinalSafety is the share, in percent, of the estimated room that
// the last beam (sized to the time and memory left) plans to use: a beam's
// time and peak grow a little faster than its width.
const beamFinalSafety = 75

// beamFreeBytes is the peak of a beam search above which its arrays are
// given back to the system before the next, wider one allocates.
const beamFreeBytes = 64 << 20

// solveBeamAnytime is solveAnytime with opt.Beam: beam searches of widths
// FirstBeamWidth, twice that, and so on up to opt.MaxWidth (nextWidth);
// with a time limit, once doubling would leave too little room, one last
// beam as wide as the time and memory left allow, estimated from the last
// one, and one more when that one ends early on a far gap (again). The
// beams leave a reserve (a quarter of the time limit, a
// sixteenth when the proven bound is far from the best length) to the
// polish of the best path and to IDA* up to the best length: it raises
// the proven lower bound an iteration at a time, proves the solution
// optimal when its bound reaches the length, and replaces it by an
// optimal one when it finds one.
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
	if s.opt.Polish.Runs(PolishTail) && s.exact == nil {
		s.startBall() // the exact tail's goal ball, built beside the beams
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
	// the width and time of the beam before the last (growth)
	prevWidth int
	prevTime  time.Duration
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

// polish improves the best path (improvePath) until half the reserve is
// left (to the end of its passes without a time limit).
func (a *beamAnytime) polish() {
	if a.best.Length < 2 || a.s.exact != nil {
		return
	}
	var deadline time.Time
	if a.opt.TimeLimit > 0 {
		deadline = a.began.Add(a.opt.TimeLimit - a.reserve()/beamPolishShare)
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

// beams runs the beam searches of growing width (nextWidth), each but
// the last followed by a short IDA* slice while the bound is close to the
// best length (closeGap). done is true when the answer is final: proven
// optimal, or stopped by the context or the node limit (err then says so).
func (a *beamAnytime) beams() (done bool, err error) {
	w := min(FirstBeamWidth, a.maxWidth)
	for first, final := true, false; ; first = false {
		out, err := a.s.runBeamSearch(a.ctx, a.b, w, a.beamLimits(final), max(a.best.Length, 0))
		a.take(out, first)
		limited := false
		switch {
		case err == nil:
			a.improve(out, w)
		case a.ctx.Err() != nil, errors.Is(err, ErrNodeLimit):
			// --max-nodes bounds the whole search: no IDA* after it.
			return true, fmt.Errorf("anytime beam search: %w", err)
		case errors.Is(err, ErrBeamExhausted):
			// No solution shorter than the best at this width: try wider.
		default:
			limited = true // a limit of this width: the wider ones would reach it too
		}
		if a.best.Optimal || w == a.maxWidth || limited {
			return a.best.Optimal, nil
		}
		if final {
			// A last beam that ended early: one more, sized to the room left.
			var ok bool
			if w, ok = a.again(w, out.Stats); !ok {
				return false, nil
			}
			continue
		}
		// A short IDA* slice (a quarter of this beam's time) between beams
		// while IDA* may still close the gap: on boards IDA* solves at
		// once it ends the search early.
		if a.closeGap() {
			if done, err := a.bound(max(out.Stats.Elapsed/4, time.Millisecond)); err != nil || done {
				if err != nil {
					return true, fmt.Errorf("anytime beam search, IDA* for the bound: %w", err)
				}
				return true, nil
			}
		}
		var ok bool
		if w, final, ok = a.nextWidth(w, out.Stats); !ok {
			return false, nil
		}
	}
}

// closeGap reports whether the best length is within beamCloseGap moves
// of the proven bound (or no solution is known yet).
func (a *beamAnytime) closeGap() bool {
	return a.best.Length < 0 || a.best.Length-a.best.Lower <= beamCloseGap
}

// reserve is the time the beams leave to the polish and IDA*: a
// quarter of the time limit while closeGap, else a sixteenth.
func (a *beamAnytime) reserve() time.Duration {
	if a.closeGap() {
		return a.opt.TimeLimit / beamBoundShare
	}
	return a.opt.TimeLimit / beamFarShare
}

// nextWidth is the width of the beam after one of width w whose
// statistics were st. Without a time limit it is twice w (up to
// a.maxWidth). With one, it is twice w while the room left before the
// reserve is at least beamDoubleRoom times the last beam's time; else it
// is the widest beam whose time (w's, grown by growth) fills
// beamFinalSafety percent of the room and whose arrays (beamBytes) fit
// that share of the memory limit, and final is true. ok is false when
// there is no room, or when that beam would be neither a quarter wider
// than w nor the width cap a.maxWidth (the beams end).
func (a *beamAnytime) nextWidth(w int, st Stats) (next int, final, ok bool) {
	if a.opt.TimeLimit <= 0 {
		return min(2*w, a.maxWidth), false, true
	}
	last := max(st.Elapsed, time.Millisecond)
	room := a.left() - a.reserve()
	g := a.growth(w, last)
	a.prevWidth, a.prevTime = w, last
	if room >= beamDoubleRoom*last {
		return min(2*w, a.maxWidth), false, true
	}
	if room <= 0 {
		return w, false, false
	}
	lo := a.sized(w, last, g, room, w)
	if lo < w+w/4 && (lo == w || lo < a.maxWidth) {
		return w, false, false
	}
	return lo, true, true
}

// sized is the widest beam, from lo (at most w) to a.maxWidth, whose
// time (last, that of a beam of width w, grown with exponent g) fills
// beamFinalSafety percent of room and whose arrays (beamBytes) fit that
// share of the memory limit; lo when none wider does.
func (a *beamAnytime) sized(w int, last time.Duration, g float64, room time.Duration, lo int) int {
	// time(f) = last * (f/w)^g within safety*room.
	f := float64(w) * math.Pow(float64(room)*beamFinalSafety/100/float64(last), 1/g)
	maxBytes := a.opt.MaxBytes
	if maxBytes == 0 {
		maxBytes = DefaultMaxBytes
	}
	maxBytes = maxBytes / 100 * beamFinalSafety // no overflow for any int64
	levels := beamLevels(a.best.Lower, a.best.Length)
	hi := int(min(f, float64(a.maxWidth))) // the widest width in [lo, hi] within maxBytes
	for lo < hi {
		if mid := lo + (hi-lo+1)/2; a.s.beamBytes(mid, levels, usesKept(max(a.best.Length, 0))) <= maxBytes {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// again is the width of one more last beam after a last beam of width w
// (statistics st) that ended early, without a limit: it found its
// solution or ran out of states below the best length
// (ErrBeamExhausted) before the time it was given, and the room it left
// would go to the polish and IDA*, which rarely shorten a far answer.
// A beam of another width keeps other states (a beam is not monotone in
// its width: on DeepCubeA's 35-puzzle states, widths 32,000, 64,000 and
// 103,557 of one search gave 135, none and 133 moves), so one sized to
// the room (sized, with the last beam's time) is another chance. ok is
// false when that beam would be narrower than a quarter of w, when it
// would be w itself (the same beam again), with no time limit, and while
// the gap is close (closeGap: the room is IDA*'s, which may prove the
// answer optimal).
func (a *beamAnytime) again(w int, st Stats) (next int, ok bool) {
	if a.opt.TimeLimit <= 0 || a.closeGap() {
		return w, false
	}
	last := max(st.Elapsed, time.Millisecond)
	room := a.left() - a.reserve()
	if room <= 0 {
		return w, false
	}
	g := a.growth(w, last)
	a.prevWidth, a.prevTime = w, last
	next = a.sized(w, last, g, room, beamAgainMin)
	if next < w/4 || next == w || next <= beamAgainMin {
		return w, false
	}
	return next, true
}

// beamAgainMin is the narrowest width again sizes from.
const beamAgainMin = FirstBeamWidth

// growth is the exponent of a beam's time in its width, from the last
// two beams (prevWidth's, and w's that took last): log(time ratio) /
// log(width ratio), within [1.1, 1.5]; 1.15 before two beams (measured on
// the 35- and 48-puzzle: a doubled width takes 2.1 to 2.3 times as long,
// the kept set and the window outgrowing the caches).
func (a *beamAnytime) growth(w int, last time.Duration) float64 {
	if a.prevWidth == 0 || a.prevWidth >= w || a.prevTime <= 0 {
		return 1.15
	}
	g := math.Log(float64(last)/float64(a.prevTime)) / math.Log(float64(w)/float64(a.prevWidth))
	return min(max(g, 1.1), 1.5)
}

// beamDoubleRoom is the room, in times of the last beam, from which the
// anytime beam search still doubles the width: below it, the last beam
// is sized to the room (a beam twice as wide takes about twice as long,
// so doubling again would leave a last beam narrower than sizing it now).
const beamDoubleRoom = 6

// beamLimits are the limits of the next beam: the search's own, with the
// time left less the reserve (less half of it for the last beam, which
// may take from the polish's share).
func (a *beamAnytime) beamLimits(final bool) Limits {
	lim := a.opt.Limits
	if a.opt.TimeLimit > 0 {
		r := a.reserve()
		if final {
			r /= beamPolishShare
		}
		lim.TimeLimit = max(a.left()-r, 1)
	}
	return lim
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
