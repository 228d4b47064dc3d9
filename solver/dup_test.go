package solver

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TILEPDB_DUP_DEPTH sets the depth of the duplicate-path automaton (of
// additive sets and of catalogues alike) for the tests of this package (for measuring the node counts by depth; 6 is the
// former 2x2 rule): TILEPDB_DUP_DEPTH=10 go test ./solver -run ... .
func init() {
	if v := os.Getenv("TILEPDB_DUP_DEPTH"); v != "" {
		d, err := strconv.Atoi(v)
		if err != nil {
			panic("TILEPDB_DUP_DEPTH: " + err.Error())
		}
		dupDepth, dupDepthCatalogue = d, d
	}
}

// smallestPath is the smallest (in the order u < d < l < r) of the
// shortest paths from b to the goal whose distances dist holds: at each
// step the first move that gets one closer.
func smallestPath(t *testing.T, g puzzle.Geometry, dist map[string]int, b puzzle.Board) string {
	b = append(puzzle.Board(nil), b...)
	blank := 0
	for c, v := range b {
		if v == 0 {
			blank = c
		}
	}
	var path []byte
	for d := dist[string(b)]; d > 0; d-- {
		moved := false
		for _, dir := range puzzle.Directions {
			to, ok := g.Step(blank, dir)
			if !ok {
				continue
			}
			b[blank], b[to] = b[to], 0
			if dist[string(b)] == d-1 {
				path = append(path, dir.Letter())
				blank = to
				moved = true
				break
			}
			b[to], b[blank] = b[blank], 0
		}
		if !moved {
			t.Fatalf("%v: no neighbour at distance %d", b, d-1)
		}
	}
	return string(path)
}

// TestSmallestOptimal8 checks on the 8-puzzle that IDA* with the
// duplicate-path automaton returns exactly the smallest optimal solution
// (shortest, then first in the order u < d < l < r), as found by
// breadth-first search: the automaton never cuts it. Random states (every
// state with -long), one and two threads, with and without reflection; an
// additive set (automaton of depth dupDepth) and a zero-aware catalogue
// held at 1 bit (depth dupDepthCatalogue, whose strings of 15 and 16 moves
// the 8-puzzle's longest solutions, 31 moves, can contain).
func TestSmallestOptimal8(t *testing.T) {
	g := puzzle.Geometry{W: 3, H: 3}
	cat := catalogueSet(t, true, 3, 3, puzzle.GoalBlankLast,
		[][]uint8{{1, 2, 3}, {4, 5, 6}, {7, 8}}, [][]uint8{{1, 4, 7}, {2, 5, 8}, {3, 6}})
	for _, s := range []*format.Set{set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), cat} {
		smallestOptimal(t, g, s)
	}
}

// smallestOptimal is TestSmallestOptimal8 for one set.
func smallestOptimal(t *testing.T, g puzzle.Geometry, s *format.Set) {
	dist := pdbtest.Distances(g, s.Goal)
	var boards []puzzle.Board
	if *long {
		for k := range dist {
			boards = append(boards, puzzle.Board(k))
		}
	} else {
		rng := rand.New(rand.NewPCG(18, 3))
		n := 1500
		if raceEnabled {
			n = 200
		}
		for range n {
			boards = append(boards, pdbtest.RandomSolvable(rng, g, s.Goal))
		}
	}
	for _, opt := range []Options{{}, {Reflect: true}, {Threads: 2}} {
		sv := newSolver(t, s, opt)
		if (len(s.Partitions) > 1) != (sv.cat != nil) {
			t.Fatalf("%+v: catalogue %v searched as one: %v", opt, len(s.Partitions) > 1, sv.cat != nil)
		}
		for _, b := range boards {
			res, err := sv.solve(b)
			if err != nil {
				t.Fatal(err)
			}
			if want := smallestPath(t, g, dist, b); res.Moves != want {
				t.Fatalf("%+v %v: moves %s, smallest optimal %s", opt, b, res.Moves, want)
			}
		}
	}
}

// TestPrepareCatalogue: PrepareCatalogue leaves the catalogues' automaton
// compiled, and New of a catalogue then takes that same table.
func TestPrepareCatalogue(t *testing.T) {
	PrepareCatalogue()
	dupMu.Lock()
	tab, ok := dupTables[dupDepthCatalogue]
	dupMu.Unlock()
	if !ok || len(tab) == 0 {
		t.Fatalf("no automaton of depth %d after PrepareCatalogue", dupDepthCatalogue)
	}
	got, err := dupTable(dupDepthCatalogue)
	if err != nil || &got[0] != &tab[0] {
		t.Errorf("dupTable after PrepareCatalogue: a new table (err %v)", err)
	}
}
