package solver

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// checkBounded fails unless res is a correct answer for board b whose
// optimal length is opt, found with weight at most w: a solution that
// replays to goal, opt <= Length <= w*opt, Lower <= opt, Bound and Optimal
// consistent with them.
func checkBounded(tb testing.TB, what string, g puzzle.Geometry, b, goal puzzle.Board, res Bounded, opt int, w float64) {
	tb.Helper()
	if !res.Solvable || res.Length < 0 {
		tb.Fatalf("%s: %v: no solution: %+v", what, b, res)
	}
	if res.Length < opt || float64(res.Length) > w*float64(opt)+1e-9 {
		tb.Fatalf("%s: %v: length %d, optimum %d, weight %g", what, b, res.Length, opt, w)
	}
	if res.Lower < 0 || res.Lower > opt || res.Lower%2 != opt%2 {
		tb.Fatalf("%s: %v: lower bound %d, optimum %d", what, b, res.Lower, opt)
	}
	if res.Optimal != (res.Length == res.Lower) {
		tb.Fatalf("%s: %v: optimal %v with length %d lower %d", what, b, res.Optimal, res.Length, res.Lower)
	}
	if want := float64(res.Length) / float64(max(res.Lower, 1)); res.Bound != want && !(res.Length == 0 && res.Bound == 1) {
		tb.Fatalf("%s: %v: bound %g, want %g", what, b, res.Bound, want)
	}
	if res.Stats.Stored == 0 || res.Stats.Generated < res.Stats.Stored-1 || res.Stats.PeakBytes <= 0 && res.Length > 0 {
		tb.Fatalf("%s: %v: stats %+v", what, b, res.Stats)
	}
	checkReplay(tb, g, b, goal, res.Moves, res.Length)
}

// Test8AllAlgorithms runs a random sample of 8-puzzle states through
// weighted A* (several weights), ARA* and the bidirectional search, with
// additive tables (with and without reflection) and with the exact table
// as heuristic, and checks every answer against the exact table's value.
func Test8AllAlgorithms(t *testing.T) {
	tab := table(t, 3, 3, "blank-last")
	g, goal := tab.Pattern.Geom, tab.Pattern.Goal
	solvers := map[string]*Solver{
		"4-4":         newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{}),
		"4-4+reflect": newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{Reflect: true}),
		"2-2+reflect": newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2}, []uint8{3, 4}), Options{Reflect: true}), // weak: tiles 5-8 in no table
		"exact":       newSolver(t, set(t, 3, 3, "blank-last"), Options{}),
	}
	names := []string{"4-4", "4-4+reflect", "2-2+reflect", "exact"}
	samples := 300
	if raceEnabled || testing.Short() {
		samples = 60
	}
	rng := rand.New(rand.NewPCG(21, 22))
	pos := make([]uint8, g.N())
	ctx := context.Background()
	for i := range samples {
		idx := rng.Uint64N(tab.Pattern.Size())
		if i == 0 {
			idx = tab.Pattern.Rank(goal.Positions()) // the goal itself
		}
		tab.Pattern.Unrank(idx, pos)
		b := puzzle.BoardFromPositions(pos)
		opt := int(tab.Values[idx])
		for _, name := range names {
			sv := solvers[name]
			for _, w := range []float64{1, 1.5, 2, 5} {
				res, err := sv.solveWeighted(ctx, b, w, Limits{})
				if err != nil {
					t.Fatalf("%s w=%g %v: %v", name, w, b, err)
				}
				checkBounded(t, name+" weighted", g, b, goal, res, opt, w)
				if w == 1 && !res.Optimal {
					t.Fatalf("%s A* %v: length %d not proven optimal (lower %d)", name, b, res.Length, res.Lower)
				}
			}
			var reported []Bounded
			res, err := sv.solveAnytime(ctx, b, anytimeOptions{OnSolution: func(r Bounded) { reported = append(reported, r) }})
			if err != nil {
				t.Fatalf("%s ARA* %v: %v", name, b, err)
			}
			checkBounded(t, name+" ARA*", g, b, goal, res, opt, 1)
			checkReports(t, name, b, reported, res, opt)
			reported = nil
			res, err = sv.solveAnytime(ctx, b, anytimeOptions{Restarts: true, OnSolution: func(r Bounded) { reported = append(reported, r) }})
			if err != nil {
				t.Fatalf("%s restarting weighted A* %v: %v", name, b, err)
			}
			checkBounded(t, name+" restarts", g, b, goal, res, opt, 1)
			checkReports(t, name+" restarts", b, reported, res, opt)
		}
		res, _, err := bidirectional(ctx, g, b, goal, Limits{})
		if err != nil {
			t.Fatalf("bidirectional %v: %v", b, err)
		}
		if !res.Solvable || res.Length != opt {
			t.Fatalf("bidirectional %v: length %d, table %d", b, res.Length, opt)
		}
		checkReplay(t, g, b, goal, res.Moves, opt)
	}
}

// checkReports checks the answers ARA* passed to OnSolution: each a valid
// bounded answer (weight: the one it was found with), each better than the
// one before (shorter, or as long with a higher lower bound), the last one
// the final answer, proven optimal.
func checkReports(tb testing.TB, name string, b puzzle.Board, reported []Bounded, final Bounded, opt int) {
	tb.Helper()
	if len(reported) == 0 {
		tb.Fatalf("%s ARA* %v: nothing reported", name, b)
	}
	for i, r := range reported {
		if r.Length < opt || float64(r.Length) > r.Weight*float64(opt)+1e-9 || r.Lower > opt {
			tb.Fatalf("%s ARA* %v: report %d: length %d lower %d weight %g, optimum %d", name, b, i, r.Length, r.Lower, r.Weight, opt)
		}
		if i > 0 {
			p := reported[i-1]
			if !improves(r, p) {
				tb.Fatalf("%s ARA* %v: report %d (%d, lower %d) does not improve on (%d, lower %d)", name, b, i, r.Length, r.Lower, p.Length, p.Lower)
			}
		}
	}
	last := reported[len(reported)-1]
	if last.Length != final.Length || last.Moves != final.Moves || last.Lower != final.Lower || !final.Optimal || final.Length != opt {
		tb.Fatalf("%s ARA* %v: last report %+v, final %+v, optimum %d", name, b, last, final, opt)
	}
}

// TestWeightedBoundTight: on the 8-puzzle with a weak heuristic, large
// weights do find longer solutions (so the bound checks above can fail),
// and never beyond w times the optimum.
func TestWeightedBoundTight(t *testing.T) {
	tab := table(t, 3, 3, "blank-last")
	g, goal := tab.Pattern.Geom, tab.Pattern.Goal
	sv := newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2}, []uint8{3, 4}), Options{})
	rng := rand.New(rand.NewPCG(23, 24))
	pos := make([]uint8, g.N())
	longer := 0
	for range 100 {
		idx := rng.Uint64N(tab.Pattern.Size())
		tab.Pattern.Unrank(idx, pos)
		b := puzzle.BoardFromPositions(pos)
		res, err := sv.solveWeighted(context.Background(), b, 3, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		checkBounded(t, "w=3", g, b, goal, res, int(tab.Values[idx]), 3)
		if res.Length > int(tab.Values[idx]) {
			longer++
		}
	}
	if longer == 0 {
		t.Fatal("weight 3 never found a longer solution: the test cannot tell a weighted search from A*")
	}
}

// TestBidirectionalVsBFS solves 3x2, 3x3 and 2x4 states by the
// bidirectional search against plain breadth-first distances, and
// unsolvable boards.
func TestBidirectionalVsBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for _, g := range []puzzle.Geometry{{W: 3, H: 2}, {W: 3, H: 3}, {W: 2, H: 4}, {W: 2, H: 2}} {
		for _, goal := range []puzzle.Board{puzzle.BlankLastGoal(g), puzzle.BlankFirstGoal(g)} {
			dist := pdbtest.Distances(g, goal)
			n := 0
			for k, d := range dist {
				if n++; n > 300 && g.N() > 6 {
					break
				}
				b := puzzle.Board(k)
				res, st, err := bidirectional(context.Background(), g, b, goal, Limits{})
				if err != nil {
					t.Fatal(err)
				}
				if !res.Solvable || res.Length != d || res.Nodes != st.Generated {
					t.Fatalf("%s %v: %+v, BFS %d", g, b, res, d)
				}
				checkReplay(t, g, b, goal, res.Moves, d)
			}
			for range 20 {
				b := randomBoard(rng, g.N())
				if _, ok := dist[string(b)]; ok {
					continue
				}
				res, _, err := bidirectional(context.Background(), g, b, goal, Limits{})
				if err != nil || res.Solvable || res.Length != -1 {
					t.Fatalf("%s unsolvable %v: %+v %v", g, b, res, err)
				}
			}
		}
	}
}

// TestFromBlankFirstAlgorithms: the weighted, anytime and bidirectional
// searches convert blank-first boards like Solve and their moves solve the
// board as given.
func TestFromBlankFirstAlgorithms(t *testing.T) {
	g := puzzle.Geometry{W: 3, H: 3}
	first := puzzle.BlankFirstGoal(g)
	df := pdbtest.Distances(g, first)
	sv := newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{FromBlankFirst: true, Reflect: true})
	rng := rand.New(rand.NewPCG(27, 28))
	ctx := context.Background()
	for range 50 {
		b := pdbtest.RandomWalk(rng, g, first, rng.IntN(80))
		opt := df[string(b)]
		res, err := sv.solveWeighted(ctx, b, 1.5, Limits{})
		if err != nil || !res.Converted || !res.Searched.Equal(puzzle.BlankFirstToLast(b)) {
			t.Fatalf("%v: %+v %v", b, res, err)
		}
		checkBounded(t, "weighted", g, b, first, res, opt, 1.5)
		res, err = sv.solveAnytime(ctx, b, anytimeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkBounded(t, "ARA*", g, b, first, res, opt, 1)
		r, _, err := sv.solveBidir(ctx, b, Limits{})
		if err != nil || !r.Converted || r.Length != opt {
			t.Fatalf("%v: %+v %v, want %d", b, r, err, opt)
		}
		checkReplay(t, g, b, first, r.Moves, opt)
	}
}

// TestAlgorithmsUnsolvable: an unsolvable board is answered without
// search.
func TestAlgorithmsUnsolvable(t *testing.T) {
	sv := newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{})
	b := puzzle.Board{2, 1, 3, 4, 5, 6, 7, 8, 0}
	ctx := context.Background()
	for name, f := range map[string]func() (Bounded, error){
		"weighted": func() (Bounded, error) { return sv.solveWeighted(ctx, b, 2, Limits{}) },
		"anytime":  func() (Bounded, error) { return sv.solveAnytime(ctx, b, anytimeOptions{}) },
	} {
		res, err := f()
		if err != nil || res.Solvable || res.Length != -1 || res.Lower != -1 || res.Stats.Generated != 0 {
			t.Fatalf("%s: %+v %v", name, res, err)
		}
	}
	res, st, err := sv.solveBidir(ctx, b, Limits{})
	if err != nil || res.Solvable || res.Length != -1 || st.Generated != 0 {
		t.Fatalf("bidirectional: %+v %v", res, err)
	}
}

// TestAlgorithmErrors: bad weights, schedules, limits and boards are
// refused before any search; limits reached during a search give their
// error, what is proven so far, and no crash.
func TestAlgorithmErrors(t *testing.T) {
	sv := newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2}, []uint8{3, 4}), Options{})
	g := sv.Geometry()
	hard := puzzle.Board{8, 6, 7, 2, 5, 4, 3, 0, 1} // 31 moves
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		run  func() error
		want string
	}{
		{"weight below 1", func() error { _, err := sv.solveWeighted(ctx, hard, 0.99, Limits{}); return err }, "weight 0.99"},
		{"weight NaN", func() error { _, err := sv.solveWeighted(ctx, hard, math.NaN(), Limits{}); return err }, "weight NaN"},
		{"weight +Inf", func() error { _, err := sv.solveWeighted(ctx, hard, math.Inf(1), Limits{}); return err }, "weight +Inf"},
		{"negative memory", func() error { _, err := sv.solveWeighted(ctx, hard, 1, Limits{MaxBytes: -1}); return err }, "negative"},
		{"negative time", func() error {
			_, err := sv.solveAnytime(ctx, hard, anytimeOptions{Limits: Limits{TimeLimit: -time.Second}})
			return err
		}, "negative"},
		{"empty schedule", func() error { _, err := sv.solveAnytime(ctx, hard, anytimeOptions{Schedule: []float64{}}); return err }, "empty"},
		{"rising schedule", func() error {
			_, err := sv.solveAnytime(ctx, hard, anytimeOptions{Schedule: []float64{2, 3, 1}})
			return err
		}, "strictly decrease"},
		{"schedule below 1", func() error {
			_, err := sv.solveAnytime(ctx, hard, anytimeOptions{Schedule: []float64{2, 0.5}})
			return err
		}, "weight 0.5"},
		{"wrong board size", func() error { _, err := sv.solveWeighted(ctx, puzzle.Board{1, 2, 3, 0}, 1, Limits{}); return err }, "bad board"},
		{"bidirectional wrong size", func() error { _, _, err := sv.solveBidir(ctx, puzzle.Board{1, 2, 3, 0}, Limits{}); return err }, "bad board"},
		{"bidirectional bad goal", func() error {
			_, _, err := bidirectional(ctx, g, hard, puzzle.Board{1, 1, 2, 3, 4, 5, 6, 7, 0}, Limits{})
			return err
		}, "goal"},
	} {
		err := tc.run()
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line mentioning %q", tc.name, err, tc.want)
		}
	}

	// Limits reached during the search.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		lim  Limits
		want error
	}{
		{"node limit", ctx, Limits{MaxNodes: 50}, ErrNodeLimit},
		{"memory limit", ctx, Limits{MaxBytes: 20000}, ErrMemoryLimit},
		{"time limit", ctx, Limits{TimeLimit: time.Nanosecond}, ErrTimeLimit},
		{"cancelled", cancelled, Limits{}, context.Canceled},
	} {
		res, err := sv.solveWeighted(tc.ctx, hard, 1, tc.lim)
		if !errors.Is(err, tc.want) || res.Length != -1 || res.Lower < sv.Heuristic(hard) || res.Lower > 31 || !res.Solvable {
			t.Errorf("weighted %s: %+v, error %v", tc.name, res, err)
		}
		if tc.name == "memory limit" && res.Stats.PeakBytes > tc.lim.MaxBytes {
			t.Errorf("peak %d bytes over the limit %d", res.Stats.PeakBytes, tc.lim.MaxBytes)
		}
		var reports int
		res, err = sv.solveAnytime(tc.ctx, hard, anytimeOptions{Limits: tc.lim, OnSolution: func(Bounded) { reports++ }})
		if !errors.Is(err, tc.want) || res.Lower > 31 || res.Length >= 0 && (res.Length < 31 || reports == 0) {
			t.Errorf("ARA* %s: %+v, error %v", tc.name, res, err)
		}
		r, st, err := bidirectional(tc.ctx, g, hard, sv.goal, tc.lim)
		if !errors.Is(err, tc.want) || r.Length != -1 || !r.Solvable || st.Stored == 0 && !errors.Is(tc.want, context.Canceled) {
			t.Errorf("bidirectional %s: %+v, error %v", tc.name, r, err)
		}
		if errors.Is(tc.want, ErrNodeLimit) && (!strings.Contains(err.Error(), "ruling out every solution of") || st.Stored > 50) {
			t.Errorf("bidirectional refusal %q, %d stored", err, st.Stored)
		}
	}

	// A memory limit too small to store the start state.
	if _, err := sv.solveWeighted(ctx, hard, 1, Limits{MaxBytes: 100}); !errors.Is(err, ErrMemoryLimit) {
		t.Errorf("weighted, 100 bytes: error %v", err)
	}
	if _, err := sv.solveAnytime(ctx, hard, anytimeOptions{Limits: Limits{MaxBytes: 100}}); !errors.Is(err, ErrMemoryLimit) {
		t.Errorf("ARA*, 100 bytes: error %v", err)
	}
	if _, _, err := bidirectional(ctx, g, hard, sv.goal, Limits{MaxBytes: 100}); !errors.Is(err, ErrMemoryLimit) {
		t.Errorf("bidirectional, 100 bytes: error %v", err)
	}

	// ARA* with a node limit that allows the first solution but not the
	// proof: the answer found so far comes back with its bound.
	res, err := sv.solveAnytime(ctx, hard, anytimeOptions{Schedule: []float64{5, 1}})
	if err != nil {
		t.Fatal(err)
	}
	full := res.Stats.Stored
	var first Bounded
	res, err = sv.solveAnytime(ctx, hard, anytimeOptions{Schedule: []float64{5, 1}, Limits: Limits{MaxNodes: full - 1},
		OnSolution: func(r Bounded) {
			if first.Length == 0 {
				first = r
			}
		}})
	if !errors.Is(err, ErrNodeLimit) || res.Length < 31 || res.Length > first.Length || res.Lower > 31 {
		t.Fatalf("limited ARA*: %+v (first %+v), error %v", res, first, err)
	}
}

// TestAlgorithmsDeterministic: the same search twice gives the same answer
// and counts.
func TestAlgorithmsDeterministic(t *testing.T) {
	sv := newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{Reflect: true})
	b := puzzle.Board{8, 6, 7, 2, 5, 4, 3, 0, 1}
	ctx := context.Background()
	var prev []string
	for range 2 {
		w, err1 := sv.solveWeighted(ctx, b, 2, Limits{})
		a, err2 := sv.solveAnytime(ctx, b, anytimeOptions{})
		r, st, err3 := sv.solveBidir(ctx, b, Limits{})
		if err := errors.Join(err1, err2, err3); err != nil {
			t.Fatal(err)
		}
		w.Stats.Elapsed, a.Stats.Elapsed, st.Elapsed = 0, 0, 0
		cur := []string{strings.TrimSpace(strings.Join([]string{w.Moves, a.Moves, r.Moves}, " ")),
			sprint(w.Stats), sprint(a.Stats), sprint(st)}
		if prev != nil && !slices.Equal(cur, prev) {
			t.Fatalf("run 1 %v, run 2 %v", prev, cur)
		}
		prev = cur
	}
}

func sprint(s Stats) string {
	return strings.Join([]string{strconvU(s.Generated), strconvU(s.Expanded), strconvU(s.Stored), strconvU(uint64(s.PeakBytes))}, "/")
}

func strconvU(v uint64) string { return strconv.FormatUint(v, 10) }

// TestTwoWordKeys: on 5x5 and 5x4 boards (states packed into two words)
// A* (weight 1, small additive tables) and the bidirectional search agree
// on random-walk boards, and ARA* ends at the same length.
func TestTwoWordKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	count := 6
	if raceEnabled {
		count = 2
	}
	ctx := context.Background()
	for _, tc := range []struct{ w, h int }{{5, 5}, {5, 4}} {
		sv := newSolver(t, set(t, tc.w, tc.h, "blank-last", []uint8{1, 2, 3}, []uint8{4, 5, 6}), Options{})
		g, goal := sv.Geometry(), sv.Goal()
		for done := 0; done < count; {
			// Boards of 10 to 16 moves, so that A* with these weak
			// tables stays small.
			b := pdbtest.RandomWalk(rng, g, goal, 30)
			r, st, err := sv.solveBidir(ctx, b, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Length < 10 || r.Length > 16 {
				continue
			}
			done++
			a, err := sv.solveWeighted(ctx, b, 1, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !a.Optimal || r.Length != a.Length || st.Stored < 2 {
				t.Fatalf("%s %v: A* %d (optimal %v), bidirectional %d", g, b, a.Length, a.Optimal, r.Length)
			}
			checkReplay(t, g, b, goal, a.Moves, a.Length)
			checkReplay(t, g, b, goal, r.Moves, r.Length)
			res, err := sv.solveAnytime(ctx, b, anytimeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkBounded(t, "ARA*", g, b, goal, res, a.Length, 1)
			t.Logf("%s: length %d; A* %d stored, bidirectional %d", g, a.Length, a.Stats.Stored, st.Stored)
		}
	}
}
