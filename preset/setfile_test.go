package preset_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/preset"
)

// TestSetFile: the set file of every preset that shares tables has one
// part per pattern, in order, each naming its table's file and SHA-256,
// the board and goal of the parts; no parts is an error.
func TestSetFile(t *testing.T) {
	for _, pr := range preset.All {
		if pr.IsCatalogue() {
			continue // TestCatalogueFile
		}
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

// TestCatalogueFile: the set file of a catalogue preset is version 2 with
// one partition per partition of PlanCatalogue, each part naming its
// table's file and SHA-256; it reads back (format.ParseSetFile) as written.
func TestCatalogueFile(t *testing.T) {
	pr, err := preset.Find("24-best")
	if err != nil {
		t.Fatal(err)
	}
	tables, partitions, err := pr.PlanCatalogue("blank-last")
	if err != nil {
		t.Fatal(err)
	}
	files, sums := make([]string, len(tables)), make([]string, len(tables))
	for i := range tables {
		files[i], sums[i] = fmt.Sprintf("t%d.pdb", i), fmt.Sprintf("%064x", i+1)
	}
	sf, err := preset.CatalogueFile(partitions, tables, files, sums)
	if err != nil {
		t.Fatal(err)
	}
	if sf.Version != format.CatalogueVersion || len(sf.Partitions) != len(partitions) || sf.Parts != nil {
		t.Fatalf("version %d, %d partitions (want %d), parts %v", sf.Version, len(sf.Partitions), len(partitions), sf.Parts)
	}
	for i, parts := range partitions {
		for j, part := range parts {
			sp := sf.Partitions[i][j]
			if sp.Table != files[part.Table] || sp.RawSHA256 != sums[part.Table] || fmt.Sprintf("%d", sp.Tiles) != fmt.Sprintf("%d", part.Pattern.Tiles) {
				t.Errorf("partition %d part %d: %+v, want tiles %v through %s", i+1, j+1, sp, part.Pattern.Tiles, files[part.Table])
			}
		}
	}
	b, err := format.MarshalSetFile(sf)
	if err != nil {
		t.Fatal(err)
	}
	back, err := format.ParseSetFile(b)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(back) != fmt.Sprint(sf) {
		t.Errorf("read back differs:\n%v\n%v", back, sf)
	}
	if _, err := preset.CatalogueFile(nil, nil, nil, nil); err == nil {
		t.Error("a catalogue of no partitions accepted")
	}
	if _, err := preset.CatalogueFile([][]preset.Part{partitions[0], nil}, tables, files, sums); err == nil || !strings.Contains(err.Error(), "partition 2") {
		t.Errorf("an empty partition: %v", err)
	}
}
