package format

import (
	"path/filepath"
	"testing"
)

// TestOpenSetWithRelease: OpenSetWith reads the tables with the given
// function, and a table whose values it released (ReleaseValues) still
// makes a complete set, with no Values; the others keep theirs.
func TestOpenSetWithRelease(t *testing.T) {
	file := filepath.Join("..", "readers", "testdata", "sets", "good-catalogue-zero-aware.set.json")
	reads := 0
	s, err := OpenSetWith(func(path string) (*Table, error) {
		reads++
		tb, err := ReadFile(path)
		if err == nil && tb.ZeroAware() {
			tb.ReleaseValues()
		}
		return tb, err
	}, file)
	if err != nil {
		t.Fatal(err)
	}
	if reads != len(s.Tables) {
		t.Errorf("%d reads for %d tables", reads, len(s.Tables))
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
