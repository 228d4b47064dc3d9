package solver

import (
	"context"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/preset"
	"github.com/tilepdb/tilepdb/puzzle"
)

// best24Set builds preset 24-best in the test: its 11 zero-aware tables
// (builder.BuildZeroAware, two at a time) and the catalogue of its 14
// partitions through them (preset.PlanCatalogue, format.NewCatalogue), as
// `pdbgen build --preset 24-best` writes it.
func best24Set(tb testing.TB) *format.Set {
	tb.Helper()
	pr, err := preset.Find("24-best")
	if err != nil {
		tb.Fatal(err)
	}
	patterns, partitions, err := pr.PlanCatalogue(puzzle.GoalBlankLast)
	if err != nil {
		tb.Fatal(err)
	}
	tables := make([]*format.Table, len(patterns))
	var g errgroup.Group
	g.SetLimit(2)
	for i, p := range patterns {
		g.Go(func() error {
			v, err := builder.BuildZeroAware(context.Background(), p, builder.Options{Workers: 1})
			if err != nil {
				return err
			}
			r, err := puzzle.NewRegions(p)
			if err != nil {
				return err
			}
			tables[i], err = format.NewZeroAwareTable(r, v, "solver test")
			return err
		})
	}
	if err := g.Wait(); err != nil {
		tb.Fatal(err)
	}
	parts := make([][]format.Part, len(partitions))
	for i, ps := range partitions {
		for _, p := range ps {
			parts[i] = append(parts[i], format.Part{Pattern: p.Pattern, Table: tables[p.Table], Sym: p.Sym})
		}
	}
	s, err := format.NewCatalogue(parts)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestKorf24BestLong solves Korf's 24-puzzle instances #40, #38 and #25
// (the three easiest for Korf & Felner) with preset 24-best (the catalogue of 14
// partitions of zero-aware 6-tile tables), the reflected lookup and 2
// threads, converted from blank-first: the published lengths, moves that
// replay to the blank-first goal, and at most the nodes of Korf & Felner's
// 6-6-6-6 tables with the same search (which the catalogue includes as a
// partition, so its heuristic is at least theirs on every state), logged
// beside Korf & Felner's counts. Run with -long (make long): building the
// tables takes about 6 CPU-minutes.
func TestKorf24BestLong(t *testing.T) {
	if !*long {
		t.Skip("use -long")
	}
	t0 := time.Now()
	best := best24Set(t)
	t.Logf("24-best: %d tables, %d partitions, %d distinct parts, ready in %.1fs", len(best.Tables), len(best.Partitions), len(best.Parts), time.Since(t0).Seconds())
	kf := kfSet(t)
	ks := korf50(t)
	opt := Options{Reflect: true, FromBlankFirst: true, Threads: 2}
	svBest, svKF := newSolver(t, best, opt), newSolver(t, kf, opt)
	goal := puzzle.BlankFirstGoal(best.Geom)
	for _, id := range []int{40, 38, 25} {
		k := ks[id]
		t0, c0 := time.Now(), cpuTime()
		res, err := svBest.solve(k.board)
		if err != nil {
			t.Fatal(err)
		}
		wall, cpu := time.Since(t0), cpuTime()-c0
		if res.Length != k.length {
			t.Errorf("#%d: length %d, published %d", id, res.Length, k.length)
		}
		checkReplay(t, best.Geom, k.board, goal, res.Moves, res.Length)
		ref, err := svKF.solve(k.board)
		if err != nil {
			t.Fatal(err)
		}
		if ref.Length != k.length || res.Nodes > ref.Nodes {
			t.Errorf("#%d: 24-best %d nodes, length %d; 24-6666 %d nodes, length %d", id, res.Nodes, res.Length, ref.Nodes, ref.Length)
		}
		t.Logf("#%d: length %d, nodes %d (24-6666 %d, Korf & Felner %d), wall %.1fs, CPU %.1fs, %.2f M nodes/s per CPU-second",
			id, res.Length, res.Nodes, ref.Nodes, k.kfNodes, wall.Seconds(), cpu.Seconds(), float64(res.Nodes)/cpu.Seconds()/1e6)
	}
}
