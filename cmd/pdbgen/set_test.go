package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/preset"
	"github.com/tilepdb/tilepdb/puzzle"
)

// withSymPreset adds, for one test, a small preset whose two parts are
// symmetric (tiles 2,3,4 and their transpose 5,9,13 on the 4x4 board).
func withSymPreset(t *testing.T) {
	saved := preset.All
	preset.All = append(append([]preset.Preset(nil), saved...), preset.Preset{Name: "test-sym", Description: "test", W: 4, H: 4,
		Partition: [][]uint8{{2, 3, 4}, {5, 9, 13}, {14, 15}}})
	t.Cleanup(func() { preset.All = saved })
}

// TestBuildSetFile: a preset whose parts share tables builds one table per
// class and a set file; lookup, solve and verify take every path build
// printed (or the set file alone), and lookups equal those through tables
// built separately for every part, on random boards, for both goals.
func TestBuildSetFile(t *testing.T) {
	withSymPreset(t)
	for _, goal := range []string{puzzle.GoalBlankLast, puzzle.GoalBlankFirst} {
		dir := t.TempDir()
		r := pdbgen(t, "", "build", "--quiet", "-o", dir, "--preset", "test-sym", "--goal", goal)
		wantCode(t, r, 0)
		paths := lines(r.stdout)
		if len(paths) != 3 || !strings.HasSuffix(paths[2], format.SetFileExt) {
			t.Fatalf("%s: build printed %v, want 2 tables and a set file", goal, paths)
		}
		sep := pdbgen(t, "", "build", "--quiet", "-o", t.TempDir(), "--board", "4x4", "--goal", goal,
			"--tiles", "2,3,4", "--tiles", "5,9,13", "--tiles", "14,15")
		if goal == puzzle.GoalBlankFirst {
			sep = pdbgen(t, "", "build", "--quiet", "-o", t.TempDir(), "--board", "4x4", "--goal", goal,
				"--tiles", "13,14,12", "--tiles", "11,7,3", "--tiles", "2,1")
		}
		wantCode(t, sep, 0)
		g := puzzle.Geometry{W: 4, H: 4}
		gb, _ := puzzle.ParseGoal(goal, g)
		rng := rand.New(rand.NewPCG(3, 4))
		var in strings.Builder
		for range 200 {
			in.WriteString(pdbtest.RandomSolvable(rng, g, gb).String() + "\n")
		}
		want := pdbgen(t, in.String(), append([]string{"lookup"}, lines(sep.stdout)...)...)
		wantCode(t, want, 0)
		for _, args := range [][]string{paths, paths[2:], {paths[2], paths[0]}} {
			got := pdbgen(t, in.String(), append([]string{"lookup"}, args...)...)
			wantCode(t, got, 0)
			if got.stdout != want.stdout {
				t.Fatalf("%s: lookup through %v differs from separate tables", goal, args)
			}
		}
		near, _ := puzzle.ParseBoard(pdbtest.RandomWalk(rng, g, gb, 30).String(), 16)
		s1 := pdbgen(t, near.String()+"\n", append([]string{"solve", "--reflect"}, lines(sep.stdout)...)...)
		s2 := pdbgen(t, near.String()+"\n", append([]string{"solve", "--reflect", "-t", "2"}, paths...)...)
		wantCode(t, s2, 0)
		if s1.stdout != s2.stdout {
			t.Fatalf("%s: solve through the set:\n%s\nseparate tables:\n%s", goal, s2.stdout, s1.stdout)
		}
		v := pdbgen(t, "", append([]string{"verify", "--deep"}, paths...)...)
		wantCode(t, v, 0)
		if !strings.Contains(v.stdout, "3 parts through 2 tables") {
			t.Errorf("verify of the set:\n%v", v)
		}
	}
}

// TestBadSetFile: a set file whose symmetry does not map the goal cells,
// whose parts overlap, or whose table is for another board gives one error
// line and exit 1 in lookup, solve and verify alike.
func TestBadSetFile(t *testing.T) {
	withSymPreset(t)
	dir := t.TempDir()
	r := pdbgen(t, "", "build", "--quiet", "-o", dir, "--preset", "test-sym")
	wantCode(t, r, 0)
	setPath := lines(r.stdout)[2]
	other := pdbgen(t, "", "build", "--quiet", "-o", dir, "--board", "3x3", "--tiles", "1,2,3")
	wantCode(t, other, 0)
	var good format.SetFile
	if err := json.Unmarshal(readBytes(t, setPath), &good); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		edit func(sf *format.SetFile)
		want string
	}{
		{"wrong symmetry", func(sf *format.SetFile) { sf.Parts[1].Symmetry = "flip-lr" }, "not a goal cell"},
		{"overlap", func(sf *format.SetFile) { sf.Parts[2] = sf.Parts[1] }, "not disjoint"},
		{"other board", func(sf *format.SetFile) { sf.Parts[2].Table = "3x3_1-2-3.pdb" }, "3x3 board"},
	}
	for _, tc := range cases {
		sf := good
		sf.Parts = append([]format.SetPart(nil), good.Parts...)
		tc.edit(&sf)
		js, _ := json.Marshal(&sf)
		bad := filepath.Join(dir, "bad"+format.SetFileExt)
		if err := os.WriteFile(bad, js, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"lookup", "solve", "verify"} {
			r := pdbgen(t, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n", cmd, bad)
			wantCode(t, r, 1)
			if cmd == "verify" {
				if !strings.Contains(r.stdout, tc.want) || len(lines(r.stderr)) != 1 {
					t.Errorf("%s: verify:\n%v", tc.name, r)
				}
				continue
			}
			oneErrorLine(t, r, cmd, tc.want)
		}
	}
}
