package main

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
)

// infoJSONOut is what `info --json` promises per file.
type infoJSONOut struct {
	File      string   `json:"file"`
	FileSize  int64    `json:"file_size"`
	Width     int      `json:"width"`
	Height    int      `json:"height"`
	Goal      []int    `json:"goal"`
	GoalName  string   `json:"goal_name"`
	Tiles     []int    `json:"tiles"`
	Kind      string   `json:"kind"`
	Entries   uint64   `json:"entries"`
	MaxValue  int      `json:"max_value"`
	Histogram []uint64 `json:"histogram"`
	RawSHA256 string   `json:"raw_sha256"`
	Generator string   `json:"generator"`
}

func TestInfoText(t *testing.T) {
	p8 := fixture(t, fx8)
	r := pdbgen(t, "", "info", p8)
	wantCode(t, r, 0)
	if r.stderr != "" {
		t.Errorf("stderr:\n%v", r)
	}
	for _, want := range []string{
		p8 + "\n",
		"board      3x3, goal blank-last (1,2,3,4,5,6,7,8,0)",
		"kind       exact, tiles 1,2,3,4,5,6,7,8",
		"ranking    lehmer-half v1",
		"entries    181440 x 8 bits, max value 31",
		"raw sha256 " + sha8,
		"generator  " + generator,
		"histogram (value: count)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("info output lacks %q\n%v", want, r)
		}
	}
	// One histogram row per value 0..31, counts summing to the entries; the
	// known ends of the 8-puzzle distribution: 1 goal, 2 states at 31.
	row := regexp.MustCompile(`(?m)^\s+(\d+)\s+(\d+) #+$`)
	rows := row.FindAllStringSubmatch(r.stdout, -1)
	if len(rows) != 32 {
		t.Fatalf("%d histogram rows, want 32\n%s", len(rows), r.stdout)
	}
	var sum uint64
	for v, m := range rows {
		if m[1] != strconv.Itoa(v) {
			t.Errorf("row %d is for value %s", v, m[1])
		}
		c, _ := strconv.ParseUint(m[2], 10, 64)
		sum += c
	}
	if sum != 181440 || rows[0][2] != "1" || rows[31][2] != "2" {
		t.Errorf("histogram sum %d, count(0) %s, count(31) %s", sum, rows[0][2], rows[31][2])
	}

	// Several files, one block each.
	r = pdbgen(t, "", "info", fixture(t, fx123), fixture(t, fx456))
	wantCode(t, r, 0)
	if strings.Count(r.stdout, "histogram (value: count)") != 2 || !strings.Contains(r.stdout, "kind       additive, tiles 4,5,6") {
		t.Errorf("two-file info:\n%v", r)
	}
}

func TestInfoJSON(t *testing.T) {
	p8, p123 := fixture(t, fx8), fixture(t, fx123)
	r := pdbgen(t, "", "info", "--json", p8, p123)
	wantCode(t, r, 0)
	ls := lines(r.stdout)
	if len(ls) != 2 || r.stderr != "" {
		t.Fatalf("want one JSON object per file:\n%v", r)
	}
	var objs []infoJSONOut
	for _, l := range ls {
		var keys map[string]json.RawMessage
		if err := json.Unmarshal([]byte(l), &keys); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		for _, k := range []string{"file", "file_size", "width", "height", "goal", "tiles", "entries", "max_value", "histogram", "raw_sha256"} {
			if _, ok := keys[k]; !ok {
				t.Errorf("JSON object lacks key %q: %s", k, l)
			}
		}
		var o infoJSONOut
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, o)
	}
	o := objs[0]
	st, _ := os.Stat(p8)
	if o.File != p8 || o.FileSize != st.Size() || o.Width != 3 || o.Height != 3 ||
		fmt.Sprint(o.Goal) != "[1 2 3 4 5 6 7 8 0]" || o.GoalName != "blank-last" ||
		fmt.Sprint(o.Tiles) != "[1 2 3 4 5 6 7 8]" || o.Kind != "exact" ||
		o.Entries != 181440 || o.MaxValue != 31 || len(o.Histogram) != 32 ||
		o.RawSHA256 != sha8 || o.Generator != generator {
		t.Errorf("8puzzle info: %+v", o)
	}
	var sum uint64
	for _, c := range o.Histogram {
		sum += c
	}
	if sum != o.Entries || o.Histogram[0] != 1 || o.Histogram[31] != 2 {
		t.Errorf("8puzzle histogram %v", o.Histogram)
	}

	o = objs[1]
	tab, err := format.ReadFile(p123)
	if err != nil {
		t.Fatal(err)
	}
	if o.File != p123 || fmt.Sprint(o.Tiles) != "[1 2 3]" || o.Kind != "additive" || o.Entries != 504 ||
		o.MaxValue != tab.Header.MaxValue || len(o.Histogram) != o.MaxValue+1 || o.RawSHA256 != tab.Header.RawSHA256 {
		t.Errorf("3x3 1,2,3 info: %+v", o)
	}
}

// TestInfoErrors: a missing or unreadable file is trouble (2); a corrupt
// one is bad data (1). Each problem is one line naming the file, and the
// good files are still reported.
func TestInfoErrors(t *testing.T) {
	dir := t.TempDir()
	good := fixture(t, fx123)
	missing := filepath.Join(dir, "missing.pdb")
	tests := []struct {
		name   string
		files  []string
		code   int
		stderr []string // one line per bad file, each containing this
	}{
		{"missing", []string{missing}, 2, []string{"no such file"}},
		{"directory", []string{dir}, 2, []string{dir}},
		{"header json", []string{corrupt(t, dir, good, "header")}, 1, []string{"header"}},
		{"header checksum", []string{corrupt(t, dir, good, "header-sha")}, 1, []string{"header sha256 mismatch"}},
		{"truncated", []string{corrupt(t, dir, good, "truncated")}, 1, []string{"truncated"}},
		{"truncated header", []string{corrupt(t, dir, good, "truncated-header")}, 1, []string{"truncated"}},
		{"trailing", []string{corrupt(t, dir, good, "trailing")}, 1, []string{"invalid table file"}},
		{"empty", []string{corrupt(t, dir, good, "empty")}, 1, []string{"invalid table file"}},
		{"not a table", []string{corrupt(t, dir, good, "text")}, 1, []string{"invalid table file"}},
		{"bad magic", []string{corrupt(t, dir, good, "magic")}, 1, []string{"invalid table file"}},
		{"future version", []string{corrupt(t, dir, good, "version")}, 1, []string{"7"}},
		{"corrupt then good", []string{corrupt(t, dir, good, "header"), good}, 1, []string{"header"}},
		{"corrupt and missing", []string{corrupt(t, dir, good, "truncated"), missing}, 2, []string{"truncated", "no such file"}},
		{"missing and corrupt", []string{missing, corrupt(t, dir, good, "truncated")}, 2, []string{"no such file", "truncated"}},
	}
	for _, tt := range tests {
		for _, asJSON := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/json=%v", tt.name, asJSON), func(t *testing.T) {
				args := []string{"info"}
				if asJSON {
					args = append(args, "--json")
				}
				r := pdbgen(t, "", append(args, tt.files...)...)
				wantCode(t, r, tt.code)
				el := lines(r.stderr)
				if len(el) != len(tt.stderr) {
					t.Fatalf("want %d stderr line(s):\n%v", len(tt.stderr), r)
				}
				for i, want := range tt.stderr {
					if !strings.Contains(el[i], want) {
						t.Errorf("stderr line %q does not contain %q", el[i], want)
					}
				}
				goodOut := 0
				for _, f := range tt.files {
					if f == good {
						goodOut++
					}
				}
				if asJSON && len(lines(r.stdout)) != goodOut {
					t.Errorf("want %d JSON line(s) on stdout:\n%v", goodOut, r)
				}
				if strings.Count(r.stdout, "raw_sha256")+strings.Count(r.stdout, "raw sha256") != goodOut {
					t.Errorf("want output for %d good file(s):\n%v", goodOut, r)
				}
			})
		}
	}
}

// TestInfoSetFile: info on a set file prints what it lists (version,
// board, partitions, parts, tables) from the set file alone; a broken set
// file gives its one-line error (exit 1), never a bad magic number.
func TestInfoSetFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "x.set.json")
	if err := os.WriteFile(f, []byte(`{"tilepdb_set":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r := pdbgen(t, "", "info", f)
	wantCode(t, r, 1)
	if !strings.Contains(r.stderr, f+`: tilepdb: invalid set: required key "width" is missing`) || strings.Contains(r.stderr, "magic") {
		t.Errorf("stderr should give the set file's problem\n%v", r)
	}
	kit := filepath.Join("..", "..", "readers", "testdata", "sets")
	tests := []struct {
		file string
		text []string // lines info prints
		json string   // keys of info --json beyond file and file_size
	}{
		{"good-b.set.json", []string{"set file   version 1, additive set", "parts      3, through 1 table files", "goal blank-last (1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0)", "    tiles 3,4,8 through rot270 of table 4x4_1-2-5.pdb (tiles 1,2,5)"},
			`"set":true,"tilepdb_set":1,"width":4,"height":4,"goal":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0],"parts":3,"tables":["4x4_1-2-5.pdb"]}`},
		{"good-catalogue.set.json", []string{"set file   version 2, catalogue of 3 partitions (the maximum of their sums)", "parts      6, through 2 table files", "  partition 2 (2 parts)\n    tiles 1,2,5 through identity of table 4x4_1-2-5.pdb (tiles 1,2,5)\n    tiles 3,4,8 through rot270 of table 4x4_1-2-5.pdb (tiles 1,2,5)\n  partition 3"},
			`"set":true,"tilepdb_set":2,"width":4,"height":4,"goal":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0],"partitions":[2,2,2],"parts":6,"tables":["4x4_2-3-4.pdb","4x4_1-2-5.pdb"]}`},
	}
	for _, tt := range tests {
		path := filepath.Join(kit, tt.file)
		r := pdbgen(t, "", "info", path)
		wantCode(t, r, 0)
		for _, w := range tt.text {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("info %s: stdout lacks %q\n%v", tt.file, w, r)
			}
		}
		r = pdbgen(t, "", "info", "--json", path)
		wantCode(t, r, 0)
		if !strings.HasSuffix(strings.TrimSpace(r.stdout), tt.json) || !json.Valid([]byte(r.stdout)) {
			t.Errorf("info --json %s:\n%s\nwant it to end in %s", tt.file, r.stdout, tt.json)
		}
	}
}

// TestInfoEscapesHeaderStrings (issue 22 item 4): strings read from a file
// (here a generator holding an escape sequence and a NUL) are printed
// escaped, never raw to the terminal; the JSON output escapes them anyway.
func TestInfoEscapesHeaderStrings(t *testing.T) {
	b := readBytes(t, fixture(t, fx123))
	n := int(binary.LittleEndian.Uint32(b[12:16]))
	var h map[string]any
	if err := json.Unmarshal(b[16:16+n], &h); err != nil {
		t.Fatal(err)
	}
	h["generator"] = "evil\x1b[2J\x00gen"
	js, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	out := binary.LittleEndian.AppendUint32(append([]byte(nil), b[:12]...), uint32(len(js)))
	out = append(out, js...)
	sum := sha256.Sum256(out)
	out = append(append(out, sum[:]...), b[16+n+32:]...)
	path := filepath.Join(t.TempDir(), "3x3_1-2-3.pdb")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	r := pdbgen(t, "", "info", path)
	wantCode(t, r, 0)
	if strings.ContainsAny(r.stdout, "\x1b\x00") || !strings.Contains(r.stdout, `generator  "evil\x1b[2J\x00gen"`) {
		t.Errorf("generator not escaped:\n%q", r.stdout)
	}
}

// TestInfoSetKit: info checks a set file as far as its tables' headers
// allow. On every broken set file of the kit (readers/testdata/sets) it
// exits as index.tsv says lookup and verify do, with the one error line
// recorded there, and prints nothing on stdout; the exception is a table
// whose payload alone is corrupt, which info passes (it never decodes a
// payload). Every good set file still exits 0.
func TestInfoSetKit(t *testing.T) {
	dir := filepath.Join("..", "..", "readers", "testdata", "sets")
	index := strings.TrimSpace(string(readBytes(t, filepath.Join(dir, "index.tsv"))))
	payloadOnly := map[string]bool{"bad-table-corrupt.set.json": true}
	bad := 0
	for _, line := range strings.Split(index, "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t") // file expect exit check message about
		if len(f) != 6 {
			t.Fatalf("index.tsv line %q: %d fields, want 6", line, len(f))
		}
		path := filepath.Join(dir, f[0])
		for _, asJSON := range []bool{false, true} {
			args := []string{"info", path}
			if asJSON {
				args = []string{"info", "--json", path}
			}
			r := pdbgen(t, "", args...)
			if f[1] == "ok" || payloadOnly[f[0]] {
				wantCode(t, r, 0)
				if r.stderr != "" || !strings.Contains(r.stdout, "tables") {
					t.Errorf("%v (%s):\n%v", args, f[5], r)
				}
				continue
			}
			want, _ := strconv.Atoi(f[2])
			if r.code != want || r.stdout != "" || len(lines(r.stderr)) != 1 {
				t.Errorf("%v (%s): want exit %d and one error line:\n%v", args, f[5], want, r)
				continue
			}
			if msg := strings.ReplaceAll(f[4], "{dir}", dir) + "\n"; f[3] == "go" && r.stderr != msg {
				t.Errorf("%v (%s):\n got %s want %s", args, f[5], r.stderr, msg)
			}
		}
		if f[1] != "ok" {
			bad++
		}
	}
	if bad < 70 {
		t.Errorf("%d broken set files in the kit, want at least 70", bad)
	}
}
