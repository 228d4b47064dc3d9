package solver

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// bfsFrom returns every state of s's board reachable from t with its
// distance to t (moves are reversible: also its distance from t), by
// breadth-first search. Only for the 8-puzzle (181,440 states).
func bfsFrom(s *Solver, t [puzzle.MaxCells]uint8) map[[puzzle.MaxCells]uint8]int {
	dist := map[[puzzle.MaxCells]uint8]int{t: 0}
	queue := [][puzzle.MaxCells]uint8{t}
	for k := 0; k < len(queue); k++ {
		b := queue[k]
		blank := uint8(slices.Index(b[:s.n], 0))
		m := &s.nbr[blank]
		for i := uint8(0); i < m.n; i++ {
			c := b
			s.step(&c, blank, m.dir[i])
			if _, ok := dist[c]; !ok {
				dist[c] = dist[b] + 1
				queue = append(queue, c)
			}
		}
	}
	return dist
}

// reversedWalk makes a random walk of n moves from the goal and returns
// its end b (blank at blank) and the walk reversed: a path of n moves
// from b to the goal, full of detours.
func reversedWalk(s *Solver, rng *rand.Rand, n int) (b [puzzle.MaxCells]uint8, blank uint8, back []uint8) {
	copy(b[:], s.goal)
	blank = uint8(slices.Index(s.goal, 0))
	for range n {
		m := &s.nbr[blank]
		k := rng.IntN(int(m.n))
		blank = s.step(&b, blank, m.dir[k])
		back = append(back, uint8(puzzle.Direction(m.dir[k]).Opposite()))
	}
	slices.Reverse(back)
	return b, blank, back
}

// windowH is the improver's heuristic of x towards t.
func windowH(im *improver, x, t [puzzle.MaxCells]uint8) int {
	im.w.board = x
	return im.load(&t)
}

// randomState is a random solvable state of s's board: a random walk of
// 200 moves from the goal.
func randomState(s *Solver, rng *rand.Rand) [puzzle.MaxCells]uint8 {
	var b [puzzle.MaxCells]uint8
	copy(b[:], s.goal)
	blank := uint8(slices.Index(s.goal, 0))
	for range 200 {
		m := &s.nbr[blank]
		blank = s.step(&b, blank, m.dir[rng.IntN(int(m.n))])
	}
	return b
}

// window8Solvers are 8-puzzle solvers whose relabelled heuristic the
// window tests check: full and partial partitions, and one part ({2,4}
// blank-last) whose tiles on their goal cells cut cell 0 off from the
// others (improver.split).
func window8Solvers(t *testing.T) []namedSolver {
	return []namedSolver{
		{"2-2", newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2}, []uint8{3, 4}), Options{})},
		{"4-4", newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{})},
		{"first", newSolver(t, set(t, 3, 3, "blank-first", []uint8{1, 2, 4, 5}, []uint8{3, 6, 7, 8}), Options{})},
		{"split", newSolver(t, set(t, 3, 3, "blank-last", []uint8{2, 4}, []uint8{5, 6, 7, 8}), Options{})},
	}
}

// namedSolver is a solver of a test and its name in messages.
type namedSolver struct {
	name string
	s    *Solver
}

// TestWindowHeuristicAdmissible checks the relabelled heuristic between
// arbitrary states against breadth-first distances on the 8-puzzle: for a
// few targets t, every state x has h(x, t) at most its distance to t, and
// 0 only at t.
func TestWindowHeuristicAdmissible(t *testing.T) {
	targets := 4
	if testing.Short() {
		targets = 2
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, ns := range window8Solvers(t) {
		name, s := ns.name, ns.s
		im := s.newImprover()
		if !im.tables {
			t.Fatalf("%s: the tables are not used", name)
		}
		if got, want := im.split[0], name == "split"; got != want {
			t.Fatalf("%s: part 0 split %v, want %v", name, got, want)
		}
		tighter := 0
		for range targets {
			tg := randomState(s, rng)
			for x, d := range bfsFrom(s, tg) {
				h := windowH(im, x, tg)
				if h > d {
					t.Fatalf("%s: h(%v -> %v) = %d > distance %d", name, x[:9], tg[:9], h, d)
				}
				if (h == 0) != (d == 0) {
					t.Fatalf("%s: h(%v -> %v) = %d at distance %d", name, x[:9], tg[:9], h, d)
				}
				md := 0
				for c := 0; c < s.n; c++ {
					if x[c] != 0 {
						md += s.geom.Manhattan(c, slices.Index(tg[:s.n], x[c]))
					}
				}
				if h < md && name != "2-2" {
					t.Fatalf("%s: h(%v -> %v) = %d below Manhattan distance %d", name, x[:9], tg[:9], h, md)
				}
				if h > md {
					tighter++
				}
			}
		}
		if name != "split" && tighter == 0 { // split: both parts are cut (tile 8 alone in cell 8)
			t.Fatalf("%s: the tables never beat Manhattan distance", name)
		}
		t.Logf("%s: %d states where the tables beat Manhattan distance", name, tighter)
	}
}

// TestSolveWindowOptimal checks the window's IDA* against breadth-first
// distances: from random states to a random target, a window longer than
// the distance d gives a path of exactly d moves that ends at the target,
// and a window of length d gives none.
func TestSolveWindowOptimal(t *testing.T) {
	samples := 60
	if testing.Short() {
		samples = 15
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for _, ns := range window8Solvers(t) {
		name, s := ns.name, ns.s
		im := s.newImprover()
		tg := randomState(s, rng)
		dist := bfsFrom(s, tg)
		for range samples {
			x := randomState(s, rng)
			d := dist[x]
			blank := uint8(slices.Index(x[:s.n], 0))
			if _, ok := im.solveWindow(&x, blank, &tg, d, nil); ok {
				t.Fatalf("%s: a path shorter than the distance %d from %v to %v", name, d, x[:9], tg[:9])
			}
			sub, ok := im.solveWindow(&x, blank, &tg, d+2, nil)
			if !ok || len(sub) != d {
				t.Fatalf("%s: window from %v to %v: %d moves (found %v), distance %d", name, x[:9], tg[:9], len(sub), ok, d)
			}
			b := x
			for _, m := range sub {
				blank = s.step(&b, blank, m)
			}
			if b != tg {
				t.Fatalf("%s: window path from %v ends at %v, not %v", name, x[:9], b[:9], tg[:9])
			}
		}
	}
}

// TestImprovePath checks path improvement on long paths to the goal (the
// reverse of random walks, full of detours): the improved path still leads
// to the goal, is no longer, is at least the optimum, and on the 8-puzzle
// (windows as long as its diameter) is optimal; on the 15-puzzle it is
// shorter than the walk.
func TestImprovePath(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	exact := table(t, 3, 3, "blank-last")
	cases := []struct {
		name    string
		s       *Solver
		walk    int
		optimal bool
	}{
		{"8 4-4", newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{}), 60, true},
		{"15 5-5-5", newSolver(t, set(t, 4, 4, "blank-last", []uint8{1, 2, 3, 5, 6}, []uint8{4, 7, 8, 11, 12}, []uint8{9, 10, 13, 14, 15}), Options{}), 120, false},
	}
	samples := 8
	if testing.Short() {
		samples = 3
	}
	for _, tc := range cases {
		s := tc.s
		for range samples {
			b, blank, back := reversedWalk(s, rng, tc.walk)
			work := puzzle.Board(slices.Clone(b[:s.n]))
			got, nodes := s.improvePath(context.Background(), work, back, time.Time{})
			if len(got) > len(back) {
				t.Fatalf("%s: improved path %d moves, was %d", tc.name, len(got), len(back))
			}
			end := b
			eb := blank
			for _, m := range got {
				eb = s.step(&end, eb, m)
			}
			if !slices.Equal(end[:s.n], s.goal) {
				t.Fatalf("%s: improved path from %v ends at %v", tc.name, work, end[:s.n])
			}
			if tc.optimal {
				pos := work.Positions()
				if opt := int(exact.Values[exact.Pattern.Rank(pos)]); len(got) != opt {
					t.Fatalf("%s: improved path %d moves, optimum %d", tc.name, len(got), opt)
				}
			} else if len(got) >= len(back) || nodes == 0 {
				t.Fatalf("%s: %d-move walk not improved (%d nodes)", tc.name, len(back), nodes)
			}
		}
	}
}

// TestAnytimeBeamPolish checks the path improvement inside the anytime
// beam search: with beams of width at most 2 (nearly greedy, full of detours) on
// 15-puzzle states, the polished answer is reported, shorter by Polished
// than the beam's, and replays to the goal.
func TestAnytimeBeamPolish(t *testing.T) {
	s := newSolver(t, set(t, 4, 4, "blank-last", []uint8{1, 2, 3, 5, 6}, []uint8{4, 7, 8, 11, 12}, []uint8{9, 10, 13, 14, 15}), Options{})
	rng := rand.New(rand.NewPCG(13, 14))
	polished := 0
	for range 4 {
		x := randomState(s, rng)
		b := puzzle.Board(slices.Clone(x[:s.n]))
		var reports []Bounded
		opt := anytimeOptions{Beam: true, MaxWidth: 2, OnSolution: func(r Bounded) { reports = append(reports, r) }}
		opt.TimeLimit = 2 * time.Second
		if _, err := s.solveBeamAnytime(context.Background(), b, opt); err != nil && !errors.Is(err, ErrTimeLimit) {
			t.Fatal(err)
		}
		for i, r := range reports {
			checkReplay(t, s.geom, b, s.goal, r.Moves, r.Length)
			if r.Polished > 0 {
				polished++
				// The beam's own answer came first, Polished moves longer.
				if !slices.ContainsFunc(reports[:i], func(p Bounded) bool { return p.Polished == 0 && p.Length == r.Length+r.Polished }) {
					t.Fatalf("%v: polished %d moves off, to %d, but no beam answer of %d moves before", b, r.Polished, r.Length, r.Length+r.Polished)
				}
			}
		}
	}
	if polished == 0 {
		t.Fatal("no greedy path was polished")
	}
}

// TestRankWeights checks the beam's weighted ranking key: after every
// move from random 15-puzzle states the incremental key (hcalc.child) is
// Σ w_i·h_i of the child computed afresh (hcalc.load); equal weights rank
// as h does, so the beam's answers are those without weights; and bad
// weights are refused.
func TestRankWeights(t *testing.T) {
	st := set(t, 4, 4, "blank-last", []uint8{1, 2, 3, 5, 6}, []uint8{4, 7, 8, 11, 12}, []uint8{9, 10, 13, 14, 15})
	s := newSolver(t, st, Options{RankWeights: []float64{0.5, 1.25, 2}})
	rng := rand.New(rand.NewPCG(15, 16))
	hc, fresh := newHcalc(s), newHcalc(s)
	for range 50 {
		b := randomState(s, rng)
		hc.load(&b)
		blank := uint8(slices.Index(b[:s.n], 0))
		m := &s.nbr[blank]
		for i := uint8(0); i < m.n; i++ {
			to := m.to[i]
			hc.child(b[to], blank, to)
			c := b
			s.step(&c, blank, m.dir[i])
			fresh.load(&c)
			want := 0
			for p, w := range s.rankW {
				want += w * int(fresh.reg.h[p])
			}
			if hc.ckey != want || fresh.key != want {
				t.Fatalf("%v move %d: key %d incremental, %d loaded, want %d", b[:s.n], i, hc.ckey, fresh.key, want)
			}
		}
	}
	plain, equal := newSolver(t, st, Options{}), newSolver(t, st, Options{RankWeights: []float64{1, 1, 1}})
	for range 5 {
		x := randomState(s, rng)
		b := puzzle.Board(slices.Clone(x[:s.n]))
		p, err1 := plain.solveBeam(context.Background(), b, 20, Limits{})
		q, err2 := equal.solveBeam(context.Background(), b, 20, Limits{})
		if (err1 == nil) != (err2 == nil) || p.Moves != q.Moves {
			t.Fatalf("%v: equal weights gave %q (%v), h gave %q (%v)", b, q.Moves, err2, p.Moves, err1)
		}
	}
	for _, bad := range []Options{
		{RankWeights: []float64{1, 1}},
		{RankWeights: []float64{1, 1, -1}},
		{RankWeights: []float64{1, 1, MaxRankWeight + 1}},
		{RankWeights: []float64{1, 1, 1}, Reflect: true},
	} {
		if _, err := New(st, bad); err == nil {
			t.Errorf("weights %v (reflect %v) accepted", bad.RankWeights, bad.Reflect)
		}
	}
	if _, err := New(set(t, 3, 3, "blank-last"), Options{RankWeights: []float64{1}}); err == nil {
		t.Error("weights on an exact table accepted")
	}
}
