package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/solver"
)

// solveRE is one text line of solve.
var solveRE = regexp.MustCompile(`^([0-9 ]+) : (?:length (\d+) moves ([udlr]+|-) nodes (\d+)|unsolvable)( converted-from blank-first)?$`)

// checkSolution checks that moves take board to goal in length moves.
func checkSolution(t *testing.T, board, moves string, length int, goal puzzle.Board) {
	t.Helper()
	geom, _ := puzzle.NewGeometry(3, 3)
	b, err := puzzle.ParseBoard(board, 9)
	if err != nil {
		t.Fatal(err)
	}
	if moves == "-" {
		moves = ""
	}
	if len(moves) != length {
		t.Errorf("%s: %d moves for length %d", board, len(moves), length)
	}
	end, err := solver.Apply(geom, b, moves)
	if err != nil {
		t.Fatalf("%s: moves %q: %v", board, moves, err)
	}
	if !end.Equal(goal) {
		t.Errorf("%s: moves %q end at %s, not the goal %s", board, moves, end, goal)
	}
}

func TestSolve(t *testing.T) {
	p8, p123, p456 := fixture(t, fx8), fixture(t, fx123), fixture(t, fx456)
	p8bf := fixture(t, fx8bf)
	geom, _ := puzzle.NewGeometry(3, 3)
	goalLast, goalFirst := puzzle.BlankLastGoal(geom), puzzle.BlankFirstGoal(geom)
	const mid = "4 1 3 7 2 6 0 5 8" // a few moves from the goal

	// Exact distances from the exact table, via lookup.
	dist := map[string]int{}
	for _, l := range lines(pdbgen(t, goal8+"\n"+hardest8+"\n"+twoMoves8+"\n"+mid+"\n", "lookup", p8).stdout) {
		f := strings.Split(l, "\t")
		dist[f[0]], _ = strconv.Atoi(f[1])
	}
	if dist[hardest8] != 31 || dist[twoMoves8] != 2 || len(dist) != 4 {
		t.Fatalf("distances %v", dist)
	}

	in := goal8 + "\n" + hardest8 + "\n1 2 3\n" + swapped8 + "\n" + twoMoves8 + "\n" + mid + "\n"
	wantBoards := []string{goal8, hardest8, swapped8, twoMoves8, mid}
	tests := []struct {
		name  string
		args  []string
		stdin string
		goal  puzzle.Board
	}{
		{"exact", []string{p8}, in, goalLast},
		{"exact -j 1", []string{"-j", "1", p8}, in, goalLast},
		{"additive", []string{"-j", "2", p123, p456}, in, goalLast},
		{"additive reflect", []string{"--reflect", p456, p123}, in, goalLast},
		{"exact reflect", []string{"--reflect", p8}, in, goalLast},
		{"additive reflect compact index", []string{"--reflect", "--compact-index", p456, p123}, in, goalLast},
	}
	for _, tt := range tests {
		for _, asJSON := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/json=%v", tt.name, asJSON), func(t *testing.T) {
				args := append([]string{"solve"}, tt.args...)
				if asJSON {
					args = append(args, "--json")
				}
				r := pdbgen(t, tt.stdin, args...)
				wantCode(t, r, 1) // line 3 is bad
				el := lines(r.stderr)
				if len(el) != 2 || !strings.HasPrefix(el[0], "line 3: ") || !strings.Contains(el[0], "3 cells, want 9") ||
					!strings.HasPrefix(el[1], "pdbgen solve: ") || !strings.Contains(el[1], "1 bad line") {
					t.Errorf("stderr should be the line-3 problem and a summary\n%v", r)
				}
				ls := lines(r.stdout)
				if len(ls) != len(wantBoards) {
					t.Fatalf("want %d answers\n%v", len(wantBoards), r)
				}
				for i, l := range ls {
					board := wantBoards[i]
					if asJSON {
						var o struct {
							Board    []int   `json:"board"`
							Solvable bool    `json:"solvable"`
							Length   *int    `json:"length"`
							Moves    *string `json:"moves"`
							Nodes    *uint64 `json:"nodes"`
						}
						if err := json.Unmarshal([]byte(l), &o); err != nil {
							t.Fatalf("line %q: %v", l, err)
						}
						if got := strings.Trim(fmt.Sprint(o.Board), "[]"); got != board {
							t.Errorf("answer %d is for %s, want %s", i+1, got, board)
						}
						if o.Nodes == nil {
							t.Errorf("no nodes in %s", l)
						}
						if board == swapped8 {
							if o.Solvable || o.Length != nil || o.Moves != nil {
								t.Errorf("unsolvable board: %s", l)
							}
							continue
						}
						if !o.Solvable || o.Length == nil || o.Moves == nil || *o.Length != dist[board] {
							t.Fatalf("answer %s, want length %d", l, dist[board])
						}
						checkSolution(t, board, *o.Moves, *o.Length, tt.goal)
						continue
					}
					m := solveRE.FindStringSubmatch(l)
					if m == nil || m[1] != board {
						t.Fatalf("answer %d = %q, want one for %s", i+1, l, board)
					}
					if board == swapped8 {
						if !strings.HasSuffix(l, ": unsolvable") {
							t.Errorf("answer %q, want unsolvable", l)
						}
						continue
					}
					n, _ := strconv.Atoi(m[2])
					if n != dist[board] {
						t.Errorf("%s: length %d, want %d", board, n, dist[board])
					}
					checkSolution(t, board, m[3], n, tt.goal)
				}
			})
		}
	}

	// Boards in the blank-first convention against blank-last tables: the
	// moves solve them to the blank-first goal, with the distances of the
	// blank-first table.
	bfIn := "0 1 2 3 4 5 6 7 8\n1 0 2 3 4 5 6 7 8\n" + hardest8 + "\n"
	bfDist := map[string]int{}
	for _, l := range lines(pdbgen(t, bfIn, "lookup", p8bf).stdout) {
		f := strings.Split(l, "\t")
		bfDist[f[0]], _ = strconv.Atoi(f[1])
	}
	r := pdbgen(t, bfIn, "solve", "--from", "blank-first", p8)
	wantCode(t, r, 0)
	ls := lines(r.stdout)
	if len(ls) != 3 || r.stderr != "" {
		t.Fatalf("--from blank-first:\n%v", r)
	}
	for _, l := range ls {
		m := solveRE.FindStringSubmatch(l)
		if m == nil || m[5] == "" || m[2] == "" {
			t.Fatalf("answer %q", l)
		}
		n, _ := strconv.Atoi(m[2])
		if n != bfDist[m[1]] {
			t.Errorf("%s: length %d, want %d (blank-first table)", m[1], n, bfDist[m[1]])
		}
		checkSolution(t, m[1], m[3], n, goalFirst)
	}

	// Only good lines: exit 0, nothing on stderr.
	r = pdbgen(t, "# boards\n\n"+twoMoves8+"\n", "solve", p8)
	wantCode(t, r, 0)
	if r.stderr != "" || len(lines(r.stdout)) != 1 {
		t.Errorf("clean solve:\n%v", r)
	}
}

func TestSolveErrors(t *testing.T) {
	p8, p123 := fixture(t, fx8), fixture(t, fx123)
	p8bf := fixture(t, fx8bf)
	dir := t.TempDir()
	wantCode(t, pdbgen(t, "", "build", "--quiet", "-o", dir, "--board", "3x2", "--tiles", "1,2"), 0)
	p3x2 := filepath.Join(dir, "3x2_1-2.pdb")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"same table twice", []string{p123, p123}, "not disjoint"},
		{"exact in a set", []string{p8, p123}, "used alone"},
		{"missing", []string{filepath.Join(dir, "missing.pdb")}, "missing.pdb"},
		{"corrupt", []string{corrupt(t, dir, p123, "payload")}, "payload_3x3_1-2-3.pdb"},
		{"from blank-first with blank-first tables", []string{"--from", "blank-first", p8bf}, "blank"},
		{"reflect on a 3x2 board", []string{"--reflect", p3x2}, "reflect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := pdbgen(t, goal8+"\n", append([]string{"solve"}, tt.args...)...)
			if r.code == 0 {
				t.Fatalf("want failure\n%v", r)
			}
			if r.stdout != "" {
				t.Errorf("stdout:\n%v", r)
			}
			oneErrorLine(t, r, "solve", tt.want)
		})
	}
}

// TestSolveCompactIndex: --compact-index (no direct copies of the tables)
// answers byte for byte as the default search does.
func TestSolveCompactIndex(t *testing.T) {
	p123, p456 := fixture(t, fx123), fixture(t, fx456)
	in := hardest8 + "\n" + twoMoves8 + "\n" + swapped8 + "\n"
	for _, extra := range [][]string{nil, {"--reflect"}, {"--reflect", "-t", "2"}} {
		args := append(append([]string{"solve", "-j", "1"}, extra...), p123, p456)
		want := pdbgen(t, in, args...)
		got := pdbgen(t, in, append(args, "--compact-index")...)
		wantCode(t, want, 0)
		if got.code != want.code || got.stdout != want.stdout || got.stderr != want.stderr {
			t.Errorf("%v: --compact-index gives\n%v\nthe default\n%v", extra, got, want)
		}
	}
}

// korf1 is the first of Korf's 100 15-puzzle instances (blank-first), 57
// moves: far beyond what a bidirectional search stores in a few MiB.
const korf1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"

// memTestEnv set says that TestSolveMemoryBoundsProcess runs in its
// fresh process.
const memTestEnv = "PDBGEN_TEST_MEMORY_CHILD"

// TestSolveMemoryBoundsProcess: under --max-memory a search that stores
// states keeps the whole process within the budget, not only its counted
// arrays: the Go runtime's memory (mapped and not returned to the system,
// sampled through runtime/metrics while the search runs) stays below
// --max-memory when the bidirectional search stops at its memory limit.
// Counting only the arrays (all of the budget after the tables, and no
// collection before a growth step) went past it by the garbage of the
// earlier growth steps. It runs in a fresh process (this test binary run
// again for this test alone), whose memory is pdbgen's own.
func TestSolveMemoryBoundsProcess(t *testing.T) {
	const budget = 48 << 20
	if os.Getenv(memTestEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSolveMemoryBoundsProcess$", "-test.v")
		cmd.Env = append(os.Environ(), memTestEnv+"=1")
		out, err := cmd.CombinedOutput()
		t.Logf("in a fresh process:\n%s", out)
		if err != nil {
			t.Errorf("the fresh process failed: %v", err)
		}
		return
	}
	debug.FreeOSMemory()
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	resident := func() uint64 {
		metrics.Read(samples)
		return samples[0].Value.Uint64() - samples[1].Value.Uint64()
	}
	before := resident()
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		peak := uint64(0)
		tick := time.NewTicker(200 * time.Microsecond)
		defer tick.Stop()
		for {
			peak = max(peak, resident())
			select {
			case <-stop:
				done <- peak
				return
			case <-tick.C:
			}
		}
	}()
	r := pdbgen(t, korf1+"\n", "solve", "-j", "1", "--algorithm", "bidirectional", "--board", "4x4", "--goal", "blank-first",
		"--max-memory", strconv.Itoa(budget>>20)+"M", "--json")
	close(stop)
	peak := <-done
	wantCode(t, r, 1)
	var a struct {
		Stopped   string `json:"stopped"`
		PeakBytes int64  `json:"peak_bytes"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &a); err != nil || a.Stopped != solver.StopMemory {
		t.Fatalf("want a stop at the memory limit, got %q (%v)", r.stdout, err)
	}
	t.Logf("arrays %.1f MiB, Go runtime memory %.1f MiB at the start, peak %.1f MiB, budget %d MiB",
		float64(a.PeakBytes)/(1<<20), float64(before)/(1<<20), float64(peak)/(1<<20), budget>>20)
	if peak > budget {
		t.Errorf("the process's Go memory peaked at %.1f MiB, above --max-memory %d MiB", float64(peak)/(1<<20), budget>>20)
	}
}
