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

// Algorithm is one of the searches a Solver runs (Solver.Search), an
// entry of the one registry of algorithms: AlgIDA, AlgWeighted,
// AlgAnytime, AlgRestarts, AlgAnytimeBeamSearch, AlgBeamSearch or AlgBidirectional.
// Its String is the name ParseAlgorithm reads (Algorithms lists them);
// Summary and About describe it, Params says which parameters it takes.
type Algorithm uint8

const (
	// AlgIDA is the optimal search: IDA* over the tables, or the walk down
	// an exact table. It takes no Params.
	AlgIDA Algorithm = iota
	// AlgWeighted is weighted A* (f = g + w*h; a solution at most w times
	// the optimum), with WeightParams.
	AlgWeighted
	// AlgAnytime is ARA*, weighted A* over a schedule of weights reusing
	// its search, with ScheduleParams.
	AlgAnytime
	// AlgRestarts is restarting weighted A*: a fresh weighted A* per
	// weight of a schedule, with ScheduleParams.
	AlgRestarts
	// AlgAnytimeBeamSearch is the anytime beam search: beam searches of growing
	// width, then IDA* for the lower bound, with WidthParams (the largest
	// width).
	AlgAnytimeBeamSearch
	// AlgBeamSearch is one beam search, with WidthParams (its width).
	AlgBeamSearch
	// AlgBidirectional is breadth-first search from both ends, without the
	// tables. It takes no Params.
	AlgBidirectional
)

// algorithmEntry is one algorithm of the registry.
type algorithmEntry struct {
	name    string
	summary string // a few words (pdbgen's --algorithm help)
	about   string // a sentence (pdbgen solve's help)
	params  Params // the zero value of its parameters' type; nil: none
	// weighted: reports Bounded.Weight; anytime: reports each improvement
	// (SearchOptions.OnSolution); tables: looks the tables up.
	weighted, anytime, tables bool
	search                    func(s *Solver, ctx context.Context, b puzzle.Board, opt SearchOptions) (Bounded, error)
}

// algorithms is the registry of Algorithm, by value.
var algorithms = [...]algorithmEntry{
	AlgIDA: {name: "ida", summary: "optimal, default", tables: true, search: (*Solver).searchIDA,
		about: "optimal: IDA* on additive tables or catalogues, a walk down an exact table"},
	AlgWeighted: {name: "wastar", summary: "weighted A*", params: WeightParams{}, weighted: true, tables: true, search: (*Solver).searchWeighted,
		about: "weighted A* (f = g + W*h): a solution at most W times the optimum"},
	AlgAnytime: {name: "anytime", summary: "ARA*", params: ScheduleParams{}, weighted: true, anytime: true, tables: true, search: (*Solver).searchAnytime,
		about: "ARA*: weighted A* over strictly decreasing weights, reusing its search; a first solution at once, then each improvement, down to a proven optimum (or the bound of a last weight above 1)"},
	AlgRestarts: {name: "restarts", summary: "restarting weighted A*", params: ScheduleParams{}, weighted: true, anytime: true, tables: true, search: (*Solver).searchRestarts,
		about: "restarting weighted A* (Richter, Thayer & Ruml 2010): a fresh weighted A* per weight of the schedule instead of ARA*'s reuse; first solutions sooner on big boards with weak tables"},
	AlgAnytimeBeamSearch: {name: "anytime-beam", summary: "beam searches of growing width, then IDA* for the bound", params: WidthParams{}, weighted: true, anytime: true, tables: true, search: (*Solver).searchAnytimeBeam,
		about: fmt.Sprintf("beam searches of widths %d, twice that, and so on up to the largest width, then (with a time limit) one as wide as the time and memory left allow (and one more when it ends early), then IDA* up to the best length for the proven bound: the shortest solutions on big boards", FirstBeamWidth)},
	AlgBeamSearch: {name: "beam", summary: "beam search: fast, no bound on the length", params: WidthParams{}, tables: true, search: (*Solver).searchBeam,
		about: "one beam search, keeping per level the width states with the smallest heuristic; fast, with no bound on the length"},
	AlgBidirectional: {name: "bidirectional", summary: "breadth-first from both ends, no table needed", search: (*Solver).searchBidirectional,
		about: "breadth-first search from both ends: optimal, no table needed"},
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

func (a Algorithm) entry() algorithmEntry {
	if int(a) < len(algorithms) {
		return algorithms[a]
	}
	return algorithmEntry{}
}

// Summary describes the algorithm in a few words.
func (a Algorithm) Summary() string { return a.entry().summary }

// About describes the algorithm in a sentence.
func (a Algorithm) About() string { return a.entry().about }

// Params returns the zero value of the type of the algorithm's parameters
// (SearchOptions.Params): WeightParams, ScheduleParams or WidthParams; nil
// for an algorithm that takes none.
func (a Algorithm) Params() Params { return a.entry().params }

// Weighted reports whether the algorithm reports Bounded.Weight, the
// weight of the search that found the solution: AlgWeighted, AlgAnytime,
// AlgRestarts (f = g + w*h), and AlgAnytimeBeamSearch (1 when its IDA* found
// the solution, 0 for a beam's).
func (a Algorithm) Weighted() bool { return a.entry().weighted }

// Anytime reports whether the algorithm reports each improvement of its
// answer as it finds it (SearchOptions.OnSolution): AlgAnytime,
// AlgRestarts, AlgAnytimeBeamSearch.
func (a Algorithm) Anytime() bool { return a.entry().anytime }

// UsesTables reports whether the algorithm looks the tables up
// (everything but AlgBidirectional).
func (a Algorithm) UsesTables() bool { return a.entry().tables }

// DefaultWeight is the weight of AlgWeighted when WeightParams.Weight is
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

// SearchOptions are what Solver.Search takes: the algorithm, the limits
// every algorithm takes, the algorithm's own parameters and, for the
// anytime algorithms, a callback.
type SearchOptions struct {
	// Algorithm is the search to run (the zero value is AlgIDA).
	Algorithm Algorithm
	// Limits bound the search: TimeLimit every algorithm (IDA* checks the
	// clock every few thousand moves), MaxNodes and MaxBytes the ones that
	// store states (IDA* stores none and ignores them).
	Limits
	// Params are the algorithm's own parameters, of the type of
	// Algorithm.Params (WeightParams, ScheduleParams, WidthParams); nil
	// means the algorithm's defaults. Parameters of another type are an
	// error.
	Params Params
	// OnSolution, when not nil, receives an anytime algorithm's
	// improvements as they are found (Algorithm.Anytime), in the search's
	// goroutine: a shorter solution, or the same one with a higher proven
	// lower bound; each Bounded is the one Search would return then.
	OnSolution func(Bounded)
}

// Params are one algorithm's parameters (SearchOptions.Params):
// WeightParams, ScheduleParams or WidthParams.
type Params interface {
	// params seals the interface to the types of this package.
	params()
}

// WeightParams are the parameters of AlgWeighted.
type WeightParams struct {
	// Weight is w in f = g + w*h, 1 <= w <= MaxWeight; 0 means
	// DefaultWeight.
	Weight float64
}

// ScheduleParams are the parameters of AlgAnytime and AlgRestarts.
type ScheduleParams struct {
	// Schedule lists the weights, strictly decreasing, each in [1,
	// MaxWeight]; nil means DefaultSchedule. Ending with 1 lets the search
	// prove the optimum.
	Schedule []float64
}

// WidthParams are the parameters of AlgBeamSearch (Width: the states kept per
// level, 0 meaning DefaultBeamWidth) and AlgAnytimeBeamSearch (Width: the
// largest width, 0 meaning MaxBeamWidth: no bound but memory and time);
// 1 to MaxBeamWidth.
type WidthParams struct {
	Width int
}

func (WeightParams) params()   {}
func (ScheduleParams) params() {}
func (WidthParams) params()    {}

// paramsOf returns opt's parameters for alg as P (the zero P when nil),
// or an error when they are of another type.
func paramsOf[P Params](alg Algorithm, opt SearchOptions) (P, error) {
	var zero P
	switch p := opt.Params.(type) {
	case nil:
		return zero, nil
	case P:
		return p, nil
	}
	return zero, fmt.Errorf("solver: %s takes %T, not %T", alg, zero, opt.Params)
}

// Stop reasons of Bounded.Stopped: why a search ended before its answer
// was complete (StopReason).
const (
	StopTime        = "time-limit"
	StopNodes       = "node-limit"
	StopMemory      = "memory-limit"
	StopInterrupted = "interrupted"
	// StopExhausted: a beam search (AlgBeamSearch) whose level had no new state
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
	if opt.Params != nil && opt.Algorithm.Params() == nil {
		return Bounded{}, fmt.Errorf("solver: %s takes no parameters, not %T", opt.Algorithm, opt.Params)
	}
	if on := opt.OnSolution; on != nil {
		opt.OnSolution = func(a Bounded) {
			a.Algorithm = opt.Algorithm
			on(a)
		}
	}
	out, err := algorithms[opt.Algorithm].search(s, ctx, b, opt)
	out.Algorithm = opt.Algorithm
	if out.Board != nil {
		out.Stopped = StopReason(err)
	}
	return out, err
}

// searchIDA runs solveContext within opt.TimeLimit.
func (s *Solver) searchIDA(ctx context.Context, b puzzle.Board, opt SearchOptions) (Bounded, error) {
	if err := opt.validate(); err != nil {
		return Bounded{}, err
	}
	sctx := ctx
	if opt.TimeLimit > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, opt.TimeLimit)
		defer cancel()
	}
	res, err := s.solveContext(sctx, b)
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
	p, err := paramsOf[WeightParams](opt.Algorithm, opt)
	if err != nil {
		return Bounded{}, err
	}
	w := p.Weight
	if w == 0 {
		w = DefaultWeight
	}
	return s.solveWeighted(ctx, b, w, opt.Limits)
}

func (s *Solver) searchAnytime(ctx context.Context, b puzzle.Board, opt SearchOptions) (Bounded, error) {
	p, err := paramsOf[ScheduleParams](opt.Algorithm, opt)
	if err != nil {
		return Bounded{}, err
	}
	return s.solveAnytime(ctx, b, anytimeOptions{Schedule: p.Schedule, Limits: opt.Limits, OnSolution: opt.OnSolution})
}

func (s *Solver) searchRestarts(ctx context.Context, b puzzle.Board, opt SearchOptions) (Bounded, error) {
	p, err := paramsOf[ScheduleParams](opt.Algorithm, opt)
	if err != nil {
		return Bounded{}, err
	}
	return s.solveAnytime(ctx, b, anytimeOptions{Schedule: p.Schedule, Restarts: true, Limits: opt.Limits, OnSolution: opt.OnSolution})
}

func (s *Solver) searchAnytimeBeam(ctx context.Context, b puzzle.Board, opt SearchOptions) (Bounded, error) {
	p, err := paramsOf[WidthParams](opt.Algorithm, opt)
	if err != nil {
		return Bounded{}, err
	}
	return s.solveAnytime(ctx, b, anytimeOptions{Beam: true, MaxWidth: p.Width, Limits: opt.Limits, OnSolution: opt.OnSolution})
}

func (s *Solver) searchBeam(ctx context.Context, b puzzle.Board, opt SearchOptions) (Bounded, error) {
	p, err := paramsOf[WidthParams](opt.Algorithm, opt)
	if err != nil {
		return Bounded{}, err
	}
	w := p.Width
	if w == 0 {
		w = DefaultBeamWidth
	}
	return s.solveBeam(ctx, b, w, opt.Limits)
}

// DefaultBeamWidth is AlgBeamSearch's width when its WidthParams.Width is 0.
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
// Solver.solveContext.
func (b Bounded) Result() Result {
	return Result{Board: b.Board, Solvable: b.Solvable, Length: b.Length, Moves: b.Moves, Nodes: b.Stats.Generated,
		Elapsed: b.Stats.Elapsed, Converted: b.Converted, Searched: b.Searched}
}
