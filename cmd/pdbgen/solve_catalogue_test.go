package main

import (
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/solver"
)

// TestSolveCatalogueKit: solve on the kit's catalogues (4x4 and 3x2, plain
// and zero-aware tables, several partitions; one partition) finds the
// optimal lengths of the bidirectional search, with and without
// --reflect, on one and two threads; wastar stays within its weight and
// anytime ends at the optimum.
func TestSolveCatalogueKit(t *testing.T) {
	kit := filepath.Join("..", "..", "readers", "testdata", "sets")
	for _, c := range []struct {
		file       string
		w, h, walk int
	}{
		{"good-catalogue.set.json", 4, 4, 50},
		{"good-catalogue-zero-aware.set.json", 4, 4, 50},
		{"good-catalogue-one.set.json", 4, 4, 50},
		{"good-catalogue-3x2.set.json", 3, 2, 30},
	} {
		t.Run(c.file, func(t *testing.T) {
			geom, _ := puzzle.NewGeometry(c.w, c.h)
			goal := puzzle.BlankLastGoal(geom)
			rng := rand.New(rand.NewPCG(18, uint64(c.w*c.h)))
			var in strings.Builder
			var boards []string
			for range 5 {
				b := append(puzzle.Board(nil), goal...)
				blank := len(b) - 1
				for range c.walk {
					if to, ok := geom.Step(blank, puzzle.Direction(rng.IntN(4))); ok {
						b[blank], b[to] = b[to], 0
						blank = to
					}
				}
				boards = append(boards, b.String())
				in.WriteString(b.String() + "\n")
			}
			file := filepath.Join(kit, c.file)
			bid := pdbgen(t, in.String(), "solve", "--algorithm", "bidirectional", "--board", strconv.Itoa(c.w)+"x"+strconv.Itoa(c.h))
			wantCode(t, bid, 0)
			opt := map[string]int{}
			for _, l := range lines(bid.stdout) {
				b := parseBounded(t, l, false)
				opt[b.board] = b.length
			}
			if len(opt) != len(boards) {
				t.Fatalf("bidirectional:\n%v", bid)
			}
			var first string
			for _, args := range [][]string{{}, {"-t", "2"}, {"--reflect"}, {"--reflect", "-t", "2"}} {
				if c.w != c.h && len(args) > 0 && args[0] == "--reflect" {
					continue
				}
				r := pdbgen(t, in.String(), append(append([]string{"solve"}, args...), file)...)
				wantCode(t, r, 0)
				ls := lines(r.stdout)
				if len(ls) != len(boards) {
					t.Fatalf("solve %v:\n%v", args, r)
				}
				for i, l := range ls {
					m := solveRE.FindStringSubmatch(l)
					if m == nil || m[1] != boards[i] || m[2] != strconv.Itoa(opt[boards[i]]) {
						t.Fatalf("solve %v: %q, optimum %d", args, l, opt[boards[i]])
					}
					replay(t, geom, m[1], m[3], opt[boards[i]], goal)
				}
				if len(args) == 0 || args[0] != "--reflect" {
					// The threads change neither moves nor node counts.
					if first == "" {
						first = r.stdout
					} else if r.stdout != first {
						t.Errorf("-t 2:\n%s\n-t 1:\n%s", r.stdout, first)
					}
				}
			}
			r := pdbgen(t, in.String(), "solve", "--weight", "2", file)
			wantCode(t, r, 0)
			for _, l := range lines(r.stdout) {
				b := parseBounded(t, l, false)
				if b.length < opt[b.board] || b.length > 2*opt[b.board] || b.lower > opt[b.board] {
					t.Errorf("wastar %q, optimum %d", l, opt[b.board])
				}
				replay(t, geom, b.board, b.moves, b.length, goal)
			}
			r = pdbgen(t, in.String(), "solve", "--anytime", "--json", file)
			wantCode(t, r, 0)
			final := 0
			for _, l := range lines(r.stdout) {
				b := parseBounded(t, l, true)
				if b.length < opt[b.board] || b.lower > opt[b.board] {
					t.Errorf("anytime %q, optimum %d", l, opt[b.board])
				}
				replay(t, geom, b.board, b.moves, b.length, goal)
				if !b.improved {
					final++
					if !b.optimal || b.length != opt[b.board] {
						t.Errorf("anytime final %q, optimum %d", l, opt[b.board])
					}
				}
			}
			if final != len(boards) {
				t.Errorf("anytime: %d final lines\n%v", final, r)
			}
		})
	}
}

// TestSolveCatalogue663: solve on the 15-663 catalogue (the identity and
// the transposed partitions: exactly 6-6-3 with the reflected lookup)
// finds the published lengths of four of Korf's first ten instances (the
// quickest: 400,000 nodes in all with 6-6-3 alone), with moves that
// replay, the same on two threads, and never more nodes than the identity
// partition alone.
func TestSolveCatalogue663(t *testing.T) {
	dir := catalogue663(t)
	var ks []korf
	for _, k := range korf10(t) {
		switch k.id {
		case 1, 2, 6, 9:
			ks = append(ks, k)
		}
	}
	var in strings.Builder
	for _, k := range ks {
		in.WriteString(k.board + "\n")
	}
	geom, _ := puzzle.NewGeometry(4, 4)
	goalFirst := puzzle.BlankFirstGoal(geom)
	nodes := func(r result) []uint64 {
		t.Helper()
		wantCode(t, r, 0)
		ls := lines(r.stdout)
		if len(ls) != len(ks) {
			t.Fatalf("%v", r)
		}
		var out []uint64
		for i, l := range ls {
			m := solveRE.FindStringSubmatch(l)
			if m == nil || m[1] != ks[i].board || m[2] != strconv.Itoa(ks[i].opt) {
				t.Fatalf("%q for instance %d (optimum %d)", l, ks[i].id, ks[i].opt)
			}
			replay(t, geom, m[1], m[3], ks[i].opt, goalFirst)
			n, _ := strconv.ParseUint(m[4], 10, 64)
			out = append(out, n)
		}
		return out
	}
	cat := filepath.Join(dir, "cat.set.json")
	r1 := pdbgen(t, in.String(), "solve", "--from", "blank-first", cat)
	nc := nodes(r1)
	r2 := pdbgen(t, in.String(), "solve", "--from", "blank-first", "-t", "2", cat)
	nodes(r2)
	if r1.stdout != r2.stdout {
		t.Errorf("-t 2:\n%s\n-t 1:\n%s", r2.stdout, r1.stdout)
	}
	// (The compact index generates the same nodes, and spares the test the
	// direct index copies.)
	np := nodes(pdbgen(t, in.String(), "solve", "--from", "blank-first", "--compact-index", filepath.Join(dir, "id.set.json")))
	for i := range ks {
		if nc[i] > np[i] {
			t.Errorf("instance %d: %d nodes with the catalogue, %d with 6-6-3 alone", ks[i].id, nc[i], np[i])
		}
	}
}

// replay checks that moves ("-" for none) take board (on geom) to goal in
// length moves.
func replay(t *testing.T, geom puzzle.Geometry, board, moves string, length int, goal puzzle.Board) {
	t.Helper()
	b, err := puzzle.ParseBoard(board, geom.N())
	if err != nil {
		t.Fatal(err)
	}
	if moves == "-" {
		moves = ""
	}
	end, err := solver.Apply(geom, b, moves)
	if err != nil || len(moves) != length || !end.Equal(goal) {
		t.Fatalf("%s: moves %q (%d for length %d) end at %s, not the goal %s (%v)", board, moves, len(moves), length, end, goal, err)
	}
}
