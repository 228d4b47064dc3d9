package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// The 15-663 tables (preset 15-663), copied from the repository's data/
// when it holds them, else built once per test binary.
var (
	cat663Once sync.Once
	cat663Dir  string
	cat663Err  error
)

// cat663Tables are the 15-663 tables and, for each, its tiles and those
// of its transposed use (the main-diagonal reflection of the blank-last
// 4x4 goal, which fixes the blank's cell).
var cat663Tables = []struct {
	file              string
	tiles, transposed []uint8
}{
	{"15-663_1-5-6-9-10-13.pdb", []uint8{1, 5, 6, 9, 10, 13}, []uint8{1, 2, 3, 4, 6, 7}},
	{"15-663_7-8-11-12-14-15.pdb", []uint8{7, 8, 11, 12, 14, 15}, []uint8{8, 10, 11, 12, 14, 15}},
	{"15-663_2-3-4.pdb", []uint8{2, 3, 4}, []uint8{5, 9, 13}},
}

// catalogue663 returns a folder holding the 15-663 tables and three set
// files through them: cat.set.json, a catalogue (version 2) of the
// identity partition and the transposed one; id.set.json and
// tr.set.json, the two partitions as additive set files (version 1).
func catalogue663(t *testing.T) string {
	t.Helper()
	cat663Once.Do(func() {
		dir := filepath.Join(filepath.Dir(fixture(t, fx8)), "cat663") // removed with the fixtures
		if cat663Err = os.MkdirAll(dir, 0o755); cat663Err != nil {
			return
		}
		copied := 0
		for _, tb := range cat663Tables {
			if b, err := os.ReadFile(filepath.Join("..", "..", "data", tb.file)); err == nil {
				if cat663Err = os.WriteFile(filepath.Join(dir, tb.file), b, 0o644); cat663Err != nil {
					return
				}
				copied++
			}
		}
		if copied < len(cat663Tables) {
			var out, errb strings.Builder
			if code := run(&env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb}, []string{"build", "--quiet", "-j", "2", "--preset", "15-663", "-o", dir}); code != 0 {
				cat663Err = fmt.Errorf("pdbgen build --preset 15-663: exit %d: %s", code, errb.String())
				return
			}
		}
		g := puzzle.Geometry{W: 4, H: 4}
		goal := puzzle.BlankLastGoal(g)
		var id, tr []format.SetPart
		for _, tb := range cat663Tables {
			table, err := format.ReadFile(filepath.Join(dir, tb.file))
			if err != nil {
				cat663Err = err
				return
			}
			for _, use := range []struct {
				tiles []uint8
				sym   puzzle.Symmetry
				dst   *[]format.SetPart
			}{{tb.tiles, puzzle.Identity, &id}, {tb.transposed, puzzle.Transpose, &tr}} {
				p, err := puzzle.NewPattern(g, goal, use.tiles)
				if err != nil {
					cat663Err = err
					return
				}
				sp, err := format.NewSetPart(p, table.Pattern, use.sym, tb.file, table.Header.RawSHA256)
				if err != nil {
					cat663Err = err
					return
				}
				*use.dst = append(*use.dst, sp)
			}
		}
		goalInts := make([]int, len(goal))
		for i, c := range goal {
			goalInts[i] = int(c)
		}
		for name, sf := range map[string]*format.SetFile{
			"cat": {Version: format.CatalogueVersion, Width: 4, Height: 4, Goal: goalInts, Partitions: [][]format.SetPart{id, tr}},
			"id":  {Version: format.SetVersion, Width: 4, Height: 4, Goal: goalInts, Parts: id},
			"tr":  {Version: format.SetVersion, Width: 4, Height: 4, Goal: goalInts, Parts: tr},
		} {
			if cat663Err = format.WriteSetFile(filepath.Join(dir, name+format.SetFileExt), sf); cat663Err != nil {
				return
			}
		}
		cat663Dir = dir
	})
	if cat663Err != nil {
		t.Fatalf("15-663 catalogue: %v", cat663Err)
	}
	return cat663Dir
}

// TestLookupCatalogue: lookup through the 15-663 catalogue (identity and
// transposed partitions) answers each board with the larger of the two
// additive sets' values, looked up separately through their own (version
// 1) set files; an unsolvable board is "unsolvable" as for any set.
func TestLookupCatalogue(t *testing.T) {
	dir := catalogue663(t)
	id, err := format.OpenSet(filepath.Join(dir, "id"+format.SetFileExt))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := format.OpenSet(filepath.Join(dir, "tr"+format.SetFileExt))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(18, 663))
	var in strings.Builder
	var want []string
	idWins, trWins := 0, 0
	for i := range 400 {
		b := pdbtest.RandomSolvable(rng, id.Geom, id.Goal)
		if i == 0 {
			b = id.Goal
		}
		a, err := id.Lookup(b)
		if err != nil {
			t.Fatal(err)
		}
		c, err := tr.Lookup(b)
		if err != nil {
			t.Fatal(err)
		}
		if a > c {
			idWins++
		} else if c > a {
			trWins++
		}
		fmt.Fprintln(&in, b)
		want = append(want, b.String()+"\t"+strconv.Itoa(max(a, c)))
	}
	unsolvable := "2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0"
	fmt.Fprintln(&in, unsolvable)
	want = append(want, unsolvable+"\tunsolvable")
	if idWins == 0 || trWins == 0 {
		t.Fatalf("identity larger on %d boards, transposed on %d: the maximum is not tested", idWins, trWins)
	}
	r := pdbgen(t, in.String(), "lookup", filepath.Join(dir, "cat"+format.SetFileExt))
	wantCode(t, r, 0)
	if got := lines(r.stdout); strings.Join(got, "\n") != strings.Join(want, "\n") {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("line %d: got %q, want %q (max of the two set files)", i+1, got[i], want[i])
			}
		}
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	// the catalogue with the tables it names (as pdbgen build prints
	// them) is the same catalogue; with a table it does not name, refused
	paths := []string{filepath.Join(dir, "cat"+format.SetFileExt)}
	for _, tb := range cat663Tables {
		paths = append(paths, filepath.Join(dir, tb.file))
	}
	r = pdbgen(t, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n", append([]string{"lookup"}, paths...)...)
	wantCode(t, r, 0)
	if r.stdout != "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\t1\n" {
		t.Errorf("lookup of the catalogue and its tables:\n%v", r)
	}
	r = pdbgen(t, "", "lookup", paths[0], filepath.Join(dir, "id"+format.SetFileExt))
	wantCode(t, r, 1)
	oneErrorLine(t, r, "lookup", "a catalogue (set file version 2) is a whole heuristic and is used alone, not with "+filepath.Join(dir, "id"+format.SetFileExt))
}

// TestVerifyCatalogue: verify of a good catalogue lists its partitions and
// parts; of a broken one, every problem of every partition, then their
// count (text and --json), as for a set file of version 1.
func TestVerifyCatalogue(t *testing.T) {
	dir := catalogue663(t)
	cat := filepath.Join(dir, "cat"+format.SetFileExt)
	r := pdbgen(t, "", "verify", cat)
	wantCode(t, r, 0)
	checkedAligned(t, r.stdout)
	for _, w := range []string{
		cat + ": set file, catalogue, 4x4 board, 2 partitions of 6 parts (6 distinct) through 3 tables\n",
		"  partition 1 part 1: tiles 1,5,6,9,10,13 through identity of table 1,5,6,9,10,13\n",
		"  partition 2 part 3: tiles 5,9,13 through transpose of table 2,3,4\n",
		"checked set",
		"\n0 findings\n",
	} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("verify: stdout lacks %q\n%v", w, r)
		}
	}
	r = pdbgen(t, "", "verify", "--json", cat)
	wantCode(t, r, 0)
	var rep struct {
		OK         bool     `json:"ok"`
		Partitions int      `json:"partitions"`
		Parts      int      `json:"parts"`
		Tables     int      `json:"tables"`
		Problems   []string `json:"problems"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || !rep.OK || rep.Partitions != 2 || rep.Parts != 6 || rep.Tables != 3 {
		t.Errorf("verify --json: %v %+v\n%v", err, rep, r)
	}

	// Three problems: partition 1 part 3's recorded SHA-256, partition 2
	// part 1's symmetry, partition 2's overlap of the parts that pass.
	b := readBytes(t, cat)
	var sf format.SetFile
	if err := json.Unmarshal(b, &sf); err != nil {
		t.Fatal(err)
	}
	sf.Partitions[0][2].RawSHA256 = strings.Repeat("0", 64)
	sf.Partitions[1][0].Symmetry = "rot90"
	sf.Partitions[1][2] = sf.Partitions[1][1] // a repeated part: overlaps part 2
	bad := filepath.Join(dir, "bad"+format.SetFileExt)
	if err := format.WriteSetFile(bad, &sf); err != nil {
		t.Fatal(err)
	}
	r = pdbgen(t, "", "verify", bad)
	wantCode(t, r, 1)
	for _, w := range []string{
		bad + ": tilepdb: invalid set: partition 1 part 3: table \"15-663_2-3-4.pdb\" has raw_sha256 ",
		bad + ": partition 2 part 1 (tiles [1 2 3 4 6 7]) through table \"15-663_1-5-6-9-10-13.pdb\": tilepdb: invalid set: bad symmetry: rot90",
		"tilepdb: invalid set: " + bad + " partition 2 part 3 (4x4 blank-last tiles 8,10,11,12,14,15) and " + bad + " partition 2 part 2 (4x4 blank-last tiles 8,10,11,12,14,15) are not disjoint",
		"\n3 findings\n",
	} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("verify: stdout lacks %q\n%v", w, r)
		}
	}
	r = pdbgen(t, "", "verify", "--json", bad)
	wantCode(t, r, 1)
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.OK || len(rep.Problems) != 3 {
		t.Errorf("verify --json: %v %+v\n%v", err, rep, r)
	}
}

// TestVerifyCatalogueDeep: verify --deep of the kit's catalogues compares
// every part looked up through a symmetry (plain and zero-aware tables)
// with a direct build of the part's own pattern.
func TestVerifyCatalogueDeep(t *testing.T) {
	kit := filepath.Join("..", "..", "readers", "testdata", "sets")
	for _, f := range []string{"good-catalogue.set.json", "good-catalogue-zero-aware.set.json"} {
		r := pdbgen(t, "", "verify", "--deep", filepath.Join(kit, f))
		wantCode(t, r, 0)
		if !strings.Contains(r.stdout, "checked set, deep") || !strings.Contains(r.stdout, "\n0 findings\n") {
			t.Errorf("verify --deep %s:\n%v", f, r)
		}
	}
}
