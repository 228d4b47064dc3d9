package puzzle_test

import (
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestCheckAdditive: the additive-set rule accepts disjoint patterns on one
// board and goal (or one exact pattern) and names the first conflict.
func TestCheckAdditive(t *testing.T) {
	p := func(w, h int, goal string, tiles ...uint8) *puzzle.Pattern {
		return pdbtest.Pattern(t, w, h, goal, tiles...)
	}
	a, b, c := p(3, 3, "blank-last", 1, 2, 3), p(3, 3, "blank-last", 4, 5), p(3, 3, "blank-last", 3, 4, 6)
	cases := []struct {
		name     string
		patterns []*puzzle.Pattern
		want     string // "" = accepted, else a substring of the error
	}{
		{"none", nil, ""},
		{"one additive", []*puzzle.Pattern{a}, ""},
		{"one exact", []*puzzle.Pattern{p(3, 3, "blank-last")}, ""},
		{"disjoint, not covering", []*puzzle.Pattern{a, b}, ""},
		{"disjoint partition", []*puzzle.Pattern{a, b, p(3, 3, "blank-last", 6, 7, 8)}, ""},
		// t3 shares 3 with t1 and 4 with t2: the error names t1 and tile 3
		// only (it listed 3,4, as if t1 held 4; a trial found it).
		{"overlap", []*puzzle.Pattern{a, b, c}, "t3 (3x3 blank-last tiles 3,4,6) and t1 (3x3 blank-last tiles 1,2,3) are not disjoint: both hold tile(s) 3$"},
		{"same twice", []*puzzle.Pattern{a, a}, "t2 (3x3 blank-last tiles 1,2,3) and t1"},
		{"board", []*puzzle.Pattern{a, p(4, 4, "blank-last", 5)}, "t2 (4x4 blank-last tiles 5) is for a 4x4 board, t1 (3x3 blank-last tiles 1,2,3) for 3x3"},
		{"goal", []*puzzle.Pattern{a, p(3, 3, "blank-first", 5)}, "t2 (3x3 blank-first tiles 5) has goal"},
		{"exact with another", []*puzzle.Pattern{p(3, 3, "blank-last"), b}, "t1 (3x3 blank-last exact (all tiles)) is an exact table and must be used alone, not in a set of 2"},
	}
	for _, tc := range cases {
		names := make([]string, len(tc.patterns))
		for i := range names {
			names[i] = "t" + string(rune('1'+i))
		}
		err := puzzle.CheckAdditive(names, tc.patterns)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && strings.HasSuffix(tc.want, "$"):
			if err == nil || !strings.HasSuffix(err.Error(), strings.TrimSuffix(tc.want, "$")) {
				t.Errorf("%s: error %v, want one ending in %q", tc.name, err, strings.TrimSuffix(tc.want, "$"))
			}
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if err := puzzle.CheckAdditive([]string{"x"}, nil); err == nil {
		t.Error("names and patterns of different lengths accepted")
	}
}
