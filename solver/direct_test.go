package solver

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
	"github.com/tilepdb/tilepdb/solver/fsm"
)

func TestDirectSize(t *testing.T) {
	for _, c := range []struct {
		n, k int
		want uint64
	}{
		{9, 3, 729},
		{25, 6, 244140625},
		{16, 7, 1 << 28},
		{16, 8, 0}, // 2^32: over maxDirectEntries
		{25, 7, 0},
		{25, 24, 0}, // overflows uint64 on the way
		{36, 5, 60466176},
		{49, 4, 5764801},
		{49, 5, 0}, // 282,475,249 > 2^28: the ranked lookup
		{64, 4, 1 << 24},
		{64, 5, 0},
		{64, 6, 0},
		{64, 63, 0},
	} {
		if got := directSize(c.n, c.k); got != c.want {
			t.Errorf("directSize(%d, %d) = %d, want %d", c.n, c.k, got, c.want)
		}
	}
}

// TestDirectIndexMatchesCompact: every placement reads the same value
// through the direct index as through the table's compact rank
// (puzzle.Pattern.RankCells), on square and non-square boards; every entry
// for the smaller tables, a random sample for the 6-tile 4x4 ones.
func TestDirectIndexMatchesCompact(t *testing.T) {
	cases := []struct {
		w, h  int
		goal  string
		tiles []uint8
	}{
		{3, 3, puzzle.GoalBlankLast, []uint8{1, 2, 3, 4}},
		{3, 3, puzzle.GoalBlankFirst, []uint8{5, 7}},
		{3, 2, puzzle.GoalBlankLast, []uint8{1, 2, 3}},
		{2, 4, puzzle.GoalBlankLast, []uint8{2, 5, 6}},
		{4, 4, puzzle.GoalBlankLast, []uint8{2, 3, 4}},
		{4, 4, puzzle.GoalBlankLast, part663[0]},
		{4, 4, puzzle.GoalBlankLast, part663[1]},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		tab := table(t, c.w, c.h, c.goal, c.tiles...)
		d, err := newDirectIndex(context.Background(), tab)
		if err != nil || d == nil {
			t.Fatalf("%s: no direct index", tab.Pattern)
		}
		if want := directSize(c.w*c.h, len(c.tiles)); uint64(len(d.values)) != want {
			t.Fatalf("%s: %d direct entries, want %d", tab.Pattern, len(d.values), want)
		}
		p := tab.Pattern
		cells := make([]uint8, p.CellsLen())
		var arr [puzzle.MaxCells]uint8
		check := func(idx uint64) {
			p.Unrank(idx, cells)
			copy(arr[:], cells)
			if got, want := d.values[d.index(&arr, len(cells))], tab.Values[idx]; got != want {
				t.Fatalf("%s: cells %v: direct %d, compact %d", p, cells, got, want)
			}
		}
		if p.Size() <= 1<<20 {
			for idx := uint64(0); idx < p.Size(); idx++ {
				check(idx)
			}
		} else {
			for range 200000 {
				check(rng.Uint64N(p.Size()))
			}
		}
	}
}

// TestDirectMatchesCompactSearch: IDA* through the direct index generates
// exactly the nodes and finds exactly the moves of IDA* through the compact
// index (Options.Compact), with and without reflection and with 2 threads.
func TestDirectMatchesCompactSearch(t *testing.T) {
	s := set(t, 4, 4, puzzle.GoalBlankLast, part663...)
	var boards []puzzle.Board
	for _, k := range korf100(t) {
		switch k.id {
		case 7, 12, 79:
			boards = append(boards, puzzle.BlankFirstToLast(k.board))
		}
	}
	for _, opt := range []Options{{}, {Reflect: true}, {Reflect: true, Threads: 2}} {
		compact := opt
		compact.Compact = true
		ds, cs := newSolver(t, s, opt), newSolver(t, s, compact)
		if ds.tabs[0].dvals == nil || cs.tabs[0].dvals != nil {
			t.Fatalf("%+v: direct index used %v, with Compact %v", opt, ds.tabs[0].dvals != nil, cs.tabs[0].dvals != nil)
		}
		// Mixed: one table too large for a direct index (as the 8-tile
		// table of the 15-puzzle's 7-8 partition is) beside direct ones.
		mixed := newSolver(t, s, opt)
		mixed.tabs[1].dvals = nil
		for _, b := range boards {
			want, err := cs.solve(b)
			if err != nil {
				t.Fatal(err)
			}
			for name, sv := range map[string]*Solver{"direct": ds, "mixed": mixed} {
				got, err := sv.solve(b)
				if err != nil {
					t.Fatal(err)
				}
				if got.Moves != want.Moves || got.Nodes != want.Nodes {
					t.Errorf("%s %+v: %s %d nodes %s, compact %d nodes %s", b, opt, name, got.Nodes, got.Moves, want.Nodes, want.Moves)
				}
			}
		}
	}
}

// TestDuplicatePairs checks that the duplicate-path automaton of dfs holds
// the former 2x2 rule: of the eight six-move strings that turn the same
// way at every step (1.5 times round a 2x2 square), the four it cuts are
// exactly the larger (in the order u < d < l < r) of the pairs that start
// on the same cell and go round the same square in opposite directions;
// each pair reaches the same board from every cell where either can be
// played, on several boards.
func TestDuplicatePairs(t *testing.T) {
	const dirs = "udlr"
	turn := func(d byte, cw bool) byte {
		// blank moves on screen: clockwise r -> d -> l -> u -> r
		order := "rdlu"
		i := strings.IndexByte(order, d)
		if cw {
			return order[(i+1)%4]
		}
		return order[(i+3)%4]
	}
	circle := func(first byte, cw bool) string {
		b := []byte{first}
		for len(b) < 6 {
			b = append(b, turn(b[len(b)-1], cw))
		}
		return string(b)
	}
	less := func(a, b string) bool {
		for i := range a {
			if a[i] != b[i] {
				return strings.IndexByte(dirs, a[i]) < strings.IndexByte(dirs, b[i])
			}
		}
		return false
	}
	a, err := fsm.ForDepth(dupDepth)
	if err != nil {
		t.Fatal(err)
	}
	var skipped, larger []string
	rng := rand.New(rand.NewPCG(6, 6))
	for _, first := range []byte(dirs) {
		cw := circle(first, true)
		var partners []string
		for _, other := range []byte(dirs) {
			if c := circle(other, false); sameEffect(cw, c, rng) {
				partners = append(partners, c)
			}
		}
		if len(partners) != 1 {
			t.Fatalf("%s: equivalent counter-clockwise strings %v, want exactly one", cw, partners)
		}
		big := cw
		if less(cw, partners[0]) {
			big = partners[0]
		}
		larger = append(larger, big)
		for _, s := range append(partners, cw) {
			if a.Run(s) == fsm.Dead {
				skipped = append(skipped, s)
			}
		}
	}
	slices.Sort(larger)
	slices.Sort(skipped)
	if !slices.Equal(larger, skipped) {
		t.Errorf("skipped strings %q, want the larger of each pair %q", skipped, larger)
	}
}

// sameEffect reports whether the move strings a and b can be played from
// the same starts and reach the same board from each, on 3x2, 2x3, 3x3,
// 4x4 and 5x5 boards (random tiles, the blank on every cell).
func sameEffect(a, b string, rng *rand.Rand) bool {
	same := true
	for _, g := range []puzzle.Geometry{{W: 3, H: 2}, {W: 2, H: 3}, {W: 3, H: 3}, {W: 4, H: 4}, {W: 5, H: 5}} {
		goal := puzzle.BlankLastGoal(g)
		for cell := 0; cell < g.N(); cell++ {
			bd := pdbtest.RandomSolvable(rng, g, goal)
			z := slices.Index(bd, 0)
			bd[z], bd[cell] = bd[cell], 0
			ra, errA := Apply(g, bd, a)
			rb, errB := Apply(g, bd, b)
			if (errA == nil) != (errB == nil) {
				same = false
				continue
			}
			if errA == nil && !ra.Equal(rb) {
				same = false
			}
		}
	}
	return same
}

// TestMaxDirectBytes: the direct indexes are built in part order while they
// fit in Options.MaxDirectBytes; the search answers as without them.
func TestMaxDirectBytes(t *testing.T) {
	s := set(t, 4, 4, puzzle.GoalBlankLast, part663...)
	all := DirectIndexBytes(s)
	six := directSize(16, 6)
	if want := 2*six + directSize(16, 3); all != want {
		t.Fatalf("DirectIndexBytes = %d, want %d", all, want)
	}
	b := puzzle.BlankFirstToLast(korf100(t)[11].board)
	want, err := newSolver(t, s, Options{Reflect: true, Compact: true}).solve(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		limit, built uint64
	}{
		{0, all}, {all, all}, {six, six}, {six + 100, six}, {2 * six, 2 * six}, {1, 0},
	} {
		sv := newSolver(t, s, Options{Reflect: true, MaxDirectBytes: c.limit})
		if got := sv.DirectBytes(); got != c.built {
			t.Errorf("MaxDirectBytes %d: built %d bytes, want %d", c.limit, got, c.built)
		}
		got, err := sv.solve(b)
		if err != nil {
			t.Fatal(err)
		}
		if got.Moves != want.Moves || got.Nodes != want.Nodes {
			t.Errorf("MaxDirectBytes %d: %d nodes %s, compact %d nodes %s", c.limit, got.Nodes, got.Moves, want.Nodes, want.Moves)
		}
	}
}

// index returns the direct index of the placement cells[0:k], computed
// from scratch (the search updates it one move at a time).
func (d *directIndex) index(cells *[puzzle.MaxCells]uint8, k int) uint64 {
	var idx uint64
	for i := 0; i < k; i++ {
		idx += uint64(cells[i]) * d.pow[i]
	}
	return idx
}
