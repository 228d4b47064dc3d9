package format_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestPlanSet: the plan of a set file and a table given directly says the
// memory of each table once, File reports what each path is, and Open
// gives the set OpenSet gives.
func TestPlanSet(t *testing.T) {
	dir := t.TempDir()
	pat := func(tiles ...uint8) *puzzle.Pattern { return pdbtest.Pattern(t, 4, 4, "", tiles...) }
	paths, _ := sharedSet(t, dir, []*puzzle.Pattern{pat(2, 3, 4), pat(5, 9, 13)})
	other := refTable(t, pat(1))
	direct := filepath.Join(dir, "one.pdb")
	if err := format.WriteFile(direct, other, 1); err != nil {
		t.Fatal(err)
	}
	// The set file, its table again (used once), and another table.
	plan := format.PlanSet(paths[0], paths[1], direct)
	var want uint64
	for _, p := range []string{paths[1], direct} {
		h, err := format.ReadHeaderFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want += h.DecodeMemory()
	}
	if got := plan.Memory(); got != want {
		t.Errorf("Memory = %d, want %d", got, want)
	}
	if h, sf, err := plan.File(0); h != nil || sf == nil || err != nil || len(sf.Parts) != 2 {
		t.Errorf("File(0) = %v, %v, %v; want the set file", h, sf, err)
	}
	if h, sf, err := plan.File(2); h == nil || sf != nil || err != nil || h.RawSHA256 != other.Header.RawSHA256 {
		t.Errorf("File(2) = %v, %v, %v; want the table's header", h, sf, err)
	}
	s, err := plan.Open()
	if err != nil {
		t.Fatal(err)
	}
	ref, err := format.OpenSet(paths[0], paths[1], direct)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Parts) != 3 || len(s.Parts) != len(ref.Parts) || len(s.Tables) != len(ref.Tables) {
		t.Fatalf("Open: %d parts, %d tables; OpenSet %d, %d", len(s.Parts), len(s.Tables), len(ref.Parts), len(ref.Tables))
	}
	b := puzzle.BlankLastGoal(s.Geom)
	b[0], b[1] = b[1], b[0]
	b[12], b[13] = b[13], b[12]
	h1, err1 := s.Lookup(b)
	h2, err2 := ref.Lookup(b)
	if h1 != h2 || err1 != nil || err2 != nil {
		t.Errorf("Lookup %s: plan %d %v, OpenSet %d %v", b, h1, err1, h2, err2)
	}
	if err := plan.CheckHeaders(); err != nil {
		t.Errorf("CheckHeaders: %v", err)
	}
}

// TestPlanSetProblems: a plan never fails; what it met is reported by
// Open (and File) as OpenSet reports it, a missing table counting 0 in
// Memory, and a set file that does not parse counting no table.
func TestPlanSetProblems(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.pdb")
	plan := format.PlanSet(missing)
	if plan.Memory() != 0 {
		t.Errorf("Memory of a missing table = %d, want 0", plan.Memory())
	}
	_, err := plan.Open()
	_, want := format.OpenSet(missing)
	if !errors.Is(err, fs.ErrNotExist) || err.Error() != want.Error() {
		t.Errorf("Open: %v, want %v", err, want)
	}
	if _, _, err := plan.File(0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("File: %v, want not exist", err)
	}
	bad := filepath.Join(dir, "bad"+format.SetFileExt)
	if err := os.WriteFile(bad, []byte(`{"tilepdb_set":1,"width":4}`), 0o644); err != nil {
		t.Fatal(err)
	}
	plan = format.PlanSet(bad)
	_, err = plan.Open()
	_, want = format.OpenSet(bad)
	if !errors.Is(err, format.ErrSet) || err.Error() != want.Error() || !strings.HasPrefix(err.Error(), bad+": ") {
		t.Errorf("Open: %v, want %v", err, want)
	}
	if _, sf, err := plan.File(0); sf != nil || err == nil || err.Error() != want.Error() {
		t.Errorf("File: %v, %v; want %v", sf, err, want)
	}
	if plan.Memory() != 0 {
		t.Errorf("Memory of a set file that does not parse = %d, want 0", plan.Memory())
	}
}
