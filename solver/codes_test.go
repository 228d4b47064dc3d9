package solver

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// codesSet is the set of the tables of s (one part each) read back as
// codes (format.ReadCodesFile) from format 2 files.
func codesSet(tb testing.TB, s *format.Set) *format.Set {
	tb.Helper()
	dir := tb.TempDir()
	var ts []*format.Table
	for i, p := range s.Parts {
		var buf bytes.Buffer
		c := *p.Table
		c.Header.FrameSize = 0
		if err := c.Encode(&buf, 1); err != nil {
			tb.Fatal(err)
		}
		path := filepath.Join(dir, string(rune('a'+i))+".pdb")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			tb.Fatal(err)
		}
		t, err := format.ReadCodesFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		ts = append(ts, t)
	}
	out, err := format.NewSet(ts...)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// TestCodesTables: tables held as codes (4 bits per entry plus the
// tiles' Manhattan distance) give the byte tables' heuristic at every
// random state (the byte one through format.Set.Heuristic, an independent
// lookup), and the same IDA* moves and node counts, beam answers and
// polished paths, with and without reflection.
func TestCodesTables(t *testing.T) {
	cases := []struct {
		name string
		s    *format.Set
	}{
		{"8-puzzle 4-4", set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8})},
		{"15-puzzle 5-5-5", set(t, 4, 4, "blank-last", presetPartition("15-555")...)},
		{"15-puzzle 6-6-3 blank-first", set(t, 4, 4, "blank-first", []uint8{1, 2, 3, 4, 5, 6}, []uint8{7, 8, 9, 10, 11, 12}, []uint8{13, 14, 15})},
		{"3x4 4-4-3", set(t, 4, 3, "blank-last", []uint8{1, 2, 5, 6}, []uint8{3, 4, 7, 8}, []uint8{9, 10, 11})},
	}
	rng := rand.New(rand.NewPCG(7, 77))
	n := 6
	if raceEnabled {
		n = 2
	}
	for _, c := range cases {
		cs := codesSet(t, c.s)
		for _, opt := range []Options{{}, {Reflect: true}} {
			if opt.Reflect && c.s.Geom.W != c.s.Geom.H {
				continue
			}
			bytesSv, codesSv := newSolver(t, c.s, opt), newSolver(t, cs, opt)
			for range 200 {
				b := pdbtest.RandomSolvable(rng, c.s.Geom, c.s.Goal)
				if hb, hc := bytesSv.Heuristic(b), codesSv.Heuristic(b); hb != hc {
					t.Fatalf("%s %+v: %v: heuristic %d as codes, %d in bytes", c.name, opt, b, hc, hb)
				}
				if hb, hc := c.s.Heuristic(b.Positions()), cs.Heuristic(b.Positions()); hb != hc {
					t.Fatalf("%s: %v: format.Set.Heuristic %d as codes, %d in bytes", c.name, b, hc, hb)
				}
			}
			for range n {
				b := pdbtest.RandomWalk(rng, c.s.Geom, c.s.Goal, 45)
				want, err := bytesSv.solve(b)
				if err != nil {
					t.Fatal(err)
				}
				got, err := codesSv.solve(b)
				if err != nil {
					t.Fatal(err)
				}
				if got.Moves != want.Moves || got.Nodes != want.Nodes {
					t.Fatalf("%s %+v: %v: IDA* %q %d nodes as codes, %q %d in bytes", c.name, opt, b, got.Moves, got.Nodes, want.Moves, want.Nodes)
				}
				wb, err1 := bytesSv.solveBeam(context.Background(), b, 3, Limits{})
				gb, err2 := codesSv.solveBeam(context.Background(), b, 3, Limits{})
				if (err1 == nil) != (err2 == nil) || gb.Moves != wb.Moves {
					t.Fatalf("%s %+v: %v: beam %q (%v) as codes, %q (%v) in bytes", c.name, opt, b, gb.Moves, err2, wb.Moves, err1)
				}
				if err1 != nil || wb.Length < 2 {
					continue
				}
				path := slices.Clone(bytesSv.pathOf(wb.Moves))
				wp, wn := bytesSv.improvePath(context.Background(), b, path, time.Time{})
				gp, gn := codesSv.improvePath(context.Background(), b, path, time.Time{})
				if !slices.Equal(wp, gp) || wn != gn {
					t.Fatalf("%s %+v: %v: polish %d moves %d nodes as codes, %d moves %d nodes in bytes", c.name, opt, b, len(gp), gn, len(wp), wn)
				}
			}
		}
	}
}

// TestCodesRelease: a solver over tables held as codes has no byte values
// (Options and Heuristic go through its own evaluation) and builds no
// direct index for them.
func TestCodesRelease(t *testing.T) {
	s := codesSet(t, set(t, 4, 4, "blank-last", presetPartition("15-555")...))
	sv := newSolver(t, s, Options{})
	for i := range sv.tabs {
		if sv.tabs[i].dvals != nil || sv.tabs[i].values != nil || sv.tabs[i].codes == nil {
			t.Fatalf("table %d: direct %v, bytes %v, codes %v", i, sv.tabs[i].dvals != nil, sv.tabs[i].values != nil, sv.tabs[i].codes != nil)
		}
	}
	if h := sv.Heuristic(puzzle.BlankLastGoal(s.Geom)); h != 0 {
		t.Fatalf("goal heuristic %d", h)
	}
}

// TestBeamKeepParts: a beam search that keeps each state's values per
// table (beamKeepParts) makes exactly the moves and node counts of one
// that looks every state up again, with and without reflection and
// with rank weights, on the 15-puzzle (tables in bytes through their
// direct or their compact index, and as codes). Without rank weights the
// first evaluates its children in halves (Solver.splitSteps: ranks, then
// the table entries of a chunk of states at once), the second one at a
// time, so this also checks the halves.
func TestBeamKeepParts(t *testing.T) {
	bytesSet := set(t, 4, 4, "blank-last", presetPartition("15-555")...)
	rng := rand.New(rand.NewPCG(8, 88))
	defer func() { beamKeepParts = true }()
	for _, s := range []*format.Set{bytesSet, codesSet(t, bytesSet)} {
		for _, opt := range []Options{{}, {Reflect: true}, {Reflect: true, Compact: true}, {RankWeights: []float64{2, 3, 1}}} {
			sv := newSolver(t, s, opt)
			if split := sv.splitSteps(); split != (opt.RankWeights == nil) {
				t.Fatalf("%+v: children evaluated in halves: %v", opt, split)
			}
			for range 3 {
				b := pdbtest.RandomSolvable(rng, s.Geom, s.Goal)
				var res [2]Bounded
				for i, keep := range []bool{true, false} {
					beamKeepParts = keep
					r, err := sv.solveBeam(context.Background(), b, 50, Limits{})
					if err != nil {
						t.Fatal(err)
					}
					res[i] = r
				}
				if res[0].Moves != res[1].Moves || res[0].Stats.Generated != res[1].Stats.Generated || res[0].Stats.Expanded != res[1].Stats.Expanded || res[0].Lower != res[1].Lower {
					t.Fatalf("%+v: %v: keeping parts %q (%d generated), looking up %q (%d)", opt, b, res[0].Moves, res[0].Stats.Generated, res[1].Moves, res[1].Stats.Generated)
				}
			}
		}
	}
}

// TestBeamKeepPartsCatalogue is TestBeamKeepParts for catalogues on the
// 15-puzzle: plain tables (5-5-5, 6-6-3 and 5-5-5's transpose: its part
// {8,11,12,14,15} is its own transpose and shared, the other two go
// through 5-5-5's tables by symmetry; not closed under the reflection, so
// the reflected side is kept), with and without the reflected side, and
// zero-aware tables in bytes and at 1 bit.
func TestBeamKeepPartsCatalogue(t *testing.T) {
	p555, p663 := presetPartition("15-555"), presetPartition("15-663")
	plain := catalogueSet(t, false, 4, 4, puzzle.GoalBlankLast, p555, p663, transposed(t, 4, 4, puzzle.GoalBlankLast, p555))
	za := catalogueSet(t, true, 4, 4, puzzle.GoalBlankLast, p555, transposed(t, 4, 4, puzzle.GoalBlankLast, p555))
	rng := rand.New(rand.NewPCG(8, 89))
	defer func() { beamKeepParts = true }()
	for _, c := range []struct {
		s   *format.Set
		opt Options
	}{
		{plain, Options{}}, {plain, Options{Reflect: true}},
		{za, Options{}}, {za, Options{ZeroAwareBits: true}},
	} {
		sv := newSolver(t, c.s, c.opt)
		if sv.cat == nil || sv.reflSide != c.opt.Reflect {
			t.Fatalf("%+v: want a catalogue search, reflected side %v", c.opt, c.opt.Reflect)
		}
		for range 3 {
			b := pdbtest.RandomSolvable(rng, c.s.Geom, c.s.Goal)
			var res [2]Bounded
			for i, keep := range []bool{true, false} {
				beamKeepParts = keep
				r, err := sv.solveBeam(context.Background(), b, 50, Limits{})
				if err != nil {
					t.Fatal(err)
				}
				checkReplay(t, c.s.Geom, b, puzzle.BlankLastGoal(c.s.Geom), r.Moves, r.Length)
				res[i] = r
			}
			if res[0].Moves != res[1].Moves || res[0].Stats.Generated != res[1].Stats.Generated || res[0].Lower != res[1].Lower {
				t.Fatalf("%+v: %v: keeping parts %q (%d generated), looking up %q (%d)", c.opt, b, res[0].Moves, res[0].Stats.Generated, res[1].Moves, res[1].Stats.Generated)
			}
		}
	}
}

// TestBeamSplitShared checks the two-half evaluation of beam searches
// (beamEval) against the one-at-a-time one where TestBeamKeepParts does
// not reach: on the 24-puzzle's board, parts that share a table through
// the main-diagonal symmetry ({3,4,8,9} and its transpose
// {11,12,16,17}), parts with tables of their own and a tile in no part,
// with and without reflection; and with a known length to beat (upper),
// which prunes children after their values are computed. Moves, node
// counts, bounds and errors must be equal.
func TestBeamSplitShared(t *testing.T) {
	s, tables := sharedSet(t, 5, 5, "blank-last", []uint8{1, 2, 6, 7}, []uint8{3, 4, 8, 9}, []uint8{11, 12, 16, 17},
		[]uint8{13, 14, 18, 19}, []uint8{5, 10, 15, 20}, []uint8{21, 22, 23})
	if tables != 5 {
		t.Fatalf("%d tables, want 5 ({11,12,16,17} shares the table of its transpose {3,4,8,9})", tables)
	}
	rng := rand.New(rand.NewPCG(8, 90))
	defer func() { beamKeepParts = true }()
	for _, opt := range []Options{{}, {Reflect: true}} {
		sv := newSolver(t, s, opt)
		if !sv.splitSteps() {
			t.Fatalf("%+v: want children evaluated in halves", opt)
		}
		for range 3 {
			b := pdbtest.RandomSolvable(rng, s.Geom, s.Goal)
			first, err := sv.solveBeam(context.Background(), b, 200, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			for _, upper := range []int{0, first.Length, first.Length - 10} {
				var res [2]Bounded
				var errs [2]error
				for i, keep := range []bool{true, false} {
					beamKeepParts = keep
					res[i], errs[i] = sv.runBeamSearch(context.Background(), b, 200, Limits{}, upper)
					if errs[i] == nil {
						checkReplay(t, s.Geom, b, puzzle.BlankLastGoal(s.Geom), res[i].Moves, res[i].Length)
					}
				}
				beamKeepParts = true
				if res[0].Moves != res[1].Moves || res[0].Stats.Generated != res[1].Stats.Generated || res[0].Stats.Expanded != res[1].Stats.Expanded ||
					res[0].Lower != res[1].Lower || fmt.Sprint(errs[0]) != fmt.Sprint(errs[1]) {
					t.Fatalf("%+v upper %d: %v: halves %q (%d generated, %v), one at a time %q (%d, %v)", opt, upper, b, res[0].Moves, res[0].Stats.Generated, errs[0], res[1].Moves, res[1].Stats.Generated, errs[1])
				}
			}
		}
	}
}
