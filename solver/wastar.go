package solver

import (
	"context"
	"fmt"
	"math"

	"github.com/tilepdb/tilepdb/puzzle"
)

// solveWeighted solves b by weighted A* (Pohl 1970, "Heuristic search viewed
// as path finding in a graph", Artificial Intelligence 1): best-first
// search on f = g + w*h with h the solver's heuristic (see Heuristic),
// w >= 1, duplicate detection over states (each stored once, packed into
// 8 bytes on boards of up to 16 cells, 16 bytes above), and states whose g
// falls after their expansion re-opened. The search stops when the goal's
// g is at most the smallest f on the open list, so for an admissible
// heuristic the length found is at most w times the optimum (w = 1 is A*
// and optimal). The answer also carries a proven lower bound on the
// optimum and the resulting factor (Bounded.Lower, Bounded.Bound), often
// much tighter than w.
//
// b must be a valid board of the tables' size (blank-first with
// Options.FromBlankFirst); an unsolvable board gives Solvable false without
// search. Memory is bounded by lim: on the 15-puzzle the arrays of the
// search (Stats.PeakBytes) peak at 45-90 bytes per stored state,
// depending on where the last growth step fell. When a limit is reached or ctx ends, it returns the
// Bounded filled with what is proven (Length -1, Lower, Stats) and an error
// wrapping ErrNodeLimit, ErrMemoryLimit, ErrTimeLimit or ctx's error. Errors
// about the board wrap puzzle.ErrBoard; w < 1 (or not a number) and negative
// limits are errors before any search.
func (s *Solver) solveWeighted(ctx context.Context, b puzzle.Board, w float64, lim Limits) (Bounded, error) {
	if err := checkWeight(w); err != nil {
		return Bounded{}, err
	}
	out, work, ok, err := s.start(b, lim)
	if err != nil || !ok {
		return out, err
	}
	a, err := s.newAStar(ctx, work, lim)
	if err != nil {
		return out, fmt.Errorf("weighted A* (w=%g): %w", w, err)
	}
	a.reopen = true
	if err = a.reweigh(w); err == nil {
		err = a.improvePath()
	}
	a.answer(&out, err == nil)
	out.Weight = w
	if err != nil {
		return out, fmt.Errorf("weighted A* (w=%g): %w", w, err)
	}
	return out, nil
}

// checkWeight rejects weights below 1, infinities and NaN.
func checkWeight(w float64) error {
	if !(w >= 1) || math.IsInf(w, 0) {
		return fmt.Errorf("solver: weight %g: must be a number >= 1", w)
	}
	return nil
}
