package preset_test

import (
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/preset"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestParseFileName: every preset table name (both goals) and custom names
// map back to a pattern whose conventional name is the same; malformed or
// unknown names get a one-line error saying why.
func TestParseFileName(t *testing.T) {
	var names []string
	for _, pr := range preset.All {
		for _, goal := range []string{puzzle.GoalBlankLast, puzzle.GoalBlankFirst} {
			ps, err := pr.Patterns(goal)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				n := preset.FileName(pr.Name, p)
				names = append(names, n)
				got, err := preset.ParseFileName(n)
				if err != nil {
					t.Errorf("%s: %v", n, err)
					continue
				}
				if got.String() != p.String() || preset.FileName(pr.Name, got) != n {
					t.Errorf("%s: pattern %s, want %s", n, got, p)
				}
			}
		}
	}
	if len(names) < 20 {
		t.Fatalf("only %d preset names", len(names))
	}
	for _, c := range []struct{ name, pattern string }{
		{"3x3_1-2-3.pdb", "3x3 blank-last tiles 1,2,3"},
		{"3x3-bf_1-2-3.pdb", "3x3 blank-first tiles 1,2,3"},
		{"3x2-goal5.4.3.2.1.0_1-2.pdb", "3x2 5 4 3 2 1 0 tiles 1,2"},
		{"2x2.pdb", "2x2 blank-last exact (all tiles)"},
		{"4x3-bf.pdb", "4x3 blank-first exact (all tiles)"},
	} {
		p, err := preset.ParseFileName(c.name)
		if err != nil || p.String() != c.pattern {
			t.Errorf("%s: %v, %v; want %s", c.name, p, err, c.pattern)
		}
	}
	for _, c := range []struct{ name, msg string }{
		{"15-999_1-2.pdb", `15-999_1-2.pdb names preset "15-999", which does not exist (known: 8puzzle, 15-555`},
		{"15-555_1-2-3.pdb", "15-555_1-2-3.pdb is not a table of preset 15-555 (its tables: 15-555_1-2-3-4-7.pdb, "},
		{"8puzzle-goal1.2.3.4.5.6.7.8.0.pdb", "8puzzle-goal1.2.3.4.5.6.7.8.0.pdb: preset 8puzzle: goal must be"},
		{"3x3_3-2-1.pdb", "3x3_3-2-1.pdb is not the conventional name of its table (3x3_1-2-3.pdb)"},
		{"3x3-goal1.2.3.4.5.6.7.8.0_1.pdb", "is not the conventional name of its table (3x3_1.pdb)"},
		{"3x3_1-x.pdb", `3x3_1-x.pdb: tiles "1-x": want numbers joined by '-'`},
		{"3x3_1-9.pdb", "3x3_1-9.pdb: "},
		{"3x3_.pdb", `tiles ""`},
		{"9x9_1.pdb", `names preset "9x9", which does not exist`},
		{"3x3-goal1.1.1_1.pdb", "3x3-goal1.1.1_1.pdb: goal: "},
		{"3x3_1-2.txt", "not a table file name"},
	} {
		_, err := preset.ParseFileName(c.name)
		if err == nil || !strings.Contains(err.Error(), c.msg) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line containing %q", c.name, err, c.msg)
		}
	}
}
