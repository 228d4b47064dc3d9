package solver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// run calls Run on input and returns stdout, stderr and the error.
func run(t testing.TB, sv *Solver, input string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := Run(context.Background(), sv, strings.NewReader(input), &out, &errOut)
	return out.String(), errOut.String(), err
}

// TestRunBadInput: bad lines are reported on errw with their line numbers,
// the other lines are still answered in order, and Run returns an error
// wrapping ErrBadInput.
func TestRunBadInput(t *testing.T) {
	sv := newSolver(t, set(t, 3, 3, "blank-last"), Options{Workers: 3})
	input := strings.Join([]string{
		"# a comment",                           // 1
		"1 2 3 4 5 6 7 0 8",                     // 2 good
		"1 2 3 4 5 5 7 8 0",                     // 3 tile 6 missing... and 5 twice
		"",                                      // 4 blank
		"1 2 3 4 5 6 7 8",                       // 5 too few
		"1 2 3 4 y 6 7 8 0",                     // 6 foreign symbol
		"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", // 7 a 4x4 board for 3x3 tables
		"   # indented comment",                 // 8
		"2 1 3 4 5 6 7 8 0",                     // 9 unsolvable: answered
		"1,2,3,4,5,6,7,8,x",                     // 10 good, other syntax
		"1 2 3 4 5 6 7 8 0 0",                   // 11 too many
		strings.Repeat("1 ", MaxLineLen),        // 12 too long
		"0 1 2 3 4 5 6 7 8",                     // 13 good, no trailing newline
	}, "\n")
	out, errOut, err := run(t, sv, input)
	if !errors.Is(err, ErrBadInput) {
		t.Fatalf("error %v, want ErrBadInput", err)
	}
	if !strings.Contains(err.Error(), "6 bad line") {
		t.Errorf("error %q does not count 6 bad lines", err)
	}
	wantErr := []string{
		"line 3: bad board: tile 5 appears twice",
		"line 5: bad board: 8 cells, want 9",
		`line 6: bad board: cell 4: "y" is not a tile number or blank (0, x, _)`,
		"line 7: bad board: 16 cells, want 9",
		"line 11: bad board: 10 cells, want 9",
		fmt.Sprintf("line 12: bad board: line longer than %d bytes", MaxLineLen),
	}
	if got := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n"); strings.Join(got, "\n") != strings.Join(wantErr, "\n") {
		t.Errorf("stderr:\n%s\nwant:\n%s", errOut, strings.Join(wantErr, "\n"))
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{
		"1 2 3 4 5 6 7 0 8 : length 1 moves r nodes ",
		"2 1 3 4 5 6 7 8 0 : unsolvable",
		"1 2 3 4 5 6 7 8 0 : length 0 moves - nodes 0",
		"0 1 2 3 4 5 6 7 8 : length 22 moves ",
	}
	if len(lines) != len(want) {
		t.Fatalf("stdout has %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i := range want {
		if !strings.HasPrefix(lines[i], want[i]) {
			t.Errorf("stdout line %d: %q, want prefix %q", i+1, lines[i], want[i])
		}
	}
	// All good: nil error, nothing on stderr.
	out, errOut, err = run(t, sv, "# only good\n\n1 2 3 4 5 6 7 0 8\r\n")
	if err != nil || errOut != "" || out == "" {
		t.Fatalf("good input: err %v stderr %q stdout %q", err, errOut, out)
	}
	// Empty input: no output, no error.
	if out, errOut, err = run(t, sv, ""); err != nil || out != "" || errOut != "" {
		t.Fatalf("empty input: err %v stderr %q stdout %q", err, errOut, out)
	}
}

// TestRunText checks the text line of a solved and a converted board.
func TestRunText(t *testing.T) {
	s := set(t, 3, 3, "blank-last")
	out, _, err := run(t, newSolver(t, s, Options{}), "1 2 3 4 5 6 0 7 8\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "1 2 3 4 5 6 0 7 8 : length 2 moves rr nodes 4\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	// Blank-first board one move from the blank-first goal: blank moves left.
	out, _, err = run(t, newSolver(t, s, Options{FromBlankFirst: true}), "1 0 2 3 4 5 6 7 8\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "1 0 2 3 4 5 6 7 8 : length 1 moves l nodes "; !strings.HasPrefix(out, want) || !strings.HasSuffix(out, " converted-from blank-first\n") {
		t.Errorf("got %q, want %q... converted-from blank-first", out, want)
	}
}

// TestRunJSON checks the JSON objects: keys, values, and replay of the
// moves on the board as given.
func TestRunJSON(t *testing.T) {
	s := set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8})
	for _, conv := range []bool{false, true} {
		sv := newSolver(t, s, Options{JSON: true, FromBlankFirst: conv, Reflect: true, Workers: 2})
		out, _, err := run(t, sv, "8 6 7 2 5 4 3 0 1\n2 1 3 4 5 6 7 8 0\n")
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 2 {
			t.Fatalf("%d lines: %q", len(lines), out)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(lines[0]), &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"board", "length", "moves", "nodes", "solvable"} {
			if _, ok := m[k]; !ok {
				t.Errorf("%s: no key %q", lines[0], k)
			}
		}
		if _, ok := m["converted_from"]; ok != conv {
			t.Errorf("%s: converted_from present %v, want %v", lines[0], ok, conv)
		}
		var r struct {
			Board         []uint8
			Length        int
			Moves         string
			Solvable      bool
			ConvertedFrom string `json:"converted_from"`
		}
		if err := json.Unmarshal([]byte(lines[0]), &r); err != nil {
			t.Fatal(err)
		}
		goal := s.Goal
		if conv {
			goal = puzzle.BlankFirstGoal(s.Geom)
			if r.ConvertedFrom != "blank-first" {
				t.Errorf("converted_from %q", r.ConvertedFrom)
			}
		} else if r.Length != 31 {
			t.Errorf("length %d, want 31", r.Length)
		}
		if !r.Solvable {
			t.Fatalf("%s: not solvable", lines[0])
		}
		checkReplay(t, s.Geom, puzzle.Board(r.Board), goal, r.Moves, r.Length)
		if !strings.Contains(lines[1], `"solvable":false`) || !strings.Contains(lines[1], `"length":null`) || !strings.Contains(lines[1], `"moves":null`) {
			t.Errorf("unsolvable: %s", lines[1])
		}
	}
}

// TestRunWorkers: the output does not depend on the number of workers.
func TestRunWorkers(t *testing.T) {
	s := set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8})
	rng := rand.New(rand.NewPCG(11, 12))
	var sb strings.Builder
	for i := range 200 {
		if i%37 == 5 {
			sb.WriteString("1 2 3\n") // bad lines interleaved
		}
		sb.WriteString(pdbtest.RandomWalk(rng, s.Geom, s.Goal, 100).String())
		sb.WriteByte('\n')
	}
	var first, firstErr string
	for _, j := range []int{1, 2, 5} {
		out, errOut, err := run(t, newSolver(t, s, Options{Workers: j, Reflect: true}), sb.String())
		if !errors.Is(err, ErrBadInput) {
			t.Fatalf("-j %d: error %v", j, err)
		}
		if j == 1 {
			first, firstErr = out, errOut
			continue
		}
		if out != first || errOut != firstErr {
			t.Fatalf("-j %d output differs from -j 1", j)
		}
	}
	if n := strings.Count(first, "\n"); n != 200 {
		t.Fatalf("%d answers, want 200", n)
	}
}

// TestRunCancel: a cancelled context stops Run with its error.
func TestRunCancel(t *testing.T) {
	sv := newSolver(t, set(t, 3, 3, "blank-last"), Options{Workers: 2})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	err := Run(ctx, sv, strings.NewReader(strings.Repeat("1 2 3 4 5 6 7 0 8\n", 1000)), &out, &out)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestRunWriteError: a write error is returned.
func TestRunWriteError(t *testing.T) {
	sv := newSolver(t, set(t, 3, 3, "blank-last"), Options{Workers: 2})
	err := Run(context.Background(), sv, strings.NewReader(strings.Repeat("1 2 3 4 5 6 7 0 8\n", 1000)), failWriter{}, failWriter{})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("error %v, want the write error", err)
	}
}

// errReader returns some data, then an error.
type errReader struct{ done bool }

func (r *errReader) Read(p []byte) (int, error) {
	if r.done {
		return 0, errors.New("device gone")
	}
	r.done = true
	return copy(p, "1 2 3 4 5 6 7 0 8\n"), nil
}

// TestRunReadError: a read error is returned.
func TestRunReadError(t *testing.T) {
	sv := newSolver(t, set(t, 3, 3, "blank-last"), Options{})
	var out bytes.Buffer
	err := Run(context.Background(), sv, &errReader{}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "device gone") {
		t.Fatalf("error %v, want the read error", err)
	}
}

// FuzzRunLine feeds arbitrary input to Run: it must never panic, must
// answer or report every non-comment line exactly once, and every answer
// must replay to the goal.
func FuzzRunLine(f *testing.F) {
	s := set(f, 3, 3, "blank-last")
	sv := newSolver(f, s, Options{Workers: 2})
	for _, seed := range []string{
		"1 2 3 4 5 6 7 0 8",
		"8 6 7 2 5 4 3 0 1\n# c\n\n1 2 3",
		"1,2,3,4,5,6,7,8,x\r\n",
		"1 2 3 4 5 6 7 8 9",
		"-1 2 3 4 5 6 7 8 0",
		"99999999999999999999 1 2 3 4 5 6 7 8",
		"1 2 3 4 5 6 7 8 0 0",
		"\x00\xff",
		"0 0 0 0 0 0 0 0 0",
		"_ 1 2 3 4 5 6 7 8\n\n\n\t\n",
		"1\t2\t3\t4\t5\t6\t7\t8\t0",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		var out, errOut bytes.Buffer
		err := Run(context.Background(), sv, strings.NewReader(input), &out, &errOut)
		nOut := strings.Count(out.String(), "\n")
		nErr := strings.Count(errOut.String(), "\n")
		if (nErr > 0) != (err != nil) {
			t.Fatalf("%d error lines but error %v", nErr, err)
		}
		want := 0
		for _, l := range strings.Split(strings.ReplaceAll(input, "\r\n", "\n"), "\n") {
			if tl := strings.TrimSpace(l); tl != "" && !strings.HasPrefix(tl, "#") {
				want++
			} else if len(l) > MaxLineLen {
				want++
			}
		}
		if nOut+nErr != want {
			t.Fatalf("%d answers + %d errors for %d lines", nOut, nErr, want)
		}
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if line == "" {
				continue
			}
			boardText, rest, ok := strings.Cut(line, " : ")
			if !ok {
				t.Fatalf("answer %q", line)
			}
			b, perr := puzzle.ParseBoard(boardText, 9)
			if perr != nil {
				t.Fatalf("answer %q: %v", line, perr)
			}
			if rest == "unsolvable" {
				continue
			}
			var length, nodes int
			var moves string
			if _, serr := fmt.Sscanf(rest, "length %d moves %s nodes %d", &length, &moves, &nodes); serr != nil {
				t.Fatalf("answer %q: %v", line, serr)
			}
			if moves == "-" {
				moves = ""
			}
			checkReplay(t, s.Geom, b, s.Goal, moves, length)
		}
	})
}
