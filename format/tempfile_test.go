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

// TestWriteFileRemovesStaleTemps: WriteFile goes through
// internal/atomicfile, so a temporary a killed writer left next to the
// target is removed (the full matrix of stale, fresh, foreign and locked
// files is tested in internal/atomicfile).
func TestWriteFileRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".a.pdb.tmp-1234567")
	if err := os.WriteFile(stale, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour - time.Minute)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	tb := mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2), 0, 1)
	if err := WriteFile(filepath.Join(dir, "t.pdb"), tb, 1); err != nil {
		t.Fatal(err)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"t.pdb"}) {
		t.Errorf("after WriteFile the directory holds %q, want only t.pdb", got)
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
