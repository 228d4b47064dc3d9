package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
)

func TestVerify(t *testing.T) {
	dir := t.TempDir()
	p8, p123, p456 := fixture(t, fx8), fixture(t, fx123), fixture(t, fx456)
	missing := filepath.Join(dir, "missing.pdb")

	// A well-formed file (all checksums right) holding a wrong value.
	tab, err := format.ReadFile(p123)
	if err != nil {
		t.Fatal(err)
	}
	var r0 int
	for r, v := range tab.Values {
		if v == 3 {
			r0 = r
			break
		}
	}
	tab.Values[r0] += 2
	wrong, err := format.NewTable(tab.Pattern, tab.Values, "test")
	if err != nil {
		t.Fatal(err)
	}
	wrongPath := filepath.Join(dir, "wrong_3x3_1-2-3.pdb")
	if err := format.WriteFile(wrongPath, wrong, 1); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // substrings of stdout
		stderr string   // substring of the last stderr line ("" = stderr empty)
	}{
		{"good", []string{p8, p123, p456}, 0, []string{p8 + ": 3x3 blank-last exact", "0 findings", "checked integrity  ok"}, ""},
		{"flag after file", []string{p123, "-j", "1"}, 0, []string{"0 findings"}, ""},
		{"deep", []string{"--deep", p123, p456}, 0, []string{"checked reference  ok", "0 findings"}, ""},
		{"deep exact", []string{"--deep", "-j", "2", p8}, 0, []string{"checked reference  ok"}, ""},
		{"flipped payload", []string{corrupt(t, dir, p123, "payload")}, 1, []string{"integrity: ", "frame 0"}, "pdbgen verify: 1 of 1 file(s) failed verification"},
		{"flipped header", []string{corrupt(t, dir, p123, "header")}, 1, []string{"integrity: "}, "failed verification"},
		{"truncated", []string{corrupt(t, dir, p123, "truncated")}, 1, []string{"integrity: ", "truncated"}, "failed verification"},
		{"not a table", []string{corrupt(t, dir, p123, "text")}, 1, []string{"integrity: "}, "failed verification"},
		{"good and bad", []string{p456, corrupt(t, dir, p123, "payload")}, 1, []string{"0 findings", "integrity: "}, "1 of 2 file(s) failed verification"},
		{"wrong value", []string{wrongPath}, 1, []string{"findings"}, "failed verification"},
		{"wrong value deep", []string{"--deep", wrongPath}, 1, []string{"reference: entry " + strconv.Itoa(r0)}, "failed verification"},
		{"max findings", []string{"--max-findings", "1", corrupt(t, dir, p8, "payload")}, 1, []string{"more findings not shown"}, "failed verification"},
		{"missing", []string{missing}, 2, nil, "1 of 1 file(s) could not be checked"},
		{"missing and bad", []string{missing, corrupt(t, dir, p123, "payload")}, 2, []string{"integrity: "}, "could not be checked"},
		{"directory", []string{dir}, 2, nil, "could not be checked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := pdbgen(t, "", append([]string{"verify"}, tt.args...)...)
			wantCode(t, r, tt.code)
			checkedAligned(t, r.stdout)
			for _, want := range tt.stdout {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("stdout lacks %q\n%v", want, r)
				}
			}
			el := lines(r.stderr)
			if tt.stderr == "" {
				if len(el) != 0 {
					t.Errorf("stderr should be empty\n%v", r)
				}
				return
			}
			if len(el) == 0 || !strings.Contains(el[len(el)-1], tt.stderr) || !strings.HasPrefix(el[len(el)-1], "pdbgen verify: ") {
				t.Errorf("last stderr line should contain %q\n%v", tt.stderr, r)
			}
			if tt.code == 2 && (len(el) < 2 || !strings.Contains(r.stderr, "missing.pdb") && !strings.Contains(r.stderr, dir)) {
				t.Errorf("stderr should name the file that could not be checked\n%v", r)
			}
		})
	}
}

// TestVerifyUndecodedFrame (issue 22 item 7): a table whose zstd frame does
// not decode is reported as such, and the checks of the values are
// skipped, saying why, instead of running on placeholder values and
// flooding the report with findings about them.
func TestVerifyUndecodedFrame(t *testing.T) {
	bad := corrupt(t, t.TempDir(), fixture(t, fx8), "payload")
	r := pdbgen(t, "", "verify", "--json", bad)
	wantCode(t, r, exitBadData)
	var rep struct {
		Findings int `json:"findings"`
		Checks   []struct {
			Name, Status, Reason string
			Count                int
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%v", err, r)
	}
	for _, c := range rep.Checks {
		switch {
		case c.Name == "integrity":
			if c.Status != "failed" || c.Count == 0 {
				t.Errorf("integrity: %+v, want failed", c)
			}
		case c.Status != "skipped" || !strings.Contains(c.Reason, "frame(s) could not be decoded"):
			t.Errorf("%s: %+v, want skipped because a frame could not be decoded", c.Name, c)
		}
	}
	if rep.Findings > 3 {
		t.Errorf("%d findings, want only the integrity ones\n%v", rep.Findings, r)
	}
	r = pdbgen(t, "", "verify", bad)
	if !strings.Contains(r.stdout, "could not be decoded") {
		t.Errorf("the text report does not say why the checks were skipped:\n%v", r)
	}
}

// TestVerifyCheckOrder (issue 22 item 8): the text report lists the checks
// in the order of the JSON report, --deep included.
func TestVerifyCheckOrder(t *testing.T) {
	for _, args := range [][]string{{fixture(t, fx123)}, {"--deep", fixture(t, fx123)}, {"--deep", fixture(t, fx8)}} {
		text := pdbgen(t, "", append([]string{"verify"}, args...)...)
		wantCode(t, text, 0)
		js := pdbgen(t, "", append([]string{"verify", "--json"}, args...)...)
		wantCode(t, js, 0)
		var rep struct {
			Checks []struct{ Name string } `json:"checks"`
		}
		if err := json.Unmarshal([]byte(js.stdout), &rep); err != nil {
			t.Fatal(err)
		}
		var want, got []string
		for _, c := range rep.Checks {
			want = append(want, c.Name)
		}
		for _, l := range lines(text.stdout) {
			f := strings.Fields(strings.TrimSuffix(strings.TrimSpace(l), ":"))
			if len(f) >= 2 && (f[0] == "checked" || f[0] == "skipped") {
				got = append(got, strings.TrimSuffix(f[1], ":"))
			}
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("verify %v: text order %v, JSON order %v", args, got, want)
		}
	}
}

// checkedRow is a "checked" row of verify's text report: the check's name,
// then its status ("ok" or "N findings").
var checkedRow = regexp.MustCompile(`^  checked (\S.*?) +(ok|\d+ findings)(  |$)`)

// checkedAligned fails unless every "checked" row of the text report out
// puts its status in the same column (the longest check name,
// "zero-aware", included).
func checkedAligned(t *testing.T, out string) {
	t.Helper()
	col := -1
	for _, l := range lines(out) {
		if !strings.HasPrefix(l, "  checked ") {
			continue
		}
		m := checkedRow.FindStringSubmatchIndex(l)
		if m == nil {
			t.Errorf("row %q: no check name and status", l)
			continue
		}
		if col < 0 {
			col = m[4]
		}
		if m[4] != col {
			t.Errorf("row %q: status at column %d, the row before at %d\n%s", l, m[4], col, out)
		}
	}
}
