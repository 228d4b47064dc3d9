// Package pdbtest holds the helpers shared by the tests of tilepdb's
// packages, so that each is written (and reviewed) once: patterns from a
// short description, random solvable boards, a brute-force breadth-first
// search written independently of the ranking functions and the builder,
// and a reader for the published counts kept in testdata files.
//
// Only tests import it. It imports puzzle, so tests inside package puzzle
// use it from the external test package puzzle_test.
package pdbtest

import (
	"bufio"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
)

// Geometry returns the w×h geometry or fails the test.
func Geometry(tb testing.TB, w, h int) puzzle.Geometry {
	tb.Helper()
	g, err := puzzle.NewGeometry(w, h)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// Pattern returns the pattern of tiles on a w×h board or fails the test.
// goal is "blank-last", "blank-first" or a board (see puzzle.ParseGoal);
// no tiles means all tiles, the exact table.
func Pattern(tb testing.TB, w, h int, goal string, tiles ...uint8) *puzzle.Pattern {
	tb.Helper()
	g := Geometry(tb, w, h)
	gb, err := puzzle.ParseGoal(goal, g)
	if err != nil {
		tb.Fatal(err)
	}
	if len(tiles) == 0 {
		tiles = AllTiles(g)
	}
	p, err := puzzle.NewPattern(g, gb, tiles)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// AllTiles returns the tiles 1..N-1 of g: the tile set of the exact table.
func AllTiles(g puzzle.Geometry) []uint8 {
	tiles := make([]uint8, 0, g.N()-1)
	for t := 1; t < g.N(); t++ {
		tiles = append(tiles, uint8(t))
	}
	return tiles
}

// MakeSolvable makes b (a valid board of g) solvable for goal in place:
// when it is not, it swaps the first two cells that do not hold the blank,
// which flips the permutation's parity and keeps the blank's cell.
func MakeSolvable(g puzzle.Geometry, b, goal puzzle.Board) {
	if puzzle.Solvable(g, b, goal) {
		return
	}
	i, j := 0, 1
	if b[i] == 0 {
		i = 2
	} else if b[j] == 0 {
		j = 2
	}
	b[i], b[j] = b[j], b[i]
}

// RandomSolvable returns a board drawn uniformly from the boards of g
// solvable for goal: a uniform permutation, made solvable by MakeSolvable
// (a bijection between the two halves).
func RandomSolvable(rng *rand.Rand, g puzzle.Geometry, goal puzzle.Board) puzzle.Board {
	n := g.N()
	b := make(puzzle.Board, n)
	for i := range b {
		b[i] = uint8(i)
	}
	rng.Shuffle(n, func(i, j int) { b[i], b[j] = b[j], b[i] })
	MakeSolvable(g, b, goal)
	return b
}

// RandomWalk returns the board reached from start by steps random blank
// moves (a move may undo the previous one). start is not modified.
func RandomWalk(rng *rand.Rand, g puzzle.Geometry, start puzzle.Board, steps int) puzzle.Board {
	b := slices.Clone(start)
	blank := slices.Index(b, 0)
	for range steps {
		for {
			to, ok := g.Step(blank, puzzle.Directions[rng.IntN(4)])
			if ok {
				b[blank], b[to] = b[to], 0
				blank = to
				break
			}
		}
	}
	return b
}

// Distances returns the number of moves from every board reachable from
// goal to goal, keyed by string(board) (the raw cell bytes), by a plain
// breadth-first search over whole boards. It works out the moves from rows
// and columns itself and uses neither the ranking functions, nor
// solvability, nor Geometry.Step, so tests can check all of those against
// it. It holds every reachable board in a map: keep to boards of at most
// 9 cells (N!/2 = 181,440 boards).
func Distances(g puzzle.Geometry, goal puzzle.Board) map[string]int {
	w, h := g.W, g.H
	dist := map[string]int{string(goal): 0}
	queue := []string{string(goal)}
	for len(queue) > 0 {
		key := queue[0]
		queue = queue[1:]
		d := dist[key]
		b := []byte(key)
		blank := strings.IndexByte(key, 0)
		r, c := blank/w, blank%w
		for _, step := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			nr, nc := r+step[0], c+step[1]
			if nr < 0 || nr >= h || nc < 0 || nc >= w {
				continue
			}
			o := nr*w + nc
			b[blank], b[o] = b[o], b[blank]
			if k := string(b); !hasKey(dist, k) {
				dist[k] = d + 1
				queue = append(queue, k)
			}
			b[blank], b[o] = b[o], b[blank]
		}
	}
	return dist
}

func hasKey(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}

// ReadCounts reads the unsigned decimal numbers of a testdata file in
// order, skipping blank lines and lines whose first non-blank character is
// '#' (comments naming the source of published figures). It fails the test
// when the file cannot be read or a field is not a number.
func ReadCounts(tb testing.TB, path string) []uint64 {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []uint64
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(text), "#") {
			continue
		}
		for _, fld := range strings.Fields(text) {
			v, err := strconv.ParseUint(fld, 10, 64)
			if err != nil {
				tb.Fatalf("%s:%d: %v", path, line, err)
			}
			out = append(out, v)
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return out
}
