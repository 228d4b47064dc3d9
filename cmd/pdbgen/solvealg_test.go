package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/solver"
)

// Tests of solve's other algorithms (--weight, --anytime, --algorithm
// bidirectional), their limits and their bad input. Every length is checked
// against an independent optimum: the exact 8-puzzle table (through lookup)
// or the published optimal lengths of Korf's instances.

// boundedRE is one text line of wastar, anytime or bidirectional (solveText).
var boundedRE = regexp.MustCompile(`^([0-9 ]+) : (improved )?length (\d+) moves ([udlr]+|-) nodes (\d+)(?: weight ([0-9.]+)| width (\d+)(?: polished \d+)?)? lower (\d+) bound (\d+\.\d{3})( optimal)?(?: stopped ([a-z-]+))?( converted-from blank-first)?$`)

// stoppedRE is the text line of a board stopped before any solution.
var stoppedRE = regexp.MustCompile(`^([0-9 ]+) : stopped (time-limit|node-limit|memory-limit|beam-exhausted)(?: lower (\d+))?(?: nodes (\d+))?( converted-from blank-first)?$`)

// bline is one parsed answer line, text or JSON.
type bline struct {
	board     string
	improved  bool // an --anytime improvement, not the final line
	length    int
	moves     string
	nodes     uint64
	weight    float64 // 0: none
	width     int     // beam width; 0: none
	lower     int
	bound     float64 // exact in JSON, rounded up to 3 decimals in text
	optimal   bool
	stopped   string
	converted bool
}

// parseBounded parses one answer line of solve (text or JSON).
func parseBounded(t *testing.T, l string, asJSON bool) bline {
	t.Helper()
	if asJSON {
		var o struct {
			Board         []int    `json:"board"`
			Algorithm     string   `json:"algorithm"`
			Weight        *float64 `json:"weight"`
			Width         *int     `json:"width"`
			Solvable      *bool    `json:"solvable"`
			Length        *int     `json:"length"`
			Moves         *string  `json:"moves"`
			Lower         *int     `json:"lower"`
			Bound         *float64 `json:"bound"`
			Optimal       *bool    `json:"optimal"`
			Nodes         *uint64  `json:"nodes"`
			Expanded      *uint64  `json:"expanded"`
			Stored        *uint64  `json:"stored"`
			PeakBytes     *int64   `json:"peak_bytes"`
			ElapsedMS     *float64 `json:"elapsed_ms"`
			Final         *bool    `json:"final"`
			Stopped       *string  `json:"stopped"`
			ConvertedFrom string   `json:"converted_from"`
		}
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if o.Solvable == nil || o.Optimal == nil || o.Nodes == nil || o.Expanded == nil || o.Stored == nil ||
			o.PeakBytes == nil || o.ElapsedMS == nil || o.Final == nil || o.Algorithm == "" {
			t.Fatalf("line %q lacks a key", l)
		}
		b := bline{board: strings.Trim(fmt.Sprint(o.Board), "[]"), improved: !*o.Final, length: -1, lower: -1,
			nodes: *o.Nodes, optimal: *o.Optimal, converted: o.ConvertedFrom != ""}
		if *o.Expanded > *o.Nodes+1 || (*o.Stored > 0 && *o.PeakBytes <= 0) {
			t.Errorf("line %q: implausible counts", l)
		}
		if !*o.Solvable {
			b.length = -2
			return b
		}
		if o.Length != nil {
			b.length, b.moves, b.bound = *o.Length, *o.Moves, *o.Bound
		}
		if o.Lower != nil {
			b.lower = *o.Lower
		}
		if o.Weight != nil {
			b.weight = *o.Weight
		}
		if o.Width != nil {
			b.width = *o.Width
		}
		if o.Stopped != nil {
			b.stopped = *o.Stopped
		}
		return b
	}
	if board, ok := strings.CutSuffix(strings.TrimSuffix(l, " converted-from blank-first"), " : unsolvable"); ok {
		return bline{board: board, length: -2}
	}
	if m := stoppedRE.FindStringSubmatch(l); m != nil {
		b := bline{board: m[1], length: -1, lower: -1, stopped: m[2], converted: m[5] != ""}
		if m[3] != "" {
			b.lower, _ = strconv.Atoi(m[3])
		}
		b.nodes, _ = strconv.ParseUint(m[4], 10, 64)
		return b
	}
	m := boundedRE.FindStringSubmatch(l)
	if m == nil {
		t.Fatalf("answer %q is not a solve line", l)
	}
	b := bline{board: m[1], improved: m[2] != "", moves: m[4], optimal: m[10] != "", stopped: m[11], converted: m[12] != ""}
	b.length, _ = strconv.Atoi(m[3])
	b.nodes, _ = strconv.ParseUint(m[5], 10, 64)
	if m[6] != "" {
		b.weight, _ = strconv.ParseFloat(m[6], 64)
	}
	b.width, _ = strconv.Atoi(m[7])
	b.lower, _ = strconv.Atoi(m[8])
	b.bound, _ = strconv.ParseFloat(m[9], 64)
	if b.moves == "-" {
		b.moves = ""
	}
	return b
}

// checkBounded checks what every solved line must satisfy against the
// true optimum opt: opt <= length <= maxFactor*opt, lower <= opt, bound =
// length/lower (text: rounded up), optimal only when length = lower, and
// the moves take the board to goal.
func checkBounded(t *testing.T, b bline, opt int, maxFactor float64, goal puzzle.Board, asJSON bool) {
	t.Helper()
	if b.length < opt || float64(b.length) > maxFactor*float64(opt)+1e-9 {
		t.Errorf("%s: length %d, optimum %d, want within [%d, %g×%d]", b.board, b.length, opt, opt, maxFactor, opt)
	}
	if b.lower < 0 || b.lower > opt || b.lower > b.length {
		t.Errorf("%s: proven lower bound %d, optimum %d, length %d", b.board, b.lower, opt, b.length)
	}
	want := 1.0
	if b.lower > 0 {
		want = float64(b.length) / float64(b.lower)
	}
	if !asJSON {
		want = math.Ceil(want*1000-1e-9) / 1000
	}
	if math.Abs(b.bound-want) > 1e-9 {
		t.Errorf("%s: bound %g, want %g (= %d/%d)", b.board, b.bound, want, b.length, b.lower)
	}
	if b.optimal != (b.length == b.lower) {
		t.Errorf("%s: optimal=%v with length %d, lower %d", b.board, b.optimal, b.length, b.lower)
	}
	geom, _ := puzzle.NewGeometry(int(math.Sqrt(float64(len(goal)))), int(math.Sqrt(float64(len(goal)))))
	start, err := puzzle.ParseBoard(b.board, len(goal))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.moves) != b.length {
		t.Errorf("%s: %d moves for length %d", b.board, len(b.moves), b.length)
	}
	end, err := solver.Apply(geom, start, b.moves)
	if err != nil {
		t.Fatalf("%s: moves %q: %v", b.board, b.moves, err)
	}
	if !end.Equal(goal) {
		t.Errorf("%s: moves %q end at %s, not the goal %s", b.board, b.moves, end, goal)
	}
}

// sample8 returns n random 8-puzzle boards (fixed seed; solvable and
// unsolvable alike) plus the goal and a hardest board, and their exact
// distances from the exact table (-1: unsolvable).
func sample8(t *testing.T, n int) ([]string, map[string]int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(8, 15))
	boards := []string{goal8, hardest8, twoMoves8}
	for range n {
		p := rng.Perm(9)
		f := make([]string, 9)
		for i, v := range p {
			f[i] = strconv.Itoa(v)
		}
		boards = append(boards, strings.Join(f, " "))
	}
	r := pdbgen(t, strings.Join(boards, "\n")+"\n", "lookup", fixture(t, fx8))
	wantCode(t, r, 0)
	dist := map[string]int{}
	for _, l := range lines(r.stdout) {
		f := strings.Split(l, "\t")
		if f[1] == "unsolvable" {
			dist[f[0]] = -1
			continue
		}
		dist[f[0]], _ = strconv.Atoi(f[1])
	}
	if len(dist) != len(boards) || dist[hardest8] != 31 {
		t.Fatalf("distances of the sample: %v", dist)
	}
	return boards, dist
}

// TestSolveWeighted8: weighted A* on random 8-puzzle boards with the
// additive 1-2-3 / 4-5-6 tables (a weak heuristic, so suboptimal answers do
// happen) and the exact table; every length within [optimum, W×optimum],
// W = 1 optimal.
func TestSolveWeighted8(t *testing.T) {
	boards, dist := sample8(t, 40)
	p8, p123, p456 := fixture(t, fx8), fixture(t, fx123), fixture(t, fx456)
	geom, _ := puzzle.NewGeometry(3, 3)
	goal := puzzle.BlankLastGoal(geom)
	in := strings.Join(boards, "\n") + "\n"
	tests := []struct {
		name   string
		args   []string
		weight float64
	}{
		{"A* (w=1)", []string{"--weight", "1", p123, p456}, 1},
		{"w=1.5", []string{"--weight", "1.5", "-j", "2", p123, p456}, 1.5},
		{"w=2 reflect", []string{"--weight", "2", "--reflect", p123, p456}, 2},
		{"w=5", []string{"--algorithm", "wastar", "--weight", "5", p123, p456}, 5},
		{"default weight", []string{"--algorithm", "wastar", p123, p456}, solver.DefaultWeight},
		{"exact table w=3", []string{"--weight", "3", p8}, 3},
	}
	for _, tt := range tests {
		for _, asJSON := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/json=%v", tt.name, asJSON), func(t *testing.T) {
				args := append([]string{"solve"}, tt.args...)
				if asJSON {
					args = append(args, "--json")
				}
				r := pdbgen(t, in, args...)
				wantCode(t, r, 0)
				ls := lines(r.stdout)
				if len(ls) != len(boards) || r.stderr != "" {
					t.Fatalf("want %d answers\n%v", len(boards), r)
				}
				suboptimal := 0
				for i, l := range ls {
					b := parseBounded(t, l, asJSON)
					if b.board != boards[i] {
						t.Fatalf("answer %d is for %s, want %s", i+1, b.board, boards[i])
					}
					opt := dist[b.board]
					if opt < 0 {
						if b.length != -2 {
							t.Errorf("%s is unsolvable, answered %q", b.board, l)
						}
						continue
					}
					if b.improved || b.stopped != "" || b.weight != tt.weight {
						t.Errorf("answer %q: want a final, unstopped answer of weight %g", l, tt.weight)
					}
					checkBounded(t, b, opt, tt.weight, goal, asJSON)
					if b.length > opt {
						suboptimal++
					}
				}
				if tt.weight == 1 && suboptimal > 0 {
					t.Errorf("A* (w=1) gave %d suboptimal answers", suboptimal)
				}
				t.Logf("%d of %d answers suboptimal", suboptimal, len(ls))
			})
		}
	}
}

// TestSolveAnytime8: ARA* prints its improvements, each with a proven
// bound, then a final line at the proven optimum (a schedule ending in 1)
// or within the last weight (a schedule ending above 1).
func TestSolveAnytime8(t *testing.T) {
	boards, dist := sample8(t, 25)
	p123, p456 := fixture(t, fx123), fixture(t, fx456)
	geom, _ := puzzle.NewGeometry(3, 3)
	goal := puzzle.BlankLastGoal(geom)
	in := strings.Join(boards, "\n") + "\n"
	tests := []struct {
		name    string
		args    []string
		last    float64 // the schedule's last weight
		optimal bool    // the final answer must be proven optimal
	}{
		{"default schedule", []string{"--anytime"}, 1, true},
		{"algorithm anytime -j 2", []string{"--algorithm", "anytime", "-j", "2", "--reflect"}, 1, true},
		{"schedule 3,2,1", []string{"--schedule", "3, 2, 1"}, 1, true},
		{"schedule 4,2 stops at 2", []string{"--anytime", "--schedule", "4,2"}, 2, false},
		{"restarts", []string{"--restarts"}, 1, true},
		{"restarts schedule 3,1.5", []string{"--anytime", "--restarts", "--schedule", "3,1.5"}, 1.5, false},
		{"beam", []string{"--anytime", "--beam", "--reflect"}, 1, true},
		{"beam widths up to 2 -j 2", []string{"--beam", "--width", "2", "-j", "2"}, 1, true},
	}
	for _, tt := range tests {
		for _, asJSON := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/json=%v", tt.name, asJSON), func(t *testing.T) {
				args := append(append([]string{"solve"}, tt.args...), p123, p456)
				if asJSON {
					args = append(args, "--json")
				}
				r := pdbgen(t, in, args...)
				wantCode(t, r, 0)
				if r.stderr != "" {
					t.Errorf("stderr:\n%v", r)
				}
				ls := lines(r.stdout)
				next, improvements := 0, 0
				var prev *bline
				for _, l := range ls {
					b := parseBounded(t, l, asJSON)
					if next >= len(boards) || b.board != boards[next] {
						t.Fatalf("line %q out of order (want an answer for board %d)", l, next+1)
					}
					opt := dist[b.board]
					if opt < 0 {
						if b.length != -2 || b.improved {
							t.Errorf("%s is unsolvable, answered %q", b.board, l)
						}
						next, prev = next+1, nil
						continue
					}
					if b.stopped != "" {
						t.Errorf("stopped without a limit: %q", l)
					}
					factor := 4.0
					if slices.Contains(tt.args, "--beam") {
						factor = 1e9 // beam search bounds no length
						if b.improved && b.weight == 0 && b.width == 0 {
							t.Errorf("%s: improvement %q names no width", b.board, l)
						}
					}
					checkBounded(t, b, opt, factor, goal, asJSON)
					if prev != nil && (b.length > prev.length || b.lower < prev.lower) {
						t.Errorf("%s: length %d, lower %d after length %d, lower %d: not an improvement",
							b.board, b.length, b.lower, prev.length, prev.lower)
					}
					if prev == nil && !b.improved {
						t.Errorf("%s: final line %q without an improvement line before it", b.board, l)
					}
					if b.improved {
						improvements++
						prev = &b
						continue
					}
					// The final line repeats the last improvement.
					if b.length != prev.length || b.lower != prev.lower || b.moves != prev.moves {
						t.Errorf("%s: final %q differs from the last improvement", b.board, l)
					}
					if tt.optimal && (!b.optimal || b.length != opt) {
						t.Errorf("%s: final %q, want the proven optimum %d", b.board, l, opt)
					}
					if b.bound > tt.last+1e-9 && b.length > opt {
						t.Errorf("%s: final bound %g above the last weight %g", b.board, b.bound, tt.last)
					}
					next, prev = next+1, nil
				}
				if next != len(boards) {
					t.Errorf("%d final answers for %d boards\n%v", next, len(boards), r)
				}
				t.Logf("%d improvement lines", improvements)
			})
		}
	}
}

// TestSolveBidirectional: bidirectional search equals the exact distances
// on the 8-puzzle, with tables (their goal) and without (--board, --goal),
// and blank-first boards converted with --from.
func TestSolveBidirectional(t *testing.T) {
	boards, dist := sample8(t, 30)
	p8, p8bf, p123 := fixture(t, fx8), fixture(t, fx8bf), fixture(t, fx123)
	geom, _ := puzzle.NewGeometry(3, 3)
	last, first := puzzle.BlankLastGoal(geom), puzzle.BlankFirstGoal(geom)
	in := strings.Join(boards, "\n") + "\n"
	// Exact blank-first distances.
	r := pdbgen(t, in, "lookup", p8bf)
	wantCode(t, r, 0)
	distBF := map[string]int{}
	for _, l := range lines(r.stdout) {
		f := strings.Split(l, "\t")
		distBF[f[0]] = -1
		if f[1] != "unsolvable" {
			distBF[f[0]], _ = strconv.Atoi(f[1])
		}
	}
	tests := []struct {
		name string
		args []string
		goal puzzle.Board
		dist map[string]int
	}{
		{"no tables", []string{"--board", "3x3"}, last, dist},
		{"no tables -j 2 blank-last", []string{"--board", "3x3", "--goal", "blank-last", "-j", "2"}, last, dist},
		{"no tables blank-first", []string{"--board", "3x3", "--goal", "blank-first"}, first, distBF},
		{"no tables explicit goal", []string{"--board", "3x3", "--goal", "0,1,2,3,4,5,6,7,8"}, first, distBF},
		{"exact table", []string{p8}, last, dist},
		{"additive table, matching --board", []string{"--board", "3x3", p123}, last, dist},
		{"blank-first table", []string{p8bf}, first, distBF},
		{"--from blank-first", []string{"--from", "blank-first", "--reflect", p8}, first, distBF},
	}
	for _, tt := range tests {
		for _, asJSON := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/json=%v", tt.name, asJSON), func(t *testing.T) {
				args := append([]string{"solve", "--algorithm", "bidirectional"}, tt.args...)
				if asJSON {
					args = append(args, "--json")
				}
				r := pdbgen(t, in, args...)
				wantCode(t, r, 0)
				ls := lines(r.stdout)
				if len(ls) != len(boards) || r.stderr != "" {
					t.Fatalf("want %d answers\n%v", len(boards), r)
				}
				for i, l := range ls {
					b := parseBounded(t, l, asJSON)
					if b.board != boards[i] {
						t.Fatalf("answer %d is for %s", i+1, b.board)
					}
					opt := tt.dist[b.board]
					if opt < 0 {
						if b.length != -2 {
							t.Errorf("%s is unsolvable, answered %q", b.board, l)
						}
						continue
					}
					if b.length != opt || !b.optimal || b.weight != 0 {
						t.Errorf("answer %q, want an optimal %d", l, opt)
					}
					checkBounded(t, b, opt, 1, tt.goal, asJSON)
				}
			})
		}
	}
}

// Tables for the 15-puzzle, built once: the 5-5-5 preset (blank-last).
var (
	tables15Once sync.Once
	tables15     []string
	tables15Err  error
)

func fixture15(t *testing.T) []string {
	t.Helper()
	tables15Once.Do(func() {
		fixture(t, fx8) // fixtureDir
		dir := filepath.Join(fixtureDir, "15-555")
		r := pdbgen(t, "", "build", "--quiet", "-j", "2", "-o", dir, "--preset", "15-555")
		if r.code != 0 {
			tables15Err = fmt.Errorf("build 15-555: %v", r)
			return
		}
		tables15 = lines(r.stdout)
	})
	if tables15Err != nil {
		t.Fatal(tables15Err)
	}
	return tables15
}

// korf is one of Korf's instances (testdata/korf10.tsv).
type korf struct {
	id, opt int
	board   string
}

func korf10(t *testing.T) []korf {
	t.Helper()
	f, err := os.Open("testdata/korf10.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []korf
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		id, _ := strconv.Atoi(c[0])
		opt, _ := strconv.Atoi(c[1])
		out = append(out, korf{id, opt, c[2]})
	}
	if len(out) != 10 {
		t.Fatalf("%d instances in testdata/korf10.tsv", len(out))
	}
	return out
}

// TestSolveKorf: on Korf's instances with the 5-5-5 tables, weighted A*
// stays within W × the published optimum, ARA* ends at it, and
// bidirectional search agrees with IDA* on shorter 15-puzzle boards.
func TestSolveKorf(t *testing.T) {
	tabs := fixture15(t)
	ks := korf10(t)
	geom, _ := puzzle.NewGeometry(4, 4)
	goalFirst := puzzle.BlankFirstGoal(geom)
	var all strings.Builder
	for _, k := range ks {
		all.WriteString(k.board + "\n")
	}
	for _, w := range []string{"1.5", "2"} {
		t.Run("weight "+w, func(t *testing.T) {
			r := pdbgen(t, all.String(), append([]string{"solve", "--weight", w, "--reflect", "--from", "blank-first", "-j", "2"}, tabs...)...)
			wantCode(t, r, 0)
			ls := lines(r.stdout)
			if len(ls) != len(ks) {
				t.Fatalf("%v", r)
			}
			wf, _ := strconv.ParseFloat(w, 64)
			excess := 0
			for i, l := range ls {
				b := parseBounded(t, l, false)
				if b.board != ks[i].board || !b.converted {
					t.Fatalf("answer %q for instance %d", l, ks[i].id)
				}
				checkBounded(t, b, ks[i].opt, wf, goalFirst, false)
				excess += b.length - ks[i].opt
			}
			t.Logf("w=%s: %d moves over the optima in all", w, excess)
			r1 := pdbgen(t, all.String(), append([]string{"solve", "--weight", w, "--reflect", "--from", "blank-first", "-j", "1"}, tabs...)...)
			if r1.stdout != r.stdout {
				t.Errorf("-j 1 and -j 2 differ:\n%s\n%s", r1.stdout, r.stdout)
			}
		})
	}
	t.Run("anytime", func(t *testing.T) {
		// The three quickest of the ten for ARA* (2, 6, 9).
		in := ks[1].board + "\n" + ks[5].board + "\n" + ks[8].board + "\n"
		opts := []int{ks[1].opt, ks[5].opt, ks[8].opt}
		r := pdbgen(t, in, append([]string{"solve", "--anytime", "--json", "--reflect", "--from", "blank-first"}, tabs...)...)
		wantCode(t, r, 0)
		n := 0
		for _, l := range lines(r.stdout) {
			b := parseBounded(t, l, true)
			checkBounded(t, b, opts[n], 2.5, goalFirst, true)
			if !b.improved {
				if !b.optimal || b.length != opts[n] {
					t.Errorf("final %q, want the optimum %d", l, opts[n])
				}
				n++
			}
		}
		if n != 3 {
			t.Errorf("%d final lines\n%v", n, r)
		}
	})
	t.Run("bidirectional equals IDA*", func(t *testing.T) {
		// Random walks of 60 moves from the goal: 20-30 moves away.
		rng := rand.New(rand.NewPCG(15, 1))
		var in strings.Builder
		for range 4 {
			b := puzzle.BlankLastGoal(geom)
			blank := len(b) - 1
			for range 60 {
				d := puzzle.Direction(rng.IntN(4))
				if to, ok := geom.Step(blank, d); ok {
					b[blank], b[to] = b[to], 0
					blank = to
				}
			}
			in.WriteString(b.String() + "\n")
		}
		ida := pdbgen(t, in.String(), append([]string{"solve", "--reflect"}, tabs...)...)
		wantCode(t, ida, 0)
		bid := pdbgen(t, in.String(), "solve", "--algorithm", "bidirectional", "--board", "4x4")
		wantCode(t, bid, 0)
		il, bl := lines(ida.stdout), lines(bid.stdout)
		if len(il) != 4 || len(bl) != 4 {
			t.Fatalf("IDA*:\n%v\nbidirectional:\n%v", ida, bid)
		}
		for i := range il {
			m := solveRE.FindStringSubmatch(il[i])
			b := parseBounded(t, bl[i], false)
			if m == nil || m[1] != b.board || m[2] != strconv.Itoa(b.length) || !b.optimal {
				t.Errorf("IDA* %q, bidirectional %q", il[i], bl[i])
			}
		}
	})
}

// TestSolveLimits: a limit reached before any solution answers what is
// proven and exits 1 with one line on stderr; a limit reached after a
// solution answers it and exits 0.
func TestSolveLimits(t *testing.T) {
	p123, p456 := fixture(t, fx123), fixture(t, fx456)
	tests := []struct {
		name    string
		args    []string
		code    int
		reason  string
		stderr  string // in the one error line ("" = no stderr)
		lengthy bool   // answered with a solution
	}{
		{"wastar node limit", []string{"--weight", "1.2", "--max-nodes", "50", p123, p456}, 1, "node-limit", "node limit reached: 50 states stored; proven: optimum >=", false},
		{"anytime node limit before a solution", []string{"--anytime", "--max-nodes", "20", p123, p456}, 1, "node-limit", "node limit", false},
		{"anytime node limit after a solution", []string{"--anytime", "--max-nodes", "2000", p123, p456}, 0, "node-limit", "", true},
		{"anytime memory limit after a solution", []string{"--anytime", "--max-memory", "10M", "-j", "1", p123, p456}, 0, "memory-limit", "", true},
		{"bidirectional node limit", []string{"--algorithm", "bidirectional", "--board", "3x3", "--max-nodes", "100"}, 1, "node-limit", "after ruling out every solution of", false},
		{"beam node limit", []string{"--algorithm", "beam", "--max-nodes", "20", p123, p456}, 1, "node-limit", "node limit reached", false},
		{"anytime beam node limit", []string{"--beam", "--max-nodes", "20", p123, p456}, 1, "node-limit", "node limit reached", false},
		// The first time check comes after 1024 expansions; ARA*'s first
		// solution of this board takes about 300, the optimum 25,000.
		{"anytime time limit after a solution", []string{"--anytime", "--time-limit", "1ns", p123, p456}, 0, "time-limit", "", true},
	}
	for _, tt := range tests {
		for _, asJSON := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/json=%v", tt.name, asJSON), func(t *testing.T) {
				args := append([]string{"solve"}, tt.args...)
				if asJSON {
					args = append(args, "--json")
				}
				r := pdbgen(t, hardest8+"\n", args...)
				wantCode(t, r, tt.code)
				if tt.stderr == "" && r.stderr != "" {
					t.Errorf("stderr:\n%v", r)
				}
				if tt.stderr != "" {
					oneErrorLine(t, r, "solve", tt.stderr)
				}
				ls := lines(r.stdout)
				if len(ls) == 0 {
					t.Fatalf("no answer\n%v", r)
				}
				b := parseBounded(t, ls[len(ls)-1], asJSON)
				if b.stopped != tt.reason || b.improved || (b.length >= 0) != tt.lengthy || b.lower > 31 {
					t.Errorf("answer %q, want stopped %s (with a solution: %v)", ls[len(ls)-1], tt.reason, tt.lengthy)
				}
				// Every search stopped by its node limit says what it proved.
				if tt.reason == "node-limit" && !tt.lengthy && b.lower < 1 {
					t.Errorf("answer %q: no proven lower bound", ls[len(ls)-1])
				}
				if tt.lengthy {
					geom, _ := puzzle.NewGeometry(3, 3)
					checkBounded(t, b, 31, 2.5, puzzle.BlankLastGoal(geom), asJSON)
				}
			})
		}
	}
}

// TestSolveIDATimeLimit: IDA* with weak tables on Korf's instance 1 takes
// far longer than the limit: it stops, says so, and exits 1.
func TestSolveIDATimeLimit(t *testing.T) {
	dir := t.TempDir()
	r := pdbgen(t, "", "build", "--quiet", "-j", "2", "-o", dir, "--board", "4x4", "--tiles", "1-4", "--tiles", "5-8", "--tiles", "9-12", "--tiles", "13-15")
	wantCode(t, r, 0)
	k := korf10(t)[0]
	start := time.Now()
	r = pdbgen(t, k.board+"\n", append([]string{"solve", "--from", "blank-first", "--time-limit", "100ms"}, lines(r.stdout)...)...)
	wantCode(t, r, 1)
	// What the stopped search proved: a lower bound (at least the
	// tables' heuristic of the start, at most the optimum) and its nodes.
	m := stoppedRE.FindStringSubmatch(strings.TrimSuffix(r.stdout, "\n"))
	if m == nil || m[1] != k.board || m[2] != "time-limit" || m[3] == "" || m[4] == "" || m[5] == "" {
		t.Fatalf("stdout %q, want the board stopped by the time limit with its lower bound and nodes", r.stdout)
	}
	if lower, _ := strconv.Atoi(m[3]); lower < 1 || lower > k.opt {
		t.Errorf("proven lower bound %d, optimum %d", lower, k.opt)
	}
	if nodes, _ := strconv.ParseUint(m[4], 10, 64); nodes == 0 {
		t.Errorf("no nodes reported: %q", r.stdout)
	}
	oneErrorLine(t, r, "solve", "IDA*: time limit reached: 100ms; proven: optimum >= "+m[3]+" moves")
	t.Logf("stopped after %v", time.Since(start))
}

// TestSolveAlgorithmErrors: bad algorithm, weight, schedule, limit and
// board flags are one-line usage errors (exit 2) with nothing on stdout; a
// board of the wrong size is a bad line (exit 1).
func TestSolveAlgorithmErrors(t *testing.T) {
	p8, p123, p8bf := fixture(t, fx8), fixture(t, fx123), fixture(t, fx8bf)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown algorithm", []string{"--algorithm", "dfs", p8}, `--algorithm "dfs"`},
		{"weight below 1", []string{"--weight", "0.99", p8}, "must be >= 1"},
		{"weight 0", []string{"--weight", "0", p8}, "must be >= 1"},
		{"weight negative", []string{"--weight", "-2", p8}, "must be >= 1"},
		{"weight NaN", []string{"--weight", "NaN", p8}, "not a number"},
		{"weight Inf", []string{"--weight", "+Inf", p8}, "not a number"},
		{"weight word", []string{"--weight", "heavy", p8}, "not a number"},
		{"weight 1e308", []string{"--weight", "1e308", p8}, "must be <= 1000"},
		{"weight above the limit", []string{"--weight", "1000.001", p8}, "must be <= 1000"},
		{"schedule above the limit", []string{"--schedule", "1001,1", p8}, "must be <= 1000"},
		{"weight with bidirectional", []string{"--algorithm", "bidirectional", "--weight", "2", p8}, "--weight goes with --algorithm wastar"},
		{"weight with anytime", []string{"--anytime", "--weight", "2", p8}, "goes with"},
		{"anytime with ida", []string{"--algorithm", "ida", "--anytime", p8}, "--anytime goes with --algorithm anytime"},
		{"schedule increasing", []string{"--schedule", "1,2", p8}, "strictly decrease"},
		{"schedule repeated", []string{"--schedule", "2,2,1", p8}, "strictly decrease"},
		{"schedule below 1", []string{"--schedule", "2,0.5", p8}, "must be >= 1"},
		{"schedule empty", []string{"--schedule", "", p8}, "not a number"},
		{"schedule junk", []string{"--schedule", "2,,1", p8}, "not a number"},
		{"schedule with wastar", []string{"--weight", "2", "--schedule", "2,1", p8}, "goes with"},
		{"beam with schedule", []string{"--beam", "--schedule", "2,1", p8}, "--beam replaces the weights"},
		{"beam with restarts", []string{"--beam", "--restarts", p8}, "--beam replaces the weights"},
		{"beam with wastar", []string{"--beam", "--weight", "2", p8}, "goes with"},
		{"beam with ida", []string{"--algorithm", "ida", "--beam", p8}, "--beam goes with --algorithm anytime"},
		{"width without beam", []string{"--anytime", "--width", "10", p8}, "--width goes with --algorithm beam or --anytime --beam"},
		{"width with ida", []string{"--width", "10", p8}, "--width goes with"},
		{"width 0", []string{"--algorithm", "beam", "--width", "0", p8}, "--width \"0\": want a whole number"},
		{"width junk", []string{"--beam", "--width", "1e3", p8}, "--width \"1e3\""},
		{"width too large", []string{"--beam", "--width", "268435457", p8}, "from 1 to 268435456"},
		{"max-nodes 0", []string{"--weight", "2", "--max-nodes", "0", p8}, "--max-nodes"},
		{"max-nodes negative", []string{"--weight", "2", "--max-nodes", "-5", p8}, "--max-nodes"},
		{"max-nodes junk", []string{"--weight", "2", "--max-nodes", "1e3", p8}, "--max-nodes"},
		{"max-nodes with ida", []string{"--max-nodes", "10", p8}, "IDA* stores none"},
		{"time-limit 0", []string{"--time-limit", "0", p8}, "--time-limit"},
		{"time-limit negative", []string{"--anytime", "--time-limit", "-1s", p8}, "--time-limit"},
		{"time-limit no unit", []string{"--time-limit", "10", p8}, "--time-limit"},
		{"no tables for ida", []string{"--weight", "2"}, "no table files"},
		{"bidirectional without --board", []string{"--algorithm", "bidirectional"}, "needs --board"},
		{"bidirectional bad --board", []string{"--algorithm", "bidirectional", "--board", "9x9"}, "--board"},
		{"bidirectional bad --goal", []string{"--algorithm", "bidirectional", "--board", "3x3", "--goal", "1,2,3"}, "--goal"},
		{"bidirectional --from without tables", []string{"--algorithm", "bidirectional", "--board", "3x3", "--from", "blank-first"}, "--from needs table files"},
		{"board of other tables", []string{"--algorithm", "bidirectional", "--board", "4x4", p8}, "--board 4x4, but the tables are for the 3x3 board"},
		{"goal of other tables", []string{"--weight", "2", "--goal", "blank-first", p8}, "the tables' goal is blank-last"},
		{"goal of other tables bf", []string{"--goal", "blank-last", p8bf}, "the tables' goal is blank-first"},
		{"search memory", []string{"--weight", "2", "--max-memory", "9M", "-j", "2", p123}, "less than 1 MiB for each of the 2 searches"},
		{"polish tail memory", []string{"--beam", "--polish", "tail", "--max-memory", "100M", p123}, "for --polish tail's goal ball"},
		{"polish with ida", []string{"--polish", "none", p8}, "--polish: only for --algorithm anytime-beam, not ida"},
		{"polish with beam", []string{"--algorithm", "beam", "--polish", "tail", p8}, "--polish: only for --algorithm anytime-beam"},
		{"polish junk", []string{"--beam", "--polish", "windows,tails", p8}, `--polish: "tails" is not windows, tail or none`},
		{"polish empty", []string{"--beam", "--polish", "", p8}, `--polish: "" is not windows, tail or none`},
		{"polish none and more", []string{"--beam", "--polish", "none,tail", p8}, "--polish: none goes alone"},
		{"polish junk after a space", []string{"--beam", "--polish", "tail, junk", p8}, `--polish: "junk" is not windows, tail or none`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := pdbgen(t, goal8+"\n", append([]string{"solve"}, tt.args...)...)
			wantCode(t, r, 2)
			if r.stdout != "" {
				t.Errorf("stdout:\n%v", r)
			}
			oneErrorLine(t, r, "solve", tt.want)
		})
	}
	// A board of the wrong size for the tables is a bad line, whatever the
	// algorithm.
	for _, alg := range []string{"ida", "wastar", "anytime", "bidirectional", "beam"} {
		r := pdbgen(t, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n", "solve", "--algorithm", alg, p8)
		wantCode(t, r, 1)
		if r.stdout != "" || !strings.Contains(r.stderr, "line 1: ") || !strings.Contains(r.stderr, "16 cells, want 9") {
			t.Errorf("%s: a 4x4 board for 3x3 tables:\n%v", alg, r)
		}
	}
}

// TestSolveAnytimeStreamsAndInterrupt: --anytime prints its first solution
// while the search goes on (weak tables on Korf's instance 1: the optimum
// takes minutes), and Ctrl-C then prints what the search had proven, says
// "interrupted" and exits 130.
func TestSolveAnytimeStreamsAndInterrupt(t *testing.T) {
	dir := t.TempDir()
	r := pdbgen(t, "", "build", "--quiet", "-j", "2", "-o", dir, "--board", "4x4", "--tiles", "1-4", "--tiles", "5-8", "--tiles", "9-12", "--tiles", "13-15")
	wantCode(t, r, 0)
	k := korf10(t)[0]
	for _, j := range []string{"1", "2"} {
		t.Run("-j "+j, func(t *testing.T) {
			cmd, stdin, stdout, stderr := startPdbgen(t, append([]string{"solve", "--anytime", "-j", j, "--from", "blank-first"}, lines(r.stdout)...)...)
			if _, err := io.WriteString(stdin, k.board+"\n"); err != nil {
				t.Fatal(err)
			}
			// stdin stays open: the answer cannot wait for the end of the input.
			defer stdin.Close()
			line := readLineWithin(t, stdout, 60*time.Second)
			b := parseBounded(t, strings.TrimSuffix(line, "\n"), false)
			if !b.improved || b.board != k.board {
				t.Fatalf("first line %q, want an improvement", line)
			}
			geom, _ := puzzle.NewGeometry(4, 4)
			checkBounded(t, b, k.opt, 2.5, puzzle.BlankFirstGoal(geom), false)
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			if code := waitExit(t, cmd, 10*time.Second); code != 130 {
				t.Errorf("exit status %d, want 130; stderr:\n%s", code, stderr)
			}
			el := lines(stderr.String())
			if len(el) != 2 || !strings.HasPrefix(el[0], "pdbgen solve: interrupted while solving "+k.board+": best solution ") ||
				!strings.Contains(el[0], "proven optimum >= ") || el[1] != "pdbgen solve: interrupted" {
				t.Errorf("stderr %q", stderr.String())
			}
		})
	}
}

// TestSolveRestartsTinyTimeLimit: --restarts with a time limit that is
// over before the first search still answers every board (with the best
// solution or what was proven), never as a bad input line.
func TestSolveRestartsTinyTimeLimit(t *testing.T) {
	boards, _ := sample8(t, 5)
	p123, p456 := fixture(t, fx123), fixture(t, fx456)
	r := pdbgen(t, strings.Join(boards, "\n")+"\n", "solve", "--restarts", "--time-limit", "1ns", "-j", "1", p123, p456)
	if r.code != 0 && r.code != 1 {
		t.Fatalf("exit %d, want 0 or 1\n%v", r.code, r)
	}
	if strings.Contains(r.stderr, "bad line") || strings.Contains(r.stderr, "line 1:") {
		t.Errorf("a board stopped by the time limit was reported as a bad line:\n%v", r)
	}
	final := 0
	for _, l := range lines(r.stdout) {
		if !strings.Contains(l, " : improved ") {
			final++
		}
	}
	if final != len(boards) {
		t.Errorf("%d final lines for %d boards:\n%v", final, len(boards), r)
	}
}

// TestSolveBeamExhausted: a beam that runs out of new states (width 1 on
// Korf's instance 1 with the 5-5-5 tables) answers its board with what is
// proven, "stopped beam-exhausted lower LB", in text and JSON, and exits 1
// with one line on stderr; it is not a bad line.
func TestSolveBeamExhausted(t *testing.T) {
	tables := fixture15(t)
	k1 := korf10(t)[0]
	for _, asJSON := range []bool{false, true} {
		args := append([]string{"solve", "--algorithm", "beam", "--width", "1", "--from", "blank-first"}, tables...)
		if asJSON {
			args = append(args, "--json")
		}
		r := pdbgen(t, k1.board+"\n", args...)
		wantCode(t, r, 1)
		oneErrorLine(t, r, "solve", "no new state at a level")
		ls := lines(r.stdout)
		if len(ls) != 1 {
			t.Fatalf("json=%v: want one answer\n%v", asJSON, r)
		}
		b := parseBounded(t, ls[0], asJSON)
		if b.stopped != "beam-exhausted" || b.length != -1 || b.lower < 1 || b.lower > k1.opt {
			t.Errorf("json=%v: answer %q", asJSON, ls[0])
		}
	}
}

// TestSolveAlgorithmAliases: each algorithm of the registry is chosen by
// one --algorithm value, and today's spellings are aliases of it: the
// same lines (text output: no times; for anytime-beam, whose IDA* slices
// are timed, the final lines without the node counts), the JSON naming
// the algorithm;
// aliases of another algorithm than the one chosen are refused; the help
// lists every algorithm of the registry.
func TestSolveAlgorithmAliases(t *testing.T) {
	p123, p456 := fixture(t, fx123), fixture(t, fx456)
	in := hardest8 + "\n" + twoMoves8 + "\n"
	tests := []struct {
		alg     string
		aliases [][]string
	}{
		{"wastar", [][]string{{"--weight", "1.5"}, {"--algorithm", "wastar", "--weight", "1.5"}}},
		{"anytime", [][]string{{"--anytime"}, {"--schedule", "2.5,1.8,1.3,1"}}},
		{"restarts", [][]string{{"--restarts"}, {"--anytime", "--restarts"}, {"--algorithm", "anytime", "--restarts"}, {"--algorithm", "restarts", "--anytime"}}},
		{"anytime-beam", [][]string{{"--beam"}, {"--anytime", "--beam"}, {"--algorithm", "anytime", "--beam"}, {"--algorithm", "anytime-beam", "--anytime"}}},
	}
	nodesRE := regexp.MustCompile(` nodes \d+`)
	for _, tt := range tests {
		timed := tt.alg == "anytime-beam"
		answer := func(out string) string {
			if !timed {
				return out
			}
			var final []string
			for _, l := range lines(out) {
				if !strings.Contains(l, " : improved ") {
					final = append(final, nodesRE.ReplaceAllString(l, ""))
				}
			}
			return strings.Join(final, "\n")
		}
		want := pdbgen(t, in, "solve", "--algorithm", tt.alg, p123, p456)
		wantCode(t, want, 0)
		if n := len(lines(want.stdout)); n < 2 {
			t.Fatalf("--algorithm %s: %d lines\n%v", tt.alg, n, want)
		}
		for _, a := range tt.aliases {
			got := pdbgen(t, in, append(append([]string{"solve"}, a...), p123, p456)...)
			if got.code != 0 || answer(got.stdout) != answer(want.stdout) {
				t.Errorf("%v: not the answer of --algorithm %s:\n%v\nwant\n%v", a, tt.alg, got, want)
			}
		}
		j := pdbgen(t, hardest8+"\n", "solve", "--algorithm", tt.alg, "--json", p123, p456)
		ls := lines(j.stdout)
		var last struct{ Algorithm string }
		if len(ls) == 0 || json.Unmarshal([]byte(ls[len(ls)-1]), &last) != nil || last.Algorithm != tt.alg {
			t.Errorf("--algorithm %s --json: %q, want \"algorithm\":%q", tt.alg, j.stdout, tt.alg)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--algorithm", "beam", "--beam"}, "--beam goes with --algorithm anytime-beam, not beam"},
		{[]string{"--algorithm", "wastar", "--restarts"}, "--restarts goes with --algorithm restarts, not wastar"},
		{[]string{"--algorithm", "anytime-beam", "--schedule", "2,1"}, "--algorithm anytime-beam takes no --schedule and no --restarts"},
		{[]string{"--algorithm", "restarts", "--width", "5"}, "--width goes with --algorithm beam or --anytime --beam"},
		{[]string{"--algorithm", "dfs"}, "want one of " + strings.Join(solver.Algorithms(), ", ")},
	} {
		r := pdbgen(t, in, append(append([]string{"solve"}, tc.args...), p123, p456)...)
		wantCode(t, r, 2)
		oneErrorLine(t, r, "solve", tc.want)
	}
	help := pdbgen(t, "", "solve", "-h")
	for _, name := range solver.Algorithms() {
		alg, _ := solver.ParseAlgorithm(name)
		if !strings.Contains(help.stdout+help.stderr, "  "+name+": ") || !strings.Contains(help.stdout+help.stderr, name+" ("+alg.Summary()+")") {
			t.Errorf("solve -h does not describe %s", name)
		}
	}
}

// TestParsePolish: --polish's lists give the solver's steps.
func TestParsePolish(t *testing.T) {
	const both = solver.PolishWindows | solver.PolishTail
	for _, tt := range []struct {
		list  string
		given bool
		want  solver.PolishSteps
	}{
		{"windows", false, solver.PolishWindows},
		{"windows,tail", true, both},
		{"tail, windows", true, both},
		{"windows", true, solver.PolishWindows},
		{"tail", true, solver.PolishTail},
		{"tail,tail", true, solver.PolishTail},
		{"none", true, solver.PolishNone},
	} {
		got, err := parsePolish(tt.list, tt.given, solver.AlgAnytimeBeamSearch)
		if err != nil || got != tt.want {
			t.Errorf("parsePolish(%q) = %v, %v; want %v", tt.list, got, err, tt.want)
		}
	}
	// The default is accepted with every algorithm (not given).
	if got, err := parsePolish("windows", false, solver.AlgIDA); err != nil || got != solver.PolishWindows {
		t.Errorf("parsePolish(default, ida) = %v, %v", got, err)
	}
}
