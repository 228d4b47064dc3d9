package solver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
)

// solveOne solves the board written as text with sv.
func solveOne(t *testing.T, sv *Solver, text string) Result {
	t.Helper()
	b, err := puzzle.ParseBoard(text, sv.Geometry().N())
	if err != nil {
		t.Fatal(err)
	}
	res, err := sv.solve(b)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestResultText checks the text line of a solved and a converted board.
func TestResultText(t *testing.T) {
	s := set(t, 3, 3, "blank-last")
	if got, want := solveOne(t, newSolver(t, s, Options{}), "1 2 3 4 5 6 0 7 8").String(), "1 2 3 4 5 6 0 7 8 : length 2 moves rr nodes 4"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := solveOne(t, newSolver(t, s, Options{}), "2 1 3 4 5 6 7 8 0").String(), "2 1 3 4 5 6 7 8 0 : unsolvable"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// Blank-first board one move from the blank-first goal: blank moves left.
	got := solveOne(t, newSolver(t, s, Options{FromBlankFirst: true}), "1 0 2 3 4 5 6 7 8").String()
	if want := "1 0 2 3 4 5 6 7 8 : length 1 moves l nodes "; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, " converted-from blank-first") {
		t.Errorf("got %q, want %q... converted-from blank-first", got, want)
	}
}

// TestResultJSON checks the JSON objects: keys, values, and replay of the
// moves on the board as given.
func TestResultJSON(t *testing.T) {
	s := set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8})
	for _, conv := range []bool{false, true} {
		sv := newSolver(t, s, Options{FromBlankFirst: conv, Reflect: true})
		var lines [2]string
		for i, text := range []string{"8 6 7 2 5 4 3 0 1", "2 1 3 4 5 6 7 8 0"} {
			out, err := solveOne(t, sv, text).MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			lines[i] = string(out)
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
