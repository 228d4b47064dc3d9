package manifest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// writeTable builds the 3x3 blank-last table of tiles into dir/name and
// returns its manifest entry (from the table built, not from the file).
func writeTable(t *testing.T, dir, name string, tiles ...uint8) Entry {
	t.Helper()
	g, err := puzzle.NewGeometry(3, 3)
	if err != nil {
		t.Fatal(err)
	}
	p, err := puzzle.NewPattern(g, puzzle.BlankLastGoal(g), tiles)
	if err != nil {
		t.Fatal(err)
	}
	values, err := builder.Build(context.Background(), p, builder.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := format.NewTable(p, values, "manifest test")
	if err != nil {
		t.Fatal(err)
	}
	if err := format.WriteFile(filepath.Join(dir, name), tab, 1); err != nil {
		t.Fatal(err)
	}
	return FromHeader(name, &tab.Header)
}

func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	a := writeTable(t, dir, "a.pdb", 1, 2)
	b := writeTable(t, dir, "b.pdb", 3, 4)
	// "wrong.pdb" holds b's table: a valid file with another identity.
	writeTable(t, dir, "wrong.pdb", 3, 4)
	wrongWant := a
	wrongWant.Name = "wrong.pdb"
	// A file whose header is cut short, and one that is not a table.
	data, err := os.ReadFile(filepath.Join(dir, "a.pdb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cut.pdb"), data[:40], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "text.pdb"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.pdb"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Unlisted: a table, a non-table; ignored: other suffixes, temporary files.
	writeTable(t, dir, "extra.pdb", 5, 6)
	for _, n := range []string{"junk.pdb", "notes.txt", ".a.pdb.tmp-123", ".hidden.pdb"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cut, text, sub := a, a, a
	cut.Name, text.Name, sub.Name = "cut.pdb", "text.pdb", "sub.pdb"
	gone := b
	gone.Name = "gone.pdb"
	m, err := New([]Entry{b, a, wrongWant, gone, cut, text, sub})
	if err != nil {
		t.Fatal(err)
	}
	m.Path = "M.tsv"

	got, err := CheckDir(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name   string
		status Status
		reason string
		header bool
	}{
		{"b.pdb", OK, "", true},
		{"a.pdb", OK, "", true},
		{"wrong.pdb", Mismatch, "header says raw_sha256 " + b.RawSHA256 + " (manifest " + a.RawSHA256 + ")", true},
		{"gone.pdb", Missing, "no such file", false},
		{"cut.pdb", Corrupt, "tilepdb: invalid table file", false},
		{"text.pdb", Corrupt, "invalid table file", false},
		{"sub.pdb", Corrupt, "a directory, not a table file", false},
		{"extra.pdb", Unlisted, "not listed in M.tsv (a table: 72 entries, raw_sha256 ", true},
		{"junk.pdb", Unlisted, "not listed in M.tsv (and not a readable table: ", false},
	}
	if len(got) != len(want) {
		for _, g := range got {
			t.Logf("%s %s %s", g.Name, g.Status, g.Reason)
		}
		t.Fatalf("%d statuses, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.name || g.Status != w.status || !strings.Contains(g.Reason, w.reason) ||
			(g.Header != nil) != w.header || g.Path != filepath.Join(dir, w.name) || strings.Contains(g.Reason, "\n") ||
			(g.Status != Unlisted && strings.Contains(g.Reason, g.Path)) {
			t.Errorf("status %d = %s %s %q (header %v), want %s %s %q (header %v)",
				i, g.Name, g.Status, g.Reason, g.Header != nil, w.name, w.status, w.reason, w.header)
		}
		if (w.status == OK) != (g.Reason == "") {
			t.Errorf("%s: reason %q for status %s", g.Name, g.Reason, g.Status)
		}
		if w.status != Unlisted && g.Entry.Name != w.name {
			t.Errorf("%s: entry %+v", g.Name, g.Entry)
		}
	}
}

func TestCheckDirErrors(t *testing.T) {
	dir := t.TempDir()
	m, _ := New([]Entry{{Name: "a.pdb", Entries: 1, RawSHA256: shaA}})
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dir, msg string
	}{
		{filepath.Join(dir, "none"), "data folder " + filepath.Join(dir, "none") + ": "},
		{file, "data folder " + file + ": not a directory"},
	}
	for _, tt := range tests {
		_, err := CheckDir(tt.dir, m)
		var de *DirError
		if !errors.As(err, &de) || !strings.HasPrefix(err.Error(), tt.msg) || strings.Contains(err.Error(), "\n") {
			t.Errorf("CheckDir(%s): %v, want a *DirError %q...", tt.dir, err, tt.msg)
		}
	}
	if _, err := CheckDir(filepath.Join(dir, "none"), m); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing folder: %v does not match os.ErrNotExist", err)
	}
}

// TestCheckUnreadable: a table the process may not read is trouble
// (Unreadable), not bad data. Skipped where permissions do not apply.
func TestCheckUnreadable(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("permissions do not stop this user")
	}
	dir := t.TempDir()
	e := writeTable(t, dir, "a.pdb", 1, 2)
	if err := os.Chmod(filepath.Join(dir, "a.pdb"), 0); err != nil {
		t.Fatal(err)
	}
	if r := CheckFile(filepath.Join(dir, "a.pdb"), e); r.Status != Unreadable {
		t.Errorf("status %s (%s), want unreadable", r.Status, r.Reason)
	}
	sub := filepath.Join(dir, "locked")
	if err := os.Mkdir(sub, 0); err != nil {
		t.Fatal(err)
	}
	m, _ := New([]Entry{e})
	if _, err := CheckDir(sub, m); err == nil {
		t.Error("unreadable folder accepted")
	}
}
