package puzzle_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

func TestParseBoard(t *testing.T) {
	long := strings.Repeat("1 ", 65)
	cases := []struct {
		line    string
		n       int
		want    string // the parsed board, or "" for an error
		wantErr string // substring of the error
	}{
		// good
		{"1 2 3 0", 4, "1 2 3 0", ""},
		{"1 2 3 0", 0, "1 2 3 0", ""},
		{"1,2,3,0", 4, "1 2 3 0", ""},
		{"1, 2 ,\t3,0", 4, "1 2 3 0", ""},
		{"\t 1   2 3 0 \r", 4, "1 2 3 0", ""},
		{"1\t2\t3\t0", 4, "1 2 3 0", ""},
		{"x 1 2 3", 4, "0 1 2 3", ""},
		{"X 1 2 3", 4, "0 1 2 3", ""},
		{"3 _ 2 1", 4, "3 0 2 1", ""},
		{"1 2 3 4 5 6 7 8 0", 9, "1 2 3 4 5 6 7 8 0", ""},
		{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", 0, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", ""},
		{"24 23 22 21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 x", 25,
			"24 23 22 21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0", ""},
		// an empty cell between commas (issue 22)
		{"1,,2,3,0", 0, "", "cell 1: empty"},
		{"1, ,2,3,0", 0, "", "cell 1: empty"},
		{",1,2,3,0", 0, "", "cell 0: empty"},
		{"1,2,3,0,", 4, "", "cell 4: empty"},
		{"1,2,3,0 ,\t", 4, "", "cell 4: empty"},
		// wrong count
		{"1 2 3", 4, "", "3 cells, want 4"},
		{"1 2 3 4 0", 4, "", "5 cells, want 4"},
		{"1 2 3 4 5 6 7 8 0", 16, "", "9 cells, want 16"},
		{"1 2 0", 0, "", "3 cells, want between 4 and 64"},
		{long, 0, "", "65 cells, want between 4 and 64"},
		{"1;2;3;0", 4, "", "1 cells, want 4"}, // ';' is not a separator
		// empty
		{"", 4, "", "empty line"},
		{"  \t , ,", 0, "", "empty line"},
		// repeated tile (a missing tile always comes with a repeat, an
		// out-of-range tile or a wrong count)
		{"1 1 3 0", 4, "", "tile 1 appears twice"},
		{"1 2 3 3", 4, "", "tile 3 appears twice"},
		{"1 2 3 4 5 6 7 7 0", 9, "", "tile 7 appears twice"},
		// two blanks, in any spelling
		{"0 x 1 2", 4, "", "more than one blank"},
		{"_ 1 2 X", 4, "", "more than one blank"},
		// out of range
		{"1 2 4 0", 4, "", "tile 4 out of range 0..3"},
		{"1 2 3 4 5 6 7 9 0", 9, "", "tile 9 out of range 0..8"},
		{"1 2 3 -1", 4, "", "tile -1 out of range"},
		{"1 2 3 256", 4, "", "tile 256 out of range"},
		{"1 2 3 99999999999999999999", 4, "", `"99999999999999999999" is not a tile number`},
		// foreign symbols
		{"1 2 3 a", 4, "", `cell 3: "a" is not a tile number`},
		{"1 2 3 0.0", 4, "", `"0.0" is not a tile number`},
		{"1 2 3 y", 4, "", `"y" is not a tile number`},
		{"1 2 3 xx", 4, "", `"xx" is not a tile number`},
		{"1 2 3 -", 4, "", `"-" is not a tile number`},
		{"1 2 3 0x0", 4, "", `"0x0" is not a tile number`},
		{"1 2 3\n0", 4, "", "3 cells, want 4"}, // a newline is not a separator
	}
	for _, c := range cases {
		b, err := puzzle.ParseBoard(c.line, c.n)
		name := fmt.Sprintf("ParseBoard(%q, %d)", c.line, c.n)
		if c.wantErr == "" {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			} else if b.String() != c.want {
				t.Errorf("%s = %v, want %s", name, b, c.want)
			}
			continue
		}
		switch {
		case err == nil:
			t.Errorf("%s = %v, want an error containing %q", name, b, c.wantErr)
		case !errors.Is(err, puzzle.ErrBoard):
			t.Errorf("%s: error %q does not wrap ErrBoard", name, err)
		case !strings.Contains(err.Error(), c.wantErr):
			t.Errorf("%s: error %q does not mention %q", name, err, c.wantErr)
		case b != nil:
			t.Errorf("%s: returned a board with the error", name)
		}
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		b       puzzle.Board
		n       int
		wantErr string
	}{
		{puzzle.Board{1, 2, 3, 0}, 4, ""},
		{puzzle.Board{1, 2, 3, 0}, 9, "4 cells, want 9"},
		{puzzle.Board{1, 2, 3, 4}, 4, "tile 4 out of range 0..3"},
		{puzzle.Board{1, 2, 0, 0}, 4, "more than one blank"},
		{puzzle.Board{2, 2, 3, 0}, 4, "tile 2 appears twice"},
		{nil, 4, "0 cells, want 4"},
	}
	for _, c := range cases {
		err := c.b.Validate(c.n)
		if c.wantErr == "" {
			if err != nil {
				t.Errorf("Validate(%v, %d): %v", c.b, c.n, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, puzzle.ErrBoard) || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("Validate(%v, %d) = %v, want ErrBoard mentioning %q", c.b, c.n, err, c.wantErr)
		}
	}
}

func TestBoardHelpers(t *testing.T) {
	b := puzzle.Board{4, 1, 0, 3, 2, 5, 6, 7, 8}
	pos := b.Positions()
	if fmt.Sprint(pos) != "[2 1 4 3 0 5 6 7 8]" { //nolint:staticcheck // QF1010 would print the bytes as a string; the test wants the numbers
		t.Errorf("Positions = %v", pos)
	}
	if back := puzzle.BoardFromPositions(pos); !back.Equal(b) {
		t.Errorf("BoardFromPositions(Positions(b)) = %v, want %v", back, b)
	}
	if b.String() != "4 1 0 3 2 5 6 7 8" {
		t.Errorf("String = %q", b.String())
	}
	if b.Equal(b[:8]) || b.Equal(puzzle.Board{4, 1, 0, 3, 2, 5, 6, 8, 7}) || !b.Equal(append(puzzle.Board(nil), b...)) {
		t.Error("Equal is wrong")
	}
	g := pdbtest.Geometry(t, 4, 3)
	if got := puzzle.BlankLastGoal(g).String(); got != "1 2 3 4 5 6 7 8 9 10 11 0" {
		t.Errorf("BlankLastGoal(4x3) = %s", got)
	}
	if got := puzzle.BlankFirstGoal(g).String(); got != "0 1 2 3 4 5 6 7 8 9 10 11" {
		t.Errorf("BlankFirstGoal(4x3) = %s", got)
	}
}

func TestParseGoal(t *testing.T) {
	g3 := pdbtest.Geometry(t, 3, 3)
	cases := []struct {
		s       string
		g       puzzle.Geometry
		want    string
		name    string // GoalName of the result
		wantErr string
	}{
		{"", g3, "1 2 3 4 5 6 7 8 0", "blank-last", ""},
		{"blank-last", g3, "1 2 3 4 5 6 7 8 0", "blank-last", ""},
		{" blank-first\n", g3, "0 1 2 3 4 5 6 7 8", "blank-first", ""},
		{"blank-first", pdbtest.Geometry(t, 2, 3), "0 1 2 3 4 5", "blank-first", ""},
		{"4 1 2 0 8 7 6 3 5", g3, "4 1 2 0 8 7 6 3 5", "4 1 2 0 8 7 6 3 5", ""},
		{"1,2,3,4,5,6,7,8,x", g3, "1 2 3 4 5 6 7 8 0", "blank-last", ""},
		{"1 2 3 0", g3, "", "", "9"},
		{"blank-middle", g3, "", "", "blank-middle"},
		{"1 2 3 4 5 6 7 8 8", g3, "", "", "tile 8 appears twice"},
	}
	for _, c := range cases {
		b, err := puzzle.ParseGoal(c.s, c.g)
		if c.wantErr != "" {
			if err == nil || !errors.Is(err, puzzle.ErrBoard) || !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), "goal") {
				t.Errorf("ParseGoal(%q) = %v, %v; want an ErrBoard about the goal mentioning %q", c.s, b, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseGoal(%q): %v", c.s, err)
			continue
		}
		if b.String() != c.want {
			t.Errorf("ParseGoal(%q) = %s, want %s", c.s, b, c.want)
		}
		if n := puzzle.GoalName(c.g, b); n != c.name {
			t.Errorf("GoalName(%s) = %q, want %q", b, n, c.name)
		}
	}
}

func TestParseGeometry(t *testing.T) {
	cases := []struct {
		s    string
		w, h int // 0 = error
	}{
		{"4x4", 4, 4},
		{"4X4", 4, 4},
		{" 3x2 ", 3, 2},
		{"2x5", 2, 5},
		{"5x5", 5, 5},
		{"2x2", 2, 2},
		{"1x4", 0, 0},
		{"4x1", 0, 0},
		{"6x6", 6, 6},
		{"5x6", 5, 6},
		{"8x8", 8, 8},
		{"2x8", 2, 8},
		{"7X3", 7, 3},
		{"9x9", 0, 0},
		{"8x9", 0, 0},
		{"9x2", 0, 0},
		{"1x64", 0, 0},
		{"0x0", 0, 0},
		{"-3x3", 0, 0},
		{"abc", 0, 0},
		{"", 0, 0},
		{"4", 0, 0},
		{"4x", 0, 0},
		{"x4", 0, 0},
		{"4x4x4", 0, 0},
		{"4*4", 0, 0},
		{"4 x 4", 0, 0},
	}
	for _, c := range cases {
		g, err := puzzle.ParseGeometry(c.s)
		if c.w == 0 {
			if err == nil {
				t.Errorf("ParseGeometry(%q) = %v, want an error", c.s, g)
			}
			continue
		}
		if err != nil || g.W != c.w || g.H != c.h {
			t.Errorf("ParseGeometry(%q) = %v, %v; want %dx%d", c.s, g, err, c.w, c.h)
		}
		if g.String() != fmt.Sprintf("%dx%d", c.w, c.h) || g.N() != c.w*c.h {
			t.Errorf("%q: String %q, N %d", c.s, g, g.N())
		}
	}
}

func TestParseTiles(t *testing.T) {
	cases := []struct {
		s    string
		want string // "" = error
	}{
		{"1,2,3", "[1 2 3]"},
		{"1 2", "[1 2]"},
		{"1-8", "[1 2 3 4 5 6 7 8]"},
		{"3-3", "[3]"},
		{" 1 , 2\t7 ", "[1 2 7]"},
		{"1-3,7,10-11", "[1 2 3 7 10 11]"},
		{"24", "[24]"},
		{"3,1", "[3 1]"}, // order kept; NewPattern sorts
		{"", ""},
		{" , ", ""},
		{"a", ""},
		{"1,b", ""},
		{"1.5", ""},
		{"-1", ""},
		{"1-", ""},
		{"-", ""},
		{"3-1", ""},
		{"1-2-3", ""},
		{"64", ""},
		{"1-64", ""},
		{"1;2", ""},
	}
	for _, c := range cases {
		ts, err := puzzle.ParseTiles(c.s)
		if c.want == "" {
			if err == nil || !errors.Is(err, puzzle.ErrPattern) {
				t.Errorf("ParseTiles(%q) = %v, %v; want an ErrPattern", c.s, ts, err)
			}
			continue
		}
		if err != nil || fmt.Sprint(ts) != c.want { //nolint:staticcheck // QF1010: the tiles as numbers, not as a string
			t.Errorf("ParseTiles(%q) = %v, %v; want %s", c.s, ts, err, c.want)
		}
	}
}

func TestNewPatternErrors(t *testing.T) {
	g3 := pdbtest.Geometry(t, 3, 3)
	g4 := pdbtest.Geometry(t, 4, 4)
	g5 := pdbtest.Geometry(t, 5, 5)
	cases := []struct {
		g       puzzle.Geometry
		goal    puzzle.Board
		tiles   []uint8
		is      error
		wantErr string
	}{
		{g3, nil, []uint8{0, 1}, puzzle.ErrPattern, "0 is the blank"},
		{g3, nil, []uint8{1, 9}, puzzle.ErrPattern, "tile 9 does not exist on a 3x3 board"},
		{g3, nil, []uint8{200}, puzzle.ErrPattern, "tile 200 does not exist"},
		{g3, nil, []uint8{1, 2, 1}, puzzle.ErrPattern, "tile 1 listed twice"},
		{g3, nil, nil, puzzle.ErrPattern, "no tiles"},
		{g3, nil, []uint8{}, puzzle.ErrPattern, "no tiles"},
		// N-2 tiles: see TestNMinus2Unreachable.
		{g3, nil, tileRange(1, 7), puzzle.ErrPattern, "leaves one non-pattern tile"},
		{g3, nil, tileRange(2, 8), puzzle.ErrPattern, "leaves one non-pattern tile"},
		{pdbtest.Geometry(t, 2, 2), nil, []uint8{1, 2}, puzzle.ErrPattern, "leaves one non-pattern tile"},
		{g4, nil, tileRange(1, 14), puzzle.ErrPattern, "leaves one non-pattern tile"},
		// too large: 5x5 with 9 tiles is 25!/16! = 741,354,768,000 > 2^36
		{g5, nil, tileRange(1, 9), puzzle.ErrPattern, "more than 2^36 entries"},
		{g5, nil, tileRange(1, 24), puzzle.ErrPattern, "more than 2^36 entries"},
		{g4, nil, tileRange(1, 15), puzzle.ErrPattern, "more than 2^36 entries"}, // 16!/2
		{g4, nil, tileRange(1, 11), puzzle.ErrPattern, "more than 2^36 entries"}, // 16!/5!
		// geometry and goal
		{puzzle.Geometry{W: 1, H: 4}, puzzle.Board{1, 2, 3, 0}, []uint8{1}, puzzle.ErrPattern, "1x4"},
		{puzzle.Geometry{W: 9, H: 9}, nil, []uint8{1}, puzzle.ErrPattern, "9x9"},
		{puzzle.Geometry{W: 8, H: 9}, nil, []uint8{1}, puzzle.ErrPattern, "8x9"},
		// 8x8 with 7 tiles is 64!/57! = 3,379,030,566,912 > 2^36
		{pdbtest.Geometry(t, 8, 8), nil, tileRange(1, 7), puzzle.ErrPattern, "more than 2^36 entries"},
		{pdbtest.Geometry(t, 7, 7), nil, tileRange(40, 46), puzzle.ErrPattern, "more than 2^36 entries"},
		{g3, puzzle.Board{1, 2, 3, 0}, []uint8{1}, puzzle.ErrBoard, "4 cells, want 9"},
		{g3, puzzle.Board{1, 2, 3, 4, 5, 6, 7, 8, 8}, []uint8{1}, puzzle.ErrBoard, "tile 8 appears twice"},
	}
	for _, c := range cases {
		goal := c.goal
		if goal == nil && c.g.W >= puzzle.MinSide && c.g.W <= puzzle.MaxSide {
			goal = puzzle.BlankLastGoal(c.g)
		}
		p, err := puzzle.NewPattern(c.g, goal, c.tiles)
		if err == nil || !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("NewPattern(%v, %v, %v) = %v, %v; want %v mentioning %q", c.g, goal, c.tiles, p, err, c.is, c.wantErr)
		}
	}
	// The largest accepted sizes.
	for _, c := range []struct {
		g     puzzle.Geometry
		tiles []uint8
		size  uint64
	}{
		{g5, tileRange(1, 8), 43609104000},                          // 25!/17!
		{g4, tileRange(1, 10), 29059430400},                         // 16!/6!
		{pdbtest.Geometry(t, 4, 3), tileRange(1, 11), 239500800},    // 12!/2
		{pdbtest.Geometry(t, 8, 8), tileRange(58, 63), 53981544960}, // 64!/58!
		{pdbtest.Geometry(t, 6, 6), tileRange(1, 7), 42072307200},   // 36!/29!
	} {
		p, err := puzzle.NewPattern(c.g, puzzle.BlankLastGoal(c.g), c.tiles)
		if err != nil {
			t.Errorf("%v %v: %v", c.g, c.tiles, err)
		} else if p.Size() != c.size || p.Size() > puzzle.MaxEntries {
			t.Errorf("%s: Size %d, want %d", p, p.Size(), c.size)
		}
	}
}

// TestNMinus2Unreachable justifies rejecting N-2 tiles: with one non-pattern
// tile left, a placement plus the blank's cell is a whole state, and when
// the two free cells are an even distance apart both ways of filling them
// have the same parity, so for some placements neither is solvable and the
// entry would have no value. With N-3 tiles every placement has a solvable
// completion (two non-pattern tiles can always be swapped).
func TestNMinus2Unreachable(t *testing.T) {
	for _, c := range []struct{ w, h int }{{2, 2}, {2, 3}, {3, 2}, {2, 4}} {
		g := pdbtest.Geometry(t, c.w, c.h)
		goal := puzzle.BlankLastGoal(g)
		n := g.N()
		for _, k := range []int{n - 3, n - 2} {
			if k < 1 {
				continue
			}
			dead := 0
			// Pattern tiles 1..k in cells c[0..k-1]; tiles k+1..n-1 and the
			// blank fill the free cells in every possible way.
			forEachKPermutation(n, k, func(cells []uint8) {
				var free []uint8
				for cell := 0; cell < n; cell++ {
					if !containsCell(cells, uint8(cell)) {
						free = append(free, uint8(cell))
					}
				}
				solvable := false
				forEachPermutation(len(free), func(fill []uint8) {
					pos := make([]uint8, n)
					pos[0] = free[fill[0]]
					copy(pos[1:], cells)
					for i := 1; i < len(fill); i++ {
						pos[k+i] = free[fill[i]]
					}
					if puzzle.Solvable(g, puzzle.BoardFromPositions(pos), goal) {
						solvable = true
					}
				})
				if !solvable {
					dead++
				}
			})
			if k == n-3 && dead != 0 {
				t.Errorf("%s, %d tiles: %d placements unreachable, want 0", g, k, dead)
			}
			if k == n-2 && dead == 0 {
				t.Errorf("%s, %d tiles: every placement reachable; the N-2 rejection would be unfounded", g, k)
			}
		}
	}
}

func containsCell(cells []uint8, c uint8) bool {
	for _, x := range cells {
		if x == c {
			return true
		}
	}
	return false
}

func TestGeometry(t *testing.T) {
	g := pdbtest.Geometry(t, 3, 2) // cells 0 1 2 / 3 4 5
	cases := []struct {
		cell int
		d    puzzle.Direction
		want int // -1 = off the board
	}{
		{0, puzzle.Up, -1}, {0, puzzle.Left, -1}, {0, puzzle.Right, 1}, {0, puzzle.Down, 3},
		{2, puzzle.Right, -1}, {2, puzzle.Down, 5}, {3, puzzle.Down, -1}, {3, puzzle.Left, -1},
		{4, puzzle.Up, 1}, {4, puzzle.Left, 3}, {4, puzzle.Right, 5}, {5, puzzle.Right, -1},
	}
	for _, c := range cases {
		got, ok := g.Step(c.cell, c.d)
		if !ok {
			got = -1
		}
		if got != c.want {
			t.Errorf("Step(%d, %c) = %d, want %d", c.cell, c.d.Letter(), got, c.want)
		}
	}
	if got := fmt.Sprint(g.Neighbors()); got != "[[3 1] [4 0 2] [5 1] [0 4] [1 3 5] [2 4]]" {
		t.Errorf("Neighbors = %s", got)
	}
	if g.Manhattan(0, 5) != 3 || g.Manhattan(5, 0) != 3 || g.Manhattan(2, 3) != 3 || g.Manhattan(4, 4) != 0 {
		t.Error("Manhattan is wrong")
	}
	if g.Row(4) != 1 || g.Col(4) != 1 || g.Row(2) != 0 || g.Col(2) != 2 {
		t.Error("Row/Col is wrong")
	}
	letters := ""
	for _, d := range puzzle.Directions {
		letters += string(d.Letter()) + string(d.Opposite().Letter())
	}
	if letters != "uddulrrl" {
		t.Errorf("directions and opposites %q", letters)
	}
	for _, bad := range [][2]int{{1, 3}, {3, 1}, {9, 2}, {2, 9}, {9, 9}, {0, 0}, {8, 1}} {
		if _, err := puzzle.NewGeometry(bad[0], bad[1]); err == nil {
			t.Errorf("NewGeometry(%d, %d) accepted", bad[0], bad[1])
		}
	}
}

// FuzzParseBoard: ParseBoard never panics; every error wraps ErrBoard; a
// board it accepts is valid for its own length, has the requested length,
// and round-trips through String.
func FuzzParseBoard(f *testing.F) {
	for _, s := range []string{
		"1 2 3 0", "1,2,3,x", "x 1 2 3", "_ 1 2 3", "1 2 3 4 5 6 7 8 0",
		"4 1 0 3 2 5 6 7 8", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
		"", "1 1 2 0", "0 x 1 2", "1 2 3 -1", "1 2 3 99999999999999999999",
		"1\t2,3 , 0\r", "+1 2 3 0", "01 2 3 0", "1 2 3 \u00a0 0",
	} {
		f.Add(s, 0)
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, line string, n int) {
		b, err := puzzle.ParseBoard(line, n)
		if err != nil {
			if !errors.Is(err, puzzle.ErrBoard) {
				t.Fatalf("error %v does not wrap ErrBoard", err)
			}
			if b != nil {
				t.Fatalf("board %v returned with error %v", b, err)
			}
			return
		}
		if err := b.Validate(len(b)); err != nil {
			t.Fatalf("ParseBoard(%q) = %v, which is invalid: %v", line, b, err)
		}
		if n > 0 && len(b) != n {
			t.Fatalf("ParseBoard(%q, %d) has %d cells", line, n, len(b))
		}
		if len(b) < puzzle.MinSide*puzzle.MinSide || len(b) > puzzle.MaxCells {
			t.Fatalf("ParseBoard(%q) has %d cells", line, len(b))
		}
		for _, m := range []int{len(b), 0} {
			b2, err := puzzle.ParseBoard(b.String(), m)
			if err != nil || !b2.Equal(b) {
				t.Fatalf("ParseBoard(%q) = %v; String %q parses back as %v, %v", line, b, b.String(), b2, err)
			}
		}
	})
}
