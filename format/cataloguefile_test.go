package format_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// catalogueDir writes to a temporary folder the 4x4 blank-last tables of
// tiles 2,3,4 (t234.pdb) and 1,2,5 (t125.pdb) and a catalogue of three
// partitions through them (cat.set.json, SPEC.md section 12):
//
//	1: 2,3,4 (identity), 5,9,13 (transpose of 2,3,4)
//	2: 1,2,5 (identity), 3,4,8 (rot270 of 1,2,5)
//	3: 2,3,4 (identity, as in 1), 9,13,14 (flip-tb of 1,2,5)
//
// It returns the folder and the set file's content.
func catalogueDir(t *testing.T) (string, *format.SetFile) {
	t.Helper()
	dir := t.TempDir()
	pat := func(tiles ...uint8) *puzzle.Pattern { return pdbtest.Pattern(t, 4, 4, "blank-last", tiles...) }
	tables := map[string]*format.Table{"t234.pdb": refTable(t, pat(2, 3, 4)), "t125.pdb": refTable(t, pat(1, 2, 5))}
	for name, tb := range tables {
		if err := format.WriteFile(filepath.Join(dir, name), tb, 1); err != nil {
			t.Fatal(err)
		}
	}
	part := func(table string, sym puzzle.Symmetry, tiles ...uint8) format.SetPart {
		tb := tables[table]
		sp, err := format.NewSetPart(pat(tiles...), tb.Pattern, sym, table, tb.Header.RawSHA256)
		if err != nil {
			t.Fatal(err)
		}
		return sp
	}
	sf := &format.SetFile{Version: format.CatalogueVersion, Width: 4, Height: 4, Goal: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0},
		Partitions: [][]format.SetPart{
			{part("t234.pdb", puzzle.Identity, 2, 3, 4), part("t234.pdb", puzzle.Transpose, 5, 9, 13)},
			{part("t125.pdb", puzzle.Identity, 1, 2, 5), part("t125.pdb", puzzle.Rot270, 3, 4, 8)},
			{part("t234.pdb", puzzle.Identity, 2, 3, 4), part("t125.pdb", puzzle.FlipTB, 9, 13, 14)},
		}}
	if err := format.WriteSetFile(filepath.Join(dir, "cat"+format.SetFileExt), sf); err != nil {
		t.Fatal(err)
	}
	return dir, sf
}

// TestCatalogueFile: a catalogue read from its set file looks boards up
// as the maximum over its partitions of the sums of tables built for each
// part's own tiles (no symmetry involved), on random boards; a part used
// by two partitions and a table used by five parts are read once.
func TestCatalogueFile(t *testing.T) {
	dir, sf := catalogueDir(t)
	path := filepath.Join(dir, "cat"+format.SetFileExt)
	var own [][]*format.Table // own[i][j]: the table of partition i part j's own tiles
	for _, ps := range sf.Partitions {
		var row []*format.Table
		for _, sp := range ps {
			tiles := make([]uint8, len(sp.Tiles))
			for k, x := range sp.Tiles {
				tiles[k] = uint8(x)
			}
			row = append(row, refTable(t, pdbtest.Pattern(t, 4, 4, "blank-last", tiles...)))
		}
		own = append(own, row)
	}
	for _, args := range [][]string{{path}, {path, filepath.Join(dir, "t125.pdb")}, {filepath.Join(dir, "t234.pdb"), path, filepath.Join(dir, "t125.pdb")}} {
		s, err := format.OpenSet(args...)
		if err != nil {
			t.Fatalf("OpenSet(%v): %v", args, err)
		}
		if !s.Catalogue() || len(s.Partitions) != 3 || len(s.Parts) != 5 || len(s.Tables) != 2 {
			t.Fatalf("OpenSet(%v): catalogue %v, %d partitions, %d parts, %d tables; want 3, 5, 2", args, s.Catalogue(), len(s.Partitions), len(s.Parts), len(s.Tables))
		}
		rng := rand.New(rand.NewPCG(18, 12))
		wins := make([]int, len(own)) // boards where each partition's sum is the maximum
		for range 2000 {
			b := pdbtest.RandomSolvable(rng, s.Geom, s.Goal)
			pos := b.Positions()
			sums := make([]int, len(own))
			want := 0
			for i, row := range own {
				for _, tb := range row {
					sums[i] += int(tb.Value(pos))
				}
				want = max(want, sums[i])
			}
			for i, h := range sums {
				if h == want {
					wins[i]++
				}
			}
			if got := s.Heuristic(pos); got != want {
				t.Fatalf("board %s: catalogue %d, max over the partitions of tables built for each part %d", b, got, want)
			}
		}
		for i, w := range wins {
			if w == 0 {
				t.Errorf("partition %d never gives the maximum: the test does not check it", i+1)
			}
		}
	}
	// The plan counts each table once, however many parts name it.
	var want uint64
	for _, name := range []string{"t234.pdb", "t125.pdb"} {
		h, err := format.ReadHeaderFile(filepath.Join(filepath.Dir(path), name))
		if err != nil {
			t.Fatal(err)
		}
		want += h.DecodeMemory()
	}
	if got := format.PlanSet(path).Memory(); got != want {
		t.Errorf("PlanSet.Memory = %d, want %d (t234.pdb and t125.pdb once each)", got, want)
	}
	if s, probs := format.CheckSetFile(path); len(probs) > 0 || s == nil || !s.Catalogue() {
		t.Errorf("CheckSetFile: %v", probs)
	}
}

// TestCatalogueFileErrors: each broken catalogue gives the one line of
// SPEC.md section 12 (the messages the JS, Java and Python readers give
// too), wrapping ErrSet, and a catalogue is not combined with other set
// files or tables.
func TestCatalogueFileErrors(t *testing.T) {
	dir, good := catalogueDir(t)
	path := filepath.Join(dir, "bad"+format.SetFileExt)
	clone := func() *format.SetFile {
		var sf format.SetFile
		js, _ := json.Marshal(good)
		if err := json.Unmarshal(js, &sf); err != nil {
			t.Fatal(err)
		}
		return &sf
	}
	p := func(s string) string { return path + ": tilepdb: invalid set: " + s }
	many := make([][]format.SetPart, 65)
	for i := range many {
		many[i] = good.Partitions[0]
	}
	cases := []struct {
		name string
		edit func(sf *format.SetFile)
		mod  func(js string) string // edits the (edited) file's JSON text
		want string
	}{
		{name: "version 3", edit: func(sf *format.SetFile) { sf.Version = 3 }, want: p("set file version 3 is not supported (this reader supports 1 and 2)")},
		{name: "version 1 with partitions", mod: func(js string) string { return strings.Replace(js, `"tilepdb_set":2`, `"tilepdb_set":1`, 1) }, want: p(`required key "parts" is missing`)},
		{name: "parts, not partitions", mod: func(js string) string { return strings.Replace(js, `"partitions"`, `"parts"`, 1) }, want: p(`required key "partitions" is missing`)},
		{name: "partitions null", edit: func(sf *format.SetFile) { sf.Partitions = nil }, want: p(`key "partitions" is null`)},
		{name: "partitions object", mod: func(js string) string { return js[:strings.Index(js, `"partitions"`)] + `"partitions":{}}` }, want: p(`key "partitions": want an array of arrays, found object`)},
		{name: "partition object", mod: func(js string) string { return strings.Replace(js, `],[`, `],{},[`, 1) }, want: p(`partition 2: want an array, found object`)},
		{name: "part array", edit: func(sf *format.SetFile) {}, mod: func(js string) string { return strings.Replace(js, `],[{`, `],[[],{`, 1) }, want: p(`partition 2 part 1: want an object, found array`)},
		{name: "part key missing", mod: func(js string) string { return strings.Replace(js, `"tile_map":[5,1,2],`, ``, 1) }, want: p(`partition 2 part 2: required key "tile_map" is missing`)},
		{name: "no partitions", edit: func(sf *format.SetFile) { sf.Partitions = [][]format.SetPart{} }, want: p("0 partitions, want 1 to 64")},
		{name: "65 partitions", edit: func(sf *format.SetFile) { sf.Partitions = many }, want: p("65 partitions, want 1 to 64")},
		{name: "empty partition", edit: func(sf *format.SetFile) { sf.Partitions[1] = []format.SetPart{} }, want: p("partition 2: 0 parts, want 1 to 15")},
		{name: "16 parts", edit: func(sf *format.SetFile) {
			for len(sf.Partitions[2]) < 16 {
				sf.Partitions[2] = append(sf.Partitions[2], sf.Partitions[2][0])
			}
		}, want: p("partition 3: 16 parts, want 1 to 15")},
		{name: "symmetry in partition 2", edit: func(sf *format.SetFile) { sf.Partitions[1][1].Symmetry = "rot45" }, want: p(`partition 2 part 2: bad symmetry: "rot45" is not one of identity, rot90, rot180, rot270, flip-lr, flip-tb, transpose, anti-transpose`)},
		{name: "sha in partition 3", edit: func(sf *format.SetFile) { sf.Partitions[2][1].RawSHA256 = "00" }, want: p(`partition 3 part 2: table "t125.pdb" has raw_sha256 ` + good.Partitions[2][1].RawSHA256 + `, the set file says "00"`)},
		{name: "overlap in partition 3", edit: func(sf *format.SetFile) { sf.Partitions[2][1] = sf.Partitions[1][1] }, want: "tilepdb: invalid set: " + path + " partition 3 part 2 (4x4 blank-last tiles 3,4,8) and " + path + " partition 3 part 1 (4x4 blank-last tiles 2,3,4) are not disjoint: both hold tile(s) 3,4"},
	}
	for _, tc := range cases {
		sf := clone()
		if tc.edit != nil {
			tc.edit(sf)
		}
		js, err := json.Marshal(sf)
		if err != nil {
			t.Fatal(err)
		}
		if tc.mod != nil {
			js = []byte(tc.mod(string(js)))
		}
		if err := os.WriteFile(path, js, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = format.OpenSet(path)
		switch {
		case err == nil:
			t.Errorf("%s: accepted: %s", tc.name, js)
		case !errors.Is(err, format.ErrSet):
			t.Errorf("%s: %v does not wrap ErrSet", tc.name, err)
		case err.Error() != tc.want:
			t.Errorf("%s:\n got %s\nwant %s", tc.name, err, tc.want)
		}
	}

	cat := filepath.Join(dir, "cat"+format.SetFileExt)
	v1 := &format.SetFile{Version: 1, Width: 4, Height: 4, Goal: good.Goal, Parts: good.Partitions[0]}
	v1path := filepath.Join(dir, "v1"+format.SetFileExt)
	if err := format.WriteSetFile(v1path, v1); err != nil {
		t.Fatal(err)
	}
	other := refTable(t, pdbtest.Pattern(t, 4, 4, "blank-last", 15))
	otherPath := filepath.Join(dir, "t15.pdb")
	if err := format.WriteFile(otherPath, other, 1); err != nil {
		t.Fatal(err)
	}
	alone := func(other string) string {
		return cat + ": tilepdb: invalid set: a catalogue (set file version 2) is a whole heuristic and is used alone, not with " + other
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{cat, v1path}, alone(v1path)},
		{[]string{v1path, cat}, alone(v1path)},
		{[]string{cat, otherPath}, alone(otherPath)},
		{[]string{cat, cat}, alone(cat)},
	} {
		if _, err := format.OpenSet(tc.args...); err == nil || err.Error() != tc.want {
			t.Errorf("OpenSet(%v):\n got %v\nwant %s", tc.args, err, tc.want)
		}
	}
}

// TestCheckCatalogueFile: the checker reports every problem of a
// catalogue, partition by partition, and the overlaps of the parts that
// pass.
func TestCheckCatalogueFile(t *testing.T) {
	dir, sf := catalogueDir(t)
	sf.Partitions[0][1].Symmetry = "rot90"       // partition 1 part 2: wrong symmetry
	sf.Partitions[1][0].TileMap = []int{1, 2, 6} // partition 2 part 1: wrong tile_map
	sf.Partitions[2][1] = sf.Partitions[1][1]    // partition 3: overlap (3,4,8 with 2,3,4)
	sf.Partitions[1][1].Table = "missing.pdb"    // partition 2 part 2: no such table (trouble)
	sf.Partitions = append(sf.Partitions, nil)   // partition 4: null
	path := filepath.Join(dir, "bad"+format.SetFileExt)
	if err := format.WriteSetFile(path, sf); err != nil {
		t.Fatal(err)
	}
	s, probs := format.CheckSetFile(path)
	want := []string{
		"partition 4: want an array, found null",
		"partition 1 part 2 (tiles [5 9 13]) through table",
		"partition 2 part 1: tile_map [1 2 6]",
		"partition 2 part 2: open",
		"partition 3 part 2 (4x4 blank-last tiles 3,4,8) and",
	}
	if s != nil || len(probs) != len(want) {
		t.Fatalf("CheckSetFile: %d problems, want %d: %v", len(probs), len(want), probs)
	}
	for i, w := range want {
		if !strings.Contains(probs[i].Error(), w) || !strings.Contains(probs[i].Error(), path) {
			t.Errorf("problem %d: %v, want it to name %s and %q", i+1, probs[i], path, w)
		}
	}
}

// TestMarshalCatalogue: the written layout of a catalogue parses back to
// the same value, one line per part.
func TestMarshalCatalogue(t *testing.T) {
	part := format.SetPart{Tiles: []int{1}, Table: "a.pdb", TableTiles: []int{1}, Symmetry: "identity", TileMap: []int{1}, RawSHA256: "ab"}
	sf := &format.SetFile{Version: 2, Width: 2, Height: 2, Goal: []int{1, 2, 3, 0}, Partitions: [][]format.SetPart{{part}, {part, part}}}
	js, err := format.MarshalSetFile(sf)
	if err != nil {
		t.Fatal(err)
	}
	back, err := format.ParseSetFile(js)
	if err != nil {
		t.Fatalf("%v\n%s", err, js)
	}
	a, _ := json.Marshal(sf)
	b, _ := json.Marshal(back)
	if string(a) != string(b) || back.Parts != nil || strings.Count(string(js), `"tiles"`) != 3 || strings.Count(string(js), "\n") != 15 {
		t.Errorf("round trip:\n%s\n%s", js, b)
	}
}
