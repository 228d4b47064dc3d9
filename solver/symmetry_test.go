package solver

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// sharedSet groups the tables of a partition like set, but every part that
// is symmetric to an earlier table (puzzle.FindSymmetry) is looked up
// through that table.
func sharedSet(tb testing.TB, w, h int, goal string, parts ...[]uint8) (*format.Set, int) {
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
			part.Table = table(tb, w, h, goal, tiles...)
			tables = append(tables, part.Table)
		}
		ps = append(ps, part)
	}
	s, err := format.NewSetParts(ps)
	if err != nil {
		tb.Fatal(err)
	}
	return s, len(tables)
}

// TestSharedTablesSolveAlike: a set whose tables serve several parts by
// symmetry is the same heuristic as one table per part, so IDA* must give
// the same moves and node counts, with and without reflection.
func TestSharedTablesSolveAlike(t *testing.T) {
	partition := [][]uint8{{1, 2, 5}, {3, 4, 8}, {9, 13, 14}, {6, 7, 10}, {11, 12, 15}}
	shared, n := sharedSet(t, 4, 4, puzzle.GoalBlankLast, partition...)
	if n != 3 {
		t.Fatalf("%d tables, want 3", n)
	}
	plain := set(t, 4, 4, puzzle.GoalBlankLast, partition...)
	rng := rand.New(rand.NewPCG(5, 5))
	for _, reflect := range []bool{false, true} {
		a := newSolver(t, plain, Options{Reflect: reflect})
		b := newSolver(t, shared, Options{Reflect: reflect})
		for range 15 {
			board := pdbtest.RandomWalk(rng, plain.Geom, plain.Goal, 60)
			if ha, hb := a.Heuristic(board), b.Heuristic(board); ha != hb {
				t.Fatalf("%s reflect=%v: heuristic %d with separate tables, %d shared", board, reflect, ha, hb)
			}
			ra, err := a.solve(board)
			if err != nil {
				t.Fatal(err)
			}
			rb, err := b.solve(board)
			if err != nil {
				t.Fatal(err)
			}
			if ra.Moves != rb.Moves || ra.Nodes != rb.Nodes {
				t.Fatalf("%s reflect=%v: separate %d moves %s nodes %d; shared %d moves %s nodes %d", board, reflect, ra.Length, ra.Moves, ra.Nodes, rb.Length, rb.Moves, rb.Nodes)
			}
			checkReplay(t, plain.Geom, board, plain.Goal, rb.Moves, rb.Length)
			// Weighted A* evaluates children through hcalc: same answer.
			wa, err := a.solveWeighted(context.Background(), board, 1.5, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			wb, err := b.solveWeighted(context.Background(), board, 1.5, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if wa.Moves != wb.Moves || wa.Length != wb.Length {
				t.Fatalf("%s reflect=%v: weighted A* separate %s, shared %s", board, reflect, wa.Moves, wb.Moves)
			}
		}
	}
}
