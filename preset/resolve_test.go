package preset

import (
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
)

// TestResolve: the tables and set files a build's flags mean, as pdbgen
// build and pdbgen-beam build both take them, and the one-line refusals.
func TestResolve(t *testing.T) {
	for _, c := range []struct {
		name           string
		presets, board string
		tiles          []string
		goal           string
		files          []string // the tables' files, then the set files'
		kinds          []format.Kind
		err            string
	}{
		{name: "defaults", files: []string{"8puzzle.pdb", "15-555_1-2-3-4-7.pdb", "15-555_5-6-9-10-13.pdb", "15-555_8-11-12-14-15.pdb",
			"15-663_1-5-6-9-10-13.pdb", "15-663_7-8-11-12-14-15.pdb", "15-663_2-3-4.pdb"},
			kinds: []format.Kind{format.KindExact, format.KindAdditive}},
		{name: "twice", presets: "15-663, 15-663", files: []string{"15-663_1-5-6-9-10-13.pdb", "15-663_7-8-11-12-14-15.pdb", "15-663_2-3-4.pdb"}},
		{name: "shared", presets: "24-6666", files: []string{"24-6666_13-18-19-20-23-24.pdb", "24-6666_11-12-16-17-21-22.pdb", "24-6666.set.json"}},
		{name: "blank-first", presets: "24-6666", goal: "blank-first", files: []string{"24-6666-bf_1-2-5-6-7-12.pdb", "24-6666-bf_3-4-8-9-13-14.pdb", "24-6666-bf.set.json"}},
		{name: "custom", board: "3x3", tiles: []string{"1-4", "5-8"}, files: []string{"3x3_1-2-3-4.pdb", "3x3_5-6-7-8.pdb"}},
		{name: "custom exact", board: "3x3", tiles: []string{"1-8"}, files: []string{"3x3.pdb"}, kinds: []format.Kind{format.KindExact}},
		{name: "both", presets: "15-555", board: "3x3", tiles: []string{"1"}, err: "use either --preset or --board/--tiles, not both"},
		{name: "half", board: "3x3", err: "--board and --tiles go together"},
		{name: "overlap", board: "3x3", tiles: []string{"1-4", "4-8"}, err: "the --tiles sets of one build must form one additive set"},
		{name: "unknown", presets: "nope", err: "unknown preset"},
	} {
		t.Run(c.name, func(t *testing.T) {
			goal := c.goal
			if goal == "" {
				goal = "blank-last"
			}
			tables, sets, err := Resolve(c.presets, c.board, c.tiles, goal)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %v, want one line with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			for _, tb := range tables {
				files = append(files, tb.File)
			}
			for _, s := range sets {
				files = append(files, s.File)
			}
			if strings.Join(files, " ") != strings.Join(c.files, " ") {
				t.Errorf("files %v, want %v", files, c.files)
			}
			for i, k := range c.kinds {
				if tables[i].Kind != k {
					t.Errorf("%s: kind %s, want %s", tables[i].File, tables[i].Kind, k)
				}
			}
		})
	}
}

// TestZeroAware: ZeroAware marks plain additive tables and their set
// files, copies a set's tables, keeps a zero-aware preset's names, and
// refuses an exact table by its file.
func TestZeroAware(t *testing.T) {
	tables, sets, err := Resolve("24-6666", "", nil, "blank-last")
	if err != nil {
		t.Fatal(err)
	}
	if err := ZeroAware(tables, sets); err != nil {
		t.Fatal(err)
	}
	if tables[0].File != "24-6666_13-18-19-20-23-24_za.pdb" || tables[0].Kind != format.KindZeroAware {
		t.Errorf("table %s, kind %s", tables[0].File, tables[0].Kind)
	}
	if sets[0].File != "24-6666_za.set.json" || sets[0].Tables[1].File != "24-6666_11-12-16-17-21-22_za.pdb" {
		t.Errorf("set %s, its second table %s", sets[0].File, sets[0].Tables[1].File)
	}
	za, zsets, err := Resolve("24-best", "", nil, "blank-last")
	if err != nil {
		t.Fatal(err)
	}
	if err := ZeroAware(za, zsets); err != nil {
		t.Fatal(err)
	}
	if zsets[0].File != "24-best.set.json" || !strings.HasSuffix(za[0].File, "_za.pdb") || strings.HasSuffix(za[0].File, "_za_za.pdb") {
		t.Errorf("24-best: set %s, table %s", zsets[0].File, za[0].File)
	}
	ex, exSets, err := Resolve("8puzzle", "", nil, "blank-last")
	if err != nil {
		t.Fatal(err)
	}
	if err := ZeroAware(ex, exSets); err == nil || err.Error() != "8puzzle.pdb is an exact table, which has no zero-aware form" {
		t.Errorf("exact: %v", err)
	}
}
