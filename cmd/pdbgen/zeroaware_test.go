package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
)

// TestBuildZeroAware: build --zero-aware writes _za.pdb tables (and a
// _za.set.json for a preset whose parts share tables) that verify, lookup
// and solve read: lookup gives at least the plain tables' value, solve the
// same length with at most as many nodes. Bad combinations are one-line
// usage errors.
func TestBuildZeroAware(t *testing.T) {
	dir := t.TempDir()
	r := pdbgen(t, "", "build", "--board", "3x3", "--tiles", "1,2,3", "--tiles", "4-8", "--zero-aware", "-o", dir, "--quiet", "-j", "1")
	wantCode(t, r, 0)
	za := []string{filepath.Join(dir, "3x3_1-2-3_za.pdb"), filepath.Join(dir, "3x3_4-5-6-7-8_za.pdb")}
	if got := lines(r.stdout); !slices.Equal(got, za) {
		t.Fatalf("stdout %q, want %q", got, za)
	}
	wantCode(t, pdbgen(t, "", "build", "--board", "3x3", "--tiles", "1,2,3", "--tiles", "4-8", "-o", dir, "--quiet", "-j", "1"), 0)
	plain := []string{filepath.Join(dir, "3x3_1-2-3.pdb"), filepath.Join(dir, "3x3_4-5-6-7-8.pdb")}

	v := pdbgen(t, "", append([]string{"verify", "--deep"}, za...)...)
	wantCode(t, v, 0)
	checkedAligned(t, v.stdout)
	if !strings.Contains(v.stdout, "checked zero-aware ok") {
		t.Errorf("verify did not run the zero-aware check:\n%v", v)
	}

	boards := "8 7 6 5 4 3 2 1 0\n1 2 3 4 5 6 7 8 0\n0 1 2 3 4 5 6 7 8\n4 1 0 3 2 5 6 7 8\n"
	lz := pdbgen(t, boards, append([]string{"lookup"}, za...)...)
	lp := pdbgen(t, boards, append([]string{"lookup"}, plain...)...)
	wantCode(t, lz, 0)
	wantCode(t, lp, 0)
	zl, pl := lines(lz.stdout), lines(lp.stdout)
	if len(zl) != 4 || len(pl) != 4 {
		t.Fatalf("lookup:\n%v\n%v", lz, lp)
	}
	larger := false
	for i := range zl {
		_, zs, _ := strings.Cut(zl[i], "\t")
		_, ps, _ := strings.Cut(pl[i], "\t")
		zv, err1 := strconv.Atoi(zs)
		pv, err2 := strconv.Atoi(ps)
		if err1 != nil || err2 != nil || zv < pv {
			t.Fatalf("board %d: zero-aware %q, plain %q", i, zl[i], pl[i])
		}
		larger = larger || zv > pv
	}
	if !larger {
		t.Errorf("the zero-aware lookups never exceed the plain ones: %q %q", zl, pl)
	}

	sz := pdbgen(t, boards, append([]string{"solve", "--json"}, za...)...)
	sp := pdbgen(t, boards, append([]string{"solve", "--json"}, plain...)...)
	wantCode(t, sz, 0)
	wantCode(t, sp, 0)
	if len(lines(sz.stdout)) != 4 {
		t.Fatalf("solve:\n%v", sz)
	}
	for i, zs := range lines(sz.stdout) {
		ps := lines(sp.stdout)[i]
		if field(zs, "length") == "" || field(zs, "length") != field(ps, "length") || field(zs, "moves") != field(ps, "moves") {
			t.Errorf("board %d: zero-aware %s, plain %s", i, zs, ps)
		}
	}

	for _, args := range [][]string{
		{"build", "--board", "3x3", "--tiles", "1-8", "--zero-aware", "-o", dir},
		{"build", "--preset", "8puzzle", "--zero-aware", "-o", dir},
		{"build", "--board", "3x3", "--tiles", "1,2", "--zero-aware", "--if-needed", "-o", dir},
	} {
		r := pdbgen(t, "", args...)
		wantCode(t, r, 2)
		oneErrorLine(t, r, "build", "zero-aware")
	}
}

// field returns the raw JSON text of key in a one-line object (enough for
// numbers and strings without commas).
func field(js, key string) string {
	_, rest, ok := strings.Cut(js, `"`+key+`":`)
	if !ok {
		return ""
	}
	end := strings.IndexAny(rest, ",}")
	if end < 0 {
		return rest
	}
	return rest[:end]
}

// TestBuildFlagConflictsFirst: flags that do not go together are refused
// before anything is read or written: the one error line is the conflict,
// not what the manifest, the board or a shard folder would have said, and
// the output directory is not created.
func TestBuildFlagConflictsFirst(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.tsv")
	if err := os.WriteFile(bad, []byte("not a manifest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--zero-aware", "--manifest", bad}, "--zero-aware does not go with --manifest"},
		{[]string{"--zero-aware", "--manifest", filepath.Join(dir, "missing.tsv")}, "--zero-aware does not go with --manifest"},
		{[]string{"--zero-aware", "--if-needed", "--manifest", bad}, "--zero-aware does not go with --manifest"},
		{[]string{"--zero-aware", "--board", "9x9", "--tiles", "1", "--shards", "2"}, "--zero-aware does not go with --shards"},
		{[]string{"--zero-aware", "--resume", "--manifest", bad}, "--zero-aware does not go with"},
		{[]string{"--if-needed", "--shards", "2", "--manifest", bad}, "--if-needed does not go with --shards"},
		{[]string{"--if-needed", "--shard-dir", dir, "--board", "9x9", "--tiles", "1"}, "--if-needed does not go with"},
		// --shards 0 is not "the default count": it is refused as out of range.
		{[]string{"--shards", "0", "--preset", "8puzzle"}, "--shards must be 1 to"},
		{[]string{"--shards", "-1", "--preset", "8puzzle"}, "--shards must be 1 to"},
	} {
		r := pdbgen(t, "", append([]string{"build", "-o", out}, tc.args...)...)
		wantCode(t, r, exitTrouble)
		oneErrorLine(t, r, "build", tc.want)
		if r.stdout != "" {
			t.Errorf("%v: stdout %q", tc.args, r.stdout)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Fatalf("%v: the output directory was created (%v)", tc.args, err)
		}
	}
}

// TestPlanCataloguePreset: --preset 24-best plans its 11 zero-aware tables
// under the preset's names and one catalogue set file of 14 partitions
// (56 parts) through them, and refuses --if-needed with one line.
func TestPlanCataloguePreset(t *testing.T) {
	dir := t.TempDir()
	cfg, err := parseBuildFlags(&env{stderr: io.Discard}, []string{"--preset", "24-best", "-o", dir})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := planBuild(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.tables) != 11 || len(plan.sets) != 1 {
		t.Fatalf("%d tables, %d set files; want 11 and 1", len(plan.tables), len(plan.sets))
	}
	for _, pt := range plan.tables {
		if pt.kind != format.KindZeroAware || !strings.HasPrefix(pt.file, "24-best_") || !strings.HasSuffix(pt.file, "_za.pdb") {
			t.Errorf("table %s (kind %s)", pt.file, pt.kind)
		}
	}
	ps := plan.sets[0]
	if ps.File != "24-best.set.json" || !ps.Catalogue || len(ps.Partitions) != 14 || ps.Parts() != 56 {
		t.Errorf("set file %s: catalogue %v, %d partitions, %d parts", ps.File, ps.Catalogue, len(ps.Partitions), ps.Parts())
	}
	r := pdbgen(t, "", "build", "--preset", "24-best", "-o", dir, "--if-needed")
	wantCode(t, r, exitTrouble)
	oneErrorLine(t, r, "build", "--preset 24-best (zero-aware tables) does not go with --manifest or --if-needed")
}
