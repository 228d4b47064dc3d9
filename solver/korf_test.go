package solver

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/tilepdb/tilepdb/puzzle"
)

// korfConfig is one heuristic configuration of the Korf-100 runs.
type korfConfig struct {
	name    string
	part    [][]uint8
	reflect bool
}

var korfConfigs = []korfConfig{
	{"663", part663, false},
	{"663+reflect", part663, true},
	{"555", part555, false},
	{"555+reflect", part555, true},
}

// TestKorf100Long solves all of Korf's 100 instances (Korf 1985) with the
// 6-6-3 and 5-5-5 blank-last tables, with and without the reflected lookup,
// converted from blank-first, with 1 and with 2 boards at a time. Every
// published length must be matched, the lengths must sum to 5305, every
// move string must replay on the original board to the blank-first goal,
// and the output must not depend on the worker count. It logs the mean
// heuristic of the start states, the mean nodes generated per instance and
// the wall and CPU time (the CPU time includes the replay checks, which are
// negligible). Run with -long (see RESULTS.md).
func TestKorf100Long(t *testing.T) {
	if !*long {
		t.Skip("use -long")
	}
	ks := korf100(t)
	goal := puzzle.BlankFirstGoal(puzzle.Geometry{W: 4, H: 4})
	for _, cfg := range korfConfigs {
		t0 := time.Now()
		s := set(t, 4, 4, "blank-last", cfg.part...)
		build := time.Since(t0)
		var first string
		for _, workers := range []int{1, 2} {
			sv := newSolver(t, s, Options{Reflect: cfg.reflect, FromBlankFirst: true})
			var out strings.Builder
			t0, c0 := time.Now(), cpuTime()
			results, err := solveAll(sv, ks, workers)
			if err != nil {
				t.Fatalf("%s: %v", cfg.name, err)
			}
			for _, r := range results {
				out.WriteString(r.String())
				out.WriteByte('\n')
			}
			elapsed, cpu := time.Since(t0), cpuTime()-c0
			if workers == 1 {
				first = out.String()
			} else if out.String() != first {
				t.Fatalf("%s: output with 2 workers differs from 1 worker", cfg.name)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if len(lines) != len(ks) {
				t.Fatalf("%s: %d answers", cfg.name, len(lines))
			}
			sum, hsum := 0, 0
			var nodes uint64
			for i, line := range lines {
				k := ks[i]
				_, rest, _ := strings.Cut(line, " : ")
				var length int
				var moves string
				var n uint64
				if _, err := fmt.Sscanf(rest, "length %d moves %s nodes %d converted-from blank-first", &length, &moves, &n); err != nil {
					t.Fatalf("%s: answer %q: %v", cfg.name, line, err)
				}
				if length != k.length {
					t.Errorf("%s: instance %d: length %d, published %d", cfg.name, k.id, length, k.length)
				}
				checkReplay(t, s.Geom, k.board, goal, moves, length)
				sum += length
				nodes += n
				hsum += sv.Heuristic(puzzle.BlankFirstToLast(k.board))
			}
			if sum != 5305 {
				t.Errorf("%s: lengths sum to %d, want 5305", cfg.name, sum)
			}
			t.Logf("%-12s workers %d: mean h %.3f, mean nodes %d, wall %.2fs, CPU %.2fs (%.1f CPU-ns/node); tables built in %.1fs",
				cfg.name, workers, float64(hsum)/100, nodes/100, elapsed.Seconds(), cpu.Seconds(),
				float64(cpu.Nanoseconds())/float64(nodes), build.Seconds())
		}
	}
}

// solveAll solves the instances with `workers` searches at a time and
// returns the results in input order.
func solveAll(sv *Solver, ks []korfInstance, workers int) ([]Result, error) {
	results := make([]Result, len(ks))
	var g errgroup.Group
	g.SetLimit(workers)
	for i, k := range ks {
		g.Go(func() error {
			var err error
			results[i], err = sv.solveContext(context.Background(), k.board)
			return err
		})
	}
	return results, g.Wait()
}

// BenchmarkKorf100 solves Korf's 100 instances per iteration, single
// threaded, and reports nodes/instance and ns/instance for each table set
// with and without the reflected lookup. The tables are built before the
// timer starts.
func BenchmarkKorf100(b *testing.B) {
	ks := korf100(b)
	for _, cfg := range korfConfigs {
		b.Run(cfg.name, func(b *testing.B) {
			s := set(b, 4, 4, "blank-last", cfg.part...)
			sv := newSolver(b, s, Options{Reflect: cfg.reflect, FromBlankFirst: true})
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
			b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/n, "cpu-ns/instance")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(nodes), "ns/node")
		})
	}
}
