package format_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/internal/regular"
	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/verify"
)

// refTable builds p's table with the reference BFS (verify.Reference).
func refTable(t *testing.T, p *puzzle.Pattern) *format.Table {
	t.Helper()
	v, err := verify.Reference(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := format.NewTable(p, v, "test")
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// sharedSet writes, for a partition, one table per class of patterns that
// are symmetric to one another (the first of each class) and a set file
// describing every part, and returns the paths written (set file first)
// and the number of tables.
func sharedSet(t *testing.T, dir string, patterns []*puzzle.Pattern) ([]string, int) {
	t.Helper()
	var tables []*format.Table
	var files []string
	sf := &format.SetFile{Version: format.SetVersion, Width: patterns[0].Geom.W, Height: patterns[0].Geom.H}
	for _, c := range patterns[0].Goal {
		sf.Goal = append(sf.Goal, int(c))
	}
	for i, p := range patterns {
		var part format.SetPart
		var err error
		found := false
		for j, tb := range tables {
			if m, ok := puzzle.FindSymmetry(p, tb.Pattern); ok {
				part, err = format.NewSetPart(p, tb.Pattern, m.Sym, filepath.Base(files[j]), tb.Header.RawSHA256)
				found = true
				break
			}
		}
		if !found {
			tb := refTable(t, p)
			path := filepath.Join(dir, "t"+string(rune('a'+i))+".pdb")
			if err := format.WriteFile(path, tb, 1); err != nil {
				t.Fatal(err)
			}
			tables = append(tables, tb)
			files = append(files, path)
			part, err = format.NewSetPart(p, p, puzzle.Identity, filepath.Base(path), tb.Header.RawSHA256)
		}
		if err != nil {
			t.Fatal(err)
		}
		sf.Parts = append(sf.Parts, part)
	}
	setPath := filepath.Join(dir, "x"+format.SetFileExt)
	if err := format.WriteSetFile(setPath, sf); err != nil {
		t.Fatal(err)
	}
	return append([]string{setPath}, files...), len(tables)
}

// TestSharedSetEqualsSeparateTables: lookups through a set whose tables
// serve several parts by symmetry equal the sums over tables built
// separately for every part, on random boards; the set is opened from the
// set file alone, from every path written (in any order), and the shared
// partitions need fewer tables than parts.
func TestSharedSetEqualsSeparateTables(t *testing.T) {
	cases := []struct {
		w, h       int
		goal       string
		partition  [][]uint8
		wantTables int
	}{
		// 4x4 blank-last: four corner L-trominoes and a middle one
		{4, 4, puzzle.GoalBlankLast, [][]uint8{{1, 2, 5}, {3, 4, 8}, {9, 13, 14}, {6, 7, 10}, {11, 12, 15}}, 3},
		// 4x4 blank-first: the rows 1-3 as 4-tile bars
		{4, 4, puzzle.GoalBlankFirst, [][]uint8{{4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}, {1, 2, 3}}, 4},
		// 4x4: columns; no sharing, since a column cuts the free cells in
		// two and the mirror image of the blank's region is the other side
		{4, 4, puzzle.GoalBlankLast, [][]uint8{{1, 5, 9, 13}, {4, 8, 12}, {2, 6, 10, 14}, {3, 7, 11, 15}}, 4},
		// 3x2 (not square): mirror images
		{3, 2, puzzle.GoalBlankLast, [][]uint8{{1}, {3}, {2}}, 2},
	}
	rng := rand.New(rand.NewPCG(11, 1))
	for _, tc := range cases {
		var patterns []*puzzle.Pattern
		for _, tiles := range tc.partition {
			patterns = append(patterns, pdbtest.Pattern(t, tc.w, tc.h, tc.goal, tiles...))
		}
		dir := t.TempDir()
		paths, ntab := sharedSet(t, dir, patterns)
		if ntab != tc.wantTables {
			t.Errorf("%v: %d tables, want %d", tc.partition, ntab, tc.wantTables)
		}
		var separate []*format.Table
		for _, p := range patterns {
			separate = append(separate, refTable(t, p))
		}
		rev := append([]string(nil), paths...)
		for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
			rev[i], rev[j] = rev[j], rev[i]
		}
		for _, args := range [][]string{paths[:1], paths, rev} {
			set, err := format.OpenSet(args...)
			if err != nil {
				t.Fatalf("%v: OpenSet(%v): %v", tc.partition, args, err)
			}
			if len(set.Parts) != len(patterns) || len(set.Tables) != ntab {
				t.Fatalf("%v: %d parts, %d tables", tc.partition, len(set.Parts), len(set.Tables))
			}
			for range 300 {
				b := pdbtest.RandomSolvable(rng, set.Geom, set.Goal)
				pos := b.Positions()
				want := 0
				for _, st := range separate {
					want += int(st.Value(pos))
				}
				if got := set.Heuristic(pos); got != want {
					t.Fatalf("%v: board %s: set %d, separate tables %d", tc.partition, b, got, want)
				}
			}
		}
	}
}

// TestSetFileErrors: every broken set file gives one line naming the file
// and the problem, wrapping ErrSet (bad data), never a panic.
func TestSetFileErrors(t *testing.T) {
	dir := t.TempDir()
	pat := func(goal string, tiles ...uint8) *puzzle.Pattern { return pdbtest.Pattern(t, 4, 4, goal, tiles...) }
	paths, _ := sharedSet(t, dir, []*puzzle.Pattern{pat("", 2, 3, 4), pat("", 5, 9, 13)})
	var good format.SetFile
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &good); err != nil {
		t.Fatal(err)
	}
	// tables on another board and goal, for mixing
	other3 := refTable(t, pdbtest.Pattern(t, 3, 3, "", 1, 2, 3))
	if err := format.WriteFile(filepath.Join(dir, "t3.pdb"), other3, 1); err != nil {
		t.Fatal(err)
	}
	otherGoal := refTable(t, pat(puzzle.GoalBlankFirst, 1, 2, 3))
	if err := format.WriteFile(filepath.Join(dir, "bf.pdb"), otherGoal, 1); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		edit func(sf *format.SetFile)
		raw  string
		mod  func(js string) string // edits the good file's JSON text
		want string
	}{
		{name: "garbage", raw: "{not json", want: "not a set file"},
		{name: "trailing", raw: `{"tilepdb_set":1} {}`, want: "after top-level value"},
		{name: "key case", mod: func(js string) string { return strings.Replace(js, `"width"`, `"Width"`, 1) }, want: `required key "width" is missing`},
		{name: "duplicate", mod: func(js string) string { return strings.Replace(js, `"width":4`, `"width":4,"width":4`, 1) }, want: `duplicate key "width"`},
		{name: "duplicate in part", mod: func(js string) string { return strings.Replace(js, `"symmetry"`, `"table":"x","symmetry"`, 1) }, want: `duplicate key "table"`},
		{name: "duplicate in unknown", mod: func(js string) string { return strings.Replace(js, `{`, `{"x":{"a":1,"a":1},`, 1) }, want: `duplicate key "a"`},
		{name: "bom", mod: func(js string) string { return "\xef\xbb\xbf" + js }, want: "byte-order mark"},
		{name: "utf8", mod: func(js string) string { return strings.Replace(js, `{`, "{\"x\":\"\xff\",", 1) }, want: "UTF-8"},
		{name: "fraction", mod: func(js string) string { return strings.Replace(js, `"width":4`, `"width":4.0`, 1) }, want: `key "width": 4.0 is not an integer`},
		{name: "null", mod: func(js string) string { return strings.Replace(js, `"width":4`, `"width":null`, 1) }, want: `key "width" is null`},
		{name: "type", mod: func(js string) string { return strings.Replace(js, `"width":4`, `"width":"4"`, 1) }, want: `key "width": want an integer, found string`},
		{name: "deep", mod: func(js string) string {
			return strings.Replace(js, `{`, `{"x":`+strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+",", 1)
		}, want: "nested deeper than 64"},
		{name: "surrogate", mod: func(js string) string { return strings.Replace(js, `{`, `{"x":"\ud800",`, 1) }, want: "lone surrogate"},
		{name: "nul in name", edit: func(sf *format.SetFile) { sf.Parts[1].Table = "a\x00b.pdb" }, want: `part 2: table "a\x00b.pdb" must be a plain file name`},
		{name: "long name", edit: func(sf *format.SetFile) { sf.Parts[1].Table = strings.Repeat("a", 256) }, want: "plain file name"},
		{name: "version", edit: func(sf *format.SetFile) { sf.Version = 3 }, want: "set file version 3 is not supported (this reader supports 1 and 2)"},
		{name: "board", edit: func(sf *format.SetFile) { sf.Width = 9 }, want: "between"},
		{name: "goal", edit: func(sf *format.SetFile) { sf.Goal[0] = 99 }, want: "goal"},
		{name: "no parts", edit: func(sf *format.SetFile) { sf.Parts = []format.SetPart{} }, want: "0 parts"},
		{name: "parts null", edit: func(sf *format.SetFile) { sf.Parts = nil }, want: `key "parts" is null`},
		{name: "tiles", edit: func(sf *format.SetFile) { sf.Parts[1].Tiles = []int{9, 5, 13} }, want: "ascending"},
		{name: "symmetry name", edit: func(sf *format.SetFile) { sf.Parts[1].Symmetry = "twist" }, want: "twist"},
		{name: "wrong symmetry", edit: func(sf *format.SetFile) { sf.Parts[1].Symmetry = "rot90" }, want: "not a goal cell"},
		{name: "tile map", edit: func(sf *format.SetFile) { sf.Parts[1].TileMap = []int{3, 2, 4} }, want: "tile_map"},
		{name: "traversal", edit: func(sf *format.SetFile) { sf.Parts[1].Table = "../x.pdb" }, want: "plain file name"},
		{name: "missing table", edit: func(sf *format.SetFile) { sf.Parts[1].Table = "nope.pdb" }, want: "nope.pdb"},
		{name: "sha", edit: func(sf *format.SetFile) { sf.Parts[1].RawSHA256 = strings.Repeat("0", 64) }, want: "raw_sha256"},
		{name: "table tiles", edit: func(sf *format.SetFile) { sf.Parts[1].TableTiles = []int{1, 2, 3} }, want: "holds tiles"},
		{name: "other board", edit: func(sf *format.SetFile) { sf.Parts[1].Table = "t3.pdb" }, want: "3x3 board"},
		{name: "other goal", edit: func(sf *format.SetFile) { sf.Parts[1].Table = "bf.pdb" }, want: "goal"},
		{name: "overlap", edit: func(sf *format.SetFile) { sf.Parts = append(sf.Parts, sf.Parts[1]) }, want: "not disjoint"},
	}
	for _, tc := range cases {
		path := filepath.Join(dir, "bad"+format.SetFileExt)
		raw := []byte(tc.raw)
		if tc.edit != nil {
			sf := good
			sf.Goal = append([]int(nil), good.Goal...)
			sf.Parts = append([]format.SetPart(nil), good.Parts...)
			tc.edit(&sf)
			raw, _ = json.Marshal(&sf)
		}
		if tc.mod != nil {
			js, _ := json.Marshal(&good)
			raw = []byte(tc.mod(string(js)))
		}
		if err := os.WriteFile(path, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := format.OpenSet(path)
		switch {
		case err == nil:
			t.Errorf("%s: accepted", tc.name)
		case tc.name != "missing table" && !errors.Is(err, format.ErrSet):
			t.Errorf("%s: %v does not wrap ErrSet", tc.name, err)
		case !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n"):
			t.Errorf("%s: %q, want one line naming %q", tc.name, err, tc.want)
		}
	}
	// an exact table listed as a part (SPEC section 10: no table is exact)
	exact := refTable(t, pdbtest.Pattern(t, 3, 2, ""))
	if err := format.WriteFile(filepath.Join(dir, "x32.pdb"), exact, 1); err != nil {
		t.Fatal(err)
	}
	xt, err := format.ReadFile(filepath.Join(dir, "x32.pdb"))
	if err != nil {
		t.Fatal(err)
	}
	xs := fmt.Sprintf(`{"tilepdb_set":1,"width":3,"height":2,"goal":[1,2,3,4,5,0],"parts":[{"tiles":[1,2,3,4,5],"table":"x32.pdb","table_tiles":[1,2,3,4,5],"symmetry":"identity","tile_map":[1,2,3,4,5],"table_raw_sha256":%q}]}`, xt.Header.RawSHA256)
	xpath := filepath.Join(dir, "exact"+format.SetFileExt)
	if err := os.WriteFile(xpath, []byte(xs), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := format.OpenSet(xpath); err == nil || !errors.Is(err, format.ErrSet) || !strings.Contains(err.Error(), "exact table") {
		t.Errorf("a set file listing an exact table: %v, want an ErrSet naming the exact table", err)
	}
	// a plain table that overlaps a set file's part
	if _, err := format.OpenSet(paths[0], filepath.Join(dir, "bf.pdb")); err == nil {
		t.Error("a set file plus a table of another goal was accepted")
	}
}

// TestMarshalSetFile: the written layout parses back to the same value.
func TestMarshalSetFile(t *testing.T) {
	sf := &format.SetFile{Version: 1, Width: 2, Height: 2, Goal: []int{1, 2, 3, 0},
		Parts: []format.SetPart{{Tiles: []int{1}, Table: "a.pdb", TableTiles: []int{1}, Symmetry: "identity", TileMap: []int{1}, RawSHA256: "ab"},
			{Tiles: []int{2}, Table: "a.pdb", TableTiles: []int{1}, Symmetry: "transpose", TileMap: []int{3}, RawSHA256: "ab"}}}
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
	if string(a) != string(b) || strings.Count(string(js), "\n") != 10 {
		t.Errorf("round trip:\n%s", js)
	}
}

// TestOpenSetDirectory: a directory among the paths is neither a set file
// nor a table; the error says "not a regular file", as for one table (the
// JavaScript and Java readers print the same line).
func TestOpenSetDirectory(t *testing.T) {
	dir := t.TempDir()
	if isSet, err := format.IsSetFile(dir); !errors.Is(err, regular.ErrNotRegular) || isSet || format.IsBadData(err) {
		t.Errorf("IsSetFile(dir) = %v, %v; want false and a 'not a regular file' error that is not bad data", isSet, err)
	}
	if _, err := format.OpenSet(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("OpenSet(dir) = %v, want a 'not a regular file' error", err)
	}
}

// TestSetKit: the Go reader gives every set file of the set kit
// (readers/testdata/sets, shared with the JS and Java readers, written by
// make-sets.mjs) the outcome and, where index.tsv compares words, the
// message it records, which the JS and Java readers must give byte for byte.
func TestSetKit(t *testing.T) {
	dir := filepath.Join("..", "readers", "testdata", "sets")
	index, err := os.ReadFile(filepath.Join(dir, "index.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(index)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t") // file expect exit check message about
		path := filepath.Join(dir, f[0])
		// OpenSet, and the two phases of a command (the plan reads the
		// headers first): the same outcome and first error.
		for _, open := range []struct {
			name string
			fn   func() (*format.Set, error)
		}{
			{"OpenSet", func() (*format.Set, error) { return format.OpenSet(path) }},
			{"PlanSet.Open", func() (*format.Set, error) { return format.PlanSet(path).Open() }},
		} {
			_, err := open.fn()
			switch {
			case f[1] == "ok" && err != nil:
				t.Errorf("%s %s (%s): %v", open.name, f[0], f[5], err)
			case f[1] != "ok" && err == nil:
				t.Errorf("%s %s (%s): accepted", open.name, f[0], f[5])
			case err != nil && f[3] == "go":
				if want := strings.ReplaceAll(f[4], "{dir}", dir); err.Error() != want {
					t.Errorf("%s %s (%s):\n got %s\nwant %s", open.name, f[0], f[5], err, want)
				}
				if bad := format.IsBadData(err); bad != (f[2] == "1") {
					t.Errorf("%s %s: bad data %v, want exit %s", open.name, f[0], bad, f[2])
				}
			}
		}
		n++
	}
	if n < 60 {
		t.Errorf("%d set files, want at least 60", n)
	}
}

// TestSetKitHeaders: SetPlan.CheckHeaders, reading only the tables'
// headers, gives every set file of the set kit OpenSet's outcome and
// first error, except a table whose payload alone is corrupt: that one
// it must pass (it never decodes a payload; OpenSet does).
func TestSetKitHeaders(t *testing.T) {
	dir := filepath.Join("..", "readers", "testdata", "sets")
	index, err := os.ReadFile(filepath.Join(dir, "index.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	payloadOnly := map[string]bool{"bad-table-corrupt.set.json": true}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(index)), "\n") {
		f := strings.Split(line, "\t") // file expect exit check message about
		if strings.HasPrefix(line, "#") || !strings.HasSuffix(f[0], format.SetFileExt) {
			continue
		}
		path := filepath.Join(dir, f[0])
		if set, _ := format.IsSetFile(path); !set {
			continue // a JSON array: read as a table file, not a set file
		}
		_, want := format.OpenSet(path)
		got := format.PlanSet(path).CheckHeaders()
		switch {
		case payloadOnly[f[0]]:
			if want == nil || got != nil {
				t.Errorf("%s (%s): OpenSet %v, CheckHeaders %v; want an error from OpenSet only", f[0], f[5], want, got)
			}
		case (want == nil) != (got == nil) || (want != nil && got.Error() != want.Error()):
			t.Errorf("%s (%s):\n got %v\nwant %v", f[0], f[5], got, want)
		case want != nil && format.IsBadData(got) != format.IsBadData(want):
			t.Errorf("%s: bad data %v, OpenSet's %v", f[0], format.IsBadData(got), format.IsBadData(want))
		}
		n++
	}
	if n < 60 {
		t.Errorf("%d set files, want at least 60", n)
	}
}
