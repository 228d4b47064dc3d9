package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestVerifySetEveryProblem: verify of a set file reports every problem
// (here two parts, each wrong in its own way), then their count, instead
// of stopping at the first; --json lists them all.
func TestVerifySetEveryProblem(t *testing.T) {
	src := filepath.Join("..", "..", "readers", "testdata", "sets")
	dir := t.TempDir()
	for _, f := range []string{"good-a.set.json", "4x4_2-3-4.pdb"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "good-a.set.json" {
			s := strings.Replace(string(b), `"tile_map":[2,3,4]`, `"tile_map":[2,4,3]`, 1)
			b = []byte(strings.Replace(s, `"symmetry":"transpose"`, `"symmetry":"rot90"`, 1))
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The good set: its tables' rows and the set's row align.
	r := pdbgen(t, "", "verify", filepath.Join(src, "good-a.set.json"))
	wantCode(t, r, 0)
	checkedAligned(t, r.stdout)
	if !strings.Contains(r.stdout, "checked set") {
		t.Errorf("verify of a good set: no set row\n%v", r)
	}
	set := filepath.Join(dir, "good-a.set.json")
	r = pdbgen(t, "", "verify", set)
	wantCode(t, r, 1)
	for _, w := range []string{"part 1: tile_map [2 4 3]", "part 2 (tiles [5 9 13]) through table \"4x4_2-3-4.pdb\"", "\n2 findings\n"} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("verify: stdout lacks %q\n%v", w, r)
		}
	}
	r = pdbgen(t, "", "verify", "--json", set)
	wantCode(t, r, 1)
	var rep struct {
		OK       bool     `json:"ok"`
		Error    *string  `json:"error"`
		Problems []string `json:"problems"`
	}
	// "error" says why a file could not be checked (exit 2), as in a
	// table's report: absent when every problem is bad data.
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.OK || rep.Error != nil || len(rep.Problems) != 2 {
		t.Errorf("verify --json: %v %+v\n%v", err, rep, r)
	}
}

// TestVerifySetJSONDocumented: docs/ci.md's table of the verify --json object
// of a set file lists exactly the keys setReportJSON has, and the objects
// verify prints for the kit's good and broken set files (an additive set,
// a catalogue, bad data, a missing table) use every one of them and no
// other.
func TestVerifySetJSONDocumented(t *testing.T) {
	readme := string(readBytes(t, filepath.Join("..", "..", "docs", "ci.md")))
	start := strings.Index(readme, "gets one object of\nits own")
	end := strings.Index(readme, "`verify --manifest M --json DIR`")
	if start < 0 || end < start {
		t.Fatal("docs/ci.md: no section on the verify --json object of a set file before the one of --manifest")
	}
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|").FindAllStringSubmatch(readme[start:end], -1) {
		documented = append(documented, m[1])
	}
	var tags []string
	rt := reflect.TypeFor[setReportJSON]()
	for i := range rt.NumField() {
		tags = append(tags, strings.Split(rt.Field(i).Tag.Get("json"), ",")[0])
	}
	slices.Sort(documented)
	slices.Sort(tags)
	if !slices.Equal(documented, tags) {
		t.Errorf("docs/ci.md documents the keys %v of a set file's verify --json object, the code prints %v", documented, tags)
	}
	kit := filepath.Join("..", "..", "readers", "testdata", "sets")
	printed := map[string]bool{}
	for _, f := range []string{"good-a.set.json", "good-catalogue.set.json", "bad-overlap.set.json", "bad-table-missing.set.json"} {
		r := pdbgen(t, "", "verify", "--json", filepath.Join(kit, f))
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(r.stdout), &obj); err != nil {
			t.Fatalf("%s: %v\n%v", f, err, r)
		}
		for k := range obj {
			printed[k] = true
			if !slices.Contains(documented, k) {
				t.Errorf("%s: key %q printed, not in docs/ci.md", f, k)
			}
		}
	}
	for _, k := range documented {
		if !printed[k] {
			t.Errorf("docs/ci.md documents key %q, which no set file's object printed", k)
		}
	}
}
