package format

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

func TestSet(t *testing.T) {
	a := mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2, 3, 4), 0, 1)
	b := mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last", 5, 6, 7, 8), 0, 2)
	s, err := NewSet(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if s.Geom != (puzzle.Geometry{W: 3, H: 3}) || !s.Goal.Equal(puzzle.BlankLastGoal(s.Geom)) || len(s.Tables) != 2 {
		t.Errorf("set %+v", s)
	}
	for _, line := range []string{"1 2 3 4 5 6 7 8 0", "8 6 7 2 5 4 3 0 1", "0 1 2 3 4 5 6 7 8"} {
		board, err := puzzle.ParseBoard(line, 9)
		if err != nil {
			t.Fatal(err)
		}
		pos := board.Positions()
		want := int(a.Values[a.Pattern.Rank(pos)]) + int(b.Values[b.Pattern.Rank(pos)])
		if got := s.Heuristic(pos); got != want {
			t.Errorf("%s: Heuristic %d, want %d", line, got, want)
		}
		if !puzzle.Solvable(s.Geom, board, s.Goal) {
			continue
		}
		if got, err := s.HeuristicBoard(board); err != nil || got != want {
			t.Errorf("%s: HeuristicBoard %d, %v; want %d", line, got, err, want)
		}
	}
	for _, bad := range []puzzle.Board{
		{1, 2, 3},
		{1, 2, 3, 4, 5, 6, 7, 8, 9},
		{1, 1, 3, 4, 5, 6, 7, 8, 0},
		{2, 1, 3, 4, 5, 6, 7, 8, 0}, // unsolvable
	} {
		if _, err := s.HeuristicBoard(bad); !errors.Is(err, puzzle.ErrBoard) {
			t.Errorf("%v: err %v", bad, err)
		}
	}

	exact := mkTable(t, pdbtest.Pattern(t, 2, 2, "blank-last"), 0, 1)
	if s, err := NewSet(exact); err != nil || s.Heuristic(s.Goal.Positions()) != int(exact.Values[exact.Pattern.Rank(s.Goal.Positions())]) {
		t.Errorf("exact set: %v", err)
	}

	errCases := []struct {
		name   string
		tables []*Table
		want   string
	}{
		{"empty", nil, "at least one"},
		{"overlap", []*Table{a, mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last", 4, 5), 0, 1)}, "tile(s) 4"},
		{"same twice", []*Table{a, b, a}, "table 3 (3x3 blank-last tiles 1,2,3,4) and table 1"},
		{"geometry", []*Table{a, mkTable(t, pdbtest.Pattern(t, 4, 4, "blank-last", 5, 6), 0, 1)}, "4x4"},
		{"goal", []*Table{a, mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-first", 5, 6), 0, 1)}, "goal"},
		{"exact with other", []*Table{mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last"), 0, 1), b}, "exact"},
		{"nil", []*Table{a, nil}, "table 2"},
	}
	for _, c := range errCases {
		if _, err := NewSet(c.tables...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want it to mention %q", c.name, err, c.want)
		}
	}
}

func TestOpenSet(t *testing.T) {
	dir := t.TempDir()
	a := mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2, 3, 4), 0, 1)
	b := mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last", 4, 5, 6, 7, 8), 0, 2)
	c := mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last", 5, 6, 7, 8), 0, 3)
	pa, pb, pc := filepath.Join(dir, "a.pdb"), filepath.Join(dir, "b.pdb"), filepath.Join(dir, "c.pdb")
	for p, tb := range map[string]*Table{pa: a, pb: b, pc: c} {
		if err := WriteFile(p, tb, 1); err != nil {
			t.Fatal(err)
		}
	}
	s, err := OpenSet(pa, pc)
	if err != nil || len(s.Tables) != 2 {
		t.Fatalf("OpenSet: %v", err)
	}
	if _, err := OpenSet(pa, pb); err == nil || !strings.Contains(err.Error(), pa) || !strings.Contains(err.Error(), pb) {
		t.Errorf("overlap error does not name both files: %v", err)
	}
	if err := os.WriteFile(pb, []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenSet(pa, pb); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), pb) {
		t.Errorf("junk file: %v", err)
	}
	if _, err := OpenSet(); err == nil {
		t.Error("empty OpenSet accepted")
	}
}

// TestSetLookup: the front ends' rule. Solvable boards get the sum (or
// the exact value); unsolvable ones ErrUnsolvable, for exact and additive
// sets alike; malformed boards wrap puzzle.ErrBoard.
func TestSetLookup(t *testing.T) {
	a := mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2, 3, 4), 0, 1)
	b := mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last", 5, 6, 7, 8), 0, 2)
	exact := mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last"), 0, 3)
	additive, err := NewSet(a, b)
	if err != nil {
		t.Fatal(err)
	}
	one, err := NewSet(exact)
	if err != nil {
		t.Fatal(err)
	}
	sum := func(b puzzle.Board) int { return additive.Heuristic(b.Positions()) }
	exactValue := func(b puzzle.Board) int { return int(exact.Values[exact.Pattern.Rank(b.Positions())]) }
	solvable := puzzle.Board{8, 6, 7, 2, 5, 4, 3, 0, 1}
	unsolvable := puzzle.Board{2, 1, 3, 4, 5, 6, 7, 8, 0}
	tests := []struct {
		name    string
		set     *Set
		board   puzzle.Board
		want    func(puzzle.Board) int // nil: an error is expected
		wantErr error
	}{
		{"additive solvable", additive, solvable, sum, nil},
		{"additive unsolvable", additive, unsolvable, nil, ErrUnsolvable},
		{"exact solvable", one, solvable, exactValue, nil},
		{"exact unsolvable", one, unsolvable, nil, ErrUnsolvable},
		{"too few cells", additive, puzzle.Board{1, 2, 3}, nil, puzzle.ErrBoard},
		{"repeated tile", one, puzzle.Board{1, 1, 3, 4, 5, 6, 7, 8, 0}, nil, puzzle.ErrBoard},
	}
	for _, tt := range tests {
		got, err := tt.set.Lookup(tt.board)
		switch {
		case tt.want == nil && !errors.Is(err, tt.wantErr):
			t.Errorf("%s: Lookup = %d, %v; want error %v", tt.name, got, err, tt.wantErr)
		case tt.want != nil && (err != nil || got != tt.want(tt.board)):
			t.Errorf("%s: Lookup = %d, %v; want %d", tt.name, got, err, tt.want(tt.board))
		}
	}
}
