package puzzle_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/verify"
)

// TestSymmetryGroup checks the symmetries against facts independent of the
// formulas: each is a bijection of the cells that preserves adjacency, a
// square has 8 distinct ones and another rectangle 4, the quarter turn
// composed with itself is the half turn, reflections and the half turn are
// their own inverse, the quarter turn is clockwise (top-left corner to
// top-right) and names round-trip.
func TestSymmetryGroup(t *testing.T) {
	for _, wh := range [][2]int{{2, 2}, {2, 3}, {3, 2}, {3, 3}, {4, 4}, {5, 3}, {5, 5}, {6, 6}, {7, 7}, {8, 8}, {2, 8}, {8, 7}} {
		g := pdbtest.Geometry(t, wh[0], wh[1])
		n := g.N()
		syms := puzzle.Symmetries(g)
		want := 4
		if g.W == g.H {
			want = 8
		}
		if len(syms) != want {
			t.Fatalf("%s: %d symmetries, want %d", g, len(syms), want)
		}
		seen := map[string]puzzle.Symmetry{}
		for _, s := range syms {
			img := make([]int, n)
			var hit uint64
			for c := 0; c < n; c++ {
				img[c] = s.Cell(g, c)
				if img[c] < 0 || img[c] >= n || hit&(1<<img[c]) != 0 {
					t.Fatalf("%s %s: not a bijection (cell %d -> %d)", g, s, c, img[c])
				}
				hit |= 1 << img[c]
			}
			for a := 0; a < n; a++ {
				for b := 0; b < n; b++ {
					if (g.Manhattan(a, b) == 1) != (g.Manhattan(img[a], img[b]) == 1) {
						t.Fatalf("%s %s: adjacency of cells %d,%d not preserved", g, s, a, b)
					}
				}
			}
			key := ""
			for _, c := range img {
				key += string(rune('a' + c))
			}
			if o, dup := seen[key]; dup {
				t.Fatalf("%s: %s and %s are the same map", g, s, o)
			}
			seen[key] = s
			if p, err := puzzle.ParseSymmetry(s.String()); err != nil || p != s {
				t.Fatalf("ParseSymmetry(%q) = %v, %v", s, p, err)
			}
			if s == puzzle.Identity || s == puzzle.Rot90 || s == puzzle.Rot270 {
				continue
			}
			for c := 0; c < n; c++ {
				if s.Cell(g, s.Cell(g, c)) != c {
					t.Fatalf("%s %s is not an involution at cell %d", g, s, c)
				}
			}
		}
		if g.W == g.H {
			for c := 0; c < n; c++ {
				r := puzzle.Rot90
				if r.Cell(g, r.Cell(g, c)) != puzzle.Rot180.Cell(g, c) || r.Cell(g, puzzle.Rot270.Cell(g, c)) != c {
					t.Fatalf("%s: rot90 twice is not rot180 or rot90 after rot270 is not the identity at cell %d", g, c)
				}
			}
			if got := puzzle.Rot90.Cell(g, 0); got != g.W-1 {
				t.Fatalf("%s: rot90 takes cell 0 to %d, want the top-right corner %d", g, got, g.W-1)
			}
		}
	}
	if _, err := puzzle.ParseSymmetry("rot45"); !errors.Is(err, puzzle.ErrSymmetry) {
		t.Fatalf("ParseSymmetry(rot45) = %v", err)
	}
}

// TestMapPatternValues is the property the set files rely on, checked
// against tables built independently by verify.Reference (a plain BFS):
// for every small pattern From and every symmetry, either MapPattern
// accepts (From, To = image tiles, s) and every entry of From's table equals
// the entry of To's table at the transformed placement, or it refuses, and
// then only because of the blank's region. The 3x3 pattern {6,8} of the
// blank-last goal encloses the blank's goal cell, and its half-turn image
// does not: the values must differ, so the region check is necessary.
func TestMapPatternValues(t *testing.T) {
	ctx := context.Background()
	tables := map[string][]uint8{}
	ref := func(p *puzzle.Pattern) []uint8 {
		if v, ok := tables[p.String()]; ok {
			return v
		}
		v, err := verify.Reference(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		tables[p.String()] = v
		return v
	}
	cases := []struct {
		w, h  int
		goal  string
		tiles [][]uint8
	}{
		{3, 3, puzzle.GoalBlankLast, [][]uint8{{1, 2}, {6, 8}, {1, 5}, {2, 4, 6}, {1, 2, 3}}},
		{3, 3, puzzle.GoalBlankFirst, [][]uint8{{1, 3}, {4, 8, 2}}},
		{3, 2, puzzle.GoalBlankLast, [][]uint8{{1, 2}, {2, 4}, {1, 3}}},
		{4, 4, puzzle.GoalBlankLast, [][]uint8{{1, 2, 5}, {11, 14, 15}}},
	}
	refused := 0
	for _, tc := range cases {
		g := pdbtest.Geometry(t, tc.w, tc.h)
		for _, tiles := range tc.tiles {
			from := pdbtest.Pattern(t, tc.w, tc.h, tc.goal, tiles...)
			for _, s := range puzzle.Symmetries(g) {
				pi := s.TileMap(g, from.Goal)
				var img []uint8
				for _, tl := range from.Tiles {
					img = append(img, pi[tl])
				}
				if contains(img, 0) {
					continue // a tile lands on the blank's goal cell: no table has it
				}
				to := pdbtest.Pattern(t, tc.w, tc.h, tc.goal, img...)
				m, err := puzzle.MapPattern(from, to, s)
				vf, vt := ref(from), ref(to)
				cells := make([]uint8, from.K())
				pos := make([]uint8, g.N())
				differ := false
				for i := uint64(0); i < from.Size(); i++ {
					from.Unrank(i, cells)
					for j, tl := range from.Tiles {
						pos[tl] = cells[j]
					}
					tc := make([]uint8, to.K())
					for j, tl := range to.Tiles {
						// the From tile relabelled to tl sits on the image of its cell
						for jj, ft := range from.Tiles {
							if pi[ft] == tl {
								tc[j] = uint8(s.Cell(g, int(cells[jj])))
							}
						}
					}
					want := vt[to.RankCells(tc)]
					if vf[i] != want {
						differ = true
					}
					if err == nil {
						if r := m.Rank(pos); r != to.RankCells(tc) {
							t.Fatalf("%s via %s: Rank = %d, want %d", from, s, r, to.RankCells(tc))
						}
						if vf[i] != want {
							t.Fatalf("%s via %s onto %s: entry %d is %d, mapped entry %d", from, s, to, i, vf[i], want)
						}
					}
				}
				if err != nil {
					if !errors.Is(err, puzzle.ErrSymmetry) {
						t.Fatalf("%s via %s: %v does not wrap ErrSymmetry", from, s, err)
					}
					refused++
					if tc.w == 3 && tc.h == 3 && tc.goal == puzzle.GoalBlankLast && s == puzzle.Rot180 && from.Tiles[0] == 6 && !differ {
						t.Fatalf("%s via %s: refused, but the tables agree (the test lost its point)", from, s)
					}
				}
			}
		}
	}
	if refused == 0 {
		t.Fatal("no symmetric use was refused: the region rule was never exercised")
	}
}

// TestMapPatternErrors: each refusal names what does not match.
func TestMapPatternErrors(t *testing.T) {
	p := func(w, h int, goal string, tiles ...uint8) *puzzle.Pattern {
		return pdbtest.Pattern(t, w, h, goal, tiles...)
	}
	cases := []struct {
		name     string
		from, to *puzzle.Pattern
		s        puzzle.Symmetry
		want     string
	}{
		{"board", p(4, 4, "", 1, 2), p(3, 3, "", 1, 2), puzzle.Identity, "board"},
		{"goal", p(4, 4, "", 1, 2), p(4, 4, puzzle.GoalBlankFirst, 1, 2), puzzle.Identity, "goal"},
		{"exact", p(3, 3, "", 1, 2, 3, 4, 5, 6, 7, 8), p(3, 3, "", 1, 2, 3, 4, 5, 6, 7, 8), puzzle.Identity, "exact"},
		{"not square", p(3, 2, "", 1, 2), p(3, 2, "", 1, 4), puzzle.Transpose, "square"},
		{"size", p(4, 4, "", 1, 2), p(4, 4, "", 1, 2, 3), puzzle.Identity, "tiles"},
		{"cells", p(4, 4, "", 1, 2), p(4, 4, "", 1, 3), puzzle.Transpose, "not a goal cell"},
		{"region", p(3, 3, "", 6, 8), p(3, 3, "", 2, 4), puzzle.Rot180, "region"},
	}
	for _, tc := range cases {
		_, err := puzzle.MapPattern(tc.from, tc.to, tc.s)
		if !errors.Is(err, puzzle.ErrSymmetry) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an ErrSymmetry naming %q", tc.name, err, tc.want)
		}
	}
	if m, ok := puzzle.FindSymmetry(p(4, 4, "", 5, 9, 13), p(4, 4, "", 2, 3, 4)); !ok || m.Sym != puzzle.Transpose {
		t.Errorf("FindSymmetry(5,9,13 -> 2,3,4) = %v, %v; want transpose", m, ok)
	}
	if _, ok := puzzle.FindSymmetry(p(4, 4, "", 1, 2), p(4, 4, "", 1, 6)); ok {
		t.Error("FindSymmetry found a symmetry between a domino and a diagonal pair")
	}
}

func contains(xs []uint8, x uint8) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
