package solver

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// quick15 returns the 15-puzzle tables of the quick tests (blank-last):
// 6-6-3, or 5-5-5 under the race detector (building 6-tile tables there
// takes minutes).
func quick15(tb testing.TB) (name string, sv *Solver) {
	tb.Helper()
	name, part := "663+reflect", part663
	if raceEnabled {
		name, part = "555+reflect", part555
	}
	return name, newSolver(tb, set(tb, 4, 4, "blank-last", part...), Options{Reflect: true, FromBlankFirst: true})
}

// TestKorfEasyAlgorithms runs the shortest of Korf's 100 instances through
// weighted A* (w = 1.5 and 2) and ARA*: every weighted length between the
// published optimum and w times it, every ARA* run ending at the published
// optimum, proven. Under the race detector: three instances, 5-5-5 tables.
func TestKorfEasyAlgorithms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 15-puzzle tables")
	}
	ks := korf100(t)
	slices.SortStableFunc(ks, func(a, b korfInstance) int { return a.length - b.length })
	n := 5
	if raceEnabled {
		n = 3
	}
	name, sv := quick15(t)
	g := sv.Geometry()
	goal := puzzle.BlankFirstGoal(g)
	ctx := context.Background()
	for _, k := range ks[:n] {
		for _, w := range []float64{1.5, 2} {
			res, err := sv.solveWeighted(ctx, k.board, w, Limits{})
			if err != nil {
				t.Fatalf("%s instance %d w=%g: %v", name, k.id, w, err)
			}
			checkBounded(t, name+" weighted", g, k.board, goal, res, k.length, w)
			t.Logf("instance %d w=%g: length %d (optimum %d, proven >= %d), %d expanded, %d stored",
				k.id, w, res.Length, k.length, res.Lower, res.Stats.Expanded, res.Stats.Stored)
		}
		var reported []Bounded
		res, err := sv.solveAnytime(ctx, k.board, anytimeOptions{OnSolution: func(r Bounded) { reported = append(reported, r) }})
		if err != nil {
			t.Fatalf("%s instance %d ARA*: %v", name, k.id, err)
		}
		checkBounded(t, name+" ARA*", g, k.board, goal, res, k.length, 1)
		checkReports(t, name, k.board, reported, res, k.length)
		t.Logf("instance %d ARA*: %d answers, first length %d, optimum after %d expanded, %d stored",
			k.id, len(reported), reported[0].Length, res.Stats.Expanded, res.Stats.Stored)
	}
}

// random15 returns count uniformly random solvable 15-puzzle boards
// (blank-first convention) from seed.
func random15(seed uint64, count int) []puzzle.Board {
	g := puzzle.Geometry{W: 4, H: 4}
	goal := puzzle.BlankFirstGoal(g)
	rng := rand.New(rand.NewPCG(seed, seed+1))
	var out []puzzle.Board
	for len(out) < count {
		if b := randomBoard(rng, 16); puzzle.Solvable(g, b, goal) {
			out = append(out, b)
		}
	}
	return out
}

// TestRandom15Algorithms solves random 15-puzzle instances by IDA* (the
// optimum) and checks weighted A* (w = 1.5, 2) and ARA* against it.
func TestRandom15Algorithms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 15-puzzle tables")
	}
	count := 4
	if raceEnabled {
		count = 1
	}
	name, sv := quick15(t)
	g := sv.Geometry()
	goal := puzzle.BlankFirstGoal(g)
	ctx := context.Background()
	for _, b := range random15(31, count) {
		opt, err := sv.solve(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []float64{1.5, 2} {
			res, err := sv.solveWeighted(ctx, b, w, Limits{})
			if err != nil {
				t.Fatalf("%s %v w=%g: %v", name, b, w, err)
			}
			checkBounded(t, name+" weighted", g, b, goal, res, opt.Length, w)
		}
		var reported []Bounded
		res, err := sv.solveAnytime(ctx, b, anytimeOptions{OnSolution: func(r Bounded) { reported = append(reported, r) }})
		if err != nil {
			t.Fatalf("%s %v ARA*: %v", name, b, err)
		}
		checkBounded(t, name+" ARA*", g, b, goal, res, opt.Length, 1)
		checkReports(t, name, b, reported, res, opt.Length)
		t.Logf("%v: optimum %d (IDA* %d nodes); ARA* first %d, %d answers, %d expanded, %d stored",
			b, opt.Length, opt.Nodes, reported[0].Length, len(reported), res.Stats.Expanded, res.Stats.Stored)
	}
}

// TestBidirectional15 checks the bidirectional search against IDA* on
// 15-puzzle boards a random walk away from the goal (optimal lengths up to
// about 30; shorter under the race detector).
func TestBidirectional15(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 15-puzzle tables")
	}
	_, sv := quick15(t)
	g := sv.Geometry()
	goal := puzzle.BlankFirstGoal(g)
	rng := rand.New(rand.NewPCG(33, 34))
	count, steps := 6, 60
	if raceEnabled {
		count, steps = 3, 30
	}
	ctx := context.Background()
	for range count {
		b := pdbtest.RandomWalk(rng, g, goal, steps)
		opt, err := sv.solve(b)
		if err != nil {
			t.Fatal(err)
		}
		res, st, err := sv.solveBidir(ctx, b, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Length != opt.Length {
			t.Fatalf("%v: bidirectional %d, IDA* %d", b, res.Length, opt.Length)
		}
		checkReplay(t, g, b, goal, res.Moves, res.Length)
		t.Logf("%v: length %d, %d stored, %.1f MiB", b, res.Length, st.Stored, float64(st.PeakBytes)/(1<<20))
	}
}
