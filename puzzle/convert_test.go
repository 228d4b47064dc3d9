package puzzle_test

import (
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestBlankFirstToLast: the conversion maps the blank-first goal to the
// blank-last goal, is an involution, and preserves distances: every state
// of the 3x3, 2x3 and 3x2 boards is checked against a breadth-first search
// from each goal. BlankFirstToLastTile is the relabelling it applies.
func TestBlankFirstToLast(t *testing.T) {
	for _, size := range [][2]int{{3, 3}, {2, 3}, {3, 2}} {
		g := pdbtest.Geometry(t, size[0], size[1])
		n := g.N()
		first, last := puzzle.BlankFirstGoal(g), puzzle.BlankLastGoal(g)
		if got := puzzle.BlankFirstToLast(first); !got.Equal(last) {
			t.Fatalf("%s: blank-first goal maps to %v, want %v", g, got, last)
		}
		for tile := 0; tile < n; tile++ {
			want := uint8(0)
			if tile != 0 {
				want = uint8(n - tile)
			}
			if got := puzzle.BlankFirstToLastTile(n, uint8(tile)); got != want {
				t.Errorf("%s: BlankFirstToLastTile(%d) = %d, want %d", g, tile, got, want)
			}
		}
		toLast, toFirst := pdbtest.Distances(g, last), pdbtest.Distances(g, first)
		if len(toFirst) != len(toLast) {
			t.Fatalf("%s: %d states reach blank-first, %d blank-last", g, len(toFirst), len(toLast))
		}
		for key, d := range toFirst {
			b := puzzle.Board(key)
			c := puzzle.BlankFirstToLast(b)
			if back := puzzle.BlankFirstToLast(c); !back.Equal(b) {
				t.Fatalf("%s: %v -> %v -> %v: not an involution", g, b, c, back)
			}
			if dl, ok := toLast[string(c)]; !ok || dl != d {
				t.Fatalf("%s: %v is %d moves from blank-first, its conversion %v is %d from blank-last (reached %v)", g, b, d, c, dl, ok)
			}
		}
	}
}
