package verify

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// mustReference runs Reference or fails the test.
func mustReference(t testing.TB, p *puzzle.Pattern) []uint8 {
	t.Helper()
	v, err := Reference(context.Background(), p)
	if err != nil {
		t.Fatalf("Reference(%s): %v", p, err)
	}
	return v
}

// histogram counts the entries at each value (0..max).
func histogram(values []uint8) []uint64 {
	c := format.CountValues(values)
	return c.Histogram()
}

// TestReferenceEightPuzzle compares the exact 3x3 table with the published
// distance counts (OEIS A089473), for both corner-blank goals.
func TestReferenceEightPuzzle(t *testing.T) {
	want := pdbtest.ReadCounts(t, "testdata/a089473.txt")
	if len(want) != 32 {
		t.Fatalf("testdata/a089473.txt: %d counts, want 32", len(want))
	}
	for _, goal := range []string{puzzle.GoalBlankLast, puzzle.GoalBlankFirst} {
		p := pdbtest.Pattern(t, 3, 3, goal)
		got := histogram(mustReference(t, p))
		if !slices.Equal(got, want) {
			t.Errorf("%s: histogram\n got %v\nwant %v", p, got, want)
		}
	}
}

// TestReferenceExactBrute checks every entry of small exact tables against
// pdbtest.Distances, a brute-force breadth-first search over whole boards
// that uses neither ranking nor solvability.
func TestReferenceExactBrute(t *testing.T) {
	for _, c := range []struct {
		w, h int
		goal string
	}{{2, 2, "blank-last"}, {2, 3, "blank-last"}, {3, 2, "blank-first"}, {2, 3, "1 0 2 3 4 5"}} {
		p := pdbtest.Pattern(t, c.w, c.h, c.goal)
		got := mustReference(t, p)
		want := pdbtest.Distances(p.Geom, p.Goal)
		if uint64(len(want)) != p.Size() {
			t.Fatalf("%s: brute force reached %d states, Size %d", p, len(want), p.Size())
		}
		wantHist := make([]uint64, 0)
		bad := 0
		for s, d := range want {
			b := puzzle.Board(s)
			if v := got[p.Rank(b.Positions())]; int(v) != d {
				if bad++; bad <= 5 {
					t.Errorf("%s: state %v: reference %d, brute force %d", p, b, v, d)
				}
			}
			for d >= len(wantHist) {
				wantHist = append(wantHist, 0)
			}
			wantHist[d]++
		}
		if gotHist := histogram(got); !slices.Equal(gotHist, wantHist) {
			t.Errorf("%s: histogram %v, brute force %v", p, gotHist, wantHist)
		}
	}
}

// bruteAdditive is an independent 0-1 BFS for an additive PDB over boards in
// which non-pattern tiles are anonymised (written as 99), keyed by string;
// it returns the value of each placement keyed by the pattern tiles' cells.
func bruteAdditive(p *puzzle.Pattern) map[string]int {
	g := p.Geom
	nbrs := g.Neighbors()
	inPattern := map[uint8]bool{}
	for _, t := range p.Tiles {
		inPattern[t] = true
	}
	start := append(puzzle.Board(nil), p.Goal...)
	for c, t := range start {
		if t != 0 && !inPattern[t] {
			start[c] = 99
		}
	}
	key := func(b puzzle.Board) string { return b.String() }
	placement := func(b puzzle.Board) string {
		var sb strings.Builder
		for _, t := range p.Tiles {
			for c, u := range b {
				if u == t {
					sb.WriteString(strconv.Itoa(c) + ",")
				}
			}
		}
		return sb.String()
	}
	dist := map[string]int{key(start): 0}
	deque := []puzzle.Board{start}
	for len(deque) > 0 {
		b := deque[0]
		deque = deque[1:]
		d := dist[key(b)]
		blank := 0
		for c, t := range b {
			if t == 0 {
				blank = c
			}
		}
		for _, c := range nbrs[blank] {
			nb := append(puzzle.Board(nil), b...)
			nb[blank], nb[c] = nb[c], nb[blank]
			cost := 0
			if inPattern[b[c]] {
				cost = 1
			}
			if old, ok := dist[key(nb)]; !ok || old > d+cost {
				dist[key(nb)] = d + cost
				if cost == 0 {
					deque = append([]puzzle.Board{nb}, deque...)
				} else {
					deque = append(deque, nb)
				}
			}
		}
	}
	out := map[string]int{}
	for s, d := range dist {
		nb := boardFromKey(s)
		pl := placement(nb)
		if old, ok := out[pl]; !ok || d < old {
			out[pl] = d
		}
	}
	return out
}

// boardFromKey parses a bruteAdditive key (it may repeat 99).
func boardFromKey(s string) puzzle.Board {
	var b puzzle.Board
	for _, f := range strings.Fields(s) {
		v, _ := strconv.Atoi(f)
		b = append(b, uint8(v))
	}
	return b
}

// TestReferenceAdditiveBrute checks every entry of small additive PDBs
// against bruteAdditive.
func TestReferenceAdditiveBrute(t *testing.T) {
	for _, c := range []struct {
		w, h  int
		goal  string
		tiles []uint8
	}{
		{2, 3, "blank-last", []uint8{1, 2}},
		{3, 2, "blank-first", []uint8{1, 4, 5}},
		{3, 3, "blank-last", []uint8{1, 2, 3}},
		{3, 3, "blank-first", []uint8{4}},
		{3, 3, "blank-last", []uint8{2, 4, 6, 8}},
	} {
		p := pdbtest.Pattern(t, c.w, c.h, c.goal, c.tiles...)
		got := mustReference(t, p)
		want := bruteAdditive(p)
		if uint64(len(want)) != p.Size() {
			t.Fatalf("%s: brute force reached %d placements, Size %d", p, len(want), p.Size())
		}
		bad := 0
		cells := make([]uint8, p.CellsLen())
		for i, v := range got {
			p.Unrank(uint64(i), cells)
			var sb strings.Builder
			for _, c := range cells {
				sb.WriteString(strconv.Itoa(int(c)) + ",")
			}
			if w, ok := want[sb.String()]; !ok || w != int(v) {
				if bad++; bad <= 5 {
					t.Errorf("%s: entry %d (cells %v): reference %d, brute force %d (found %v)", p, i, cells, v, w, ok)
				}
			}
		}
	}
}

// TestReferenceNMinus2 documents that an additive pattern of N-2 tiles has
// placements no state reaches: with a single non-pattern tile its cell and
// the blank's can be exchanged only by moves, so when the two free cells
// are at odd distance, either both or neither assignment of blank and tile
// is solvable. puzzle.NewPattern now refuses such patterns; should one be
// made anyway, Reference must report the unreached placements as an error.
func TestReferenceNMinus2(t *testing.T) {
	g, _ := puzzle.NewGeometry(3, 3)
	p, err := puzzle.NewPattern(g, puzzle.BlankLastGoal(g), []uint8{1, 2, 3, 4, 5, 6, 7})
	if err != nil {
		if !errors.Is(err, puzzle.ErrPattern) {
			t.Fatalf("NewPattern: %v, want an error wrapping ErrPattern", err)
		}
		return
	}
	if _, err := Reference(context.Background(), p); err == nil || !strings.Contains(err.Error(), "never reached") {
		t.Fatalf("Reference(%s) = %v, want a never-reached error", p, err)
	}
}

// manhattanSum is the sum over tiles of the distance to their goal cells.
func manhattanSum(p *puzzle.Pattern, pos []uint8, tiles []uint8) int {
	s := 0
	for _, t := range tiles {
		s += p.Geom.Manhattan(int(pos[t]), int(p.Goal.Positions()[t]))
	}
	return s
}

// TestReferenceAdmissible checks on every 8-puzzle state that the sum of
// the additive PDB values of a partition of the tiles never exceeds the
// exact distance, and that singleton PDBs sum to the Manhattan distance.
func TestReferenceAdmissible(t *testing.T) {
	for _, goal := range []string{puzzle.GoalBlankLast, puzzle.GoalBlankFirst} {
		exact := pdbtest.Pattern(t, 3, 3, goal)
		dist := mustReference(t, exact)
		all := []uint8{1, 2, 3, 4, 5, 6, 7, 8}
		for _, part := range [][][]uint8{
			{{1, 2, 3, 4}, {5, 6, 7, 8}},
			{{1, 2, 3}, {4, 5, 6}, {7, 8}},
			{{1, 5}, {2, 6}, {3, 7}, {4, 8}},
			{{1, 2, 4, 5, 7}, {3, 6, 8}},
			{{1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}},
		} {
			var pats []*puzzle.Pattern
			var tables [][]uint8
			for _, tiles := range part {
				p := pdbtest.Pattern(t, 3, 3, goal, tiles...)
				pats = append(pats, p)
				tables = append(tables, mustReference(t, p))
			}
			singletons := len(part) == len(all)
			pos := make([]uint8, exact.CellsLen())
			bad, tight := 0, 0
			for i := uint64(0); i < exact.Size(); i++ {
				exact.Unrank(i, pos)
				h := 0
				for j, p := range pats {
					h += int(tables[j][p.Rank(pos)])
				}
				d := int(dist[i])
				if h > d {
					if bad++; bad <= 5 {
						t.Errorf("%s partition %v: state %v: heuristic %d > distance %d", goal, part, pos, h, d)
					}
				}
				if h == d {
					tight++
				}
				if singletons {
					if md := manhattanSum(exact, pos, all); h != md {
						if bad++; bad <= 5 {
							t.Errorf("%s singletons: state %v: sum %d, Manhattan %d", goal, pos, h, md)
						}
					}
				}
			}
			if tight == 0 {
				t.Errorf("%s partition %v: never exact (even at the goal)", goal, part)
			}
		}
	}
}

// TestReferenceCancel checks that Reference honours a cancelled context.
func TestReferenceCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, p := range []*puzzle.Pattern{pdbtest.Pattern(t, 3, 3, "blank-last"), pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3, 4)} {
		if _, err := Reference(ctx, p); err == nil {
			t.Errorf("%s: no error with a cancelled context", p)
		}
	}
}
