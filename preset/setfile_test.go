package preset_test

import (
	"fmt"
	"testing"

	"github.com/tilepdb/tilepdb/preset"
)

// TestSetFile: the set file of every preset that shares tables has one
// part per pattern, in order, each naming its table's file and SHA-256,
// the board and goal of the parts; no parts is an error.
func TestSetFile(t *testing.T) {
	for _, pr := range preset.All {
		tables, parts, err := pr.Plan("blank-last")
		if err != nil {
			t.Fatal(err)
		}
		files, sums := make([]string, len(tables)), make([]string, len(tables))
		for i := range tables {
			files[i], sums[i] = fmt.Sprintf("t%d.pdb", i), fmt.Sprintf("%064x", i+1)
		}
		sf, err := preset.SetFile(parts, tables, files, sums)
		if err != nil {
			t.Fatalf("%s: %v", pr.Name, err)
		}
		g := parts[0].Pattern.Geom
		if sf.Width != g.W || sf.Height != g.H || len(sf.Goal) != g.W*g.H || len(sf.Parts) != len(parts) {
			t.Fatalf("%s: set file %dx%d, goal of %d cells, %d parts; want %dx%d and %d parts", pr.Name, sf.Width, sf.Height, len(sf.Goal), len(sf.Parts), g.W, g.H, len(parts))
		}
		for i, sp := range sf.Parts {
			if want := files[parts[i].Table]; sp.Table != want || sp.RawSHA256 != sums[parts[i].Table] {
				t.Errorf("%s: part %d names %s %s, want %s %s", pr.Name, i, sp.Table, sp.RawSHA256, want, sums[parts[i].Table])
			}
		}
	}
	if _, err := preset.SetFile(nil, nil, nil, nil); err == nil {
		t.Error("a set file of no parts accepted")
	}
}
