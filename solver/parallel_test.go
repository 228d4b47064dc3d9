package solver

import (
	"context"
	"errors"
	"testing"
	"time"

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
			want, err := seq.solve(b)
			if err != nil {
				t.Fatal(err)
			}
			for _, threads := range []int{2, 3} {
				par := newSolver(t, s, Options{Reflect: reflect, Threads: threads})
				got, err := par.solve(b)
				// The work thrown away (abandoned subtrees) must stay small.
				if ex := par.explored.Load(); float64(ex) > 1.25*float64(got.Nodes)+50000 {
					t.Errorf("%s threads=%d: explored %d nodes to count %d", b, threads, ex, got.Nodes)
				}
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
	// Tiles outside every pattern: states at the solution's depth with h = 0
	// that are not the goal, which the single-threaded search expands (a cut
	// at that depth once left their children uncounted).
	partial := set(t, 4, 4, puzzle.GoalBlankLast, []uint8{2, 3, 4}, []uint8{5, 9, 13}, []uint8{14, 15})
	b, err := puzzle.ParseBoard("1 6 2 4 10 7 9 8 5 3 0 11 13 14 15 12", 16)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := newSolver(t, partial, Options{}).solve(b)
	for _, threads := range []int{2, 3} {
		got, _ := newSolver(t, partial, Options{Threads: threads}).solve(b)
		if got.Nodes != want.Nodes || got.Moves != want.Moves {
			t.Errorf("partial set, threads %d: nodes %d moves %s; single-threaded %d %s", threads, got.Nodes, got.Moves, want.Nodes, want.Moves)
		}
	}
}

// TestStoppedError: an IDA* search stopped by its context reports a proven
// lower bound (between the start's heuristic and the optimum) and the nodes
// generated so far, with 1 and 2 threads, and wraps the context's error.
func TestStoppedError(t *testing.T) {
	s := set(t, 4, 4, puzzle.GoalBlankLast, []uint8{1, 2, 3}, []uint8{4, 5, 6}) // weak: a long search
	k := korf100(t)[0]
	b := puzzle.BlankFirstToLast(k.board)
	for _, threads := range []int{1, 2} {
		sv := newSolver(t, s, Options{Threads: threads})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		_, err := sv.solveContext(ctx, b)
		cancel()
		var se *StoppedError
		if !errors.As(err, &se) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("threads %d: error %v, want a StoppedError wrapping the deadline", threads, err)
		}
		if h := sv.Heuristic(b); se.Lower < h || se.Lower > k.length || se.Nodes == 0 || se.Elapsed <= 0 {
			t.Errorf("threads %d: lower %d (heuristic %d, optimum %d), nodes %d, elapsed %v", threads, se.Lower, h, k.length, se.Nodes, se.Elapsed)
		}
	}
}
