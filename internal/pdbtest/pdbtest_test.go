package pdbtest

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
)

// TestDistances checks the brute-force search on small boards: it reaches
// N!/2 boards (half the permutations), the goal is at 0, and every board's
// neighbours are one move closer or farther (a BFS labelling), with at
// least one closer for every board but the goal.
func TestDistances(t *testing.T) {
	for _, size := range [][2]int{{2, 2}, {2, 3}, {3, 2}, {3, 3}} {
		g := Geometry(t, size[0], size[1])
		goal := puzzle.BlankLastGoal(g)
		dist := Distances(g, goal)
		half := 1
		for i := 3; i <= g.N(); i++ {
			half *= i
		}
		if len(dist) != half {
			t.Fatalf("%s: %d boards, want N!/2 = %d", g, len(dist), half)
		}
		if dist[string(goal)] != 0 {
			t.Fatalf("%s: goal at %d", g, dist[string(goal)])
		}
		for key, d := range dist {
			b := []byte(key)
			blank := slices.Index(b, 0)
			closer := false
			for _, dir := range puzzle.Directions {
				to, ok := g.Step(blank, dir)
				if !ok {
					continue
				}
				b[blank], b[to] = b[to], b[blank]
				e, seen := dist[string(b)]
				b[blank], b[to] = b[to], b[blank]
				if !seen || (e != d-1 && e != d+1) {
					t.Fatalf("%s: %v at %d has a neighbour at %d (seen %v)", g, key, d, e, seen)
				}
				closer = closer || e == d-1
			}
			if d > 0 && !closer {
				t.Fatalf("%s: %v at %d has no neighbour closer", g, []byte(key), d)
			}
		}
	}
}

// TestRandomBoards checks that RandomSolvable and RandomWalk give valid
// boards solvable for the goal, and that MakeSolvable fixes an unsolvable
// board with a single swap that leaves the blank in place.
func TestRandomBoards(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range [][2]int{{2, 2}, {3, 3}, {4, 4}, {5, 3}} {
		g := Geometry(t, size[0], size[1])
		for _, goal := range []puzzle.Board{puzzle.BlankLastGoal(g), puzzle.BlankFirstGoal(g)} {
			for range 200 {
				for _, b := range []puzzle.Board{RandomSolvable(rng, g, goal), RandomWalk(rng, g, goal, rng.IntN(50))} {
					if err := b.Validate(g.N()); err != nil || !puzzle.Solvable(g, b, goal) {
						t.Fatalf("%s: %v: %v, solvable %v", g, b, err, puzzle.Solvable(g, b, goal))
					}
				}
				b := RandomSolvable(rng, g, goal)
				i, j := 0, 1
				if b[i] == 0 || b[j] == 0 {
					i, j = 2, 3
				}
				b[i], b[j] = b[j], b[i] // now unsolvable
				fixed := slices.Clone(b)
				MakeSolvable(g, fixed, goal)
				diff := 0
				for c := range b {
					if b[c] != fixed[c] {
						diff++
					}
				}
				if !puzzle.Solvable(g, fixed, goal) || diff != 2 || slices.Index(b, 0) != slices.Index(fixed, 0) {
					t.Fatalf("%s: MakeSolvable(%v) = %v", g, b, fixed)
				}
			}
		}
	}
}

// TestReadCounts reads numbers across lines and skips comments; a bad
// field fails the test.
func TestReadCounts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "counts.txt")
	if err := os.WriteFile(path, []byte("# source: a comment 12\n1 2\n\n  # indented comment\n3\t18446744073709551615\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := ReadCounts(t, path), []uint64{1, 2, 3, 1<<64 - 1}; !slices.Equal(got, want) {
		t.Fatalf("ReadCounts = %v, want %v", got, want)
	}
}

// TestPattern: no tiles means the exact table.
func TestPattern(t *testing.T) {
	if p := Pattern(t, 3, 3, "blank-first"); !p.Exact || p.K() != 8 {
		t.Fatalf("%s: exact %v, k %d", p, p.Exact, p.K())
	}
	if p := Pattern(t, 4, 4, "blank-last", 3, 1, 2); p.Exact || !slices.Equal(p.Tiles, []uint8{1, 2, 3}) {
		t.Fatalf("%s", p)
	}
}

// TestRefRanks checks the reference ranking against facts that need no
// ranking code: permutations of 0..4 in lexicographic order (generated
// here by Heap-free recursion) get ranks 0, 1, 2, ...; the cellset-order
// ranks of all 3-permutations of 6 cells are exactly 0..6·5·4-1; small
// binomials and factorials are the textbook values.
func TestRefRanks(t *testing.T) {
	next := uint64(0)
	var rec func(prefix []uint8, used uint32)
	rec = func(prefix []uint8, used uint32) {
		if len(prefix) == 5 {
			if r := RefLehmer(prefix); r != next {
				t.Fatalf("RefLehmer(%v) = %d, want %d", prefix, r, next)
			}
			next++
			return
		}
		for v := uint8(0); v < 5; v++ {
			if used&(1<<v) == 0 {
				rec(append(prefix, v), used|1<<v)
			}
		}
	}
	rec(nil, 0)
	if next != 120 {
		t.Fatalf("%d permutations", next)
	}
	seen := map[uint64]bool{}
	for a := uint8(0); a < 6; a++ {
		for b := uint8(0); b < 6; b++ {
			for c := uint8(0); c < 6; c++ {
				if a == b || b == c || a == c {
					continue
				}
				r := RefCellsetOrder(6, []uint8{a, b, c})
				if r >= 120 || seen[r] {
					t.Fatalf("RefCellsetOrder(6, %d %d %d) = %d: out of range or repeated", a, b, c, r)
				}
				seen[r] = true
			}
		}
	}
	if RefBinomial(5, 2) != 10 || RefBinomial(25, 12) != 5200300 || RefBinomial(3, 4) != 0 || RefFactorial(20) != 2432902008176640000 {
		t.Fatal("RefBinomial or RefFactorial wrong")
	}
}
