package preset

import (
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
)

// TestZeroAwareFileName: every additive table of every preset has a
// zero-aware name that parses back to its pattern and differs from the
// plain name; plain names are not zero-aware names.
func TestZeroAwareFileName(t *testing.T) {
	n := 0
	for _, pr := range All {
		for _, goal := range []string{puzzle.GoalBlankLast, puzzle.GoalBlankFirst} {
			ps, err := pr.Patterns(goal)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				if p.Exact {
					continue
				}
				name := ZeroAwareFileName(pr.Name, p)
				got, err := ParseZeroAwareFileName(name)
				if err != nil {
					t.Fatal(err)
				}
				if got.String() != p.String() || name == FileName(pr.Name, p) {
					t.Errorf("%s: parsed %s, want %s", name, got, p)
				}
				if _, err := ParseZeroAwareFileName(FileName(pr.Name, p)); err == nil {
					t.Errorf("%s parsed as a zero-aware name", FileName(pr.Name, p))
				}
				if _, err := ParseFileName(name); err == nil {
					t.Errorf("ParseFileName accepted the zero-aware name %s", name)
				}
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no additive preset table")
	}
	for _, bad := range []string{"8puzzle_za.pdb", "x_za.pdb", "3x3_1-2_za.pdb.pdb", "3x3_1-2.za.pdb"} {
		if _, err := ParseZeroAwareFileName(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if got := ZeroAwareSetFileName("24-6666", mustPatternFor(t)); got != "24-6666_za.set.json" {
		t.Errorf("set file name %s", got)
	}
}

func mustPatternFor(t *testing.T) *puzzle.Pattern {
	g, _ := puzzle.NewGeometry(5, 5)
	p, err := puzzle.NewPattern(g, puzzle.BlankLastGoal(g), []uint8{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
