package format

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
)

// TestWriteFileRemovesStaleTemps: the temporaries a killed writer leaves
// are removed by the next WriteFile into the directory; files that are not
// ours and fresh ones are kept (internal/atomicfile tests the lock that
// protects a live writer's file).
func TestWriteFileRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour - time.Minute)
	mk := func(name string, backdate bool) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if backdate {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	mk(".a.pdb.tmp-1234567", true) // killed writer of a.pdb
	mk(".b.pdb.tmp-42", true)      // killed writer of another table
	mk(".c.pdb.tmp-99", false)     // fresh: a writer may be about to lock it
	mk(".d.pdb.tmp-x", true)       // not our naming
	mk("e.pdb.tmp-1", true)        // not hidden: not ours
	mk(".f.pdb", true)             // not a temporary
	keep := []string{".c.pdb.tmp-99", ".d.pdb.tmp-x", "e.pdb.tmp-1", ".f.pdb", "t.pdb"}
	tb := mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2), 0, 1)
	if err := WriteFile(filepath.Join(dir, "t.pdb"), tb, 1); err != nil {
		t.Fatal(err)
	}
	got := dirNames(t, dir)
	slices.Sort(got)
	slices.Sort(keep)
	if !slices.Equal(got, keep) {
		t.Errorf("after WriteFile the directory holds %q, want %q", got, keep)
	}
}

func TestRemoveStaleTempsMissingDir(t *testing.T) {
	if _, err := RemoveStaleTemps(filepath.Join(t.TempDir(), "nope")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing directory: err = %v", err)
	}
}

// TestWriteErrorsNameTarget: errors of WriteFile and CheckWritable name
// the target, never the hidden temporary file.
func TestWriteErrorsNameTarget(t *testing.T) {
	dir := t.TempDir()
	tb := mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2), 0, 1)
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub.pdb")
	if err := os.MkdirAll(filepath.Join(sub, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{
		filepath.Join(dir, "missing", "t.pdb"),
		filepath.Join(notDir, "t.pdb"),
		sub,
	} {
		werr := WriteFile(path, tb, 1)
		cerr := CheckWritable(path)
		for what, err := range map[string]error{"WriteFile": werr, "CheckWritable": cerr} {
			if err == nil {
				t.Errorf("%s(%s) succeeded", what, path)
				continue
			}
			if msg := err.Error(); !strings.Contains(msg, path) || strings.Contains(msg, ".tmp-") {
				t.Errorf("%s(%s): %q does not name the target, or names the temporary", what, path, msg)
			}
		}
	}
	ok := filepath.Join(dir, "ok.pdb")
	if err := CheckWritable(ok); err != nil {
		t.Errorf("CheckWritable(%s) = %v", ok, err)
	}
	if names := dirNames(t, dir); len(names) != 2 {
		t.Errorf("CheckWritable left files behind: %v", names)
	}
}
