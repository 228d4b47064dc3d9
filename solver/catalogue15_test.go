package solver

import (
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// transposedParts are the parts of the partition transposed from parts
// (transposed), each looked up through the table of its original part with
// puzzle.Transpose: on a board b their values are those of parts on b
// reflected about the main diagonal (Options.Reflect).
func transposedParts(tb testing.TB, w, h int, goal string, parts [][]uint8) []format.Part {
	tb.Helper()
	var out []format.Part
	for i, tiles := range transposed(tb, w, h, goal, parts) {
		p := format.Part{Table: table(tb, w, h, goal, parts[i]...), Sym: puzzle.Transpose}
		p.Pattern = pdbtest.Pattern(tb, w, h, goal, tiles...)
		out = append(out, p)
	}
	return out
}

// ownParts are the parts of a partition, each through its own table.
func ownParts(tb testing.TB, w, h int, goal string, parts [][]uint8) []format.Part {
	tb.Helper()
	var out []format.Part
	for _, tiles := range parts {
		t := table(tb, w, h, goal, tiles...)
		out = append(out, format.Part{Pattern: t.Pattern, Table: t})
	}
	return out
}

// cat663 is the catalogue {6-6-3, 6-6-3 transposed} of the 15-puzzle
// (blank-last), on the three tables of 15-663; also returned are the
// additive sets of each of its partitions alone.
func cat663(tb testing.TB) (cat, plain, trans *format.Set) {
	tb.Helper()
	const goal = puzzle.GoalBlankLast
	own, tr := ownParts(tb, 4, 4, goal, part663), transposedParts(tb, 4, 4, goal, part663)
	cat, err := format.NewCatalogue([][]format.Part{own, tr})
	if err != nil {
		tb.Fatal(err)
	}
	if len(cat.Tables) != 3 {
		tb.Fatalf("the catalogue has %d tables, want 3", len(cat.Tables))
	}
	if plain, err = format.NewSetParts(own); err != nil {
		tb.Fatal(err)
	}
	if trans, err = format.NewSetParts(tr); err != nil {
		tb.Fatal(err)
	}
	return cat, plain, trans
}

// TestCatalogueKorfHelps: on easy instances of Korf's 100, IDA* with the
// catalogue {6-6-3, 6-6-3 transposed} finds the published lengths with at
// most the nodes of either partition alone, and its heuristic is that of
// 6-6-3 with the reflected lookup (the transposed partition is exactly
// the reflected lookup), start state and all.
func TestCatalogueKorfHelps(t *testing.T) {
	ids := map[int]bool{16: true, 42: true, 55: true, 79: true}
	if raceEnabled || testing.Short() {
		ids = map[int]bool{79: true}
	}
	cat, plain, trans := cat663(t)
	opt := Options{FromBlankFirst: true}
	c, a, b := newSolver(t, cat, opt), newSolver(t, plain, opt), newSolver(t, trans, opt)
	refl := newSolver(t, plain, Options{FromBlankFirst: true, Reflect: true})
	if c.cat == nil {
		t.Fatal("not searched as a catalogue")
	}
	for _, k := range korf100(t) {
		if !ids[k.id] {
			continue
		}
		start := puzzle.BlankFirstToLast(k.board)
		if hc, hr := c.Heuristic(start), refl.Heuristic(start); hc != hr {
			t.Fatalf("instance %d: catalogue heuristic %d, 6-6-3 with reflection %d", k.id, hc, hr)
		}
		var nodes [3]uint64
		for i, sv := range []*Solver{c, a, b} {
			res, err := sv.solve(k.board)
			if err != nil {
				t.Fatal(err)
			}
			if res.Length != k.length {
				t.Fatalf("instance %d: length %d, published %d", k.id, res.Length, k.length)
			}
			checkReplay(t, puzzle.Geometry{W: 4, H: 4}, k.board, puzzle.BlankFirstGoal(puzzle.Geometry{W: 4, H: 4}), res.Moves, res.Length)
			nodes[i] = res.Nodes
		}
		t.Logf("instance %d: nodes %d with the catalogue, %d with 6-6-3, %d with 6-6-3 transposed", k.id, nodes[0], nodes[1], nodes[2])
		if nodes[0] > nodes[1] || nodes[0] > nodes[2] {
			t.Errorf("instance %d: the catalogue took %d nodes, more than a partition alone (%d, %d)", k.id, nodes[0], nodes[1], nodes[2])
		}
	}
}

// BenchmarkKorf100Catalogue is BenchmarkKorf100 with the catalogue
// {6-6-3, 6-6-3 transposed} (cat663), with and without the reflected
// lookup.
func BenchmarkKorf100Catalogue(b *testing.B) {
	ks := korf100(b)
	for _, reflect := range []bool{false, true} {
		name := "663|T663"
		if reflect {
			name += "+reflect"
		}
		b.Run(name, func(b *testing.B) {
			cat, _, _ := cat663(b)
			sv := newSolver(b, cat, Options{Reflect: reflect, FromBlankFirst: true})
			var nodes uint64
			iters := 0
			c0 := cpuTime()
			for b.Loop() {
				for _, k := range ks {
					res, err := sv.solve(k.board)
					if err != nil {
						b.Fatal(err)
					}
					if res.Length != k.length {
						b.Fatalf("instance %d: length %d, published %d", k.id, res.Length, k.length)
					}
					nodes += res.Nodes
				}
				iters++
			}
			n := float64(iters * len(ks))
			b.ReportMetric(float64(nodes)/n, "nodes/instance")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/instance")
			b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/n, "cpu-ns/instance")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
		})
	}
}
