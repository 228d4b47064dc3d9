package solver

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// TestGoalBall checks the goal ball against a breadth-first search of the
// whole 8-puzzle (bfsFrom): for balls of several sizes, every state in
// the ball has its true distance, every state within the radius is in
// the ball, the ball holds at most its bound of states, and the descent
// from a state of the ball is a shortest path to the goal. With room for
// every state, the ball is the whole space.
func TestGoalBall(t *testing.T) {
	s := newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{})
	var goal [puzzle.MaxCells]uint8
	copy(goal[:], s.goal)
	all := bfsFrom(s, goal)
	var within [64]int // within[r]: states at most r moves from the goal
	for _, d := range all {
		for r := d; r < len(within); r++ {
			within[r]++
		}
	}
	for _, limit := range []int{1, 3, 100, 5000, 181440} {
		radius := 0 // the largest radius whose states fit
		for within[radius+1] <= limit && within[radius+1] > within[radius] {
			radius++
		}
		gb := s.buildGoalBall(limit)
		if gb.radius != radius {
			t.Fatalf("ball of at most %d states: radius %d, want %d", limit, gb.radius, radius)
		}
		if len(gb.dist) > limit {
			t.Fatalf("ball of at most %d states holds %d", limit, len(gb.dist))
		}
		inside := 0
		for x, d := range all {
			got, in := gb.lookup(&x)
			if d <= gb.radius {
				inside++
			}
			if in != (d <= gb.radius) || (in && got != d) {
				t.Fatalf("radius %d: %v at distance %d: ball says %d, in %v", gb.radius, x[:9], d, got, in)
			}
			if in && d%5 == 0 {
				blank := uint8(slices.Index(x[:s.n], 0))
				path := gb.descend(s, x, blank, d, nil)
				b := x
				for _, m := range path {
					blank = s.step(&b, blank, m)
				}
				if len(path) != d || b != goal {
					t.Fatalf("descent from %v (distance %d): %d moves to %v", x[:9], d, len(path), b[:9])
				}
			}
		}
		if len(gb.dist) != inside {
			t.Fatalf("radius %d: %d states in the ball, %d within the radius", gb.radius, len(gb.dist), inside)
		}
	}
}

// TestTailWindowOptimal checks the window IDA* that meets the goal ball
// (solveWindow with a ball) against optimal lengths: from random states
// of the 8-puzzle (breadth-first distances) and of the 15-puzzle (IDA*
// with the same tables), with balls of radius 0 (the goal alone) to 15,
// it finds a path of exactly the optimum that ends at the goal, and none
// within a limit of the optimum.
func TestTailWindowOptimal(t *testing.T) {
	samples := 40
	if testing.Short() {
		samples = 12
	}
	rng := rand.New(rand.NewPCG(21, 22))
	s8 := newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{})
	var goal8 [puzzle.MaxCells]uint8
	copy(goal8[:], s8.goal)
	dist8 := bfsFrom(s8, goal8)
	s15 := newSolver(t, set(t, 4, 4, "blank-last", []uint8{1, 2, 3, 5, 6}, []uint8{4, 7, 8, 11, 12}, []uint8{9, 10, 13, 14, 15}), Options{})
	for _, tc := range []struct {
		name  string
		s     *Solver
		walk  int
		balls []int
	}{
		{"8", s8, 200, []int{1, 100, 5000}},
		{"15", s15, 60, []int{1, 3000, 200000}},
		{"8 near", s8, 8, []int{5000}},      // starts in the ball
		{"15 near", s15, 10, []int{200000}}, // starts in the ball
	} {
		s := tc.s
		var goal [puzzle.MaxCells]uint8
		copy(goal[:], s.goal)
		for _, size := range tc.balls {
			ball := s.buildGoalBall(size)
			im := s.newImprover()
			met := 0
			for range samples {
				x := goal
				blank := uint8(slices.Index(s.goal, 0))
				for range tc.walk {
					m := &s.nbr[blank]
					blank = s.step(&x, blank, m.dir[rng.IntN(int(m.n))])
				}
				var d int
				if s == s8 {
					d = dist8[x]
				} else {
					out, err := s.Search(context.Background(), puzzle.Board(slices.Clone(x[:s.n])), SearchOptions{})
					if err != nil {
						t.Fatal(err)
					}
					d = out.Length
				}
				if _, ok := im.solveWindow(&x, blank, &goal, d, ball); ok {
					t.Fatalf("%s, radius %d: a path shorter than the optimum %d from %v", tc.name, ball.radius, d, x[:s.n])
				}
				before := im.nodes
				sub, ok := im.solveWindow(&x, blank, &goal, d+1, ball)
				if !ok || len(sub) != d {
					t.Fatalf("%s, radius %d: from %v %d moves (found %v), optimum %d", tc.name, ball.radius, x[:s.n], len(sub), ok, d)
				}
				if d > ball.radius && im.nodes-before < uint64(d-ball.radius) {
					t.Fatalf("%s, radius %d: %d nodes for a path of %d", tc.name, ball.radius, im.nodes-before, d)
				}
				if d <= ball.radius && im.nodes != before {
					t.Fatalf("%s, radius %d: a start at distance %d in the ball, searched %d nodes", tc.name, ball.radius, d, im.nodes-before)
				}
				if d > ball.radius {
					met++
				}
				b := x
				for _, m := range sub {
					blank = s.step(&b, blank, m)
				}
				if b != goal {
					t.Fatalf("%s, radius %d: path from %v ends at %v", tc.name, ball.radius, x[:s.n], b[:s.n])
				}
			}
			if ball.radius < 10 && met == 0 {
				t.Fatalf("%s, radius %d: no search met the ball from outside", tc.name, ball.radius)
			}
		}
	}
}

// TestTailImprovePath checks the exact tail alone (Polish:
// PolishTail) on long paths to the goal (reversed random walks): it replays
// to the goal, and its windows, each within its budget here, reach the
// start, so the path is optimal (the 8-puzzle's exact table, IDA* on the
// 15-puzzle).
func TestTailImprovePath(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	exact := table(t, 3, 3, "blank-last")
	s8 := newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{Polish: PolishTail})
	s15 := newSolver(t, set(t, 4, 4, "blank-last", []uint8{1, 2, 3, 5, 6}, []uint8{4, 7, 8, 11, 12}, []uint8{9, 10, 13, 14, 15}), Options{Polish: PolishTail})
	samples := 6
	if testing.Short() {
		samples = 3
	}
	for _, tc := range []struct {
		name string
		s    *Solver
		walk int
	}{{"8", s8, 60}, {"15", s15, 90}} {
		s := tc.s
		for range samples {
			b, blank, back := reversedWalk(s, rng, tc.walk)
			work := puzzle.Board(slices.Clone(b[:s.n]))
			got, _ := s.improvePath(context.Background(), work, back, time.Time{})
			end, eb := b, blank
			for _, m := range got {
				eb = s.step(&end, eb, m)
			}
			if !slices.Equal(end[:s.n], s.goal) || len(got) > len(back) {
				t.Fatalf("%s: tail of a %d-move path: %d moves to %v", tc.name, len(back), len(got), end[:s.n])
			}
			opt := 0
			if tc.name == "8" {
				opt = int(exact.Values[exact.Pattern.Rank(work.Positions())])
			} else {
				out, err := s.Search(context.Background(), work, SearchOptions{})
				if err != nil {
					t.Fatal(err)
				}
				opt = out.Length
			}
			if len(got) != opt {
				t.Fatalf("%s: tail of a %d-move path: %d moves, optimum %d", tc.name, len(back), len(got), opt)
			}
		}
	}
}

// TestPolishSteps checks which steps Options.Polish runs: windows alone
// by default, none with PolishNone whatever else is set.
func TestPolishSteps(t *testing.T) {
	for _, tc := range []struct {
		p             PolishSteps
		windows, tail bool
	}{
		{0, true, false},
		{PolishWindows, true, false},
		{PolishTail, false, true},
		{PolishWindows | PolishTail, true, true},
		{PolishNone, false, false},
		{PolishNone | PolishTail, false, false},
	} {
		if w, tl := tc.p.Runs(PolishWindows), tc.p.Runs(PolishTail); w != tc.windows || tl != tc.tail {
			t.Errorf("Polish %#x: windows %v, tail %v; want %v, %v", uint8(tc.p), w, tl, tc.windows, tc.tail)
		}
	}
}

// TestTailDeadline checks that a window of the exact tail stops at the
// improvement's deadline: on 15-puzzle states whose window takes more
// than four times windowClock nodes, the same window past the deadline
// gives up at its first look at the clock, without a path.
func TestTailDeadline(t *testing.T) {
	s := newSolver(t, set(t, 4, 4, "blank-last", []uint8{1, 2, 3, 5, 6}, []uint8{4, 7, 8, 11, 12}, []uint8{9, 10, 13, 14, 15}), Options{})
	rng := rand.New(rand.NewPCG(25, 26))
	var goal [puzzle.MaxCells]uint8
	copy(goal[:], s.goal)
	ball := s.buildGoalBall(1000)
	checked := 0
	for range 40 {
		x := randomState(s, rng)
		blank := uint8(slices.Index(x[:s.n], 0))
		im := s.newImprover()
		if sub, ok := im.solveWindow(&x, blank, &goal, 200, ball); !ok || len(sub) == 0 {
			t.Fatalf("%v without a deadline: found %v", x[:s.n], ok)
		}
		if im.nodes < 4*windowClock {
			continue
		}
		im = s.newImprover()
		im.deadline = time.Now().Add(-time.Second)
		if _, ok := im.solveWindow(&x, blank, &goal, 200, ball); ok || !im.w.stop || im.nodes > windowClock+4 {
			t.Fatalf("%v past the deadline: found %v, stopped %v, %d nodes", x[:s.n], ok, im.w.stop, im.nodes)
		}
		if checked++; checked == 3 {
			return
		}
	}
	t.Fatalf("%d states with windows of more than %d nodes", checked, 4*windowClock)
}

// TestAnytimeBeamTail runs the anytime beam search with both polish
// steps on 15-puzzle states, two boards at once on one Solver (the goal
// ball is built once, beside the beams, under the race detector in make
// test): with beams of width at most 2 every answer replays, and the
// polish shortens some.
func TestAnytimeBeamTail(t *testing.T) {
	s := newSolver(t, set(t, 4, 4, "blank-last", []uint8{1, 2, 3, 5, 6}, []uint8{4, 7, 8, 11, 12}, []uint8{9, 10, 13, 14, 15}), Options{Polish: PolishWindows | PolishTail})
	rng := rand.New(rand.NewPCG(27, 28))
	boards := []puzzle.Board{}
	for range 2 {
		x := randomState(s, rng)
		boards = append(boards, puzzle.Board(slices.Clone(x[:s.n])))
	}
	outs := make([]Bounded, len(boards))
	errs := make([]error, len(boards))
	var wg sync.WaitGroup
	for i, b := range boards {
		wg.Go(func() {
			opt := anytimeOptions{Beam: true, MaxWidth: 2}
			opt.TimeLimit = 3 * time.Second
			outs[i], errs[i] = s.solveBeamAnytime(context.Background(), b, opt)
		})
	}
	wg.Wait()
	polished := 0
	for i, b := range boards {
		if errs[i] != nil && !errors.Is(errs[i], ErrTimeLimit) {
			t.Fatal(errs[i])
		}
		checkReplay(t, s.geom, b, s.goal, outs[i].Moves, outs[i].Length)
		polished += outs[i].Polished
	}
	if polished == 0 {
		t.Fatal("no greedy path was polished")
	}
	if s.ballReady == nil {
		t.Fatal("the search started no goal ball")
	}
	<-s.ballReady
	if s.ball == nil || s.ball.radius == 0 {
		t.Fatal("no goal ball was built")
	}
}

// TestTailDoesNotWait checks that the exact tail does not wait for its
// goal ball past the improvement's deadline or a cancelled context: on a
// fresh Solver (the ball takes about a second to build on 4x4) the tail
// returns the path as it was, before the ball is built.
func TestTailDoesNotWait(t *testing.T) {
	s := newSolver(t, set(t, 4, 4, "blank-last", []uint8{1, 2, 3, 5, 6}, []uint8{4, 7, 8, 11, 12}, []uint8{9, 10, 13, 14, 15}), Options{Polish: PolishTail})
	rng := rand.New(rand.NewPCG(29, 30))
	b, _, back := reversedWalk(s, rng, 80)
	work := puzzle.Board(slices.Clone(b[:s.n]))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name     string
		ctx      context.Context
		deadline time.Time
	}{
		{"deadline", context.Background(), time.Now().Add(20 * time.Millisecond)},
		{"cancelled", ctx, time.Time{}},
	} {
		got, _ := s.improvePath(tc.ctx, work, back, tc.deadline)
		select {
		case <-s.ballReady:
			t.Fatalf("%s: the tail returned after the ball was built", tc.name)
		default:
		}
		if !slices.Equal(got, back) {
			t.Fatalf("%s: the path changed (%d moves, was %d) without the ball", tc.name, len(got), len(back))
		}
	}
	<-s.ballReady
	if got, _ := s.improvePath(context.Background(), work, back, time.Time{}); len(got) >= len(back) {
		t.Fatalf("with the ball: %d moves, was %d", len(got), len(back))
	}
}
