package solver

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestRankMatchesPattern checks the search's ranking, and above all its
// incremental update after a move, against puzzle.Pattern.Rank on random
// placements.
func TestRankMatchesPattern(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		w, h  int
		tiles []uint8
	}{
		{3, 3, []uint8{1, 2, 3, 4}},
		{4, 4, []uint8{1, 5, 6, 9, 10, 13}},
		{4, 4, []uint8{2, 3, 4}},
		{5, 5, []uint8{1, 5, 6, 10, 11, 12}},
		{3, 2, []uint8{5}},
	} {
		g := puzzle.Geometry{W: tc.w, H: tc.h}
		p, err := puzzle.NewPattern(g, puzzle.BlankLastGoal(g), tc.tiles)
		if err != nil {
			t.Fatal(err)
		}
		ti := tableInfo{k: len(p.Tiles), comb: p.Combinations()}
		for i := range ti.k {
			ti.weight[i] = puzzle.Factorial(ti.k - 1 - i)
		}
		for range 2000 {
			b := pdbtest.RandomSolvable(rng, g, p.Goal)
			pos := b.Positions()
			var cells [puzzle.MaxCells]uint8
			for i, tile := range p.Tiles {
				cells[i] = pos[tile]
			}
			st := ti.rank(&cells)
			if got, want := ti.index(st), p.Rank(pos); got != want {
				t.Fatalf("%s: board %v: rank %d, Pattern.Rank %d", p, b, got, want)
			}
			// Every legal move of every pattern tile: the incremental
			// update must agree with Pattern.Rank.
			for i, tile := range p.Tiles {
				a := int(pos[tile])
				for _, d := range puzzle.Directions {
					to, ok := g.Step(a, d)
					if !ok || b[to] != 0 {
						continue
					}
					pos[tile], pos[0] = uint8(to), uint8(a)
					cells[i] = uint8(to)
					if got, want := ti.index(ti.moved(st, &cells, uint8(a), uint8(to), uint8(i))), p.Rank(pos); got != want {
						t.Fatalf("%s: board %v: tile %d %d->%d: incremental rank %d, Pattern.Rank %d", p, b, tile, a, to, got, want)
					}
					pos[tile], pos[0] = uint8(a), uint8(to)
					cells[i] = uint8(a)
				}
			}
		}
	}
}

// TestExact8AllStates solves every solvable 8-puzzle state with the exact
// table (a sample under the race detector): the length must be the table
// value and the moves must replay to the goal. The two hardest states
// (Reinefeld 1993; OEIS A089473) take 31 moves.
func TestExact8AllStates(t *testing.T) {
	tab := table(t, 3, 3, "blank-last")
	s := set(t, 3, 3, "blank-last")
	sv := newSolver(t, s, Options{Reflect: true}) // Reflect is allowed and ignored
	g, goal := s.Geom, s.Goal
	step := uint64(1)
	if raceEnabled || testing.Short() {
		step = 11
	}
	pos := make([]uint8, g.N())
	hardest := 0
	var hist [32]int
	for idx := uint64(0); idx < tab.Pattern.Size(); idx += step {
		tab.Pattern.Unrank(idx, pos)
		b := puzzle.BoardFromPositions(pos)
		res, err := sv.solve(b)
		if err != nil {
			t.Fatal(err)
		}
		want := int(tab.Values[idx])
		if !res.Solvable || res.Length != want {
			t.Fatalf("%v: solvable %v length %d, table says %d", b, res.Solvable, res.Length, want)
		}
		checkReplay(t, g, b, goal, res.Moves, want)
		if res.Nodes > 4*uint64(want) {
			t.Fatalf("%v: %d nodes for a walk of %d", b, res.Nodes, want)
		}
		hist[want]++
		if want == 31 {
			hardest++
		}
	}
	if step == 1 {
		want := [32]int{1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485,
			5638, 9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2}
		if hist != want {
			t.Fatalf("lengths per distance %v, want (A089473) %v", hist, want)
		}
	}
	// The two states at distance 31 (blank-last goal).
	for _, line := range []string{"8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"} {
		b, err := puzzle.ParseBoard(line, 9)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sv.solve(b)
		if err != nil {
			t.Fatal(err)
		}
		if res.Length != 31 {
			t.Fatalf("%v: length %d, want 31", b, res.Length)
		}
		checkReplay(t, g, b, goal, res.Moves, 31)
	}
}

// TestAdditive8VsBFS solves random-walk 8-puzzle states with additive
// tables (with and without reflection, for three goals) and compares the
// length with a brute-force breadth-first search.
func TestAdditive8VsBFS(t *testing.T) {
	g := puzzle.Geometry{W: 3, H: 3}
	samples := 300
	if raceEnabled {
		samples = 60
	}
	for _, tc := range []struct {
		goal  string
		parts [][]uint8
	}{
		{"blank-last", [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}},
		{"blank-first", [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}},
		{"1 2 3 4 0 5 6 7 8", [][]uint8{{1, 4, 6}, {2, 3}, {5, 7, 8}}}, // blank in the centre
		{"blank-last", [][]uint8{{1, 3, 5, 7}, {2, 8}}},                // tiles 4 and 6 in no table
	} {
		s := set(t, 3, 3, tc.goal, tc.parts...)
		dist := pdbtest.Distances(g, s.Goal)
		rng := rand.New(rand.NewPCG(7, 8))
		boards := make([]puzzle.Board, samples)
		for i := range boards {
			boards[i] = pdbtest.RandomWalk(rng, g, s.Goal, 5+rng.IntN(60))
		}
		for _, refl := range []bool{false, true} {
			sv := newSolver(t, s, Options{Reflect: refl})
			for _, b := range boards {
				res, err := sv.solve(b)
				if err != nil {
					t.Fatal(err)
				}
				want := dist[string(b)]
				if !res.Solvable || res.Length != want {
					t.Fatalf("goal %s %v reflect %v: %v: length %d, BFS %d", tc.goal, tc.parts, refl, b, res.Length, want)
				}
				checkReplay(t, g, b, s.Goal, res.Moves, want)
				if h := sv.Heuristic(b); h > want {
					t.Fatalf("%v: heuristic %d > distance %d", b, h, want)
				}
			}
		}
	}
}

// TestReflectionHelps checks on the 8-puzzle that the reflected lookup
// never lowers the heuristic and never generates more nodes in total.
func TestReflectionHelps(t *testing.T) {
	s := set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8})
	plain := newSolver(t, s, Options{})
	refl := newSolver(t, s, Options{Reflect: true})
	rng := rand.New(rand.NewPCG(3, 4))
	var n0, n1 uint64
	higher := 0
	for range 100 {
		b := pdbtest.RandomWalk(rng, s.Geom, s.Goal, 100)
		h0, h1 := plain.Heuristic(b), refl.Heuristic(b)
		if h1 < h0 {
			t.Fatalf("%v: reflected max %d below plain %d", b, h1, h0)
		}
		if h1 > h0 {
			higher++
		}
		r0, _ := plain.solve(b)
		r1, _ := refl.solve(b)
		if r0.Length != r1.Length {
			t.Fatalf("%v: lengths %d and %d", b, r0.Length, r1.Length)
		}
		n0 += r0.Nodes
		n1 += r1.Nodes
	}
	if higher == 0 || n1 >= n0 {
		t.Fatalf("reflection raised h on %d boards; nodes %d -> %d", higher, n0, n1)
	}
}

// TestNewRefuses checks the option checks of New.
func TestNewRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  *format.Set
		opt  Options
		want string
	}{
		{"reflect non-square", set(t, 3, 2, "blank-last", []uint8{1, 2}, []uint8{3, 4, 5}), Options{Reflect: true}, "square"},
		{"reflect blank off diagonal", set(t, 3, 3, "1 2 3 4 5 6 7 0 8", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{Reflect: true}, "diagonal"},
		{"blank-first conversion of blank-first tables", set(t, 3, 3, "blank-first", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{FromBlankFirst: true}, "blank-last"},
		{"nil set", nil, Options{}, "empty"},
		{"empty set", &format.Set{}, Options{}, "empty"},
	} {
		_, err := New(tc.set, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
	// Allowed: non-square without reflect, reflect with blank on the diagonal.
	newSolver(t, set(t, 3, 2, "blank-last", []uint8{1, 2}, []uint8{3, 4, 5}), Options{})
	newSolver(t, set(t, 3, 3, "1 2 3 4 0 5 6 7 8", []uint8{1, 4, 6}, []uint8{2, 3}, []uint8{5, 7, 8}), Options{Reflect: true})
}

// TestNonSquare solves 3x2 boards against a BFS.
func TestNonSquare(t *testing.T) {
	g := puzzle.Geometry{W: 3, H: 2}
	s := set(t, 3, 2, "blank-last", []uint8{1, 2}, []uint8{3, 4, 5})
	sv := newSolver(t, s, Options{})
	dist := pdbtest.Distances(g, s.Goal)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100 {
		b := pdbtest.RandomWalk(rng, g, s.Goal, rng.IntN(40))
		res, err := sv.solve(b)
		if err != nil {
			t.Fatal(err)
		}
		if res.Length != dist[string(b)] {
			t.Fatalf("%v: length %d, BFS %d", b, res.Length, dist[string(b)])
		}
		checkReplay(t, g, b, s.Goal, res.Moves, res.Length)
	}
}

// TestUnsolvable: an unsolvable board is answered without search, for the
// exact and the additive case and after conversion.
func TestUnsolvable(t *testing.T) {
	b := puzzle.Board{2, 1, 3, 4, 5, 6, 7, 8, 0}
	for _, s := range []*format.Set{set(t, 3, 3, "blank-last"), set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8})} {
		for _, conv := range []bool{false, true} {
			sv := newSolver(t, s, Options{FromBlankFirst: conv})
			res, err := sv.solve(b)
			if err != nil {
				t.Fatal(err)
			}
			if res.Solvable || res.Length != -1 || res.Moves != "" || res.Nodes != 0 || res.Converted != conv {
				t.Fatalf("%v: %+v, want unsolvable", b, res)
			}
			if got := res.String(); !strings.HasSuffix(strings.TrimSuffix(got, " converted-from blank-first"), ": unsolvable") {
				t.Fatalf("text %q", got)
			}
		}
	}
}

// TestSolveErrors: Solve rejects boards of the wrong size or invalid.
func TestSolveErrors(t *testing.T) {
	sv := newSolver(t, set(t, 3, 3, "blank-last"), Options{})
	for _, b := range []puzzle.Board{nil, {1, 2, 3, 0}, {1, 1, 2, 3, 4, 5, 6, 7, 0}, {1, 2, 3, 4, 5, 6, 7, 8, 9}} {
		if _, err := sv.solve(b); err == nil {
			t.Errorf("%v: no error", b)
		}
	}
}

// TestGoalState: the goal itself has length 0 and no moves.
func TestGoalState(t *testing.T) {
	for _, s := range []*format.Set{set(t, 3, 3, "blank-last"), set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8})} {
		sv := newSolver(t, s, Options{})
		res, err := sv.solve(s.Goal)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Solvable || res.Length != 0 || res.Moves != "" {
			t.Fatalf("goal: %+v", res)
		}
		if got := res.String(); got != "1 2 3 4 5 6 7 8 0 : length 0 moves - nodes 0" {
			t.Fatalf("text %q", got)
		}
	}
}

// TestBlankFirstConversion solves blank-first boards with blank-last
// tables (Options.FromBlankFirst): the lengths are the blank-first
// distances of a breadth-first search and the moves replay on the original
// boards to the blank-first goal. (The conversion itself is tested in
// package puzzle.)
func TestBlankFirstConversion(t *testing.T) {
	g := puzzle.Geometry{W: 3, H: 3}
	first := puzzle.BlankFirstGoal(g)
	df := pdbtest.Distances(g, first)
	// Solve converted boards with the exact blank-last table and replay the
	// moves on the original boards to the blank-first goal.
	sv := newSolver(t, set(t, 3, 3, "blank-last"), Options{FromBlankFirst: true})
	svA := newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{FromBlankFirst: true, Reflect: true})
	if !sv.Goal().Equal(first) {
		t.Fatalf("Goal() = %v", sv.Goal())
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 200 {
		b := pdbtest.RandomWalk(rng, g, first, rng.IntN(80))
		for _, s := range []*Solver{sv, svA} {
			res, err := s.solve(b)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Converted || res.Length != df[string(b)] || !res.Board.Equal(b) || !res.Searched.Equal(puzzle.BlankFirstToLast(b)) {
				t.Fatalf("%v: %+v, want length %d", b, res, df[string(b)])
			}
			checkReplay(t, g, b, first, res.Moves, res.Length)
		}
	}
}

// TestKorfEasy solves the shortest of Korf's 100 instances with the 6-6-3
// tables, converted from blank-first, with and without reflection. Under
// the race detector, where building the 6-tile tables takes minutes, it
// uses the 5-5-5 tables and three instances instead.
func TestKorfEasy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 15-puzzle tables")
	}
	ks := korf100(t)
	slices.SortStableFunc(ks, func(a, b korfInstance) int { return a.length - b.length })
	n, part := 5, part663
	if raceEnabled {
		n, part = 3, part555
	}
	s := set(t, 4, 4, "blank-last", part...)
	g := s.Geom
	goal := puzzle.BlankFirstGoal(g)
	for _, refl := range []bool{false, true} {
		sv := newSolver(t, s, Options{Reflect: refl, FromBlankFirst: true})
		for _, k := range ks[:n] {
			res, err := sv.solve(k.board)
			if err != nil {
				t.Fatal(err)
			}
			if res.Length != k.length {
				t.Fatalf("instance %d reflect %v: length %d, published %d", k.id, refl, res.Length, k.length)
			}
			checkReplay(t, g, k.board, goal, res.Moves, k.length)
			t.Logf("instance %d reflect %v: length %d nodes %d", k.id, refl, res.Length, res.Nodes)
		}
	}
}
