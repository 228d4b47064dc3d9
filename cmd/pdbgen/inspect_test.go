package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/solver"
	"github.com/tilepdb/tilepdb/verify"
)

// corrupt writes a damaged copy of the table file src into dir and returns
// its path.
func corrupt(t *testing.T, dir, src, how string) string {
	t.Helper()
	b := readBytes(t, src)
	n := int(binary.LittleEndian.Uint32(b[12:16])) // header length
	switch how {
	case "header": // a byte of the JSON header
		b[16+n/2] ^= 0x01
	case "header-sha": // a byte of the header checksum
		b[16+n+5] ^= 0x80
	case "payload": // a byte in the middle of the first zstd frame
		b[48+n+(len(b)-48-n)/2] ^= 0x40
	case "version": // major version 7
		b[8] = 7
	case "magic":
		b[0] = 'X'
	case "truncated":
		b = b[:len(b)-10]
	case "truncated-header":
		b = b[:30]
	case "trailing":
		b = append(b, 0)
	case "empty":
		b = nil
	case "text":
		b = []byte("hello, world\n")
	default:
		t.Fatalf("corrupt: unknown damage %q", how)
	}
	p := filepath.Join(dir, how+"_"+filepath.Base(src))
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

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
		{"good", []string{p8, p123, p456}, 0, []string{p8 + ": 3x3 blank-last exact", "0 findings", "checked integrity ok"}, ""},
		{"flag after file", []string{p123, "-j", "1"}, 0, []string{"0 findings"}, ""},
		{"deep", []string{"--deep", p123, p456}, 0, []string{"checked reference ok", "0 findings"}, ""},
		{"deep exact", []string{"--deep", "-j", "2", p8}, 0, []string{"checked reference ok"}, ""},
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

// refValue is the value of board b in the additive table of tiles, computed
// by the verifier's reference builder (independent of the fast builder).
func refValues(t *testing.T, geom puzzle.Geometry, tiles ...uint8) func(puzzle.Board) int {
	t.Helper()
	p, err := puzzle.NewPattern(geom, puzzle.BlankLastGoal(geom), tiles)
	if err != nil {
		t.Fatal(err)
	}
	vals, err := verify.Reference(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return func(b puzzle.Board) int { return int(vals[p.Rank(b.Positions())]) }
}

func TestLookup(t *testing.T) {
	p8, p123, p456 := fixture(t, fx8), fixture(t, fx123), fixture(t, fx456)
	p8bf, p123bf := fixture(t, fx8bf), fixture(t, fx123bf)
	dir := t.TempDir()

	geom, err := puzzle.NewGeometry(3, 3)
	if err != nil {
		t.Fatal(err)
	}
	v123, v456 := refValues(t, geom, 1, 2, 3), refValues(t, geom, 4, 5, 6)
	add := func(s string) string {
		b, err := puzzle.ParseBoard(s, 9)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%s\t%d", b, v123(b)+v456(b))
	}
	if add(swapped8) == swapped8+"\t0" {
		t.Fatal("test assumption: the swapped board has a positive additive value")
	}

	// A 2x2 table for the board-mismatch case.
	wantCode(t, pdbgen(t, "", "build", "--quiet", "-o", dir, "--board", "2x2", "--tiles", "1,2,3"), 0)
	p2x2 := filepath.Join(dir, "2x2.pdb")

	tests := []struct {
		name   string
		files  []string
		stdin  string
		code   int
		stdout []string // exact stdout lines
		stderr []string // substrings of the stderr lines, in order (nil = empty)
	}{
		{
			name:  "exact",
			files: []string{p8},
			stdin: goal8 + "\n" + hardest8 + "\n# a comment\n\n8,6,7,2,5,4,3,x,1\n  1 2 3 4 5 6 _ 7 8  \n",
			code:  0,
			stdout: []string{
				goal8 + "\t0",
				hardest8 + "\t31",
				hardest8 + "\t31",
				twoMoves8 + "\t2",
			},
		},
		{
			name:   "no trailing newline",
			files:  []string{p8},
			stdin:  twoMoves8,
			stdout: []string{twoMoves8 + "\t2"},
		},
		{
			name:   "empty input",
			files:  []string{p8},
			stdin:  "",
			stdout: nil,
		},
		{
			name:  "exact bad lines",
			files: []string{p8},
			stdin: goal8 + "\n1 2 3\n1 1 2 3 4 5 6 7 8\n" + hardest8 + "\n1 2 3 4 5 6 7 8 q\n" + swapped8 + "\n1 2 3 4 5 6 7 8 9\n" + twoMoves8 + "\n",
			code:  1,
			stdout: []string{
				goal8 + "\t0",
				hardest8 + "\t31",
				twoMoves8 + "\t2",
			},
			stderr: []string{
				"line 2: bad board: 3 cells, want 9",
				"line 3: bad board: tile 1 appears twice",
				`line 5: bad board: cell 8: "q"`,
				"line 6: board is not solvable for goal blank-last",
				"line 7: bad board",
				"pdbgen lookup: 5 bad line(s)",
			},
		},
		{
			name:  "additive set",
			files: []string{p123, p456},
			stdin: goal8 + "\n" + hardest8 + "\n" + twoMoves8 + "\n" + swapped8 + "\n4 5 6 1 2 3 7 8 0\n",
			code:  0,
			stdout: []string{
				goal8 + "\t0",
				add(hardest8),
				add(twoMoves8),
				add(swapped8),
				add("4 5 6 1 2 3 7 8 0"),
			},
		},
		{
			name:   "additive bad line",
			files:  []string{p456, p123},
			stdin:  "0 1 2 3 4 5 6 7\n" + hardest8 + "\n",
			code:   1,
			stdout: []string{add(hardest8)},
			stderr: []string{"line 1: bad board: 8 cells, want 9", "pdbgen lookup: 1 bad line(s)"},
		},
		{
			name:   "one additive table",
			files:  []string{p123},
			stdin:  hardest8 + "\n",
			stdout: []string{fmt.Sprintf("%s\t%d", hardest8, v123(puzzle.Board{8, 6, 7, 2, 5, 4, 3, 0, 1}))},
		},
		{
			name:   "blank-first exact",
			files:  []string{p8bf},
			stdin:  "0 1 2 3 4 5 6 7 8\n1 0 2 3 4 5 6 7 8\n" + goal8 + "\n",
			stdout: []string{"0 1 2 3 4 5 6 7 8\t0", "1 0 2 3 4 5 6 7 8\t1", goal8 + "\t22"},
		},
		{
			name:   "long line",
			files:  []string{p8},
			stdin:  goal8 + "\n" + strings.Repeat("1 ", 50000) + "\n" + goal8 + "\n",
			code:   1, // a bad line: reported with its number, the others answered
			stdout: []string{goal8 + "\t0", goal8 + "\t0"},
			stderr: []string{"line 2: line longer than 4096 bytes", "pdbgen lookup: 1 bad line(s)"},
		},
		{name: "same exact twice", files: []string{p8, p8}, code: -1, stderr: []string{"pdbgen lookup: ", "used alone"}},
		{name: "same additive twice", files: []string{p123, p123}, code: -1, stderr: []string{"pdbgen lookup: ", "not disjoint"}},
		{name: "exact with additive", files: []string{p123, p8}, code: -1, stderr: []string{"pdbgen lookup: ", "used alone"}},
		{name: "different boards", files: []string{p123, p2x2}, code: -1, stderr: []string{"pdbgen lookup: ", "board"}},
		{name: "different goals", files: []string{p123, p123bf}, code: -1, stderr: []string{"pdbgen lookup: ", "goal"}},
		{name: "missing table", files: []string{filepath.Join(dir, "missing.pdb")}, code: 2, stderr: []string{"pdbgen lookup: ", "missing.pdb"}},
		{name: "corrupt table", files: []string{corrupt(t, dir, p123, "payload"), p456}, code: 1, stderr: []string{"pdbgen lookup: ", "payload_3x3_1-2-3.pdb", "payload_sha256 mismatch"}},
		{name: "truncated table", files: []string{corrupt(t, dir, p8, "truncated")}, code: 1, stderr: []string{"pdbgen lookup: ", "truncated"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdin := tt.stdin
			if stdin == "" && tt.stdout == nil && tt.code != 0 {
				stdin = goal8 + "\n"
			}
			r := pdbgen(t, stdin, append([]string{"lookup"}, tt.files...)...)
			if tt.code >= 0 {
				wantCode(t, r, tt.code)
			} else if r.code == 0 {
				t.Fatalf("want failure\n%v", r)
			}
			if got, want := strings.Join(lines(r.stdout), "\n"), strings.Join(tt.stdout, "\n"); got != want {
				t.Errorf("stdout:\n%s\nwant:\n%s\n(stderr: %s)", got, want, r.stderr)
			}
			el := lines(r.stderr)
			if tt.stderr == nil {
				if len(el) != 0 {
					t.Errorf("stderr should be empty\n%v", r)
				}
				return
			}
			if tt.stderr[0] == "pdbgen lookup: " {
				// A whole-command failure: one line holding every substring.
				if len(el) != 1 {
					t.Fatalf("want one error line\n%v", r)
				}
				for _, want := range tt.stderr {
					if !strings.Contains(el[0], want) {
						t.Errorf("error line %q lacks %q", el[0], want)
					}
				}
				return
			}
			if len(el) != len(tt.stderr) {
				t.Fatalf("want %d stderr lines\n%v", len(tt.stderr), r)
			}
			for i, want := range tt.stderr {
				if !strings.HasPrefix(el[i], want) {
					t.Errorf("stderr line %d = %q, want prefix %q", i+1, el[i], want)
				}
			}
		})
	}

	// Admissibility of the additive set against the exact table on the
	// boards above, via the CLI.
	in := goal8 + "\n" + hardest8 + "\n" + twoMoves8 + "\n4 1 3 7 2 6 0 5 8\n"
	exact := lines(pdbgen(t, in, "lookup", p8).stdout)
	additive := lines(pdbgen(t, in, "lookup", p123, p456).stdout)
	if len(exact) != 4 || len(additive) != 4 {
		t.Fatalf("exact %v additive %v", exact, additive)
	}
	for i := range exact {
		e, _ := strconv.Atoi(exact[i][strings.LastIndex(exact[i], "\t")+1:])
		a, _ := strconv.Atoi(additive[i][strings.LastIndex(additive[i], "\t")+1:])
		if a > e {
			t.Errorf("board %d: additive %d > exact %d", i+1, a, e)
		}
	}
}

// solveRE is one text line of solve.
var solveRE = regexp.MustCompile(`^([0-9 ]+) : (?:length (\d+) moves ([udlr]+|-) nodes (\d+)|unsolvable)( converted-from blank-first)?$`)

// checkSolution checks that moves take board to goal in length moves.
func checkSolution(t *testing.T, board, moves string, length int, goal puzzle.Board) {
	t.Helper()
	geom, _ := puzzle.NewGeometry(3, 3)
	b, err := puzzle.ParseBoard(board, 9)
	if err != nil {
		t.Fatal(err)
	}
	if moves == "-" {
		moves = ""
	}
	if len(moves) != length {
		t.Errorf("%s: %d moves for length %d", board, len(moves), length)
	}
	end, err := solver.Apply(geom, b, moves)
	if err != nil {
		t.Fatalf("%s: moves %q: %v", board, moves, err)
	}
	if !end.Equal(goal) {
		t.Errorf("%s: moves %q end at %s, not the goal %s", board, moves, end, goal)
	}
}

func TestSolve(t *testing.T) {
	p8, p123, p456 := fixture(t, fx8), fixture(t, fx123), fixture(t, fx456)
	p8bf := fixture(t, fx8bf)
	geom, _ := puzzle.NewGeometry(3, 3)
	goalLast, goalFirst := puzzle.BlankLastGoal(geom), puzzle.BlankFirstGoal(geom)
	const mid = "4 1 3 7 2 6 0 5 8" // a few moves from the goal

	// Exact distances from the exact table, via lookup.
	dist := map[string]int{}
	for _, l := range lines(pdbgen(t, goal8+"\n"+hardest8+"\n"+twoMoves8+"\n"+mid+"\n", "lookup", p8).stdout) {
		f := strings.Split(l, "\t")
		dist[f[0]], _ = strconv.Atoi(f[1])
	}
	if dist[hardest8] != 31 || dist[twoMoves8] != 2 || len(dist) != 4 {
		t.Fatalf("distances %v", dist)
	}

	in := goal8 + "\n" + hardest8 + "\n1 2 3\n" + swapped8 + "\n" + twoMoves8 + "\n" + mid + "\n"
	wantBoards := []string{goal8, hardest8, swapped8, twoMoves8, mid}
	tests := []struct {
		name  string
		args  []string
		stdin string
		goal  puzzle.Board
	}{
		{"exact", []string{p8}, in, goalLast},
		{"exact -j 1", []string{"-j", "1", p8}, in, goalLast},
		{"additive", []string{"-j", "2", p123, p456}, in, goalLast},
		{"additive reflect", []string{"--reflect", p456, p123}, in, goalLast},
		{"exact reflect", []string{"--reflect", p8}, in, goalLast},
	}
	for _, tt := range tests {
		for _, asJSON := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/json=%v", tt.name, asJSON), func(t *testing.T) {
				args := append([]string{"solve"}, tt.args...)
				if asJSON {
					args = append(args, "--json")
				}
				r := pdbgen(t, tt.stdin, args...)
				wantCode(t, r, 1) // line 3 is bad
				el := lines(r.stderr)
				if len(el) != 2 || !strings.HasPrefix(el[0], "line 3: ") || !strings.Contains(el[0], "3 cells, want 9") ||
					!strings.HasPrefix(el[1], "pdbgen solve: ") || !strings.Contains(el[1], "1 bad line") {
					t.Errorf("stderr should be the line-3 problem and a summary\n%v", r)
				}
				ls := lines(r.stdout)
				if len(ls) != len(wantBoards) {
					t.Fatalf("want %d answers\n%v", len(wantBoards), r)
				}
				for i, l := range ls {
					board := wantBoards[i]
					if asJSON {
						var o struct {
							Board    []int   `json:"board"`
							Solvable bool    `json:"solvable"`
							Length   *int    `json:"length"`
							Moves    *string `json:"moves"`
							Nodes    *uint64 `json:"nodes"`
						}
						if err := json.Unmarshal([]byte(l), &o); err != nil {
							t.Fatalf("line %q: %v", l, err)
						}
						if got := strings.Trim(fmt.Sprint(o.Board), "[]"); got != board {
							t.Errorf("answer %d is for %s, want %s", i+1, got, board)
						}
						if o.Nodes == nil {
							t.Errorf("no nodes in %s", l)
						}
						if board == swapped8 {
							if o.Solvable || o.Length != nil || o.Moves != nil {
								t.Errorf("unsolvable board: %s", l)
							}
							continue
						}
						if !o.Solvable || o.Length == nil || o.Moves == nil || *o.Length != dist[board] {
							t.Fatalf("answer %s, want length %d", l, dist[board])
						}
						checkSolution(t, board, *o.Moves, *o.Length, tt.goal)
						continue
					}
					m := solveRE.FindStringSubmatch(l)
					if m == nil || m[1] != board {
						t.Fatalf("answer %d = %q, want one for %s", i+1, l, board)
					}
					if board == swapped8 {
						if !strings.HasSuffix(l, ": unsolvable") {
							t.Errorf("answer %q, want unsolvable", l)
						}
						continue
					}
					n, _ := strconv.Atoi(m[2])
					if n != dist[board] {
						t.Errorf("%s: length %d, want %d", board, n, dist[board])
					}
					checkSolution(t, board, m[3], n, tt.goal)
				}
			})
		}
	}

	// Boards in the blank-first convention against blank-last tables: the
	// moves solve them to the blank-first goal, with the distances of the
	// blank-first table.
	bfIn := "0 1 2 3 4 5 6 7 8\n1 0 2 3 4 5 6 7 8\n" + hardest8 + "\n"
	bfDist := map[string]int{}
	for _, l := range lines(pdbgen(t, bfIn, "lookup", p8bf).stdout) {
		f := strings.Split(l, "\t")
		bfDist[f[0]], _ = strconv.Atoi(f[1])
	}
	r := pdbgen(t, bfIn, "solve", "--from", "blank-first", p8)
	wantCode(t, r, 0)
	ls := lines(r.stdout)
	if len(ls) != 3 || r.stderr != "" {
		t.Fatalf("--from blank-first:\n%v", r)
	}
	for _, l := range ls {
		m := solveRE.FindStringSubmatch(l)
		if m == nil || m[5] == "" || m[2] == "" {
			t.Fatalf("answer %q", l)
		}
		n, _ := strconv.Atoi(m[2])
		if n != bfDist[m[1]] {
			t.Errorf("%s: length %d, want %d (blank-first table)", m[1], n, bfDist[m[1]])
		}
		checkSolution(t, m[1], m[3], n, goalFirst)
	}

	// Only good lines: exit 0, nothing on stderr.
	r = pdbgen(t, "# boards\n\n"+twoMoves8+"\n", "solve", p8)
	wantCode(t, r, 0)
	if r.stderr != "" || len(lines(r.stdout)) != 1 {
		t.Errorf("clean solve:\n%v", r)
	}
}

func TestSolveErrors(t *testing.T) {
	p8, p123 := fixture(t, fx8), fixture(t, fx123)
	p8bf := fixture(t, fx8bf)
	dir := t.TempDir()
	wantCode(t, pdbgen(t, "", "build", "--quiet", "-o", dir, "--board", "3x2", "--tiles", "1,2"), 0)
	p3x2 := filepath.Join(dir, "3x2_1-2.pdb")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"same table twice", []string{p123, p123}, "not disjoint"},
		{"exact in a set", []string{p8, p123}, "used alone"},
		{"missing", []string{filepath.Join(dir, "missing.pdb")}, "missing.pdb"},
		{"corrupt", []string{corrupt(t, dir, p123, "payload")}, "payload_3x3_1-2-3.pdb"},
		{"from blank-first with blank-first tables", []string{"--from", "blank-first", p8bf}, "blank"},
		{"reflect on a 3x2 board", []string{"--reflect", p3x2}, "reflect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := pdbgen(t, goal8+"\n", append([]string{"solve"}, tt.args...)...)
			if r.code == 0 {
				t.Fatalf("want failure\n%v", r)
			}
			if r.stdout != "" {
				t.Errorf("stdout:\n%v", r)
			}
			oneErrorLine(t, r, "solve", tt.want)
		})
	}
}

// failWriter accepts limit bytes, then fails every write (a full disk, a
// closed pipe).
type failWriter struct{ limit int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) <= w.limit {
		w.limit -= len(p)
		return len(p), nil
	}
	n := w.limit
	w.limit = 0
	return n, errors.New("no space left on device")
}

// TestOutputWriteError: a command whose answers cannot be written must not
// report success.
func TestOutputWriteError(t *testing.T) {
	p8 := fixture(t, fx8)
	in := strings.Repeat(twoMoves8+"\n", 2000) // more than a bufio buffer of answers
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"lookup", []string{"lookup", p8}},
		{"lookup at flush", []string{"lookup", p8}},
		{"solve", []string{"solve", "-j", "1", p8}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdin, limit := in, 100
			if tt.name == "lookup at flush" {
				stdin, limit = twoMoves8+"\n", 5
			}
			var errb bytes.Buffer
			e := &env{stdin: strings.NewReader(stdin), stdout: &failWriter{limit: limit}, stderr: &errb}
			code := run(e, tt.args)
			r := result{code: code, stderr: errb.String()}
			noStackTrace(t, tt.args, r)
			wantCode(t, r, 2)
			oneErrorLine(t, r, tt.args[0], "no space left on device")
		})
	}
}

// TestDoubleDash: "--" ends the flags, so a file may start with "-".
func TestDoubleDash(t *testing.T) {
	dir := t.TempDir()
	name := "-odd.pdb"
	if err := os.WriteFile(filepath.Join(dir, name), readBytes(t, fixture(t, fx123)), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	r := pdbgen(t, "", "info", "--json", "--", name)
	wantCode(t, r, 0)
	if !strings.Contains(r.stdout, `"file":"-odd.pdb"`) {
		t.Errorf("info -- -odd.pdb:\n%v", r)
	}
	r = pdbgen(t, "", "verify", "-j", "1", "--", name)
	wantCode(t, r, 0)
	r = pdbgen(t, "", "info", name) // without "--" it is a flag
	wantCode(t, r, 2)
}
