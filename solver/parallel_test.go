package solver

import (
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
)

// TestParallelMatchesSequential: the split search gives the same moves and
// exactly the same node count as the single-threaded search, for 2 and 3
// threads, with and without reflection, on Korf instances (15-555 tables,
// the ones solved in well under a second) and on near-goal boards where the
// solution lies above the cut.
func TestParallelMatchesSequential(t *testing.T) {
	s := set(t, 4, 4, puzzle.GoalBlankLast, presetPartition("15-555")...)
	var boards []puzzle.Board
	for _, k := range korf100(t) {
		switch k.id {
		case 7, 12, 23, 79:
			boards = append(boards, puzzle.BlankFirstToLast(k.board))
		}
	}
	near, err := Apply(s.Geom, s.Goal, "ullurd")
	if err != nil {
		t.Fatal(err)
	}
	boards = append(boards, near, s.Goal)
	for _, reflect := range []bool{false, true} {
		seq := newSolver(t, s, Options{Reflect: reflect})
		for _, b := range boards {
			want, err := seq.Solve(b)
			if err != nil {
				t.Fatal(err)
			}
			for _, threads := range []int{2, 3} {
				par := newSolver(t, s, Options{Reflect: reflect, Threads: threads})
				got, err := par.Solve(b)
				if err != nil {
					t.Fatal(err)
				}
				if got.Moves != want.Moves || got.Nodes != want.Nodes || got.Length != want.Length {
					t.Fatalf("%s reflect=%v threads=%d: length %d nodes %d moves %s; single-threaded %d %d %s",
						b, reflect, threads, got.Length, got.Nodes, got.Moves, want.Length, want.Nodes, want.Moves)
				}
			}
		}
	}
}
