package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/verify"
)

// TestBigBoardLookup builds small tables on 6x6 and 7x7 boards with
// pdbgen build, verifies them, and checks pdbgen lookup on random
// solvable boards against the sum of the values verify.Reference (a plain
// 0-1 BFS that shares nothing with the builder) gives for each part; and
// that a board of another size is one "line N:" error.
func TestBigBoardLookup(t *testing.T) {
	cases := []struct {
		w, h  int
		parts [][]uint8
	}{
		{6, 6, [][]uint8{{1, 2}, {3, 9}, {8, 14}, {35}}},
		{7, 7, [][]uint8{{1, 2}, {8, 48}, {24}}},
	}
	rng := rand.New(rand.NewPCG(6, 7))
	for _, c := range cases {
		g := pdbtest.Geometry(t, c.w, c.h)
		t.Run(g.String(), func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"build", "--board", g.String(), "-o", dir}
			var files []string
			var refs [][]uint8
			var pats []*puzzle.Pattern
			for _, part := range c.parts {
				var ts []string
				for _, x := range part {
					ts = append(ts, strconv.Itoa(int(x)))
				}
				args = append(args, "--tiles", strings.Join(ts, ","))
				files = append(files, filepath.Join(dir, fmt.Sprintf("%s_%s.pdb", g, strings.Join(ts, "-"))))
				p := pdbtest.Pattern(t, c.w, c.h, "blank-last", part...)
				ref, err := verify.Reference(context.Background(), p)
				if err != nil {
					t.Fatal(err)
				}
				refs, pats = append(refs, ref), append(pats, p)
			}
			wantCode(t, pdbgen(t, "", args...), 0)
			wantCode(t, pdbgen(t, "", append([]string{"verify"}, files...)...), 0)

			var in, want strings.Builder
			goal := puzzle.BlankLastGoal(g)
			for i := range 40 {
				b := goal
				if i > 0 {
					b = pdbtest.RandomSolvable(rng, g, goal)
				}
				sum := 0
				for j, p := range pats {
					sum += int(refs[j][p.Rank(b.Positions())])
				}
				fmt.Fprintf(&in, "%s\n", b)
				fmt.Fprintf(&want, "%s\t%d\n", b, sum)
			}
			r := pdbgen(t, in.String(), append([]string{"lookup"}, files...)...)
			wantCode(t, r, 0)
			if r.stdout != want.String() {
				t.Fatalf("lookup differs from the reference:\n%s\nwant:\n%s", r.stdout, want.String())
			}
			// A board of 65 cells, and one of the wrong size.
			var bad []string
			for i := range 65 {
				bad = append(bad, strconv.Itoa(i))
			}
			r = pdbgen(t, strings.Join(bad, " ")+"\n1 2 3 0\n", append([]string{"lookup"}, files...)...)
			wantCode(t, r, 1)
			for _, w := range []string{"line 1: bad board: 65 cells, want " + strconv.Itoa(g.N()), "line 2: bad board: 4 cells, want " + strconv.Itoa(g.N())} {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q\n%v", w, r)
				}
			}
		})
	}
}
