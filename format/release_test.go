package format

import (
	"path/filepath"
	"testing"
)

// TestOpenWithRelease: SetPlan.OpenWith reads the tables with the given
// function, and a table whose values it released (ReleaseValues) still
// makes a complete set, with no Values; the others keep theirs. Headers
// lists the plan's distinct tables.
func TestOpenWithRelease(t *testing.T) {
	file := filepath.Join("..", "readers", "testdata", "sets", "good-catalogue-zero-aware.set.json")
	reads := 0
	plan := PlanSet(file)
	s, err := plan.OpenWith(func(path string) (*Table, error) {
		reads++
		tb, err := ReadFile(path)
		if err == nil && tb.ZeroAware() {
			tb.ReleaseValues()
		}
		return tb, err
	})
	if err != nil {
		t.Fatal(err)
	}
	if reads != len(s.Tables) || len(plan.Headers()) != len(s.Tables) {
		t.Errorf("%d reads and %d headers for %d tables", reads, len(plan.Headers()), len(s.Tables))
	}
	za := 0
	for _, tb := range s.Tables {
		switch {
		case tb.ZeroAware() && tb.Values != nil:
			t.Errorf("%s: released, but has values", tb.Pattern)
		case tb.ZeroAware():
			za++
		case uint64(len(tb.Values)) != tb.Pattern.Size():
			t.Errorf("%s: %d values", tb.Pattern, len(tb.Values))
		}
	}
	if za == 0 {
		t.Fatal("no zero-aware table in the set")
	}
}
