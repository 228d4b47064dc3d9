package puzzle_test

import (
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestSolvableBFS checks Solvable and Pattern.SolvablePositions against
// BFS reachability for every permutation of small boards, for both goal
// conventions and a custom goal.
func TestSolvableBFS(t *testing.T) {
	cases := []struct {
		w, h  int
		goals []string
	}{
		{2, 2, []string{"blank-last", "blank-first", "2 0 1 3"}},
		{2, 3, []string{"blank-last", "blank-first", "3 0 5 1 4 2"}},
		{3, 2, []string{"blank-last", "blank-first", "5 4 3 2 1 0"}},
		{2, 4, []string{"blank-last", "blank-first"}},
		{4, 2, []string{"blank-first", "7 0 6 5 4 3 2 1"}},
		{3, 3, []string{"blank-last", "blank-first", "4 1 2 0 8 7 6 3 5"}},
	}
	for _, c := range cases {
		g := pdbtest.Geometry(t, c.w, c.h)
		t.Run(g.String(), func(t *testing.T) {
			t.Parallel()
			n := g.N()
			type goalCase struct {
				name            string
				goal            puzzle.Board
				reach           map[string]int
				exact, additive *puzzle.Pattern
			}
			var gcs []goalCase
			for _, name := range c.goals {
				goal, err := puzzle.ParseGoal(name, g)
				if err != nil {
					t.Fatal(err)
				}
				reach := pdbtest.Distances(g, goal)
				if want := pdbtest.RefFactorial(n) / 2; uint64(len(reach)) != want {
					t.Fatalf("goal %s: BFS reached %d boards, want N!/2 = %d", name, len(reach), want)
				}
				// SolvablePositions reads only the goal of the pattern,
				// so an exact and an additive pattern must both agree.
				gcs = append(gcs, goalCase{name, goal, reach,
					pdbtest.Pattern(t, c.w, c.h, name), pdbtest.Pattern(t, c.w, c.h, name, 1)})
			}
			errs, count := 0, 0
			pos := make([]uint8, n)
			forEachPermutation(n, func(perm []uint8) {
				count++
				if errs > 5 {
					return
				}
				b := puzzle.Board(perm)
				key := string(perm)
				for cell, tile := range b {
					pos[tile] = uint8(cell)
				}
				sample := n < 9 || count%5 == 0 // keep 3x3 fast: some checks on a sample
				for _, gc := range gcs {
					_, want := gc.reach[key]
					if got := puzzle.Solvable(g, b, gc.goal); got != want {
						errs++
						t.Errorf("goal %s: Solvable(%v) = %v, BFS says %v", gc.name, b, got, want)
					}
					if got := gc.exact.SolvablePositions(pos); got != want {
						errs++
						t.Errorf("goal %s: exact SolvablePositions(%v) = %v, BFS says %v", gc.name, pos, got, want)
					}
					if !sample {
						continue
					}
					// Solvable is symmetric: b reaches goal iff goal reaches b.
					if got := puzzle.Solvable(g, gc.goal, b); got != want {
						errs++
						t.Errorf("goal %s: Solvable with goal and board swapped (%v) = %v, BFS says %v", gc.name, b, got, want)
					}
					if got := gc.additive.SolvablePositions(pos); got != want {
						errs++
						t.Errorf("goal %s: additive SolvablePositions(%v) = %v, BFS says %v", gc.name, pos, got, want)
					}
				}
			})
			if uint64(count) != pdbtest.RefFactorial(n) {
				t.Fatalf("enumerated %d boards, want %d", count, pdbtest.RefFactorial(n))
			}
		})
	}
}

// TestSolvableParityRule checks Solvable on the boards from 4x3 to 8x8,
// too big to search, against the textbook inversion rules (for blank-last and
// blank-first goals): with inversions counted over the tiles in reading
// order, ignoring the blank, an odd-width board is solvable iff the count
// is even; on an even width the count plus the blank's row (counted from
// the goal blank's row) must be even.
func TestSolvableParityRule(t *testing.T) {
	for _, c := range []struct {
		w, h int
		goal string
	}{{4, 4, "blank-last"}, {4, 4, "blank-first"}, {5, 5, "blank-last"}, {5, 5, "blank-first"}, {4, 3, "blank-last"}, {5, 4, "blank-first"},
		{6, 6, "blank-last"}, {7, 7, "blank-first"}, {8, 8, "blank-last"}, {8, 8, "blank-first"}, {2, 8, "blank-last"}, {8, 2, "blank-first"}, {7, 6, "blank-last"}} {
		g := pdbtest.Geometry(t, c.w, c.h)
		goal, _ := puzzle.ParseGoal(c.goal, g)
		n := g.N()
		goalBlankRow := goal.Positions()[0] / uint8(c.w)
		// Deterministic pseudo-random boards (xorshift), no math/rand.
		x := uint32(12345)
		for range 2000 {
			b := make(puzzle.Board, n)
			for i := range b {
				b[i] = uint8(i)
			}
			for i := n - 1; i > 0; i-- {
				x ^= x << 13
				x ^= x >> 17
				x ^= x << 5
				j := int(x % uint32(i+1))
				b[i], b[j] = b[j], b[i]
			}
			// Inversions of the tile sequence, relative to the goal's
			// tile order (blank-first lists 1..N-1 in order too).
			var tilesSeq []uint8
			blankRow := 0
			for cell, tile := range b {
				if tile == 0 {
					blankRow = cell / c.w
					continue
				}
				tilesSeq = append(tilesSeq, tile)
			}
			par := refParity(tilesSeq)
			if c.w%2 == 0 {
				par = (par + blankRow + int(goalBlankRow)) % 2
			}
			want := par == 0
			if got := puzzle.Solvable(g, b, goal); got != want {
				t.Fatalf("%s %s: Solvable(%v) = %v, inversion rule says %v", g, c.goal, b, got, want)
			}
		}
	}
}
