package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWriteRemovesStaleTemps: the temporaries a killed writer leaves
// are removed by the next Write into the directory; files that are not
// ours, fresh ones and (where there is flock) ones a live writer holds are
// kept.
func TestWriteRemovesStaleTemps(t *testing.T) {
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
	if runtime.GOOS == "linux" || runtime.GOOS == "darwin" {
		live := mk(".live.pdb.tmp-7", true) // a concurrent writer holds it
		f, err := os.OpenFile(live, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		lockTemp(f)
		keep = append(keep, ".live.pdb.tmp-7")
	}
	if err := Write(filepath.Join(dir, "t.pdb"), 0o644, fillX); err != nil {
		t.Fatal(err)
	}
	got := dirNames(t, dir)
	slices.Sort(got)
	slices.Sort(keep)
	if !slices.Equal(got, keep) {
		t.Errorf("after Write the directory holds %q, want %q", got, keep)
	}
}

func TestRemoveStaleTempsMissingDir(t *testing.T) {
	if _, err := RemoveStaleTemps(filepath.Join(t.TempDir(), "nope")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing directory: err = %v", err)
	}
}

// TestWriteErrorsNameTarget: errors of Write and CheckWritable name the
// target, never the hidden temporary file.
func TestWriteErrorsNameTarget(t *testing.T) {
	dir := t.TempDir()
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
		werr := Write(path, 0o644, fillX)
		cerr := CheckWritable(path)
		for what, err := range map[string]error{"Write": werr, "CheckWritable": cerr} {
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

// fillX writes one byte.
func fillX(w io.Writer) error {
	_, err := io.WriteString(w, "x")
	return err
}

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}
