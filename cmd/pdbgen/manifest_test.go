package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/format"
)

// readManifestFile parses a manifest written by --write-manifest.
func manifestLines(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); !strings.HasPrefix(l, "#") && l != "" {
			out = append(out, strings.Split(l, "\t"))
		}
	}
	return out
}

// TestBuildManifest: --write-manifest records the tables; --manifest accepts
// them again; a wrong SHA-256 exits 1, says which table differs, and leaves
// the good file in place.
func TestBuildManifest(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	man := filepath.Join(dir, "MANIFEST.tsv")
	r := pdbgen(t, "", "build", "--quiet", "-o", out, "--write-manifest", man,
		"--board", "3x3", "--tiles", "1,2,3", "--tiles", "4,5,6")
	wantCode(t, r, 0)
	ml := manifestLines(t, man)
	if len(ml) != 2 {
		t.Fatalf("manifest has %d lines: %v", len(ml), ml)
	}
	for i, f := range []string{"3x3_1-2-3.pdb", "3x3_4-5-6.pdb"} {
		tab, err := format.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{f, "504", strconv.Itoa(tab.Header.MaxValue), tab.Header.RawSHA256}
		if strings.Join(ml[i], "\t") != strings.Join(want, "\t") {
			t.Errorf("manifest line %d = %q, want %q", i+1, ml[i], want)
		}
	}
	if got := dirEntries(t, dir); strings.Join(got, " ") != "MANIFEST.tsv out" {
		t.Errorf("temp dir holds %v (leftover temporary manifest?)", got)
	}

	// The manifest passes.
	r = pdbgen(t, "", "build", "--quiet", "-o", out, "--manifest", man,
		"--board", "3x3", "--tiles", "1,2,3", "--tiles", "4,5,6")
	wantCode(t, r, 0)
	if len(lines(r.stdout)) != 2 || r.stderr != "" {
		t.Errorf("manifest check:\n%v", r)
	}

	// A wrong SHA-256 for the second table: the first is written, the
	// second is not, and the file already there is left alone.
	good := filepath.Join(out, "3x3_4-5-6.pdb")
	goodBytes := readBytes(t, good)
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := os.Chtimes(good, old, old); err != nil {
		t.Fatal(err)
	}
	stBefore, err := os.Stat(good)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.tsv")
	data := string(readBytes(t, man))
	wrongSHA := strings.Repeat("0", 64)
	data = strings.Replace(data, ml[1][3], wrongSHA, 1)
	if err := os.WriteFile(bad, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	r = pdbgen(t, "", "build", "--quiet", "-o", out, "--manifest", bad,
		"--board", "3x3", "--tiles", "1,2,3", "--tiles", "4,5,6")
	wantCode(t, r, 1)
	if r.stdout != filepath.Join(out, "3x3_1-2-3.pdb")+"\n" {
		t.Errorf("stdout should list only the table that matched:\n%v", r)
	}
	el := lines(r.stderr)
	if len(el) != 2 {
		t.Fatalf("want 2 stderr lines (the mismatch and the summary):\n%v", r)
	}
	if !strings.HasPrefix(el[0], "3x3_4-5-6.pdb: differs from manifest") || !strings.Contains(el[0], wrongSHA) ||
		!strings.Contains(el[0], ml[1][3]) || !strings.Contains(el[0], "not written") {
		t.Errorf("mismatch line %q", el[0])
	}
	if el[1] != "pdbgen build: 1 table(s) differ from the manifest" {
		t.Errorf("summary line %q", el[1])
	}
	stAfter, err := os.Stat(good)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(stBefore, stAfter) || !stAfter.ModTime().Equal(old) {
		t.Error("the good file was replaced despite the manifest mismatch")
	}
	if !bytes.Equal(goodBytes, readBytes(t, good)) {
		t.Error("the good file's bytes changed")
	}
	if got := dirEntries(t, out); len(got) != 2 {
		t.Errorf("output directory holds %v", got)
	}
}

func TestBuildManifestProblems(t *testing.T) {
	const sha = "0000000000000000000000000000000000000000000000000000000000000000"
	tests := []struct {
		name     string
		manifest string
		code     int
		stderr   string
	}{
		{"not in manifest", "# only another table\nother.pdb\t1\t0\t" + sha + "\n", 1, "3x3_1-2-3.pdb: not in manifest"},
		{"wrong entries", "3x3_1-2-3.pdb 505 11 001c6b7247e7595d254f2a29b3406fa4d99f6712e4cf0d15e83eea13d928cbe5\n", 1, "differs from manifest"},
		{"wrong max", "3x3_1-2-3.pdb 504 12 001c6b7247e7595d254f2a29b3406fa4d99f6712e4cf0d15e83eea13d928cbe5\n", 1, "differs from manifest"},
		{"three fields", "3x3_1-2-3.pdb\t504\t11\n", 1, "m.tsv:1: want 4 columns (file, entries, max value, raw SHA-256), got 3"},
		{"bad number", "3x3_1-2-3.pdb\tmany\t11\t" + sha + "\n", 1, `m.tsv:1: entries "many": want a whole number >= 1`},
		{"short sha", "3x3_1-2-3.pdb\t504\t11\tabc\n", 1, `m.tsv:1: raw SHA-256 "abc": want 64 lowercase hex digits`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			man := filepath.Join(dir, "m.tsv")
			if err := os.WriteFile(man, []byte(tt.manifest), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			r := pdbgen(t, "", "build", "--quiet", "-o", out, "--manifest", man, "--board", "3x3", "--tiles", "1,2,3")
			wantCode(t, r, tt.code)
			if !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("stderr does not contain %q:\n%v", tt.stderr, r)
			}
			if !strings.HasPrefix(lines(r.stderr)[len(lines(r.stderr))-1], "pdbgen build: ") {
				t.Errorf("last stderr line is not the error:\n%v", r)
			}
			if r.stdout != "" {
				t.Errorf("stdout:\n%v", r)
			}
			for _, f := range dirEntries(t, out) {
				t.Errorf("%s written despite the manifest problem", f)
			}
		})
	}
}

// TestBuildMatchesRepoManifest checks fresh builds against the committed
// data/MANIFEST.tsv: the 8puzzle preset directly, and the 15-663 {2,3,4}
// table built as a custom pattern (same table, another file name).
func TestBuildMatchesRepoManifest(t *testing.T) {
	repo := filepath.Join("..", "..", "data", "MANIFEST.tsv")
	if _, err := os.Stat(repo); err != nil {
		t.Skipf("no repository manifest: %v", err)
	}
	dir := t.TempDir()
	r := pdbgen(t, "", "build", "--quiet", "-o", dir, "--manifest", repo, "--preset", "8puzzle")
	wantCode(t, r, 0)

	var line []string
	for _, l := range manifestLines(t, repo) {
		if l[0] == "15-663_2-3-4.pdb" {
			line = l
		}
	}
	if line == nil {
		t.Skip("15-663_2-3-4.pdb not in the repository manifest")
	}
	line[0] = "4x4_2-3-4.pdb"
	man := filepath.Join(dir, "m.tsv")
	if err := os.WriteFile(man, []byte(strings.Join(line, "\t")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = pdbgen(t, "", "build", "--quiet", "-o", dir, "--manifest", man, "--board", "4x4", "--tiles", "2,3,4")
	wantCode(t, r, 0)
	if r.stdout != filepath.Join(dir, "4x4_2-3-4.pdb")+"\n" {
		t.Errorf("stdout:\n%v", r)
	}
}

// TestWriteManifestFails: the tables are built and listed, but a manifest
// that cannot be written is I/O trouble (exit 2) on one line, with no
// temporary file left.
func TestWriteManifestFails(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// The manifest path cannot be written: build says so before any
	// search (no "building" line), naming the path, and writes nothing.
	out := filepath.Join(dir, "out")
	target := filepath.Join(plain, "m.tsv")
	r := pdbgen(t, "", "build", "-o", out, "--board", "3x3", "--tiles", "1,2,3", "--write-manifest", target)
	wantCode(t, r, 2)
	oneErrorLine(t, r, "build", "cannot write "+target+": not a directory (nothing built)")
	if r.stdout != "" {
		t.Errorf("stdout:\n%v", r)
	}
	if got := dirEntries(t, out); len(got) != 0 {
		t.Errorf("output directory holds %v", got)
	}
	// The same for a table file that cannot be written (a directory is in
	// its place) and a manifest path that is a directory.
	if err := os.MkdirAll(filepath.Join(out, "3x3_4-5-6.pdb", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	r = pdbgen(t, "", "build", "-o", out, "--board", "3x3", "--tiles", "1,2,3", "--tiles", "4-6")
	wantCode(t, r, 2)
	oneErrorLine(t, r, "build", "cannot write "+filepath.Join(out, "3x3_4-5-6.pdb")+": is a directory")
	r = pdbgen(t, "", "build", "-o", out, "--board", "3x3", "--tiles", "1,2,3", "--write-manifest", out)
	wantCode(t, r, 2)
	oneErrorLine(t, r, "build", "cannot write "+out+": is a directory")
	if got := dirEntries(t, out); strings.Join(got, " ") != "3x3_4-5-6.pdb" {
		t.Errorf("output directory holds %v", got)
	}
	if strings.Contains(r.stderr, ".tmp-") {
		t.Errorf("error names a temporary file: %v", r)
	}
}
