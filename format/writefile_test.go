package format

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
)

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

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.pdb")
	tb := mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2, 3, 4), 2048, 1)
	if err := WriteFile(path, tb, 2); err != nil {
		t.Fatal(err)
	}
	if names := dirNames(t, dir); len(names) != 1 || names[0] != "t.pdb" {
		t.Errorf("directory holds %v", names)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("stat: %v %v", fi.Mode(), err)
	}
	got, err := ReadFile(path)
	if err != nil || !bytes.Equal(got.Values, tb.Values) {
		t.Fatalf("ReadFile: %v", err)
	}
	want := encode(t, tb, 1)
	if b, _ := os.ReadFile(path); !bytes.Equal(b, want) {
		t.Error("file differs from Encode output")
	}

	// Relative path in the current directory.
	t.Chdir(dir)
	if err := WriteFile("rel.pdb", tb, 1); err != nil {
		t.Errorf("relative path: %v", err)
	}
}

func TestWriteFileFailures(t *testing.T) {
	dir := t.TempDir()
	good := mkTable(t, pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2, 3), 0, 1)
	path := filepath.Join(dir, "t.pdb")
	if err := WriteFile(path, good, 1); err != nil {
		t.Fatal(err)
	}
	orig, _ := os.ReadFile(path)

	// Inconsistent table: rejected before any file is created.
	bad := mkTable(t, good.Pattern, 0, 1)
	bad.Values[0]++
	if err := WriteFile(path, bad, 1); err == nil {
		t.Error("inconsistent table written")
	}
	// Failure inside Encode, after the temporary file exists.
	bad2 := mkTable(t, good.Pattern, 0, 2)
	bad2.Header.FrameSize = 10
	if err := WriteFile(path, bad2, 1); err == nil {
		t.Error("bad frame size written")
	}
	// Rename fails: the target is a non-empty directory.
	sub := filepath.Join(dir, "sub.pdb")
	if err := os.MkdirAll(filepath.Join(sub, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(sub, good, 1); err == nil {
		t.Error("wrote over a directory")
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, orig) {
		t.Error("existing file changed")
	}
	names := dirNames(t, dir)
	if len(names) != 2 {
		t.Errorf("temporary files left behind: %v", names)
	}

	// Missing directory, and a "directory" that is a regular file.
	for _, p := range []string{
		filepath.Join(dir, "missing", "t.pdb"),
		filepath.Join(path, "t.pdb"),
	} {
		if err := WriteFile(p, good, 1); err == nil {
			t.Errorf("%s: written", p)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Error("missing directory was created")
	}
	if got := dirNames(t, dir); len(got) != 2 {
		t.Errorf("directory holds %v", got)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, orig) {
		t.Error("existing file changed")
	}
}
