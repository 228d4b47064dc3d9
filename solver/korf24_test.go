package solver

import (
	"flag"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// set24 names a set file (or table files, comma-separated) for the 24-puzzle
// tests, to use tables built by pdbgen instead of building them in the test.
var set24 = flag.String("set24", "", "24-puzzle set file or comma-separated tables (default: build Korf & Felner's 6-6-6-6 tables in the test)")

// partKF6666 is Korf & Felner's 6-6-6-6 partition of the 24-puzzle
// ({1,2,5,6,7,12}, {3,4,8,9,13,14}, {10,11,15,16,20,21}, {17,18,19,22,23,24}
// in blank-first terms, Korf & Felner 2002) mapped to the blank-last goal by
// t -> 25-t. The last three are 2x3 blocks, rotations of one another.
var partKF6666 = [][]uint8{{13, 18, 19, 20, 23, 24}, {11, 12, 16, 17, 21, 22}, {4, 5, 9, 10, 14, 15}, {1, 2, 3, 6, 7, 8}}

// korf24Instance is one line of testdata/korf50-24.tsv.
type korf24Instance struct {
	id, length int
	kfNodes    uint64       // nodes published by Korf & Felner 2002
	board      puzzle.Board // blank-first convention
}

// korf50 reads testdata/korf50-24.tsv, by id.
func korf50(tb testing.TB) map[int]korf24Instance {
	tb.Helper()
	out := map[int]korf24Instance{}
	for _, cols := range tsvRows(tb, "korf50-24.tsv", 4) {
		id, err1 := strconv.Atoi(cols[0])
		l, err2 := strconv.Atoi(cols[1])
		n, err3 := strconv.ParseUint(cols[2], 10, 64)
		b, err4 := puzzle.ParseBoard(cols[3], 25)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
			tb.Fatalf("korf50-24.tsv: bad line %q", strings.Join(cols, "\t"))
		}
		out[id] = korf24Instance{id, l, n, b}
	}
	if len(out) != 50 {
		tb.Fatalf("korf50-24.tsv: %d instances, want 50", len(out))
	}
	return out
}

// kfSet returns the 24-puzzle set: the files of -set24, or Korf & Felner's
// 6-6-6-6 built in the test (2 tables, the blocks sharing one).
func kfSet(tb testing.TB) *format.Set {
	tb.Helper()
	if *set24 != "" {
		s, err := format.OpenSet(strings.Split(*set24, ",")...)
		if err != nil {
			tb.Fatal(err)
		}
		return s
	}
	s, n := sharedSet(tb, 5, 5, puzzle.GoalBlankLast, partKF6666...)
	if n != 2 {
		tb.Fatalf("Korf & Felner's 6-6-6-6 needs %d tables, want 2", n)
	}
	return s
}

// TestKorf24Long solves Korf's 24-puzzle instances #38 and #40 (the two
// easiest for Korf & Felner) with Korf & Felner's 6-6-6-6 tables, the
// reflected lookup and 2 threads, converted from blank-first: the published
// lengths, moves that replay to the blank-first goal, and the nodes and time
// logged next to Korf & Felner's counts. Run with -long (make long).
func TestKorf24Long(t *testing.T) {
	if !*long {
		t.Skip("use -long")
	}
	t0 := time.Now()
	s := kfSet(t)
	t.Logf("tables ready in %.1fs", time.Since(t0).Seconds())
	ks := korf50(t)
	sv := newSolver(t, s, Options{Reflect: true, FromBlankFirst: true, Threads: 2})
	goal := puzzle.BlankFirstGoal(s.Geom)
	for _, id := range []int{38, 40} {
		k := ks[id]
		t0, c0 := time.Now(), cpuTime()
		res, err := sv.solve(k.board)
		if err != nil {
			t.Fatal(err)
		}
		wall, cpu := time.Since(t0), cpuTime()-c0
		if res.Length != k.length {
			t.Errorf("#%d: length %d, published %d", id, res.Length, k.length)
		}
		checkReplay(t, s.Geom, k.board, goal, res.Moves, res.Length)
		t.Logf("#%d: length %d, nodes %d (Korf & Felner %d), wall %.1fs, CPU %.1fs, %.2f M nodes/s per CPU-second",
			id, res.Length, res.Nodes, k.kfNodes, wall.Seconds(), cpu.Seconds(), float64(res.Nodes)/cpu.Seconds()/1e6)
	}
}

// TestMeanHeuristic24Long logs the mean heuristic of the 24-puzzle set
// (-set24, default Korf & Felner's 6-6-6-6) over 10^6 random solvable
// states (uniform, pdbtest.RandomSolvable, fixed seed), with the single
// lookup and with the maximum of it and the reflected lookup. Run with
// -long.
func TestMeanHeuristic24Long(t *testing.T) {
	if !*long {
		t.Skip("use -long")
	}
	s := kfSet(t)
	plain := newSolver(t, s, Options{})
	refl := newSolver(t, s, Options{Reflect: true})
	rng := rand.New(rand.NewPCG(24, 6666))
	const n = 1000000
	var sum, sumR int
	for range n {
		b := pdbtest.RandomSolvable(rng, s.Geom, s.Goal)
		sum += plain.Heuristic(b)
		sumR += refl.Heuristic(b)
	}
	t.Logf("mean h over %d random states: %.4f single lookup, %.4f with the reflected lookup", n, float64(sum)/n, float64(sumR)/n)
}

// BenchmarkKorf24 solves Korf's 24-puzzle instance #40 (24 M nodes with
// Korf & Felner's tables and reflection) per iteration on one thread, and
// reports nodes per second. Use -set24 with tables built by pdbgen to skip
// building them in the benchmark.
func BenchmarkKorf24(b *testing.B) {
	s := kfSet(b)
	k := korf50(b)[40]
	sv := newSolver(b, s, Options{Reflect: true, FromBlankFirst: true})
	var nodes uint64
	for b.Loop() {
		res, err := sv.solve(k.board)
		if err != nil {
			b.Fatal(err)
		}
		if res.Length != k.length {
			b.Fatalf("length %d, published %d", res.Length, k.length)
		}
		nodes += res.Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
}
