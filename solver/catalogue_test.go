package solver

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// catParts builds the parts of one partition: each part is looked up
// through the table of an earlier part (of any partition, in tables) when
// a board symmetry maps its goal cells onto that table's
// (puzzle.FindSymmetry), else through its own table, built (zero-aware
// with za) and appended to tables.
func catParts(tb testing.TB, za bool, w, h int, goal string, tables *[]*format.Table, parts [][]uint8) []format.Part {
	tb.Helper()
	var out []format.Part
	for _, tiles := range parts {
		p := pdbtest.Pattern(tb, w, h, goal, tiles...)
		part := format.Part{Pattern: p}
		for _, t := range *tables {
			if m, ok := puzzle.FindSymmetry(p, t.Pattern); ok {
				part.Table, part.Sym = t, m.Sym
				break
			}
		}
		if part.Table == nil {
			if za {
				part.Table = zaTable(tb, w, h, goal, tiles...)
			} else {
				part.Table = table(tb, w, h, goal, tiles...)
			}
			*tables = append(*tables, part.Table)
		}
		out = append(out, part)
	}
	return out
}

// catalogue makes the catalogue of partitions (each a list of parts' tiles)
// with format.NewCatalogue, sharing tables by symmetry (catParts).
func catalogueSet(tb testing.TB, za bool, w, h int, goal string, partitions ...[][]uint8) *format.Set {
	tb.Helper()
	var tables []*format.Table
	var ps [][]format.Part
	for _, q := range partitions {
		ps = append(ps, catParts(tb, za, w, h, goal, &tables, q))
	}
	s, err := format.NewCatalogue(ps)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// transposed is the partition of the tiles whose goal cells are the
// main-diagonal reflections of those of parts (a square board and a goal
// whose blank is on the diagonal): looked up through parts' tables with
// puzzle.Transpose, it is the reflected lookup of parts (Options.Reflect).
func transposed(tb testing.TB, w, h int, goal string, parts [][]uint8) [][]uint8 {
	tb.Helper()
	g := pdbtest.Geometry(tb, w, h)
	gb, err := puzzle.ParseGoal(goal, g)
	if err != nil {
		tb.Fatal(err)
	}
	pi := puzzle.Transpose.TileMap(g, gb)
	var out [][]uint8
	for _, p := range parts {
		var q []uint8
		for _, t := range p {
			q = append(q, pi[t])
		}
		slices.Sort(q)
		out = append(out, q)
	}
	return out
}

// newCatSolver is newSolver, searching a catalogue of one partition as a
// catalogue (catalogue.eval in dfs) rather than as the additive set of its parts.
func newCatSolver(tb testing.TB, s *format.Set, opt Options) *Solver {
	tb.Helper()
	sv, err := newWith(context.Background(), s, opt, true)
	if err != nil {
		tb.Fatal(err)
	}
	return sv
}

// catSmall are the small-board catalogues of the tests: partitions whose
// parts share tables by symmetry (transposed and mirrored uses), one
// partition that leaves tiles out, a part shared by two partitions, and
// zero-aware tables.
var catSmall = []struct {
	name       string
	za         bool
	w, h       int
	goal       string
	partitions [][][]uint8
}{
	{"3x3 rows+columns", false, 3, 3, puzzle.GoalBlankLast, [][][]uint8{
		{{1, 2, 3}, {4, 5, 6}, {7, 8}},
		{{1, 4, 7}, {2, 5, 8}, {3, 6}}, // the first, transposed
	}},
	{"3x3 three partitions", false, 3, 3, puzzle.GoalBlankLast, [][][]uint8{
		{{1, 2, 4, 5}, {3, 6, 7, 8}},
		{{1, 2, 3, 4}, {5, 6, 7, 8}},
		{{1, 2, 4, 5}, {3, 6}}, // shares a part with the first; 7 and 8 in no part
	}},
	{"3x3 zero-aware", true, 3, 3, puzzle.GoalBlankLast, [][][]uint8{
		{{1, 2, 3}, {4, 5, 6}, {7, 8}},
		{{1, 4, 7}, {2, 5, 8}, {3, 6}},
		{{1, 2, 4}, {3, 5, 6, 7, 8}},
	}},
	{"2x4", false, 4, 2, puzzle.GoalBlankLast, [][][]uint8{
		{{1, 2, 5, 6}, {3, 4, 7}},
		{{1, 2, 3}, {4, 5, 6, 7}},
		{{2, 3, 6}, {1, 5}, {4, 7}},
	}},
	{"2x4 blank-first zero-aware", true, 4, 2, puzzle.GoalBlankFirst, [][][]uint8{
		{{1, 2, 5, 6}, {3, 4, 7}},
		{{1, 4, 5}, {2, 3, 6, 7}},
	}},
}

// TestCatalogueVsBFS: IDA* with a catalogue (one and two threads, with and
// without reflection, direct and compact index) finds optimal solutions on
// the 8-puzzle and the 2x4 board, their lengths those of a breadth-first
// search from the goal; the heuristic never exceeds them and is at least
// each partition's own additive sum; weighted A* stays within its weight
// of the optimum and ARA* (also with restarts) ends at the optimum.
func TestCatalogueVsBFS(t *testing.T) {
	samples := 120
	if raceEnabled || testing.Short() {
		samples = 30
	}
	ctx := context.Background()
	for _, c := range catSmall {
		s := catalogueSet(t, c.za, c.w, c.h, c.goal, c.partitions...)
		dist := pdbtest.Distances(s.Geom, s.Goal)
		// Each partition alone, as an additive set: the catalogue's value is
		// their maximum.
		var alone []*format.Set
		for _, q := range s.Partitions {
			var ps []format.Part
			for _, i := range q {
				ps = append(ps, s.Parts[i])
			}
			a, err := format.NewSetParts(ps)
			if err != nil {
				t.Fatal(err)
			}
			alone = append(alone, a)
		}
		rng := rand.New(rand.NewPCG(18, 2))
		boards := make([]puzzle.Board, samples)
		for i := range boards {
			boards[i] = pdbtest.RandomSolvable(rng, s.Geom, s.Goal)
		}
		opts := []Options{{}, {Compact: true}, {Threads: 2}}
		if c.w == c.h {
			opts = append(opts, Options{Reflect: true}, Options{Reflect: true, Compact: true, Threads: 2})
		}
		for _, opt := range opts {
			sv := newSolver(t, s, opt)
			if sv.cat == nil {
				t.Fatalf("%s: not searched as a catalogue", c.name)
			}
			for i, b := range boards {
				want := dist[string(b)]
				h := sv.Heuristic(b)
				best := 0
				for _, a := range alone {
					best = max(best, a.Heuristic(b.Positions()))
				}
				if h > want || h < best {
					t.Fatalf("%s %+v: %v: heuristic %d, distance %d, best partition %d", c.name, opt, b, h, want, best)
				}
				res, err := sv.solve(b)
				if err != nil {
					t.Fatal(err)
				}
				if !res.Solvable || res.Length != want {
					t.Fatalf("%s %+v: %v: length %d, BFS %d", c.name, opt, b, res.Length, want)
				}
				checkReplay(t, s.Geom, b, s.Goal, res.Moves, want)
				if opt.Threads > 1 || i%4 != 0 {
					continue
				}
				for _, w := range []float64{1, 2} {
					r, err := sv.solveWeighted(ctx, b, w, Limits{})
					if err != nil {
						t.Fatal(err)
					}
					checkBounded(t, c.name+" weighted", s.Geom, b, s.Goal, r, want, w)
				}
				for _, restarts := range []bool{false, true} {
					r, err := sv.solveAnytime(ctx, b, anytimeOptions{Restarts: restarts})
					if err != nil {
						t.Fatal(err)
					}
					checkBounded(t, c.name+" ARA*", s.Geom, b, s.Goal, r, want, 1)
					if !r.Optimal {
						t.Fatalf("%s ARA* restarts=%v %v: length %d, lower %d", c.name, restarts, b, r.Length, r.Lower)
					}
				}
			}
		}
	}
}

// catLarger are 15-puzzle catalogues of small tables (quick to build):
// two partitions of 3-tile parts and their transposes.
var catLarger = func() [][][]uint8 {
	a := [][]uint8{{1, 2, 5}, {3, 4, 8}, {9, 13, 14}, {6, 7, 10}, {11, 12, 15}}
	b := [][]uint8{{1, 2, 3}, {4, 8, 12}, {5, 6, 9}, {7, 11, 15}, {10, 13, 14}}
	return [][][]uint8{a, b}
}()

// TestCatalogueIncremental: the heuristic IDA* keeps incrementally for a
// catalogue equals format.Set.Heuristic (with the reflected board's when
// reflecting) at every state the search makes (Solver.nodeHook), and the
// A* searches' hcalc equals it on every child; on the small boards and on
// 15-puzzle boards with catalogues of 3-tile tables (plain and zero-aware,
// with the transposed partitions), through the direct and the compact
// index.
func TestCatalogueIncremental(t *testing.T) {
	type tc struct {
		name string
		s    *format.Set
		walk int
	}
	var cases []tc
	for _, c := range catSmall {
		cases = append(cases, tc{c.name, catalogueSet(t, c.za, c.w, c.h, c.goal, c.partitions...), 0})
	}
	for _, za := range []bool{false, true} {
		parts := append(slices.Clone(catLarger), transposed(t, 4, 4, puzzle.GoalBlankLast, catLarger[0]))
		cases = append(cases, tc{"15-puzzle 3-tile", catalogueSet(t, za, 4, 4, puzzle.GoalBlankLast, parts...), 40})
	}
	rng := rand.New(rand.NewPCG(18, 3))
	n := 25
	if raceEnabled {
		n = 6
	}
	for _, c := range cases {
		s := c.s
		for _, opt := range []Options{{}, {Compact: true}, {Reflect: true}, {Reflect: true, Compact: true}, {ZeroAwareBits: true}, {Reflect: true, ZeroAwareBits: true}} {
			if opt.Reflect && (s.Geom.W != s.Geom.H || !s.Goal.Equal(puzzle.BlankLastGoal(s.Geom))) {
				continue
			}
			sv := newSolver(t, s, opt)
			made := 0
			sv.nodeHook = func(board []uint8, h, incremental int) {
				made++
				if want := sv.Heuristic(board); h != want || incremental != want {
					t.Fatalf("%s %+v: %v: evaluated %d, incremental %d, Heuristic %d", c.name, opt, board, h, incremental, want)
				}
			}
			hc := newHcalc(sv)
			for range n {
				var b puzzle.Board
				if c.walk == 0 {
					b = pdbtest.RandomSolvable(rng, s.Geom, s.Goal)
				} else {
					b = pdbtest.RandomWalk(rng, s.Geom, s.Goal, c.walk)
				}
				if _, err := sv.solve(b); err != nil {
					t.Fatal(err)
				}
				var arr [puzzle.MaxCells]uint8
				copy(arr[:], b)
				if got, want := hc.load(&arr), sv.Heuristic(b); got != want {
					t.Fatalf("%s %+v: %v: load %d, Heuristic %d", c.name, opt, b, got, want)
				}
				blank := slices.Index(b, 0)
				for _, d := range puzzle.Directions {
					to, ok := s.Geom.Step(blank, d)
					if !ok {
						continue
					}
					nb := slices.Clone(b)
					nb[blank], nb[to] = nb[to], 0
					if got, want := hc.child(b[to], uint8(blank), uint8(to)), sv.Heuristic(nb); got != want {
						t.Fatalf("%s %+v: %v move %c: child %d, Heuristic %d", c.name, opt, b, d.Letter(), got, want)
					}
				}
			}
			if made == 0 {
				t.Fatalf("%s %+v: the hook saw no state", c.name, opt)
			}
		}
	}
}

// TestCatalogueOnePartition: a catalogue of one partition, searched as a
// catalogue (catalogue.eval in dfs), generates the same nodes and moves as the additive
// set of the same parts (dfs), with and without reflection, plain and
// zero-aware, one and two threads; and New searches it as that set.
func TestCatalogueOnePartition(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 4))
	for _, za := range []bool{false, true} {
		for _, parts := range catLarger {
			cat := catalogueSet(t, za, 4, 4, puzzle.GoalBlankLast, parts)
			var tables []*format.Table
			plain, err := format.NewSetParts(catParts(t, za, 4, 4, puzzle.GoalBlankLast, &tables, parts))
			if err != nil {
				t.Fatal(err)
			}
			if sv := newSolver(t, cat, Options{}); sv.cat != nil {
				t.Fatal("a catalogue of one partition is searched as a catalogue")
			}
			for _, opt := range []Options{{}, {Reflect: true}, {Reflect: true, Threads: 2}, {Compact: true}} {
				a, b := newSolver(t, plain, opt), newCatSolver(t, cat, opt)
				for range 8 {
					board := pdbtest.RandomWalk(rng, cat.Geom, cat.Goal, 50)
					ra, err := a.solve(board)
					if err != nil {
						t.Fatal(err)
					}
					rb, err := b.solve(board)
					if err != nil {
						t.Fatal(err)
					}
					if ra.Moves != rb.Moves || ra.Nodes != rb.Nodes {
						t.Fatalf("za=%v %v %+v: %v: additive %s in %d nodes, catalogue %s in %d", za, parts, opt, board, ra.Moves, ra.Nodes, rb.Moves, rb.Nodes)
					}
				}
			}
		}
	}
}

// TestCatalogueTooManyParts: New refuses, in one error, a catalogue of
// more distinct parts than the search numbers (maxCatParts): on the 7x7
// board with the blank's goal in the centre (fixed by all 8 symmetries),
// eight partitions of 48 one-tile parts, partition s looking every tile
// up through another tile's table with symmetry s (384 parts).
func TestCatalogueTooManyParts(t *testing.T) {
	var cells []string
	for i := 1; i <= 48; i++ {
		if i == 25 {
			cells = append(cells, "0")
		}
		cells = append(cells, strconv.Itoa(i))
	}
	goal := strings.Join(cells, " ")
	g := pdbtest.Geometry(t, 7, 7)
	gb, err := puzzle.ParseGoal(goal, g)
	if err != nil {
		t.Fatal(err)
	}
	var partitions [][]format.Part
	for _, sym := range puzzle.Symmetries(g) {
		pi := sym.TileMap(g, gb)
		var ps []format.Part
		for tile := uint8(1); tile < 49; tile++ {
			ps = append(ps, format.Part{Pattern: pdbtest.Pattern(t, 7, 7, goal, tile), Table: table(t, 7, 7, goal, pi[tile]), Sym: sym})
		}
		partitions = append(partitions, ps)
	}
	cat, err := format.NewCatalogue(partitions)
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Parts) <= maxCatParts {
		t.Fatalf("%d distinct parts, want more than %d", len(cat.Parts), maxCatParts)
	}
	_, err = New(cat, Options{})
	if err == nil || !strings.Contains(err.Error(), "a catalogue of 384 distinct parts; the solver takes at most 256") {
		t.Fatalf("New: %v", err)
	}
}

// TestCatalogueDirectBytes: a catalogue's plain tables get a direct index
// and its zero-aware ones none (they stay on their compact index), and
// DirectIndexBytes says what New builds.
func TestCatalogueDirectBytes(t *testing.T) {
	for _, c := range catSmall {
		s := catalogueSet(t, c.za, c.w, c.h, c.goal, c.partitions...)
		sv := newSolver(t, s, Options{})
		if got, want := sv.DirectBytes(), DirectIndexBytes(s); got != want {
			t.Errorf("%s: DirectBytes %d, DirectIndexBytes %d", c.name, got, want)
		}
		if c.za && sv.DirectBytes() != 0 {
			t.Errorf("%s: %d bytes of direct index for zero-aware tables", c.name, sv.DirectBytes())
		}
		if !c.za && sv.DirectBytes() == 0 {
			t.Errorf("%s: no direct index for plain tables", c.name)
		}
		for id := range s.Parts {
			tab := &sv.cat.tabs[id]
			if direct := tab.dvals != nil; direct == (tab.za != nil) {
				t.Errorf("%s: part %d: zero-aware %v, direct index %v", c.name, id, tab.za != nil, direct)
			}
		}
	}
}

// TestCatalogueReflectClosed: a catalogue closed under the main-diagonal
// reflection (every partition's transpose is one of its partitions) is
// searched without the reflected side (Solver.reflSide false), with the
// heuristic and the nodes of the search that keeps it; a catalogue that
// is not closed keeps it.
func TestCatalogueReflectClosed(t *testing.T) {
	for _, c := range []struct {
		name   string
		za     bool
		closed bool
		parts  [][][]uint8
	}{
		{"rows and columns", false, true, catSmall[0].partitions},
		{"not closed", false, false, catSmall[1].partitions},
		{"zero-aware, a partition its own transpose", true, true, catSmall[2].partitions},
		{"zero-aware, the transpose missing", true, false, catSmall[2].partitions[:1]},
	} {
		s := catalogueSet(t, c.za, 3, 3, puzzle.GoalBlankLast, c.parts...)
		sv := newCatSolver(t, s, Options{Reflect: true})
		if sv.reflSide == c.closed {
			t.Fatalf("%s: reflSide %v, want %v", c.name, sv.reflSide, !c.closed)
		}
		if !c.closed {
			continue
		}
		both := newCatSolver(t, s, Options{Reflect: true})
		both.reflSide = true // the reflected side kept: the reference
		rng := rand.New(rand.NewPCG(30, 7))
		for i := 0; i < 40; i++ {
			b := pdbtest.RandomSolvable(rng, s.Geom, s.Goal)
			var board [puzzle.MaxCells]uint8
			copy(board[:], b)
			if h1, h2 := newHcalc(sv).load(&board), newHcalc(both).load(&board); h1 != h2 {
				t.Fatalf("%s: %v: heuristic %d without the reflected side, %d with it", c.name, b, h1, h2)
			}
			r1, err := sv.solve(b)
			if err != nil {
				t.Fatal(err)
			}
			r2, err := both.solve(b)
			if err != nil {
				t.Fatal(err)
			}
			if r1.Length != r2.Length || r1.Nodes != r2.Nodes {
				t.Fatalf("%s: %v: length %d, %d nodes without the reflected side; %d, %d with it", c.name, b, r1.Length, r1.Nodes, r2.Length, r2.Nodes)
			}
		}
	}
}
