package format

import (
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
)

// refManhattan unranks rank and sums the taxicab distances of the table's
// tiles directly from the definition.
func refManhattan(p *puzzle.Pattern, rank uint64) uint8 {
	cells := make([]uint8, p.CellsLen())
	p.Unrank(rank, cells)
	goal := p.GoalPositions()
	var s int
	if p.Exact {
		for t := 1; t < len(cells); t++ {
			s += p.Geom.Manhattan(int(cells[t]), int(goal[t]))
		}
	} else {
		for i, t := range p.Tiles {
			s += p.Geom.Manhattan(int(cells[i]), int(goal[t]))
		}
	}
	return uint8(s)
}

// TestManhattanFill checks the incremental walk against unranking every
// entry, exhaustively on small patterns, for whole tables and for runs
// starting and ending at arbitrary ranks.
func TestManhattanFill(t *testing.T) {
	cases := []struct {
		w, h  int
		goal  string
		tiles []uint8
	}{
		{2, 2, "blank-last", nil},
		{3, 2, "blank-first", nil},
		{3, 2, "5 4 3 2 1 0", nil},
		{3, 3, "blank-last", nil},
		{3, 3, "blank-first", nil},
		{3, 3, "4 1 0 3 2 5 6 7 8", nil},
		{3, 3, "blank-last", []uint8{1, 2, 3}},
		{3, 3, "blank-first", []uint8{2, 5, 8}},
		{4, 3, "blank-last", []uint8{1, 2, 3, 4}},
		{4, 4, "blank-first", []uint8{1, 4, 5}},
		{4, 4, "blank-last", []uint8{2, 3, 7, 11, 15}},
		{5, 5, "blank-last", []uint8{7, 24}},
		{3, 3, "blank-last", []uint8{5}},
		{6, 6, "blank-last", []uint8{1, 2, 36 - 1}},
		{7, 7, "blank-first", []uint8{1, 48}},
		{8, 8, "blank-last", []uint8{1, 62, 63}},     // cells up to 63, more than 3 levels: the C(N,3) row
		{6, 5, "blank-first", []uint8{5, 25, 29, 9}}, // 4 tiles: the C(30,3) row (more than the 2300 of 5x5) copied per block
		{2, 8, "blank-last", []uint8{1, 15, 8, 9}},
	}
	for _, c := range cases {
		p := pdbtest.Pattern(t, c.w, c.h, c.goal, c.tiles...)
		m := newManhattan(p)
		size := p.Size()
		want := make([]uint8, size)
		for r := range want {
			want[r] = refManhattan(p, uint64(r))
		}
		var scratch []uint8
		got := make([]uint8, size)
		m.fill(0, got, &scratch)
		for r := range want {
			if got[r] != want[r] {
				t.Fatalf("%s: rank %d: Manhattan %d, want %d", p, r, got[r], want[r])
			}
		}
		// Runs at odd offsets and lengths.
		for _, run := range [][2]uint64{{1, 1}, {size - 1, 1}, {size / 3, size / 2}, {7, size - 7}, {size / 2, size - size/2}} {
			lo, n := run[0], run[1]
			part := make([]uint8, n)
			m.fill(lo, part, &scratch)
			for i := range part {
				if part[i] != want[lo+uint64(i)] {
					t.Fatalf("%s: run from %d: rank %d: Manhattan %d, want %d", p, lo, lo+uint64(i), part[i], want[lo+uint64(i)])
				}
			}
		}
	}
}
