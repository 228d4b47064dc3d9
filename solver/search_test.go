package solver

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// hardest8 is one of the two 8-puzzle boards farthest from the blank-last
// goal: 31 moves.
var hardest8 = puzzle.Board{8, 6, 7, 2, 5, 4, 3, 0, 1}

// TestSearchSameAnswer: every algorithm of Search answers the same board
// through the same Bounded, the optimal ones with the same length and a
// proven optimum, and stops at the same limits with its stop reason.
func TestSearchSameAnswer(t *testing.T) {
	sv := newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{})
	ctx := context.Background()
	params := map[Algorithm]Params{AlgWeighted: WeightParams{Weight: 1}}
	for _, alg := range []Algorithm{AlgIDA, AlgWeighted, AlgAnytime, AlgRestarts, AlgAnytimeBeamSearch, AlgBidirectional} {
		got, err := ParseAlgorithm(alg.String())
		if err != nil || got != alg {
			t.Errorf("ParseAlgorithm(%q) = %v, %v", alg, got, err)
		}
		if alg.Summary() == "" || alg.About() == "" {
			t.Errorf("%s: no summary or description in the registry", alg)
		}
		opt := SearchOptions{Algorithm: alg, Params: params[alg]}
		if alg.Anytime() {
			opt.OnSolution = func(b Bounded) {
				if b.Algorithm != alg {
					t.Errorf("%s: an improvement reported as %s", alg, b.Algorithm)
				}
			}
		}
		out, err := sv.Search(ctx, hardest8, opt)
		if err != nil || out.Algorithm != alg || out.Stopped != "" || !out.Solvable || out.Length != 31 || !out.Optimal || out.Lower != 31 || out.Stats.Generated == 0 {
			t.Errorf("%s: %+v, error %v", alg, out, err)
		}
		if alg == AlgIDA {
			continue // IDA* stores no states: no node limit
		}
		opt.MaxNodes = 20
		out, err = sv.Search(ctx, hardest8, opt)
		if !errors.Is(err, ErrNodeLimit) || out.Stopped != StopNodes || out.Length != -1 || out.Lower < 0 || out.Lower > 31 {
			t.Errorf("%s with 20 nodes: %+v, error %v", alg, out, err)
		}
	}
	if _, err := ParseAlgorithm("dfs"); err == nil {
		t.Error("ParseAlgorithm accepted dfs")
	}
	// Each algorithm takes its own parameters only.
	for _, tc := range []struct {
		alg Algorithm
		p   Params
	}{
		{AlgIDA, WeightParams{Weight: 2}},
		{AlgBidirectional, WidthParams{Width: 3}},
		{AlgWeighted, ScheduleParams{Schedule: []float64{2, 1}}},
		{AlgAnytime, WeightParams{Weight: 2}},
		{AlgBeamSearch, WeightParams{Weight: 2}},
		{AlgAnytimeBeamSearch, ScheduleParams{}},
	} {
		if _, err := sv.Search(ctx, hardest8, SearchOptions{Algorithm: tc.alg, Params: tc.p}); err == nil || !strings.Contains(err.Error(), tc.alg.String()) {
			t.Errorf("%s with %T: error %v, want a refusal naming the algorithm", tc.alg, tc.p, err)
		}
	}
	nb, err := NewBoard(puzzle.Geometry{W: 3, H: 3}, puzzle.BlankLastGoal(puzzle.Geometry{W: 3, H: 3}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nb.Search(ctx, hardest8, SearchOptions{}); err == nil {
		t.Error("IDA* without tables: no error")
	}
	if out, err := nb.Search(ctx, hardest8, SearchOptions{Algorithm: AlgBidirectional}); err != nil || out.Length != 31 {
		t.Errorf("bidirectional without tables: %+v, error %v", out, err)
	}
}

// TestBidirectionalLowerAtLimit: a bidirectional search stopped by its
// node limit reports a proven lower bound, like IDA* stopped by time: one
// more than the length it ruled out, at the parity of every solution.
func TestBidirectionalLowerAtLimit(t *testing.T) {
	g := puzzle.Geometry{W: 3, H: 3}
	sv, err := NewBoard(g, puzzle.BlankLastGoal(g))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []uint64{2, 20, 100, 1000} {
		out, err := sv.Search(context.Background(), hardest8, SearchOptions{Algorithm: AlgBidirectional, Limits: Limits{MaxNodes: n}})
		if !errors.Is(err, ErrNodeLimit) || out.Stopped != StopNodes {
			t.Fatalf("%d nodes: %+v, error %v", n, out, err)
		}
		if out.Lower < 1 || out.Lower > 31 || out.Lower%2 != 1 {
			t.Errorf("%d nodes: lower %d, want an odd bound in 1..31", n, out.Lower)
		}
		t.Logf("%d nodes: lower %d (%v)", n, out.Lower, err)
	}
}

// TestIDATimeLimitFine: IDA*'s time limit is checked every few thousand
// moves and before every iteration, so 1 ns stops a search of a few
// thousand nodes (which a check every 65,536 moves never reached).
func TestIDATimeLimitFine(t *testing.T) {
	sv := newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2}, []uint8{3, 4}, []uint8{5, 6}, []uint8{7, 8}), Options{})
	full, err := sv.Search(context.Background(), hardest8, SearchOptions{})
	if err != nil || full.Length != 31 {
		t.Fatalf("no limit: %+v, error %v", full, err)
	}
	t.Logf("the whole search: %d nodes in %v", full.Stats.Generated, full.Stats.Elapsed)
	out, err := sv.Search(context.Background(), hardest8, SearchOptions{Limits: Limits{TimeLimit: time.Nanosecond}})
	if !errors.Is(err, ErrTimeLimit) || out.Stopped != StopTime || out.Length != -1 || out.Lower < 0 || out.Lower > 31 {
		t.Errorf("1 ns: %+v, error %v", out, err)
	}
	if out.Stats.Generated >= full.Stats.Generated {
		t.Errorf("1 ns: %d nodes, as many as the whole search", out.Stats.Generated)
	}
}

// TestNewContextCancel: cancelling the context while New copies a table
// into its direct index (a 16^6-entry copy) ends it at once with the
// context's error.
func TestNewContextCancel(t *testing.T) {
	s := set(t, 4, 4, "blank-last", part663...)
	ctx, cancel := context.WithCancel(context.Background())
	stop := time.AfterFunc(2*time.Millisecond, cancel)
	defer stop.Stop()
	start := time.Now()
	sv, err := NewContext(ctx, s, Options{})
	took := time.Since(start)
	if !errors.Is(err, context.Canceled) || sv != nil {
		t.Fatalf("cancelled after 2ms: solver %v, error %v (took %v)", sv != nil, err, took)
	}
	t.Logf("New returned %v after %v", err, took)
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := NewContext(ctx, s, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: error %v", err)
	}
}
