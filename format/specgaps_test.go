package format

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestHeaderKindChecks (SPEC.md section 3 step 4, issue 29 SPEC gaps 1
// and 2): where the kind's checks fall. The pattern's bound N!/(N-k)! <=
// 2^36 comes first, whatever the kind; then an unknown kind is
// unsupported; then a zero-aware table's bounds C(N,k) < 2^24 and
// k!·S <= 2^36; then kind, ranking and entries. The vectors: 4x4 with 10
// tiles and 5x5 with 8 pass the first bound and fail k!·S; 5x5 with 9
// fails the first; 8x8 with 6 fails C(N,k).
func TestHeaderKindChecks(t *testing.T) {
	cases := []struct {
		w, h, k int
		kind    Kind
		ranking string
		class   string // "format" or "unsupported"
		msg     string
	}{
		{4, 4, 10, KindZeroAware, puzzle.RankingCellsetOrderRegion, "format", "the zero-aware table of 4x4 blank-last tiles 1,2,3,4,5,6,7,8,9,10 has 89333798400 entries, more than 68719476736"},
		{4, 4, 10, KindAdditive, puzzle.RankingCellsetOrder, "format", "entries 1, but pattern 4x4 blank-last tiles 1,2,3,4,5,6,7,8,9,10 has 29059430400"},
		{5, 5, 8, KindZeroAware, puzzle.RankingCellsetOrderRegion, "format", "the zero-aware table of 5x5 blank-last tiles 1,2,3,4,5,6,7,8 has 87358400640 entries, more than 68719476736"},
		{5, 5, 8, KindAdditive, puzzle.RankingCellsetOrder, "format", "entries 1, but pattern 5x5 blank-last tiles 1,2,3,4,5,6,7,8 has 43609104000"},
		{5, 5, 9, KindZeroAware, puzzle.RankingCellsetOrderRegion, "format", "9 tiles on a 5x5 board need more than 2^36 entries"},
		{5, 5, 9, "no-such-kind", puzzle.RankingCellsetOrderRegion, "format", "9 tiles on a 5x5 board need more than 2^36 entries"},
		{8, 8, 6, KindZeroAware, puzzle.RankingCellsetOrderRegion, "format", "cell sets (C(64,6)), zero-aware tables allow fewer than 2^24"},
		{4, 4, 3, "no-such-kind", puzzle.RankingCellsetOrder, "unsupported", `header: kind "no-such-kind" (this reader implements "exact", "additive" and "zero-aware")`},
		{8, 8, 6, "no-such-kind", puzzle.RankingCellsetOrder, "unsupported", `header: kind "no-such-kind"`},
		{8, 8, 5, KindZeroAware, puzzle.RankingCellsetOrderRegion, "format", "entries 1, but the zero-aware table of pattern 8x8 blank-last tiles 1,2,3,4,5 has 940502400"},
	}
	for _, c := range cases {
		g, err := puzzle.NewGeometry(c.w, c.h)
		if err != nil {
			t.Fatal(err)
		}
		h := &Header{Major: MajorVersion, Width: c.w, Height: c.h, Kind: c.kind, Ranking: c.ranking, RankingVersion: puzzle.RankingVersion, Entries: 1, BitsPerEntry: BitsPerEntry}
		for _, x := range puzzle.BlankLastGoal(g) {
			h.Goal = append(h.Goal, int(x))
		}
		for i := 1; i <= c.k; i++ {
			h.Tiles = append(h.Tiles, i)
		}
		d := &decoder{strict: true, v: versionOf(MajorVersion)}
		_, err = d.checkHeader(h)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%dx%d k=%d %s: %v, want %q", c.w, c.h, c.k, c.kind, err, c.msg)
			continue
		}
		if unsupported := errors.Is(err, errors.ErrUnsupported); unsupported != (c.class == "unsupported") || !errors.Is(err, ErrFormat) {
			t.Errorf("%dx%d k=%d %s: %T, want class %s", c.w, c.h, c.k, c.kind, err, c.class)
		}
	}
}

// TestHeaderNestingAndUnknownDuplicates (SPEC.md section 2 JSON rules 3
// and 7, issue 29 SPEC gaps 3 and 4): a header's unknown key may nest
// 10,000 deep but not 10,001, and duplicate keys inside its value are
// accepted (a set file refuses both: 64 levels, duplicates at any depth).
func TestHeaderNestingAndUnknownDuplicates(t *testing.T) {
	file := encode(t, mkTable(t, pdbtest.Pattern(t, 3, 2, "", 1, 2), 0, 1), 1)
	js, _ := split(t, file)
	with := func(value string) []byte {
		return withRawHeader(t, file, `{"x":`+value+`,`+string(js[1:]))
	}
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	cases := []struct {
		name, value, err string
	}{
		{"depth 10000", nest(9999), ""}, // the header object is level 1
		{"depth 10001", nest(10000), "exceeded max depth"},
		{"duplicates inside an unknown key", `{"a":1,"a":2}`, ""},
	}
	for _, c := range cases {
		f := with(c.value)
		_, err := Decode(bytes.NewReader(f), int64(len(f)))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v, want accepted", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || !errors.Is(err, ErrFormat)):
			t.Errorf("%s: %v, want a format error containing %q", c.name, err, c.err)
		}
	}
	if _, err := parseSetJSON([]byte(`{"x":{"a":1,"a":2}}`)); err == nil {
		t.Error("a set file with duplicate keys inside an unknown key's value is accepted")
	}
}

// TestSetPartTooLarge (SPEC.md section 10.3 step 7, issue 29 SPEC gap 5): a
// part whose tiles need more than 2^36 entries is refused as a set problem
// (exit 1) before its table is read: with the table missing the error is
// still the set's, not the missing file (which would be trouble, exit 2).
func TestSetPartTooLarge(t *testing.T) {
	dir := t.TempDir()
	js := `{"tilepdb_set":1,"width":5,"height":5,"goal":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,0],` +
		`"parts":[{"tiles":[1,2,3,4,5,6,7,8,9],"table":"missing.pdb","table_tiles":[1,2,3,4,5,6,7,8,9],"symmetry":"identity","tile_map":[1,2,3,4,5,6,7,8,9],"table_raw_sha256":"` + strings.Repeat("0", 64) + `"}]}`
	path := filepath.Join(dir, "big"+SetFileExt)
	if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := OpenSet(path)
	if !errors.Is(err, ErrSet) || errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "part 1: bad pattern: 9 tiles on a 5x5 board need more than 2^36 entries") {
		t.Errorf("OpenSet: %v, want a set error about part 1's 2^36 entries", err)
	}
	if _, probs := CheckSetFile(path); len(probs) != 1 || !errors.Is(probs[0], ErrSet) {
		t.Errorf("CheckSetFile: %v, want the one set error", probs)
	}
}

// TestSetOverlapNames (SPEC.md section 10.3 step 8, issue 29 SPEC gap 6):
// the overlap error names the first part (in order) that shares a tile
// with an earlier one, the earlier part holding the smallest of its shared
// tiles, and the tiles those two share (tile 3, held by part 2, is not listed).
func TestSetOverlapNames(t *testing.T) {
	pat := func(tiles ...uint8) *puzzle.Pattern { return pdbtest.Pattern(t, 3, 3, "", tiles...) }
	tb := func(p *puzzle.Pattern) *Table {
		tbl, err := NewTable(p, make([]uint8, p.Size()), "test")
		if err != nil {
			t.Fatal(err)
		}
		return tbl
	}
	var parts []Part
	for _, p := range []*puzzle.Pattern{pat(1, 2), pat(3, 4), pat(5), pat(2, 3, 6)} {
		parts = append(parts, Part{Pattern: p, Table: tb(p)})
	}
	_, err := checkParts([]string{"part 1", "part 2", "part 3", "part 4"}, parts, ErrSet)
	want := "part 4 (3x3 blank-last tiles 2,3,6) and part 1 (3x3 blank-last tiles 1,2) are not disjoint: both hold tile(s) 2"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("overlap: %v, want %q", err, want)
	}
}

// TestHeaderMembers: the header's walk over its members (jsonParser in
// skip mode) finds each member's end through escapes, brackets inside
// strings and numbers at the end of an object, and decodes escaped keys
// ("wid\u0074h" is width, so the real one is then a duplicate).
func TestHeaderMembers(t *testing.T) {
	file := encode(t, mkTable(t, pdbtest.Pattern(t, 3, 2, "", 1, 2), 0, 1), 1)
	js, _ := split(t, file)
	rest := string(js[1:])
	for _, c := range []struct{ name, js, err string }{
		{"escaped quote", `{"x":"a\"}b\\",` + rest, ""},
		{"brackets in strings", `{"x":{"a":"}]","b":["[{"]},` + rest, ""},
		{"number last", `{` + rest[:len(rest)-1] + `,"x":-1.5e3}`, ""},
		{"literals", `{"x":[true,false,null,{}],"y":{"z":[]},` + rest, ""},
		{"escaped key", `{"wid\u0074h":3,` + rest, `header: duplicate key "width"`},
	} {
		f := withRawHeader(t, file, c.js)
		tb, err := Decode(bytes.NewReader(f), int64(len(f)))
		switch {
		case c.err == "" && (err != nil || tb.Header.Width != 3 || tb.Header.Height != 2):
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want %q", c.name, err, c.err)
		}
	}
}
