package solver

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
)

// Test8Beam checks beam search against the exact 8-puzzle table on random
// states, with a weak and a strong heuristic: every answer replays to the
// goal and is at least the optimum, its lower bound at most the optimum;
// a beam wider than any BFS level of the 8-puzzle (181,440 states, at most
// 24,047 at one distance) is breadth-first search and so optimal; and the
// anytime beam search (beams, then IDA* up to the best length) ends with
// the optimum proven, every report better than the one before (shorter,
// or as long with a higher lower bound), the last one the final answer.
func Test8Beam(t *testing.T) {
	tab := table(t, 3, 3, "blank-last")
	g, goal := tab.Pattern.Geom, tab.Pattern.Goal
	solvers := map[string]*Solver{
		"4-4+reflect": newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{Reflect: true}),
		"2-2":         newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2}, []uint8{3, 4}), Options{}),
	}
	samples := 30
	if raceEnabled || testing.Short() {
		samples = 5
	}
	rng := rand.New(rand.NewPCG(31, 32))
	pos := make([]uint8, g.N())
	ctx := context.Background()
	longer := 0
	for i := range samples {
		idx := rng.Uint64N(tab.Pattern.Size())
		if i == 0 {
			idx = tab.Pattern.Rank(goal.Positions())
		}
		tab.Pattern.Unrank(idx, pos)
		b := puzzle.BoardFromPositions(pos)
		opt := int(tab.Values[idx])
		for name, sv := range solvers {
			for _, w := range []int{1, 3, 30, 30000} {
				res, err := sv.solveBeam(ctx, b, w, Limits{})
				if errors.Is(err, ErrBeamExhausted) && w < 30000 {
					continue // a narrow beam may run out of new states
				}
				if err != nil {
					t.Fatalf("%s width %d %v: %v", name, w, b, err)
				}
				checkBounded(t, name+" beam", g, b, goal, res, opt, 1e9)
				if res.Width != w {
					t.Fatalf("%s width %d: Width %d", name, w, res.Width)
				}
				if w == 30000 && res.Length != opt {
					t.Fatalf("%s width %d %v: length %d, optimum %d (a beam this wide is breadth-first)", name, w, b, res.Length, opt)
				}
				if w == 30000 && opt > 0 {
					// Pruning by a known length: a breadth-first beam still
					// finds the optimum below opt+2, and nothing below opt.
					if r, err := sv.runBeamSearch(ctx, b, w, Limits{}, opt+2); err != nil || r.Length != opt {
						t.Fatalf("%s %v: beam below %d: %d, %v", name, b, opt+2, r.Length, err)
					}
					if r, err := sv.runBeamSearch(ctx, b, w, Limits{}, opt); !errors.Is(err, ErrBeamExhausted) {
						t.Fatalf("%s %v: beam below the optimum %d: %+v, %v", name, b, opt, r, err)
					}
				}
				if res.Length > opt {
					longer++
				}
			}
			var reported []Bounded
			res, err := sv.solveAnytime(ctx, b, anytimeOptions{Beam: true, MaxWidth: 4, OnSolution: func(r Bounded) { reported = append(reported, r) }})
			if err != nil {
				t.Fatalf("%s anytime beam %v: %v", name, b, err)
			}
			checkBounded(t, name+" anytime beam", g, b, goal, res, opt, 1)
			if !res.Optimal {
				t.Fatalf("%s anytime beam %v: %+v not proven optimal", name, b, res)
			}
			for j, r := range reported {
				checkBounded(t, name+" anytime beam report", g, b, goal, r, opt, 1e9)
				if p := reported[max(j-1, 0)]; j > 0 && !improves(r, p) {
					t.Fatalf("%s anytime beam %v: report %d (%d, lower %d) does not improve on (%d, lower %d)", name, b, j, r.Length, r.Lower, p.Length, p.Lower)
				}
			}
			if opt > 0 && (len(reported) == 0 || reported[len(reported)-1].Length != res.Length || reported[len(reported)-1].Lower != res.Lower) {
				t.Fatalf("%s anytime beam %v: reports %+v, final %+v", name, b, reported, res)
			}
		}
	}
	if longer == 0 {
		t.Fatalf("no narrow beam gave a longer solution than the optimum: the test cannot tell a beam from BFS")
	}
}

// TestIDAUpTo: IDA* bounded above by a known solution's length stops with
// that length proven when it is the optimum, and finds the optimum when
// it is longer, with one thread and with several.
func TestIDAUpTo(t *testing.T) {
	s15 := set(t, 4, 4, "blank-last", presetPartition("15-663")...)
	for _, threads := range []int{1, 2} {
		sv := newSolver(t, s15, Options{Threads: threads, FromBlankFirst: true})
		for _, k := range korf100(t)[:3] {
			work := puzzle.BlankFirstToLast(k.board)
			_, _, err := sv.idaUpTo(context.Background(), work, k.length, nil)
			var se *StoppedError
			if !errors.As(err, &se) || !errors.Is(err, errUpper) || se.Lower != k.length {
				t.Fatalf("threads %d, Korf #%d: up to %d: %v", threads, k.id, k.length, err)
			}
			var bounds []int
			path, _, err := sv.idaUpTo(context.Background(), work, k.length+2, func(b int, _ uint64) { bounds = append(bounds, b) })
			if err != nil || len(path) != k.length {
				t.Fatalf("threads %d, Korf #%d: up to %d: %d moves, %v", threads, k.id, k.length+2, len(path), err)
			}
			// The bounds reported rise by 2 up to the optimum.
			if len(bounds) == 0 || bounds[len(bounds)-1] != k.length || !slices.IsSorted(bounds) {
				t.Fatalf("threads %d, Korf #%d: bounds %v", threads, k.id, bounds)
			}
		}
	}
}

// TestBeamLimits: a beam search stops at its memory and node limits and at
// a context's end with an error naming the limit and no solution; bad
// widths are errors before any search; an anytime beam search stopped by
// its time limit still answers with its best solution and a bound.
func TestBeamLimits(t *testing.T) {
	sv := newSolver(t, set(t, 4, 4, "blank-last", presetPartition("15-663")...), Options{FromBlankFirst: true})
	k := korf100(t)[2] // 59 moves
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		lim  Limits
		want error
	}{
		{"memory", Limits{MaxBytes: 1 << 20}, ErrMemoryLimit},
		{"nodes", Limits{MaxNodes: 5000}, ErrNodeLimit},
	} {
		res, err := sv.solveBeam(ctx, k.board, 100000, tc.lim)
		if !errors.Is(err, tc.want) || res.Length != -1 || res.Lower < 0 || res.Lower > k.length {
			t.Fatalf("%s: %+v, %v; want %v", tc.name, res, err, tc.want)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := sv.solveBeam(cctx, k.board, 1000, Limits{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	for _, w := range []int{0, -1, MaxBeamWidth + 1} {
		if _, err := sv.solveBeam(ctx, k.board, w, Limits{}); err == nil {
			t.Fatalf("width %d accepted", w)
		}
		if _, err := sv.solveAnytime(ctx, k.board, anytimeOptions{Beam: true, MaxWidth: w}); err == nil && w != 0 {
			t.Fatalf("anytime max width %d accepted", w)
		}
	}
	// --max-nodes ends the whole anytime beam search (no IDA* after it).
	if res, err := sv.solveAnytime(ctx, k.board, anytimeOptions{Beam: true, Limits: Limits{MaxNodes: 100}}); !errors.Is(err, ErrNodeLimit) || res.Length != -1 {
		t.Fatalf("anytime beam, 100 nodes: %+v, %v", res, err)
	}
	// The widest beam allowed stops at the memory limit or answers; it
	// never allocates past the budget (its hash window is capped).
	small := newSolver(t, set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{})
	b8 := puzzle.Board{2, 3, 6, 0, 8, 1, 5, 4, 7}
	if res, err := small.solveBeam(ctx, b8, MaxBeamWidth, Limits{MaxBytes: 64 << 20}); !errors.Is(err, ErrMemoryLimit) || res.Lower < 0 || res.Lower > 21 {
		t.Fatalf("width %d within 64 MiB: %+v, %v", MaxBeamWidth, res, err)
	}
	if res, err := small.solveBeam(ctx, b8, MaxBeamWidth, Limits{}); err != nil || res.Length != 21 {
		t.Fatalf("width %d: %+v, %v", MaxBeamWidth, res, err)
	}
	// A beam that runs out of states names it as its stop reason.
	if _, err := sv.solveBeam(ctx, k.board, 1, Limits{}); !errors.Is(err, ErrBeamExhausted) || StopReason(err) != StopExhausted {
		t.Fatalf("width 1 on Korf #%d: %v (this greedy beam ran out of states when the test was written)", k.id, err)
	}
	// An exact table: the bound's search is the walk down the table, even
	// after a beam stopped by a limit.
	exact := newSolver(t, set(t, 3, 3, "blank-last"), Options{})
	for _, lim := range []Limits{{MaxBytes: 1}, {TimeLimit: time.Nanosecond}} {
		res, err := exact.solveAnytime(ctx, b8, anytimeOptions{Beam: true, Limits: lim})
		if res.Length >= 0 && res.Length != 21 || res.Lower > 21 || res.Length < 0 && err == nil {
			t.Fatalf("exact table, limits %+v: %+v, %v", lim, res, err)
		}
	}
	if _, err := sv.solveAnytime(ctx, k.board, anytimeOptions{Beam: true, Restarts: true}); err == nil {
		t.Fatal("beam with restarts accepted")
	}
	if _, err := sv.solveAnytime(ctx, k.board, anytimeOptions{Beam: true, Schedule: []float64{2, 1}}); err == nil {
		t.Fatal("beam with a schedule accepted")
	}
	// A weak heuristic (tiles 1 to 8 only) with which IDA* cannot finish a
	// 59-move instance in a second, and beams solve it.
	weak := newSolver(t, set(t, 4, 4, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8}), Options{FromBlankFirst: true})
	limit := time.Second
	if raceEnabled {
		limit = 10 * time.Second
	}
	res, err := weak.solveAnytime(ctx, k.board, anytimeOptions{Beam: true, Limits: Limits{TimeLimit: limit}})
	if !errors.Is(err, ErrTimeLimit) || res.Length < k.length || res.Lower > k.length || res.Width == 0 {
		t.Fatalf("time limit: %+v, %v", res, err)
	}
	checkReplay(t, weak.geom, res.Board, puzzle.BlankFirstGoal(weak.geom), res.Moves, res.Length)
}

// TestRankSides checks the beam's ranking key with Options.Reflect on an
// additive set: for every child of random 8-puzzle states, the key is the
// regular sum plus the sum of the state reflected about the main diagonal,
// each computed from scratch by format.Set.Heuristic, and h is still their
// maximum; without Reflect the key is h.
func TestRankSides(t *testing.T) {
	st := set(t, 3, 3, "blank-last", []uint8{1, 2, 3, 4}, []uint8{5, 6, 7, 8})
	sv := newSolver(t, st, Options{Reflect: true})
	if !sv.rankSides || newSolver(t, st, Options{}).rankSides {
		t.Fatalf("rankSides must be set with Reflect on an additive set, and only then")
	}
	// Blank-last 3x3 goal: tile t on cell t-1. The reflection sends cell
	// (r,c) to (c,r) and tile t to the tile of the reflected goal cell.
	rc := func(c int) int { return c%3*3 + c/3 }
	reflect := func(b puzzle.Board) puzzle.Board {
		r := make(puzzle.Board, 9)
		for c, x := range b {
			if x != 0 {
				x = uint8(rc(int(x)-1) + 1)
			}
			r[rc(c)] = x
		}
		return r
	}
	rng := rand.New(rand.NewPCG(5, 6))
	sides := 0
	for range 200 {
		b := puzzle.Board{1, 2, 3, 4, 5, 6, 7, 8, 0}
		for range 40 { // a random walk keeps the board solvable
			blank := slices.Index(b, 0)
			m := &sv.nbr[blank]
			to := m.to[rng.IntN(int(m.n))]
			b[blank], b[to] = b[to], 0
		}
		var board [puzzle.MaxCells]uint8
		copy(board[:], b)
		x := newHcalc(sv)
		x.load(&board)
		blank := slices.Index(b, 0)
		m := &sv.nbr[blank]
		for j := range m.n {
			to := m.to[j]
			h := x.child(board[to], uint8(blank), to)
			c := slices.Clone(b)
			c[blank], c[to] = c[to], 0
			reg, refl := st.Heuristic(c.Positions()), st.Heuristic(reflect(c).Positions())
			if x.ckey != reg+refl || h != max(reg, refl) {
				t.Fatalf("child %v of %v: key %d h %d, want %d+%d and their maximum", c, b, x.ckey, h, reg, refl)
			}
			if reg != refl {
				sides++
			}
		}
	}
	if sides == 0 {
		t.Fatal("no child whose two sides differ: the test cannot tell the sum from twice the maximum")
	}
}
