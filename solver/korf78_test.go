package solver

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// tables78 names a directory with the 7-8 tables for the blank-first goal.
var tables78 = flag.String("tables78", "", "directory holding the blank-first 15-78 tables (pdbgen build --preset 15-78 --goal blank-first -o DIR); "+
	"without it the 7-8 tests build them in the test (about 1 GiB and a minute or more per table) and only with -long")

// part78 is Korf & Felner's 7-8 partition in blank-first terms: tiles 1-7
// and 8-15 (the preset 15-78 for the blank-first goal).
var part78 = [][]uint8{{1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}}

var set78 struct {
	once sync.Once
	set  *format.Set
	took time.Duration
	how  string
	err  error
}

// load78 returns the blank-first 7-8 set: read from -tables78, or built
// (with -long only); how and took say which and how long it took. It
// skips the test when neither is allowed.
func load78(tb testing.TB) (s *format.Set, how string, took time.Duration) {
	tb.Helper()
	if *tables78 == "" && !*long {
		tb.Skip("needs -tables78 DIR or -long (builds the 7-8 tables: 1 GiB)")
	}
	set78.once.Do(func() {
		t0 := time.Now()
		if *tables78 == "" {
			set78.set = set(tb, 4, 4, "blank-first", part78...)
			set78.how = "built in the test"
		} else {
			paths, _ := filepath.Glob(filepath.Join(*tables78, "15-78-bf_*.pdb"))
			if len(paths) != 2 {
				set78.err = fmt.Errorf("-tables78 %s: %d files 15-78-bf_*.pdb, want 2", *tables78, len(paths))
				return
			}
			set78.set, set78.err = format.OpenSet(paths...)
			set78.how = "read from " + *tables78
		}
		set78.took = time.Since(t0)
	})
	if set78.err != nil {
		tb.Fatal(set78.err)
	}
	return set78.set, set78.how, set78.took
}

// new78 returns the IDA* solver of Korf's instances with the 7-8 tables and
// the reflected lookup (no conversion: the tables are for the blank-first
// goal of the instances).
func new78(tb testing.TB) (*Solver, string, time.Duration) {
	tb.Helper()
	s, how, took := load78(tb)
	if !s.Goal.Equal(puzzle.BlankFirstGoal(s.Geom)) {
		tb.Fatalf("the 7-8 tables are for goal %v, not blank-first", s.Goal)
	}
	return newSolver(tb, s, Options{Reflect: true}), how, took
}

// TestKorf100Long78 solves all of Korf's 100 instances with the 7-8 tables
// and the reflected lookup: by IDA* (every published length, sum 5305,
// every move string replays; logs nodes, time on one goroutine and
// nodes/s, and the tables' loading time on its own), by weighted A* at
// w = 1.5 and 2 (every length between the optimum and w times it; logs
// total time and mean excess) and by ARA* (every run ends at the proven
// optimum; logs the time to the first answer and to the proof for the ten
// longest instances). Then the bidirectional search against IDA* on
// random-walk instances of 36 to 40 moves. Run with -long, and -tables78
// DIR to read the tables instead of building them.
func TestKorf100Long78(t *testing.T) {
	if !*long {
		t.Skip("use -long")
	}
	sv, how, took := new78(t)
	t.Logf("7-8 tables %s in %.1fs", how, took.Seconds())
	ks := korf100(t)
	g := sv.Geometry()
	goal := sv.Goal()
	ctx := context.Background()

	// IDA*.
	opt := make([]int, len(ks))
	var nodes uint64
	sum := 0
	t0, c0 := time.Now(), cpuTime()
	for i, k := range ks {
		res, err := sv.solve(k.board)
		if err != nil {
			t.Fatal(err)
		}
		opt[i] = res.Length
		nodes += res.Nodes
		if res.Length != k.length {
			t.Errorf("IDA* instance %d: length %d, published %d", k.id, res.Length, k.length)
		}
		sum += res.Length
		checkReplay(t, g, k.board, goal, res.Moves, res.Length)
	}
	wall, cpu := time.Since(t0), cpuTime()-c0
	if sum != 5305 {
		t.Errorf("IDA* lengths sum to %d, want 5305", sum)
	}
	t.Logf("IDA* 7-8+reflect: all 100 in %.3fs wall, %.3fs CPU (with replay checks); mean nodes %d; %.1f ns/node, %.1f M nodes/s",
		wall.Seconds(), cpu.Seconds(), nodes/100, float64(wall.Nanoseconds())/float64(nodes), float64(nodes)/wall.Seconds()/1e6)

	// Weighted A*.
	for _, w := range []float64{1.5, 2} {
		var gen uint64
		var peak int64
		excess := 0
		t0 := time.Now()
		for i, k := range ks {
			res, err := sv.solveWeighted(ctx, k.board, w, Limits{})
			if err != nil {
				t.Fatalf("w=%g instance %d: %v", w, k.id, err)
			}
			checkBounded(t, fmt.Sprintf("w=%g", w), g, k.board, goal, res, opt[i], w)
			excess += res.Length - opt[i]
			gen += res.Stats.Generated
			peak = max(peak, res.Stats.PeakBytes)
		}
		wall := time.Since(t0)
		t.Logf("weighted A* w=%g: all 100 in %.3fs; mean excess %.2f moves (%.2f%%); mean generated %d, %.2f M nodes/s; largest search %.1f MiB",
			w, wall.Seconds(), float64(excess)/100, 100*float64(excess)/float64(sum), gen/100, float64(gen)/wall.Seconds()/1e6, float64(peak)/(1<<20))
	}

	// ARA*.
	type araRun struct {
		id, length     int
		first, optimum time.Duration
		firstLen       int
		generated      uint64
		peak           int64
	}
	var runs []araRun
	var gen uint64
	t0 = time.Now()
	for i, k := range ks {
		var reported []Bounded
		res, err := sv.solveAnytime(ctx, k.board, anytimeOptions{OnSolution: func(r Bounded) { reported = append(reported, r) }})
		if err != nil {
			t.Fatalf("ARA* instance %d: %v", k.id, err)
		}
		checkBounded(t, "ARA*", g, k.board, goal, res, opt[i], 1)
		checkReports(t, "7-8", k.board, reported, res, opt[i])
		gen += res.Stats.Generated
		runs = append(runs, araRun{k.id, k.length, reported[0].Stats.Elapsed, res.Stats.Elapsed, reported[0].Length, res.Stats.Generated, res.Stats.PeakBytes})
	}
	wall = time.Since(t0)
	t.Logf("ARA* 2.5,1.8,1.3,1: all 100 to the proven optimum in %.3fs; mean generated %d, %.2f M nodes/s", wall.Seconds(), gen/100, float64(gen)/wall.Seconds()/1e6)
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].length > runs[j].length })
	for _, r := range runs[:10] {
		t.Logf("ARA* instance %3d (optimum %d): first answer %d moves after %.2fms, proven optimum after %.2fms, %d generated, %.1f MiB",
			r.id, r.length, r.firstLen, float64(r.first.Microseconds())/1000, float64(r.optimum.Microseconds())/1000, r.generated, float64(r.peak)/(1<<20))
	}

	// Bidirectional search on instances of 36 to 40 moves.
	rng := rand.New(rand.NewPCG(41, 42))
	found := 0
	for found < 3 {
		b := pdbtest.RandomWalk(rng, g, goal, 200)
		o, err := sv.solve(b)
		if err != nil {
			t.Fatal(err)
		}
		if o.Length < 36 || o.Length > 40 {
			continue
		}
		found++
		res, st, err := sv.solveBidir(ctx, b, Limits{MaxBytes: 4 << 30})
		if err != nil {
			t.Fatalf("bidirectional %v (%d moves): %v", b, o.Length, err)
		}
		if res.Length != o.Length {
			t.Fatalf("%v: bidirectional %d, IDA* %d", b, res.Length, o.Length)
		}
		checkReplay(t, g, b, goal, res.Moves, res.Length)
		t.Logf("bidirectional %v: %d moves in %.2fs, %d stored, %.0f MiB, %.2f M nodes/s", b, res.Length, st.Elapsed.Seconds(),
			st.Stored, float64(st.PeakBytes)/(1<<20), float64(st.Generated)/st.Elapsed.Seconds()/1e6)
	}
}

// BenchmarkKorf100x78 solves Korf's 100 instances per iteration by IDA*
// with the 7-8 tables and the reflected lookup, on one goroutine; loading
// the tables is not timed. Needs -tables78 DIR (or -long to build them).
func BenchmarkKorf100x78(b *testing.B) {
	sv, _, _ := new78(b)
	ks := korf100(b)
	var nodes uint64
	iters := 0
	c0 := cpuTime()
	for b.Loop() {
		for _, k := range ks {
			res, err := sv.solve(k.board)
			if err != nil {
				b.Fatal(err)
			}
			if res.Length != k.length {
				b.Fatalf("instance %d: length %d, published %d", k.id, res.Length, k.length)
			}
			nodes += res.Nodes
		}
		iters++
	}
	n := float64(iters * len(ks))
	b.ReportMetric(float64(nodes)/n, "nodes/instance")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/instance")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
	// CPU time: wall time on a busy machine counts other programs' turns.
	b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/n, "cpu-ns/instance")
}

// BenchmarkKorf100Algorithms runs Korf's 100 instances per iteration
// through weighted A* (w = 1.5, 2) and ARA*, with the 7-8 tables
// (-tables78 or -long) and the 6-6-3 tables, reflected lookup: time per
// instance, generated nodes per instance, ns per generated node, mean
// excess length.
func BenchmarkKorf100Algorithms(b *testing.B) {
	ks := korf100(b)
	type cfg struct {
		name string
		sv   func(testing.TB) *Solver
	}
	for _, c := range []cfg{
		{"78+reflect", func(tb testing.TB) *Solver { sv, _, _ := new78(tb); return sv }},
		{"663+reflect", func(tb testing.TB) *Solver {
			return newSolver(tb, set(tb, 4, 4, "blank-last", part663...), Options{Reflect: true, FromBlankFirst: true})
		}},
	} {
		for _, alg := range []string{"w=1.5", "w=2", "ARA*"} {
			b.Run(c.name+"/"+alg, func(b *testing.B) {
				sv := c.sv(b)
				var gen uint64
				excess, iters := 0, 0
				c0 := cpuTime()
				for b.Loop() {
					for _, k := range ks {
						var res Bounded
						var err error
						switch alg {
						case "w=1.5":
							res, err = sv.solveWeighted(context.Background(), k.board, 1.5, Limits{})
						case "w=2":
							res, err = sv.solveWeighted(context.Background(), k.board, 2, Limits{})
						default:
							res, err = sv.solveAnytime(context.Background(), k.board, anytimeOptions{})
						}
						if err != nil {
							b.Fatal(err)
						}
						gen += res.Stats.Generated
						excess += res.Length - k.length
					}
					iters++
				}
				n := float64(iters * len(ks))
				b.ReportMetric(float64(gen)/n, "nodes/instance")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/instance")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(gen), "ns/node")
				b.ReportMetric(float64(excess)/n, "excess/instance")
				b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/n, "cpu-ns/instance")
			})
		}
	}
}

// BenchmarkBidirectional15 solves three 15-puzzle boards of 28 to 32 moves
// (random walks from the goal, fixed seed) by bidirectional search.
func BenchmarkBidirectional15(b *testing.B) {
	g := puzzle.Geometry{W: 4, H: 4}
	goal := puzzle.BlankLastGoal(g)
	dist := func(p puzzle.Board) int {
		res, _, err := bidirectional(context.Background(), g, p, goal, Limits{})
		if err != nil {
			b.Fatal(err)
		}
		return res.Length
	}
	rng := rand.New(rand.NewPCG(43, 44))
	var boards []puzzle.Board
	for len(boards) < 3 {
		p := pdbtest.RandomWalk(rng, g, goal, 100)
		if d := dist(p); d >= 28 && d <= 32 && !slices.ContainsFunc(boards, p.Equal) {
			boards = append(boards, p)
		}
	}
	var gen uint64
	var peak int64
	iters := 0
	c0 := cpuTime()
	for b.Loop() {
		for _, p := range boards {
			_, st, err := bidirectional(context.Background(), g, p, goal, Limits{})
			if err != nil {
				b.Fatal(err)
			}
			gen += st.Generated
			peak = max(peak, st.PeakBytes)
		}
		iters++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(gen), "ns/node")
	b.ReportMetric(float64(gen)/float64(iters*len(boards)), "nodes/instance")
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
	b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(gen), "cpu-ns/node")
}
