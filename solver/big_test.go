package solver

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// manhattanIDA is a reference solver for the big-board tests that shares
// nothing with the package but puzzle.Geometry: IDA* with the plain
// Manhattan distance, every move tried (no pruning beyond not undoing the
// last move). It returns the optimal length; keep to short scrambles.
func manhattanIDA(g puzzle.Geometry, b, goal puzzle.Board) int {
	n := g.N()
	goalCell := make([]int, n)
	for c, t := range goal {
		goalCell[t] = c
	}
	board := append(puzzle.Board(nil), b...)
	h := 0
	blank := 0
	for c, t := range board {
		if t == 0 {
			blank = c
			continue
		}
		h += g.Manhattan(c, goalCell[t])
	}
	var dfs func(depth, bound, h, blank, prev int) bool
	dfs = func(depth, bound, h, blank, prev int) bool {
		if h == 0 {
			return true
		}
		if depth+h > bound {
			return false
		}
		for _, d := range puzzle.Directions {
			to, ok := g.Step(blank, d)
			if !ok || to == prev {
				continue
			}
			t := board[to]
			h2 := h - g.Manhattan(to, goalCell[t]) + g.Manhattan(blank, goalCell[t])
			board[blank], board[to] = t, 0
			found := dfs(depth+1, bound, h2, to, blank)
			board[blank], board[to] = 0, t
			if found {
				return true
			}
		}
		return false
	}
	for bound := h; ; bound += 2 {
		if dfs(0, bound, h, blank, -1) {
			return bound
		}
	}
}

// TestBigBoards solves random scrambles (30 random moves) on 6x6, 7x7, 8x8
// and the long 2x8 and 8x2 boards, with up to 63 tables, whose keys take 2 to 7 words and whose tables have more
// than 32 cells, with IDA* (with and without reflection on the square
// boards), A*, ARA* and the bidirectional search, and checks every length
// against manhattanIDA and every move string by replaying it. Boards with
// two tiles swapped are unsolvable for all of them.
func TestBigBoards(t *testing.T) {
	cases := []struct {
		w, h  int
		goal  string
		parts [][]uint8
		steps int
	}{
		{6, 6, "blank-last", [][]uint8{{1, 2, 7}, {8, 13, 14}, {3, 4, 9}}, 30},
		{6, 6, "blank-first", [][]uint8{{1, 6, 7}, {2, 3}}, 30},
		{7, 7, "blank-last", [][]uint8{{1, 2}, {8, 9}}, 30},
		{8, 8, "blank-last", [][]uint8{{62, 63}, {54, 55}}, 30},
		{2, 8, "blank-last", [][]uint8{{1, 2, 3}, {4, 5, 6}}, 30},
		{8, 2, "blank-first", [][]uint8{{1, 2, 3, 9}, {10, 11}}, 30},
	}
	samples := 10
	if raceEnabled || testing.Short() {
		samples = 3
	}
	rng := rand.New(rand.NewPCG(36, 49))
	ctx := context.Background()
	for _, c := range cases {
		// The tiles in no part get a one-tile table each (its values
		// are the tile's Manhattan distance), so that the heuristic is
		// at least the Manhattan distance and A* stays small.
		parts := c.parts
		inPart := map[uint8]bool{}
		for _, p := range parts {
			for _, x := range p {
				inPart[x] = true
			}
		}
		for x := 1; x < c.w*c.h; x++ {
			if !inPart[uint8(x)] {
				parts = append(parts, []uint8{uint8(x)})
			}
		}
		st := set(t, c.w, c.h, c.goal, parts...)
		g, goal := st.Geom, st.Goal
		solvers := map[string]*Solver{"ida": newSolver(t, st, Options{})}
		if g.W == g.H {
			solvers["ida+reflect"] = newSolver(t, st, Options{Reflect: true})
		}
		for range samples {
			b := pdbtest.RandomWalk(rng, g, goal, c.steps)
			opt := manhattanIDA(g, b, goal)
			for name, sv := range solvers {
				res, err := sv.solve(b)
				if err != nil {
					t.Fatalf("%s %s %v: %v", g, name, b, err)
				}
				if !res.Solvable || res.Length != opt {
					t.Fatalf("%s %s %v: length %d, optimum %d", g, name, b, res.Length, opt)
				}
				checkReplay(t, g, b, goal, res.Moves, opt)
			}
			sv := solvers["ida"]
			wa, err := sv.solveWeighted(ctx, b, 1, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			checkBounded(t, g.String()+" A*", g, b, goal, wa, opt, 1)
			ara, err := sv.solveAnytime(ctx, b, anytimeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkBounded(t, g.String()+" ARA*", g, b, goal, ara, opt, 1)
			bi, _, err := bidirectional(ctx, g, b, goal, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !bi.Solvable || bi.Length != opt {
				t.Fatalf("%s bidirectional %v: length %d, optimum %d", g, b, bi.Length, opt)
			}
			checkReplay(t, g, b, goal, bi.Moves, opt)

			// Two tiles swapped: unsolvable.
			u := append(puzzle.Board(nil), b...)
			i, j := 0, 1
			if u[i] == 0 {
				i = 2
			} else if u[j] == 0 {
				j = 2
			}
			u[i], u[j] = u[j], u[i]
			if res, err := sv.solve(u); err != nil || res.Solvable {
				t.Fatalf("%s %v: %+v, %v; want unsolvable", g, u, res, err)
			}
			if res, _, err := bidirectional(ctx, g, u, goal, Limits{}); err != nil || res.Solvable {
				t.Fatalf("%s bidirectional %v: %+v, %v; want unsolvable", g, u, res, err)
			}
		}
	}
}
