package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tilepdb/tilepdb/puzzle"
)

// Algorithm is one of the searches a Solver runs (Solver.Search): AlgIDA,
// AlgWeighted, AlgAnytime, AlgBidirectional or AlgBeam. Its String is the
// name ParseAlgorithm reads ("ida", "wastar", "anytime", "bidirectional",
// "beam").
type Algorithm uint8

const (
	// AlgIDA is the optimal search: IDA* over the tables, or the walk down
	// an exact table (Solver.SolveContext).
	AlgIDA Algorithm = iota
	// AlgWeighted is weighted A* (Solver.SolveWeighted) with
	// SearchOptions.Weight.
	AlgWeighted
	// AlgAnytime is ARA* (Solver.SolveAnytime) with SearchOptions.Schedule.
	AlgAnytime
	// AlgBidirectional is breadth-first search from both ends, without the
	// tables (Solver.SolveBidirectional).
	AlgBidirectional
	// AlgBeam is one beam search (Solver.SolveBeam) of width
	// SearchOptions.Width.
	AlgBeam
)

// algorithms is the registry of Algorithm: name and search, by value.
var algorithms = [...]struct {
	name   string
	search func(s *Solver, ctx context.Context, b puzzle.Board, opt SearchOptions) (Bounded, error)
}{
	AlgIDA:           {"ida", (*Solver).searchIDA},
	AlgWeighted:      {"wastar", (*Solver).searchWeighted},
	AlgAnytime:       {"anytime", (*Solver).searchAnytime},
	AlgBidirectional: {"bidirectional", (*Solver).searchBidirectional},
	AlgBeam:          {"beam", (*Solver).searchBeam},
}

// Algorithms lists the names of the algorithms, in the order of their
// values.
func Algorithms() []string {
	names := make([]string, len(algorithms))
	for i, a := range algorithms {
		names[i] = a.name
	}
	return names
}

// ParseAlgorithm returns the algorithm of a name of Algorithms; the error
// lists the names.
func ParseAlgorithm(name string) (Algorithm, error) {
	for i, a := range algorithms {
		if a.name == name {
			return Algorithm(i), nil
		}
	}
	return 0, fmt.Errorf("want one of %s", strings.Join(Algorithms(), ", "))
}

func (a Algorithm) String() string {
	if int(a) < len(algorithms) {
		return algorithms[a].name
	}
	return "algorithm(" + strconv.Itoa(int(a)) + ")"
}

// Weighted reports whether the algorithm orders states by f = g + w*h and
// so reports Bounded.Weight (AlgWeighted, AlgAnytime).
func (a Algorithm) Weighted() bool { return a == AlgWeighted || a == AlgAnytime }

// UsesTables reports whether the algorithm looks the tables up
// (everything but AlgBidirectional).
func (a Algorithm) UsesTables() bool { return a != AlgBidirectional }

// DefaultWeight is the weight of AlgWeighted when SearchOptions.Weight is
// 0.
const DefaultWeight = 1.5

// MaxWeight is the largest weight of AlgWeighted and AlgAnytime. The
// search orders states by f = g + W*h in a float64 with g and h below
// 65536 (uint16 fields): up to this W the products stay far below 2^53, so
// f keeps telling g apart by one move, and the bound "at most W times the
// optimum" still says something. A weight of 1e308 made every f infinite,
// and the search then wandered until a path of 65534 moves.
const MaxWeight = 1000

// ParseWeight parses one weight: a finite number in [1, MaxWeight]. The
// error says what is wrong, without the input.
func ParseWeight(s string) (float64, error) {
	w, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(w) || math.IsInf(w, 0) {
		return 0, errors.New("not a number")
	}
	if w < 1 {
		return 0, errors.New("must be >= 1")
	}
	if w > MaxWeight {
		return 0, fmt.Errorf("must be <= %d", MaxWeight)
	}
	return w, nil
}

// SearchOptions are what every algorithm of Solver.Search takes: the
// algorithm, its limits and its parameters.
type SearchOptions struct {
	// Algorithm is the search to run (the zero value is AlgIDA).
	Algorithm Algorithm
	// Limits bound the search: TimeLimit every algorithm (IDA* checks the
	// clock every few thousand moves), MaxNodes and MaxBytes the ones that
	// store states (IDA* stores none and ignores them).
	Limits
	// Weight is AlgWeighted's w (f = g + w*h), 1 <= w <= MaxWeight; 0
	// means DefaultWeight.
	Weight float64
	// Schedule is AlgAnytime's weights (see AnytimeOptions.Schedule); nil
	// means DefaultSchedule.
	Schedule []float64
	// Restarts makes AlgAnytime restart weighted A* at each weight (see
	// AnytimeOptions.Restarts).
	Restarts bool
	// Beam makes AlgAnytime run beam searches of growing width, then IDA*
	// for the bound (see AnytimeOptions.Beam).
	Beam bool
	// Width is AlgBeam's width (0 means DefaultBeamWidth), or the largest
	// width of AlgAnytime with Beam (0: no bound but memory and time); 1
	// to MaxBeamWidth.
	Width int
	// OnSolution, when not nil, receives AlgAnytime's improvements as they
	// are found (see AnytimeOptions.OnSolution).
	OnSolution func(Bounded)
}

// Stop reasons of Bounded.Stopped: why a search ended before its answer
// was complete (StopReason).
const (
	StopTime        = "time-limit"
	StopNodes       = "node-limit"
	StopMemory      = "memory-limit"
	StopInterrupted = "interrupted"
	// StopExhausted: a beam search (AlgBeam) whose level had no new state
	// (ErrBeamExhausted); a wider beam may succeed.
	StopExhausted = "beam-exhausted"
)

// StopReason names the limit in a search's error: StopTime for
// ErrTimeLimit or a context deadline, StopNodes, StopMemory, StopInterrupted
// for a cancelled context, StopExhausted for ErrBeamExhausted, "" for any
// other error (bad input, a corrupt table) and for nil.
func StopReason(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrTimeLimit), errors.Is(err, context.DeadlineExceeded):
		return StopTime
	case errors.Is(err, ErrNodeLimit):
		return StopNodes
	case errors.Is(err, ErrBeamExhausted):
		return StopExhausted
	case errors.Is(err, ErrMemoryLimit):
		return StopMemory
	case errors.Is(err, context.Canceled):
		return StopInterrupted
	}
	return ""
}

// Search solves b with opt.Algorithm within opt's limits. Every algorithm
// answers through the same Bounded: the solution when one was found
// (Length, Moves), the proven lower bound on the optimum (Lower; for IDA*
// the bound of the iteration under way when stopped, for the
// bidirectional search one more than the length it has ruled out), the
// nodes generated and the elapsed time (Stats), and Stopped. The error
// is nil for a complete answer; when a limit or ctx ended the search it
// wraps ErrTimeLimit, ErrNodeLimit, ErrMemoryLimit or ctx's error, and the
// Bounded holds what was proven (Stopped names the reason). Errors about
// the board wrap puzzle.ErrBoard (the Bounded then has no Board); invalid
// options are errors before any search. A Solver made by NewBoard (no
// tables) runs AlgBidirectional only.
func (s *Solver) Search(ctx context.Context, b puzzle.Board, opt SearchOptions) (Bounded, error) {
	if int(opt.Algorithm) >= len(algorithms) {
		return Bounded{}, fmt.Errorf("solver: unknown algorithm %d", opt.Algorithm)
	}
	if s.set == nil && opt.Algorithm.UsesTables() {
		return Bounded{}, fmt.Errorf("solver: %s needs tables", opt.Algorithm)
	}
	out, err := algorithms[opt.Algorithm].search(s, ctx, b, opt)
	out.Algorithm = opt.Algorithm
	if out.Board != nil {
		out.Stopped = StopReason(err)
	}
	return out, err
}

// searchIDA runs SolveContext within opt.TimeLimit.
func (s *Solver) searchIDA(ctx context.Context, b puzzle.Board, opt SearchOptions) (Bounded, error) {
	if err := opt.Limits.validate(); err != nil {
		return Bounded{}, err
	}
	sctx := ctx
	if opt.TimeLimit > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, opt.TimeLimit)
		defer cancel()
	}
	res, err := s.SolveContext(sctx, b)
	var se *StoppedError
	switch {
	case err == nil:
		out := Bounded{Board: res.Board, Searched: res.Searched, Converted: res.Converted, Solvable: res.Solvable,
			Length: res.Length, Moves: res.Moves, Lower: -1, Stats: Stats{Generated: res.Nodes, Elapsed: res.Elapsed}}
		if res.Solvable {
			out.Lower, out.Bound, out.Optimal = res.Length, 1, true
		}
		return out, nil
	case !errors.As(err, &se):
		return Bounded{}, err // bad input or a corrupt table
	}
	out := Bounded{Board: append(puzzle.Board(nil), b...), Converted: s.opt.FromBlankFirst, Solvable: true, Length: -1,
		Lower: se.Lower, Stats: Stats{Generated: se.Nodes, Elapsed: se.Elapsed}}
	out.Searched = out.Board
	if out.Converted {
		out.Searched = puzzle.BlankFirstToLast(b)
	}
	if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("IDA*: %w: %v", ErrTimeLimit, opt.TimeLimit)
	}
	return out, err
}

func (s *Solver) searchWeighted(ctx context.Context, b puzzle.Board, opt SearchOptions) (Bounded, error) {
	w := opt.Weight
	if w == 0 {
		w = DefaultWeight
	}
	return s.SolveWeighted(ctx, b, w, opt.Limits)
}

func (s *Solver) searchAnytime(ctx context.Context, b puzzle.Board, opt SearchOptions) (Bounded, error) {
	on := opt.OnSolution
	if on != nil {
		on = func(a Bounded) {
			a.Algorithm = AlgAnytime
			opt.OnSolution(a)
		}
	}
	return s.SolveAnytime(ctx, b, AnytimeOptions{Schedule: opt.Schedule, Restarts: opt.Restarts, Beam: opt.Beam, MaxWidth: opt.Width,
		Limits: opt.Limits, OnSolution: on})
}

func (s *Solver) searchBeam(ctx context.Context, b puzzle.Board, opt SearchOptions) (Bounded, error) {
	w := opt.Width
	if w == 0 {
		w = DefaultBeamWidth
	}
	return s.SolveBeam(ctx, b, w, opt.Limits)
}

// DefaultBeamWidth is AlgBeam's width when SearchOptions.Width is 0.
const DefaultBeamWidth = 10000

func (s *Solver) searchBidirectional(ctx context.Context, b puzzle.Board, opt SearchOptions) (Bounded, error) {
	res, st, lower, err := s.solveBidirectional(ctx, b, opt.Limits)
	if res.Board == nil { // an error before the search
		return Bounded{}, err
	}
	out := Bounded{Board: res.Board, Searched: res.Searched, Converted: res.Converted, Solvable: res.Solvable,
		Length: res.Length, Moves: res.Moves, Lower: -1, Stats: st}
	switch {
	case !res.Solvable:
	case err == nil:
		out.Lower, out.Bound, out.Optimal = res.Length, 1, true
	default:
		out.Lower = lower
	}
	return out, err
}

// Result returns the answer of a complete AlgIDA search in the form of
// Solver.SolveContext.
func (b Bounded) Result() Result {
	return Result{Board: b.Board, Solvable: b.Solvable, Length: b.Length, Moves: b.Moves, Nodes: b.Stats.Generated,
		Elapsed: b.Stats.Elapsed, Converted: b.Converted, Searched: b.Searched}
}
