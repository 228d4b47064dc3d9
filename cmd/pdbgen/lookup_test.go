package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/verify"
)

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

	// Every row spells out its input and all it expects: the exit status,
	// stdout exactly, the per-line problems on stderr (prefixes, in order)
	// and the final "pdbgen lookup: ..." line (substrings; none when the
	// run is clean). stderr holds nothing else.
	const summary = "pdbgen lookup: "
	tests := []struct {
		name     string
		files    []string
		stdin    string
		code     int
		stdout   []string // exact stdout lines
		lineErrs []string // prefixes of the "line N: ..." stderr lines, in order
		final    []string // substrings of the last stderr line; nil = no such line
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
			code:   0,
			stdout: []string{twoMoves8 + "\t2"},
		},
		{
			name:   "CRLF line ends",
			files:  []string{p8},
			stdin:  goal8 + "\r\n" + twoMoves8 + "\r\n",
			code:   0,
			stdout: []string{goal8 + "\t0", twoMoves8 + "\t2"},
		},
		{
			name:  "empty input",
			files: []string{p8},
			stdin: "",
			code:  0,
		},
		{
			name:  "exact bad lines",
			files: []string{p8},
			stdin: goal8 + "\n1 2 3\n1 1 2 3 4 5 6 7 8\n" + hardest8 + "\n1 2 3 4 5 6 7 8 q\n" + swapped8 + "\n1 2 3 4 5 6 7 8 9\n" + twoMoves8 + "\n",
			code:  1,
			stdout: []string{
				goal8 + "\t0",
				hardest8 + "\t31",
				swapped8 + "\tunsolvable", // an answer, as solve gives it, not a bad line
				twoMoves8 + "\t2",
			},
			lineErrs: []string{
				"line 2: bad board: 3 cells, want 9",
				"line 3: bad board: tile 1 appears twice",
				`line 5: bad board: cell 8: "q"`,
				"line 7: bad board",
			},
			final: []string{summary, "4 bad line(s)"},
		},
		{
			name:   "byte-order mark",
			files:  []string{p8},
			stdin:  "\ufeff" + goal8 + "\n" + twoMoves8 + "\n",
			code:   0,
			stdout: []string{goal8 + "\t0", twoMoves8 + "\t2"},
		},
		{
			name:     "byte-order mark only at the start",
			files:    []string{p8},
			stdin:    goal8 + "\n\ufeff" + twoMoves8 + "\n",
			code:     1,
			stdout:   []string{goal8 + "\t0"},
			lineErrs: []string{"line 2: bad board"},
			final:    []string{summary, "1 bad line(s)"},
		},
		{
			name:  "additive set",
			files: []string{p123, p456},
			stdin: goal8 + "\n" + hardest8 + "\n" + twoMoves8 + "\n" + swapped8 + "\n4 5 6 1 2 3 8 7 0\n",
			code:  0,
			stdout: []string{
				goal8 + "\t0",
				add(hardest8),
				add(twoMoves8),
				swapped8 + "\tunsolvable", // the sum exists, but the board has no distance
				add("4 5 6 1 2 3 8 7 0"),
			},
		},
		{
			name:     "additive bad line",
			files:    []string{p456, p123},
			stdin:    "0 1 2 3 4 5 6 7\n" + hardest8 + "\n",
			code:     1,
			stdout:   []string{add(hardest8)},
			lineErrs: []string{"line 1: bad board: 8 cells, want 9"},
			final:    []string{summary, "1 bad line(s)"},
		},
		{
			name:   "one additive table",
			files:  []string{p123},
			stdin:  hardest8 + "\n",
			code:   0,
			stdout: []string{fmt.Sprintf("%s\t%d", hardest8, v123(puzzle.Board{8, 6, 7, 2, 5, 4, 3, 0, 1}))},
		},
		{
			name:   "blank-first exact",
			files:  []string{p8bf},
			stdin:  "0 1 2 3 4 5 6 7 8\n1 0 2 3 4 5 6 7 8\n" + goal8 + "\n",
			code:   0,
			stdout: []string{"0 1 2 3 4 5 6 7 8\t0", "1 0 2 3 4 5 6 7 8\t1", goal8 + "\t22"},
		},
		{
			name:     "line over the limit",
			files:    []string{p8},
			stdin:    goal8 + "\n" + strings.Repeat("1 ", 50000) + "\n" + goal8 + "\n",
			code:     1,
			stdout:   []string{goal8 + "\t0", goal8 + "\t0"},
			lineErrs: []string{"line 2: line longer than 4096 bytes"},
			final:    []string{summary, "1 bad line(s)"},
		},
		{
			name:     "line over 1 MiB",
			files:    []string{p8},
			stdin:    strings.Repeat("x", 2<<20) + "\n" + goal8 + "\n",
			code:     1,
			stdout:   []string{goal8 + "\t0"},
			lineErrs: []string{"line 1: line longer than 4096 bytes"},
			final:    []string{summary, "1 bad line(s)"},
		},
		// Tables that do not combine are bad data (docs/commands.md: exit 1).
		{name: "same exact twice", files: []string{p8, p8}, stdin: goal8 + "\n", code: 1, final: []string{summary, "used alone"}},
		{name: "same additive twice", files: []string{p123, p123}, stdin: goal8 + "\n", code: 1, final: []string{summary, "not disjoint"}},
		{name: "exact with additive", files: []string{p123, p8}, stdin: goal8 + "\n", code: 1, final: []string{summary, "used alone"}},
		{name: "different boards", files: []string{p123, p2x2}, stdin: goal8 + "\n", code: 1, final: []string{summary, "board"}},
		{name: "different goals", files: []string{p123, p123bf}, stdin: goal8 + "\n", code: 1, final: []string{summary, "goal"}},
		{name: "missing table", files: []string{filepath.Join(dir, "missing.pdb")}, stdin: goal8 + "\n", code: 2, final: []string{summary, "missing.pdb"}},
		{name: "corrupt table", files: []string{corrupt(t, dir, p123, "payload"), p456}, stdin: goal8 + "\n", code: 1, final: []string{summary, "payload_3x3_1-2-3.pdb", "payload_sha256 mismatch"}},
		{name: "truncated table", files: []string{corrupt(t, dir, p8, "truncated")}, stdin: goal8 + "\n", code: 1, final: []string{summary, "truncated"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := pdbgen(t, tt.stdin, append([]string{"lookup"}, tt.files...)...)
			wantCode(t, r, tt.code)
			if got, want := strings.Join(lines(r.stdout), "\n"), strings.Join(tt.stdout, "\n"); got != want {
				t.Errorf("stdout:\n%s\nwant:\n%s\n(stderr: %s)", got, want, r.stderr)
			}
			el := lines(r.stderr)
			want := len(tt.lineErrs)
			if tt.final != nil {
				want++
			}
			if len(el) != want {
				t.Fatalf("%d stderr lines, want %d\n%v", len(el), want, r)
			}
			for i, prefix := range tt.lineErrs {
				if !strings.HasPrefix(el[i], prefix) {
					t.Errorf("stderr line %d = %q, want prefix %q", i+1, el[i], prefix)
				}
			}
			for _, sub := range tt.final {
				if last := el[len(el)-1]; !strings.Contains(last, sub) {
					t.Errorf("last stderr line %q lacks %q", last, sub)
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

// TestLookupFrom: lookup --from blank-first answers a blank-first board
// (Korf's 15-puzzle instance 1) with the value of its blank-last image, as
// solve --from does; without --from, lookup and solve answer it
// "unsolvable" (exit 0) and say once on stderr that it is solvable for
// blank-first, naming the flag (before the fix: no --from, no hint), and
// with --from a blank-last board gets the hint the other way. On 3x3, where
// both goals are reached from the same states, there is no hint.
func TestLookupFrom(t *testing.T) {
	dir := t.TempDir()
	wantCode(t, pdbgen(t, "", "build", "--quiet", "--board", "4x4", "--tiles", "1-3", "--preset", "", "-o", dir), 0)
	table := filepath.Join(dir, "4x4_1-2-3.pdb")
	const korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
	korf1b, err := puzzle.ParseBoard(korf1, 16)
	if err != nil {
		t.Fatal(err)
	}
	last := puzzle.BlankFirstToLast(korf1b).String()
	r := pdbgen(t, last+"\n", "lookup", table)
	wantCode(t, r, 0)
	_, value, _ := strings.Cut(strings.TrimSpace(r.stdout), "\t")
	if _, err := strconv.Atoi(value); err != nil {
		t.Fatalf("lookup of the converted board:\n%v", r)
	}

	r = pdbgen(t, korf1+"\n", "lookup", "--from", "blank-first", table)
	wantCode(t, r, 0)
	if r.stdout != korf1+"\t"+value+"\n" || r.stderr != "" {
		t.Errorf("lookup --from blank-first: want %q\n%v", korf1+"\t"+value, r)
	}

	hint := "pdbgen lookup: hint: " + korf1 + " is unsolvable for the goal blank-last but solvable for blank-first: give --from blank-first if the boards put the blank first (as Korf's instances do)\n"
	r = pdbgen(t, korf1+"\n"+korf1+"\n", "lookup", table)
	wantCode(t, r, 0)
	if r.stdout != korf1+"\tunsolvable\n"+korf1+"\tunsolvable\n" || r.stderr != hint {
		t.Errorf("lookup of a blank-first board: want the hint once, %q\n%v", hint, r)
	}
	r = pdbgen(t, korf1+"\nbad\n", "solve", "-j", "2", table)
	wantCode(t, r, 1) // the bad line
	if want := strings.Replace(hint, "lookup", "solve", 1); !strings.Contains(r.stderr, want) || strings.Count(r.stderr, "hint:") != 1 || !strings.Contains(r.stdout, korf1+" : unsolvable") {
		t.Errorf("solve of a blank-first board: want the hint %q\n%v", want, r)
	}
	goal := "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15" // one move from blank-last, so unsolvable for blank-first
	r = pdbgen(t, goal+"\n", "lookup", "--from", "blank-first", table)
	wantCode(t, r, 0)
	if want := "pdbgen lookup: hint: " + goal + " is unsolvable for the goal blank-first but solvable for blank-last: drop --from blank-first if the boards put the blank last\n"; r.stderr != want {
		t.Errorf("lookup --from of a blank-last board: want %q\n%v", want, r)
	}

	// 3x3: unsolvable for both goals alike, no hint; --from needs
	// blank-last tables; only blank-first is a --from.
	r = pdbgen(t, swapped8+"\n", "lookup", fixture(t, fx8))
	wantCode(t, r, 0)
	if r.stdout != swapped8+"\tunsolvable\n" || r.stderr != "" {
		t.Errorf("3x3 unsolvable board:\n%v", r)
	}
	r = pdbgen(t, goal8+"\n", "lookup", "--from", "blank-first", fixture(t, fx8bf))
	wantCode(t, r, 2)
	oneErrorLine(t, r, "lookup", "--from blank-first needs blank-last tables, but the tables' goal is blank-first")
	r = pdbgen(t, goal8+"\n", "lookup", "--from", "blank-last", fixture(t, fx8))
	wantCode(t, r, 2)
	oneErrorLine(t, r, "lookup", `--from: only "blank-first" is supported`)
}

// TestLookupParts checks lookup --parts: each board's sum, then each
// part's value in the order of the files, against values computed by the
// reference builder.
func TestLookupParts(t *testing.T) {
	p123, p456 := fixture(t, fx123), fixture(t, fx456)
	geom, err := puzzle.NewGeometry(3, 3)
	if err != nil {
		t.Fatal(err)
	}
	v123, v456 := refValues(t, geom, 1, 2, 3), refValues(t, geom, 4, 5, 6)
	var in, want strings.Builder
	for _, s := range []string{goal8, hardest8, twoMoves8, "4 5 6 1 2 3 8 7 0"} {
		b, err := puzzle.ParseBoard(s, 9)
		if err != nil {
			t.Fatal(err)
		}
		in.WriteString(s + "\n")
		fmt.Fprintf(&want, "%s\t%d\t%d,%d\n", b, v123(b)+v456(b), v123(b), v456(b))
	}
	r := pdbgen(t, in.String(), "lookup", "--parts", p123, p456)
	wantCode(t, r, 0)
	if r.stdout != want.String() {
		t.Fatalf("lookup --parts:\n%s\nwant:\n%s", r.stdout, want.String())
	}
}
