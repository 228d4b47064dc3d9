package solver

import (
	"context"
	"fmt"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// DefaultSchedule returns the weights solveAnytime uses when
// anytimeOptions.Schedule is nil: 2.5, 1.8, 1.3, 1.
func DefaultSchedule() []float64 { return []float64{2.5, 1.8, 1.3, 1} }

// anytimeOptions configure solveAnytime.
type anytimeOptions struct {
	// Schedule lists the weights, strictly decreasing, each >= 1; nil
	// means DefaultSchedule. Ending with 1 lets the search prove the
	// optimum.
	Schedule []float64
	// Limits bound memory and time; on reaching one the search returns the
	// best solution so far.
	Limits
	// Restarts, when true, runs a fresh weighted A* for each weight of the
	// schedule instead of ARA*'s reuse of the open list (restarting
	// weighted A*, Richter, Thayer & Ruml 2010, "The joy of forgetting:
	// faster anytime search via restarting", ICAPS): each search gets the
	// time the earlier ones left, the answer is the shortest solution
	// found and the largest lower bound proven by any of them. On big
	// boards with weak heuristics it finds its first solutions with far
	// fewer states than ARA*.
	Restarts bool
	// Beam, when true, replaces the weighted searches by beam searches of
	// growing width and then IDA* for the lower bound (solveBeamAnytime,
	// beamsearch.go); Schedule and Restarts must then be unset. On big boards
	// with weak heuristics it finds far shorter solutions than weighted A*
	// in the same time.
	Beam bool
	// MaxWidth bounds the widths of Beam's searches (1 to MaxBeamWidth; 0
	// means MaxBeamWidth).
	MaxWidth int
	// OnSolution, when not nil, is called in the search's goroutine each
	// time the answer improves, as soon as it does: a shorter solution, or
	// the same one with a higher proven lower bound (Bounded.Lower). The
	// Bounded passed is the one solveAnytime would return at that moment.
	OnSolution func(Bounded)
}

// solveAnytime solves b with ARA* (Likhachev, Gordon & Thrun 2003,
// "ARA*: Anytime A* with provable bounds on sub-optimality", NIPS 16):
// weighted A* with the first weight of the schedule, then again with each
// smaller weight, reusing the open list and the g-values: states whose g
// falls after their expansion in the current round wait in the INCONS list
// and join the open list for the next weight, so no state is expanded
// twice in one round. After each round the answer (solution and proven
// bound Length/Lower, see Bounded) is passed to OnSolution. Weights at or
// above the proven bound of the current answer are skipped (they cannot
// improve its guarantee). The search stops when the answer is proven
// optimal (Length == Lower), when the schedule is done (a last weight of 1
// is repeated until the optimum is proven: needed only when the heuristic
// is inconsistent), or when a limit is reached or ctx ends; it returns the
// best answer then, with, in the last two cases, an error wrapping
// ErrNodeLimit, ErrMemoryLimit, ErrTimeLimit or ctx's error (Length is -1
// when no solution was found yet).
//
// Boards, unsolvable boards and errors about the input are as for
// solveWeighted; a schedule that is empty, not strictly decreasing or has
// a weight below 1 is an error before any search.
func (s *Solver) solveAnytime(ctx context.Context, b puzzle.Board, opt anytimeOptions) (Bounded, error) {
	if opt.Beam {
		if opt.Schedule != nil || opt.Restarts {
			return Bounded{}, fmt.Errorf("solver: a beam search takes no weight schedule and no restarts")
		}
		if err := opt.validate(); err != nil {
			return Bounded{}, err
		}
		return s.solveBeamAnytime(ctx, b, opt)
	}
	sched := opt.Schedule
	if sched == nil {
		sched = DefaultSchedule()
	}
	if err := checkSchedule(sched); err != nil {
		return Bounded{}, err
	}
	if err := opt.validate(); err != nil {
		return Bounded{}, err
	}
	if opt.Restarts {
		return s.solveRestarts(ctx, b, sched, opt)
	}
	return s.solveARA(ctx, b, sched, opt)
}

// solveARA is solveAnytime without Beam and Restarts: ARA* over sched
// (checked).
func (s *Solver) solveARA(ctx context.Context, b puzzle.Board, sched []float64, opt anytimeOptions) (Bounded, error) {
	best, work, ok, err := s.start(b, opt.Limits)
	if err != nil || !ok {
		return best, err
	}
	a, err := s.newAStar(ctx, work, opt.Limits)
	if err != nil {
		return best, fmt.Errorf("ARA*: %w", err)
	}
	base := best
	// publish takes the search's current answer when it is better than
	// best and reports it.
	publish := func() {
		cur := base
		a.answer(&cur, true)
		if cur.Length < 0 {
			return
		}
		if best.Length >= 0 && cur.Length >= best.Length {
			lb := a.lower(best.Length)
			if lb <= best.Lower {
				return
			}
			best.Lower, best.Stats = lb, cur.Stats
			best.Optimal = best.Length == lb
			best.Bound = float64(best.Length) / float64(max(lb, 1))
			if best.Length == 0 {
				best.Bound = 1
			}
		} else {
			best = cur
		}
		if opt.OnSolution != nil {
			opt.OnSolution(best)
		}
	}
	for i := 0; i < len(sched); {
		w := sched[i]
		if err = a.reweigh(w); err != nil {
			break
		}
		if err = a.improvePath(); err != nil {
			break
		}
		publish()
		if best.Optimal {
			break
		}
		if i == len(sched)-1 && w == 1 && len(a.incons) > 0 {
			continue // inconsistent heuristic: another round at 1
		}
		for i++; i < len(sched) && sched[i] > 1 && sched[i] >= best.Bound; i++ {
		}
	}
	if err != nil {
		publish()
		if best.Length < 0 {
			a.answer(&best, false)
		}
		return best, fmt.Errorf("ARA*: %w", err)
	}
	return best, nil
}

// solveRestarts is solveAnytime with opt.Restarts: one weighted A* per
// weight of sched, each within the time the earlier ones left.
func (s *Solver) solveRestarts(ctx context.Context, b puzzle.Board, sched []float64, opt anytimeOptions) (Bounded, error) {
	start := time.Now()
	best := Bounded{Length: -1, Lower: -1}
	var err error
	for i, w := range sched {
		lim := opt.Limits
		if lim.TimeLimit > 0 {
			// The first search always runs (with at least 1ns), so that a
			// stop by the limit still answers the board and its bound.
			if lim.TimeLimit -= time.Since(start); lim.TimeLimit <= 0 {
				if i > 0 {
					err = fmt.Errorf("%w: %v", ErrTimeLimit, opt.TimeLimit)
					break
				}
				lim.TimeLimit = 1
			}
		}
		var out Bounded
		out, err = s.solveWeighted(ctx, b, w, lim)
		if out.Board == nil { // bad input: nothing searched
			return out, err
		}
		first := best.Board == nil
		improved := first || out.Lower > best.Lower ||
			out.Length >= 0 && (best.Length < 0 || out.Length < best.Length)
		if first {
			best = out
		}
		if out.Length >= 0 && (best.Length < 0 || out.Length < best.Length) {
			best.Length, best.Moves, best.Weight = out.Length, out.Moves, out.Weight
		}
		best.Lower = max(best.Lower, out.Lower)
		best.Stats = addStats(best.Stats, out.Stats, first)
		if !best.Solvable {
			return best, err
		}
		if best.Length >= 0 {
			best.Lower = min(best.Lower, best.Length)
			best.Optimal = best.Length == best.Lower
			best.Bound = float64(best.Length) / float64(max(best.Lower, 1))
			if best.Length == 0 {
				best.Bound = 1
			}
		}
		best.Stats.Elapsed = time.Since(start)
		if improved && best.Length >= 0 && opt.OnSolution != nil {
			opt.OnSolution(best)
		}
		if err != nil || best.Optimal {
			break
		}
	}
	best.Stats.Elapsed = time.Since(start)
	if err != nil {
		return best, fmt.Errorf("restarting weighted A*: %w", err)
	}
	return best, nil
}

// addStats adds the counts of one more search to total (first: total is
// that search's own), keeping the larger peak.
func addStats(total, more Stats, first bool) Stats {
	if first {
		return more
	}
	total.Generated += more.Generated
	total.Expanded += more.Expanded
	total.Stored = max(total.Stored, more.Stored)
	total.PeakBytes = max(total.PeakBytes, more.PeakBytes)
	return total
}

// checkSchedule rejects empty schedules, weights below 1 and schedules
// that do not strictly decrease.
func checkSchedule(sched []float64) error {
	if len(sched) == 0 {
		return fmt.Errorf("solver: empty weight schedule")
	}
	for i, w := range sched {
		if err := checkWeight(w); err != nil {
			return err
		}
		if i > 0 && w >= sched[i-1] {
			return fmt.Errorf("solver: weight schedule %v: weights must strictly decrease", sched)
		}
	}
	return nil
}
