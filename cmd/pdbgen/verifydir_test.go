package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goodFolder builds the small set into a folder with its manifest.
func goodFolder(t *testing.T) (man, out string) {
	t.Helper()
	_, man, out = smallSet(t)
	if r := pdbgen(t, "", "build", "--if-needed", "--quiet", "--manifest", man, "-o", out); r.code != 0 {
		t.Fatalf("%v", r)
	}
	return man, out
}

func TestVerifyManifest(t *testing.T) {
	man, out := goodFolder(t)
	a, b := filepath.Join(out, "3x3_1-2-3.pdb"), filepath.Join(out, "3x3_4-5-6.pdb")

	r := pdbgen(t, "", "verify", "--manifest", man, out)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, a+": 3x3 blank-last tiles 1,2,3, 504 entries") || strings.Count(r.stdout, "0 findings") != 2 ||
		r.stderr != "all 2 listed table(s) of "+man+" present in "+out+", matching and verified\n" {
		t.Errorf("good folder:\n%v", r)
	}

	// Unlisted tables are reported, not fatal.
	copyFile(t, fixture(t, fx8), filepath.Join(out, "8puzzle.pdb"))
	r = pdbgen(t, "", "verify", "--manifest", man, out)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, filepath.Join(out, "8puzzle.pdb")+": unlisted: not listed in "+man+" (a table: 181440 entries") ||
		!strings.Contains(r.stderr, "all 2 listed table(s) of "+man+" present in "+out+", matching and verified; 1 unlisted table file(s) in "+out+" (not an error)\n") {
		t.Errorf("unlisted:\n%v", r)
	}
	os.Remove(filepath.Join(out, "8puzzle.pdb"))

	// Missing, different, corrupt, failing verify: exit 1, each named
	// with its manifest line.
	data := readBytes(t, a)
	for _, c := range []struct {
		name   string
		damage func()
		stdout string
	}{
		{"missing", func() { os.Remove(a) }, a + ": missing: no such file (listed on " + man + ":2)"},
		{"different", func() { copyFile(t, b, a) }, a + ": mismatch: header says max value 9 (manifest 11), raw_sha256 "},
		{"corrupt header", func() { copyFile(t, corrupt(t, t.TempDir(), a, "header"), a) }, a + ": corrupt: tilepdb: header sha256 mismatch"},
		{"payload", func() { copyFile(t, corrupt(t, t.TempDir(), a, "payload"), a) }, "  integrity: "},
		{"truncated", func() { copyFile(t, corrupt(t, t.TempDir(), a, "truncated"), a) }, a + ": corrupt: tilepdb: invalid table file at byte "},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.damage()
			defer copyFile(t, fixture(t, fx123), a)
			r := pdbgen(t, "", "verify", "--manifest", man, out)
			wantCode(t, r, 1)
			if !strings.Contains(r.stdout, c.stdout) {
				t.Errorf("stdout lacks %q:\n%v", c.stdout, r)
			}
			oneErrorLine(t, r, "verify", "1 of 2 listed table(s) missing, different, corrupt or failing verification")
		})
	}
	if string(readBytes(t, a)) != string(data) {
		t.Fatal("fixture differs from the table built")
	}
}

func TestVerifyManifestJSON(t *testing.T) {
	man, out := goodFolder(t)
	copyFile(t, fixture(t, fx8), filepath.Join(out, "8puzzle.pdb"))
	os.Remove(filepath.Join(out, "3x3_4-5-6.pdb"))
	r := pdbgen(t, "", "verify", "--manifest", man, "--json", out)
	wantCode(t, r, 1)
	l := lines(r.stdout)
	if len(l) != 3 {
		t.Fatalf("want 3 JSON lines:\n%v", r)
	}
	want := []struct{ status, manifest string }{{"ok", man + ":2"}, {"missing", man + ":3"}, {"unlisted", ""}}
	for i, line := range l {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, line)
		}
		mf, _ := m["manifest"].(string)
		if m["status"] != want[i].status || mf != want[i].manifest || m["version"] != 1.0 {
			t.Errorf("line %d: %s", i+1, line)
		}
		checks := m["checks"].([]any)
		if (want[i].status == "ok") != (len(checks) > 0) || (want[i].status == "ok") != (m["ok"] == true) {
			t.Errorf("line %d: ok %v with %d checks", i+1, m["ok"], len(checks))
		}
	}
}

func TestVerifyManifestBadInput(t *testing.T) {
	man, out := goodFolder(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "plain")
	bad := filepath.Join(dir, "bad.tsv")
	for p, s := range map[string]string{file: "", bad: "# c\n3x3_1-2-3.pdb 504\n"} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"missing manifest", []string{"--manifest", filepath.Join(dir, "none.tsv"), out}, 2, "manifest: open "},
		{"malformed manifest", []string{"--manifest", bad, out}, 1, "manifest " + bad + ":2: want 4 columns"},
		{"folder is a file", []string{"--manifest", man, file}, 2, "data folder " + file + ": not a directory"},
		{"folder missing", []string{"--manifest", man, filepath.Join(dir, "none")}, 2, "data folder " + filepath.Join(dir, "none") + ": "},
		{"no folder", []string{"--manifest", man}, 2, "--manifest takes one data folder"},
		{"two folders", []string{"--manifest", man, out, out}, 2, "--manifest takes one data folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := pdbgen(t, "", append([]string{"verify"}, tt.args...)...)
			wantCode(t, r, tt.code)
			oneErrorLine(t, r, "verify", tt.msg)
			if r.stdout != "" {
				t.Errorf("stdout:\n%v", r)
			}
		})
	}
}

// TestVerifyJSON: verify --json FILE... prints one object per file, an
// error object for a file that cannot be checked, and exits as the text
// form does.
func TestVerifyJSON(t *testing.T) {
	dir := t.TempDir()
	good, bad, gone := fixture(t, fx123), corrupt(t, dir, fixture(t, fx456), "payload"), filepath.Join(dir, "gone.pdb")
	r := pdbgen(t, "", "verify", "--json", good, bad, gone)
	wantCode(t, r, 2)
	l := lines(r.stdout)
	if len(l) != 3 {
		t.Fatalf("want 3 JSON lines:\n%v", r)
	}
	var reps [3]struct {
		File     string `json:"file"`
		OK       bool   `json:"ok"`
		Findings int    `json:"findings"`
		Error    string `json:"error"`
		Checks   []struct {
			Name, Status string
			Count        int
		} `json:"checks"`
	}
	for i, line := range l {
		if err := json.Unmarshal([]byte(line), &reps[i]); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}
	if !reps[0].OK || reps[0].File != good || len(reps[0].Checks) != 10 {
		t.Errorf("good: %+v", reps[0])
	}
	if reps[1].OK || reps[1].Findings == 0 || reps[1].Checks[0].Name != "integrity" || reps[1].Checks[0].Status != "failed" {
		t.Errorf("bad: %+v", reps[1])
	}
	if reps[2].OK || reps[2].Error == "" || len(reps[2].Checks) != 0 || reps[2].File != gone {
		t.Errorf("gone: %+v", reps[2])
	}
	if el := lines(r.stderr); len(el) != 2 || !strings.HasPrefix(el[0], gone+": ") {
		t.Errorf("stderr:\n%v", r)
	}
}
