package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// smallSet writes, into a fresh folder, the manifest of the 3x3 tables
// {1,2,3} and {4,5,6} (made by build --write-manifest) and returns the
// manifest path and an empty output folder inside dir.
func smallSet(t *testing.T) (dir, man, out string) {
	t.Helper()
	dir = t.TempDir()
	man = filepath.Join(dir, "MANIFEST.tsv")
	r := pdbgen(t, "", "build", "--quiet", "-j", "2", "-o", filepath.Join(dir, "first"), "--write-manifest", man,
		"--board", "3x3", "--tiles", "1,2,3", "--tiles", "4,5,6")
	wantCode(t, r, 0)
	return dir, man, filepath.Join(dir, "out")
}

// stamp sets an old modification time on path and returns its FileInfo,
// to tell later whether the file was replaced.
func stamp(t *testing.T, path string) os.FileInfo {
	t.Helper()
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func untouched(t *testing.T, path string, before os.FileInfo, data []byte) {
	t.Helper()
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) || !bytes.Equal(readBytes(t, path), data) {
		t.Errorf("%s was replaced or changed", path)
	}
}

// TestBuildIfNeeded: the first run builds the tables the manifest lists,
// the second keeps them untouched, a damaged or foreign file is rebuilt
// with the reason, and each run says per table what it did.
func TestBuildIfNeeded(t *testing.T) {
	_, man, out := smallSet(t)
	a, b := filepath.Join(out, "3x3_1-2-3.pdb"), filepath.Join(out, "3x3_4-5-6.pdb")
	build := func() result {
		return pdbgen(t, "", "build", "--if-needed", "--quiet", "-j", "2", "--manifest", man, "-o", out)
	}

	r := build()
	wantCode(t, r, 0)
	if want := "built " + a + ": missing\nbuilt " + b + ": missing\n"; r.stdout != want || r.stderr != "" {
		t.Errorf("first run:\n%v\nwant stdout:\n%s", r, want)
	}

	sa, sb := stamp(t, a), stamp(t, b)
	da, db := readBytes(t, a), readBytes(t, b)
	r = build()
	wantCode(t, r, 0)
	want := "kept " + a + ": header matches " + man + ":2, verified\nkept " + b + ": header matches " + man + ":3, verified\n"
	if r.stdout != want || r.stderr != "" {
		t.Errorf("second run:\n%v\nwant stdout:\n%s", r, want)
	}
	untouched(t, a, sa, da)
	untouched(t, b, sb, db)

	damaged := func(how string) string { // a damaged copy of the good table a
		src := filepath.Join(t.TempDir(), "3x3_1-2-3.pdb")
		if err := os.WriteFile(src, da, 0o644); err != nil {
			t.Fatal(err)
		}
		return corrupt(t, t.TempDir(), src, how)
	}
	// Damage: a flipped payload byte (the header still reads), a file cut
	// short, the table of another goal under this name, text.
	for _, c := range []struct {
		name   string
		damage func()
		reason string
	}{
		{"payload", func() { copyFile(t, damaged("payload"), a) }, "because verify found "},
		{"truncated", func() { copyFile(t, damaged("truncated"), a) }, "because its header does not read: tilepdb: invalid table file at byte "},
		{"truncated header", func() { copyFile(t, damaged("truncated-header"), a) }, "because its header does not read: "},
		{"other goal", func() { copyFile(t, fixture(t, fx123bf), a) }, "because it holds a table for goal 0,1,2,3,4,5,6,7,8 (blank-first), not blank-last"},
		{"other tiles", func() { copyFile(t, b, a) }, "because it holds tiles 4,5,6, not 1,2,3"},
		{"other board", func() { copyFile(t, fixture(t, fx8), a) }, "because it holds tiles 1,2,3,4,5,6,7,8, not 1,2,3"},
		{"text", func() { copyFile(t, damaged("text"), a) }, "because its header does not read: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.damage()
			sb := stamp(t, b)
			r := build()
			wantCode(t, r, 0)
			l := lines(r.stdout)
			if len(l) != 2 || !strings.HasPrefix(l[0], "replaced "+a+" "+c.reason) || !strings.HasPrefix(l[1], "kept "+b+":") {
				t.Errorf("stdout should say %q:\n%v", "replaced "+a+" "+c.reason, r)
			}
			if !bytes.Equal(readBytes(t, a), da) {
				t.Error("the replaced file differs from the first build")
			}
			untouched(t, b, sb, db)
		})
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.WriteFile(dst, readBytes(t, src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBuildIfNeededNeverWorse: when the table built does not match the
// manifest, nothing is written: neither over a good file nor over a bad
// one, and the exit status is 1.
func TestBuildIfNeededNeverWorse(t *testing.T) {
	dir, man, out := smallSet(t)
	r := pdbgen(t, "", "build", "--if-needed", "--quiet", "--manifest", man, "-o", out)
	wantCode(t, r, 0)
	a := filepath.Join(out, "3x3_1-2-3.pdb")
	da := readBytes(t, a)
	sa := stamp(t, a)
	text := string(readBytes(t, man))
	l := strings.Split(text, "\n")
	sha := strings.Fields(l[1])[3]
	wrongSHA := strings.Repeat("a", 64)
	bad := filepath.Join(dir, "bad.tsv")
	if err := os.WriteFile(bad, []byte(strings.Replace(text, sha, wrongSHA, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r = pdbgen(t, "", "build", "--if-needed", "--quiet", "--manifest", bad, "-o", out)
	wantCode(t, r, 1)
	sl := lines(r.stdout)
	if len(sl) != 2 || !strings.HasPrefix(sl[0], "failed "+a+": differs from manifest "+bad+":2: raw_sha256 "+sha+" (manifest "+wrongSHA+") (not written)") {
		t.Errorf("stdout:\n%v", r)
	}
	oneErrorLine(t, r, "build", "1 table(s) differ from the manifest")
	untouched(t, a, sa, da)

	// A damaged file stays as it is too: nothing better to put there.
	copyFile(t, corrupt(t, t.TempDir(), a, "payload"), a)
	dd := readBytes(t, a)
	sd := stamp(t, a)
	r = pdbgen(t, "", "build", "--if-needed", "--quiet", "--manifest", bad, "-o", out)
	wantCode(t, r, 1)
	untouched(t, a, sd, dd)
}

// TestBuildIfNeededJSON: one object per table, with the action, the
// manifest line, the identity and the verify report.
func TestBuildIfNeededJSON(t *testing.T) {
	_, man, out := smallSet(t)
	if r := pdbgen(t, "", "build", "--if-needed", "--quiet", "--manifest", man, "-o", out, "--tiles", "1-3", "--board", "3x3"); r.code != 0 {
		t.Fatalf("%v", r)
	}
	r := pdbgen(t, "", "build", "--if-needed", "--quiet", "--json", "--manifest", man, "-o", out)
	wantCode(t, r, 0)
	l := lines(r.stdout)
	if len(l) != 2 || r.stderr != "" {
		t.Fatalf("want 2 JSON lines:\n%v", r)
	}
	wantActions := []string{"kept", "built"}
	for i, line := range l {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, line)
		}
		for _, k := range []string{"version", "file", "action", "reason", "manifest", "entries", "max_value", "raw_sha256", "seconds", "verify"} {
			if _, ok := m[k]; !ok {
				t.Errorf("line %d lacks %q: %s", i+1, k, line)
			}
		}
		if m["version"] != 1.0 || m["action"] != wantActions[i] || m["entries"] != 504.0 ||
			m["manifest"] != man+":"+[]string{"2", "3"}[i] || len(m["raw_sha256"].(string)) != 64 {
			t.Errorf("line %d: %s", i+1, line)
		}
		v := m["verify"].(map[string]any)
		if v["ok"] != true || v["file"] != m["file"] || len(v["checks"].([]any)) == 0 {
			t.Errorf("line %d verify: %v", i+1, v)
		}
	}
}

// TestBuildIfNeededBadInput: every bad input gets one error line naming
// the file (and line), the right exit status, and nothing is written.
func TestBuildIfNeededBadInput(t *testing.T) {
	dir := t.TempDir()
	sha := strings.Repeat("0", 64)
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	file := write("plain", "")
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"missing manifest", []string{"--manifest", filepath.Join(dir, "none.tsv")}, 2, "manifest: open " + filepath.Join(dir, "none.tsv") + ": "},
		{"manifest is a folder", []string{"--manifest", dir}, 2, "manifest: " + dir + ": not a regular file (a directory)"}, // docs/commands.md: trouble, not bad data
		{"three columns", []string{"--manifest", write("m3.tsv", "# c\n3x3_1-2-3.pdb\t504\t11\n")}, 1, "manifest " + filepath.Join(dir, "m3.tsv") + ":2: want 4 columns"},
		{"bad hash", []string{"--manifest", write("mh.tsv", "3x3_1-2-3.pdb 504 11 XYZ\n")}, 1, "mh.tsv:1: raw SHA-256 \"XYZ\": want 64 lowercase hex digits"},
		{"bad number", []string{"--manifest", write("mn.tsv", "3x3_1-2-3.pdb many 11 "+sha+"\n")}, 1, "mn.tsv:1: entries \"many\""},
		{"duplicate", []string{"--manifest", write("md.tsv", "3x3_1-2-3.pdb 504 11 "+sha+"\n3x3_1-2-3.pdb 504 11 "+sha+"\n")}, 1, "md.tsv:2: 3x3_1-2-3.pdb listed twice (first on line 1)"},
		{"empty", []string{"--manifest", write("me.tsv", "# nothing\n")}, 1, "me.tsv: lists no tables"},
		{"unknown preset", []string{"--manifest", write("mp.tsv", "15-999_1-2.pdb 1 0 "+sha+"\n")}, 1, "manifest " + filepath.Join(dir, "mp.tsv") + ":1: 15-999_1-2.pdb names preset \"15-999\", which does not exist"},
		{"not a preset table", []string{"--manifest", write("mt.tsv", "15-555_1-2-3.pdb 1 0 "+sha+"\n")}, 1, "mt.tsv:1: 15-555_1-2-3.pdb is not a table of preset 15-555"},
		{"output is a file", []string{"--manifest", write("ok.tsv", "3x3_1-2-3.pdb 504 11 "+sha+"\n"), "-o", file}, 2, "output directory: "},
		{"goal without targets", []string{"--manifest", filepath.Join(dir, "ok.tsv"), "--goal", "blank-first"}, 2, "--goal needs --preset or --board"},
		{"not in manifest", []string{"--manifest", filepath.Join(dir, "ok.tsv"), "--board", "3x3", "--tiles", "4-6"}, 1, "1 table(s) differ from the manifest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"build", "--if-needed", "--quiet", "-o", out}, tt.args...)
			r := pdbgen(t, "", args...)
			wantCode(t, r, tt.code)
			oneErrorLine(t, r, "build", tt.msg)
			for _, f := range dirEntries(t, out) {
				t.Errorf("%s written", f)
			}
		})
	}
}

// TestBuildIfNeededMemory: tables that are kept need no memory for a
// search (only for their verification), so a --max-memory below a search's
// need stops only a build that has to happen; one below a verification's
// need stops the check of a file already there.
func TestBuildIfNeededMemory(t *testing.T) {
	_, man, out := smallSet(t)
	args := []string{"build", "--if-needed", "--quiet", "--manifest", man, "-o", out, "--max-memory", "16M"}
	r := pdbgen(t, "", args...)
	wantCode(t, r, 2)
	oneErrorLine(t, r, "build", "3x3_1-2-3.pdb needs ")
	if r := pdbgen(t, "", "build", "--if-needed", "--quiet", "--manifest", man, "-o", out); r.code != 0 {
		t.Fatalf("%v", r)
	}
	r = pdbgen(t, "", args...)
	wantCode(t, r, 0)
	r = pdbgen(t, "", "build", "--if-needed", "--quiet", "--manifest", man, "-o", out, "--max-memory", "1M")
	wantCode(t, r, 2)
	oneErrorLine(t, r, "build", "3x3_1-2-3.pdb needs ")
}

// TestBuildIfNeededWriteManifest: a manifest for a custom set, written
// whether the tables were built or kept, equals the one of a plain build.
func TestBuildIfNeededWriteManifest(t *testing.T) {
	dir, man, out := smallSet(t)
	m2 := filepath.Join(dir, "m2.tsv")
	for i := 0; i < 2; i++ { // built, then kept
		r := pdbgen(t, "", "build", "--if-needed", "--quiet", "-o", out, "--write-manifest", m2,
			"--board", "3x3", "--tiles", "1,2,3", "--tiles", "4,5,6")
		wantCode(t, r, 0)
		if !bytes.Equal(readBytes(t, m2), readBytes(t, man)) {
			t.Errorf("run %d: manifest\n%s\nwant\n%s", i+1, readBytes(t, m2), readBytes(t, man))
		}
	}
}

// TestBuildIfNeededReadOnly (issue 22 item 5): in a read-only folder where
// every table is good there is nothing to write, so build --if-needed exits
// 0; when one table must be built, it exits 2 before the search, naming the
// file. The folder is made read-only by chmod and, since root writes
// anyway, by standing in for format.CheckWritable.
func TestBuildIfNeededReadOnly(t *testing.T) {
	_, man, out := smallSet(t)
	build := func() result {
		return pdbgen(t, "", "build", "--if-needed", "--quiet", "-j", "2", "--manifest", man, "-o", out)
	}
	wantCode(t, build(), 0)
	a := filepath.Join(out, "3x3_1-2-3.pdb")
	if err := os.Chmod(out, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // writable again, or t.TempDir cannot remove it
		if err := os.Chmod(out, 0o755); err != nil {
			t.Error(err)
		}
	})
	old := checkWritable
	defer func() { checkWritable = old }()
	checkWritable = func(path string) error {
		return fmt.Errorf("cannot write %s: permission denied (nothing built)", path)
	}
	r := build()
	wantCode(t, r, 0)
	if l := lines(r.stdout); len(l) != 2 || !strings.HasPrefix(l[0], "kept ") || !strings.HasPrefix(l[1], "kept ") {
		t.Errorf("want both tables kept:\n%v", r)
	}
	// One table missing: trouble, and the good one is still reported kept.
	if err := os.Chmod(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(out, 0o555); err != nil {
		t.Fatal(err)
	}
	r = build()
	wantCode(t, r, exitTrouble)
	oneErrorLine(t, r, "build", "cannot write "+a)
	if _, err := os.Stat(a); err == nil {
		t.Errorf("%s written in a read-only folder", a)
	}
}
