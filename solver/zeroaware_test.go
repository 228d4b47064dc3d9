package solver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// zaTable builds (once per test binary) the zero-aware table of tiles.
func zaTable(tb testing.TB, w, h int, goal string, tiles ...uint8) *format.Table {
	tb.Helper()
	key := fmt.Sprintf("za %dx%d %s %v", w, h, goal, tiles)
	e, _ := tableCache.LoadOrStore(key, &tableEntry{})
	ent := e.(*tableEntry)
	p := pdbtest.Pattern(tb, w, h, goal, tiles...)
	ent.once.Do(func() {
		v, err := builder.BuildZeroAware(context.Background(), p, builder.Options{})
		if err != nil {
			ent.err = err
			return
		}
		r, err := puzzle.NewRegions(p)
		if err != nil {
			ent.err = err
			return
		}
		ent.t, ent.err = format.NewZeroAwareTable(r, v, "solver test")
	})
	if ent.err != nil {
		tb.Fatalf("table %s: %v", key, ent.err)
	}
	return ent.t
}

// zaSet is sharedSet with zero-aware tables (zero-aware: true) or plain
// ones: parts symmetric to an earlier table are looked up through it.
func zaSet(tb testing.TB, zeroAware bool, w, h int, goal string, parts ...[]uint8) *format.Set {
	tb.Helper()
	var ps []format.Part
	var tables []*format.Table
	for _, tiles := range parts {
		p := pdbtest.Pattern(tb, w, h, goal, tiles...)
		part := format.Part{Pattern: p}
		for _, t := range tables {
			if m, ok := puzzle.FindSymmetry(p, t.Pattern); ok {
				part.Table, part.Sym = t, m.Sym
				break
			}
		}
		if part.Table == nil {
			if zeroAware {
				part.Table = zaTable(tb, w, h, goal, tiles...)
			} else {
				part.Table = table(tb, w, h, goal, tiles...)
			}
			tables = append(tables, part.Table)
		}
		ps = append(ps, part)
	}
	s, err := format.NewSetParts(ps)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// zaCases are the partitions of the zero-aware solver tests: the
// 8-puzzle's halves, 15-555 and a 15-puzzle partition of 3-tile parts of
// which three share tables by symmetry (so zero-aware lookups go through
// a mapping of cells, the blank's included).
var zaCases = []struct {
	name  string
	w, h  int
	goal  string
	parts [][]uint8
	walk  int // random-walk length of the 15-puzzle boards (0: uniformly random 8-puzzle boards)
}{
	{"8-puzzle 4-4", 3, 3, puzzle.GoalBlankLast, [][]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}, 0},
	{"8-puzzle 3-5 blank-first", 3, 3, puzzle.GoalBlankFirst, [][]uint8{{1, 3, 5}, {2, 4, 6, 7, 8}}, 0},
	{"15-555", 4, 4, puzzle.GoalBlankLast, presetPartition("15-555"), 70},
	{"15 3-3-3-3-3 shared", 4, 4, puzzle.GoalBlankLast, [][]uint8{{1, 2, 5}, {3, 4, 8}, {9, 13, 14}, {6, 7, 10}, {11, 12, 15}}, 45},
}

// TestZeroAwareIncremental: IDA*'s incremental heuristic (hcalc: load,
// then one child per move) equals the set's heuristic computed from
// scratch (format.Part.Value through puzzle.Regions) on every child, for
// zero-aware sets, with the compact and the direct index, with and
// without reflection.
func TestZeroAwareIncremental(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 1))
	for _, c := range zaCases {
		s := zaSet(t, true, c.w, c.h, c.goal, c.parts...)
		for _, opt := range []Options{{}, {Compact: true}, {Reflect: true}, {Reflect: true, Compact: true}} {
			if opt.Reflect && c.goal == puzzle.GoalBlankFirst {
				continue // the blank-first goal is fine too, but keep the run short
			}
			sv := newSolver(t, s, opt)
			hc := newHcalc(sv)
			for range 300 {
				b := pdbtest.RandomWalk(rng, s.Geom, s.Goal, 1+rng.IntN(80))
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
		}
	}
}

// TestZeroAwareSolvesAlike: IDA* with zero-aware tables finds solutions
// of the same (optimal) length as with the plain tables of the same
// partition, generating at most as many nodes, and its heuristic is at
// least the plain one on every board (and at most the solution length).
// With a dominating admissible heuristic every IDA* iteration explores a
// subset of the plain one's tree at the same bound, and the moves of the
// first solution in move order are the same.
func TestZeroAwareSolvesAlike(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 2))
	for _, c := range zaCases {
		za := zaSet(t, true, c.w, c.h, c.goal, c.parts...)
		plain := zaSet(t, false, c.w, c.h, c.goal, c.parts...)
		for _, opt := range []Options{{}, {Reflect: true, Threads: 2}, {Reflect: true, Compact: true}} {
			if opt.Reflect && c.goal == puzzle.GoalBlankFirst {
				continue
			}
			a, b := newSolver(t, plain, opt), newSolver(t, za, opt)
			n := 40
			if c.walk == 0 {
				n = 150
			}
			var nodesPlain, nodesZA uint64
			stronger := 0
			for range n {
				var board puzzle.Board
				if c.walk == 0 {
					board = pdbtest.RandomSolvable(rng, za.Geom, za.Goal)
				} else {
					board = pdbtest.RandomWalk(rng, za.Geom, za.Goal, c.walk)
				}
				ha, hb := a.Heuristic(board), b.Heuristic(board)
				ra, err := a.solve(board)
				if err != nil {
					t.Fatal(err)
				}
				rb, err := b.solve(board)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case hb < ha || hb > rb.Length:
					t.Fatalf("%s %+v: %s: zero-aware heuristic %d, plain %d, length %d", c.name, opt, board, hb, ha, rb.Length)
				case ra.Length != rb.Length || ra.Moves != rb.Moves:
					t.Fatalf("%s %+v: %s: plain %d moves %s, zero-aware %d moves %s", c.name, opt, board, ra.Length, ra.Moves, rb.Length, rb.Moves)
				case rb.Nodes > ra.Nodes:
					t.Fatalf("%s %+v: %s: zero-aware %d nodes, more than plain %d", c.name, opt, board, rb.Nodes, ra.Nodes)
				}
				if hb > ha {
					stronger++
				}
				checkReplay(t, za.Geom, board, za.Goal, rb.Moves, rb.Length)
				nodesPlain += ra.Nodes
				nodesZA += rb.Nodes
			}
			t.Logf("%s %+v: %d boards, %d with a larger heuristic; nodes %d plain, %d zero-aware (%.3fx fewer)",
				c.name, opt, n, stronger, nodesPlain, nodesZA, float64(nodesPlain)/float64(max(nodesZA, 1)))
			if stronger == 0 {
				t.Errorf("%s: the zero-aware heuristic never exceeded the plain one", c.name)
			}
		}
	}
}
