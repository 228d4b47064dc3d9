package puzzle_test

import (
	"fmt"
	"math/bits"
	"slices"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// rankPatterns are the patterns whose whole index range is checked. Exact
// ones have no tiles; additive ones cover k = 1..N-3 on 2x2, 2x3, 3x2 and
// 3x3 and a few larger boards.
var rankPatterns = []struct {
	w, h  int
	goal  string
	tiles []uint8 // nil = exact
}{
	{2, 2, "blank-last", nil},
	{2, 2, "blank-first", nil},
	{2, 3, "blank-last", nil},
	{3, 2, "blank-first", nil},
	{2, 3, "3 0 5 1 4 2", nil},
	{3, 3, "blank-last", nil},
	{2, 2, "blank-last", []uint8{1}},
	{2, 2, "blank-first", []uint8{3}},
	{2, 3, "blank-last", []uint8{1}},
	{2, 3, "blank-last", []uint8{2, 5}},
	{2, 3, "blank-last", []uint8{1, 3, 5}},
	{3, 2, "blank-first", []uint8{4}},
	{3, 2, "blank-first", []uint8{1, 2}},
	{3, 2, "blank-first", []uint8{3, 4, 5}},
	{3, 3, "blank-last", []uint8{8}},
	{3, 3, "blank-last", []uint8{1, 2}},
	{3, 3, "blank-last", []uint8{1, 2, 3}},
	{3, 3, "blank-first", []uint8{2, 4, 6, 8}},
	{3, 3, "blank-last", []uint8{1, 3, 5, 7, 8}},
	{3, 3, "blank-last", []uint8{1, 2, 3, 4, 5, 6}},
	{4, 4, "blank-last", []uint8{2, 3, 4}},
	{4, 4, "blank-first", []uint8{1, 5, 9, 13}},
	{3, 4, "blank-last", []uint8{1, 4, 7, 10}},
	{5, 5, "blank-last", []uint8{1, 2, 3}},
}

// TestUnrankRoundTrip walks every index of every pattern: Unrank gives a
// valid placement (distinct cells on the board; a solvable full position
// vector for an exact table), RankCells and Rank map it back to the same
// index, and so does the definition in SPEC.md.
func TestUnrankRoundTrip(t *testing.T) {
	for _, rp := range rankPatterns {
		p := pdbtest.Pattern(t, rp.w, rp.h, rp.goal, rp.tiles...)
		t.Run(p.String(), func(t *testing.T) {
			n := p.Geom.N()
			k := len(p.Tiles)
			wantSize := uint64(1) // additive: N!/(N-k)! = N·(N-1)···(N-k+1)
			for i := 0; i < k; i++ {
				wantSize *= uint64(n - i)
			}
			if p.Exact {
				wantSize = pdbtest.RefFactorial(n) / 2
			}
			if p.Size() != wantSize {
				t.Fatalf("Size = %d, want %d", p.Size(), wantSize)
			}
			cells := make([]uint8, p.CellsLen())
			pos := make([]uint8, n)
			hit := make([]bool, p.Size())
			errs := 0
			fail := func(format string, args ...any) {
				t.Helper()
				if errs++; errs <= 5 {
					t.Errorf(format, args...)
				}
			}
			for i := uint64(0); i < p.Size() && errs == 0; i++ {
				clear(cells)
				p.Unrank(i, cells)
				var used uint64
				for _, c := range cells {
					if int(c) >= n || used&(1<<c) != 0 {
						fail("Unrank(%d) = %v: cells repeated or off the board", i, cells)
					}
					used |= 1 << c
				}
				if p.Exact {
					copy(pos, cells)
					if !p.SolvablePositions(pos) {
						fail("Unrank(%d) = %v is not solvable", i, pos)
					}
					if ref := pdbtest.RefLehmer(pos) / 2; ref != i {
						fail("Unrank(%d) = %v, whose floor(Lehmer/2) is %d", i, pos, ref)
					}
				} else {
					// A full position vector: pattern tiles where Unrank put
					// them, the other tiles (and the blank) in the free cells.
					free := ^used
					for t := 0; t < n; t++ {
						if j, ok := slices.BinarySearch(p.Tiles, uint8(t)); ok {
							pos[t] = cells[j]
						} else {
							pos[t] = uint8(bits.TrailingZeros64(free))
							free &= free - 1
						}
					}
					if ref := pdbtest.RefCellsetOrder(n, cells); ref != i {
						fail("Unrank(%d) = %v, whose cellset-order rank by definition is %d", i, cells, ref)
					}
				}
				if r := p.RankCells(cells); r != i {
					fail("RankCells(Unrank(%d) = %v) = %d", i, cells, r)
				} else if hit[r] {
					fail("index %d hit twice", r)
				} else {
					hit[r] = true
				}
				if r := p.Rank(pos); r != i {
					fail("Rank(%v) = %d, want %d", pos, r, i)
				}
			}
			if errs == 0 {
				for i, h := range hit {
					if !h {
						t.Fatalf("index %d never hit", i)
					}
				}
			}
		})
	}
}

// TestRankBruteForceExact enumerates every permutation of the cells
// independently of Unrank, in lexicographic order, so the j-th one has
// Lehmer rank L = j. Rank must be floor(L/2) for all of them (solvable or
// not); exactly one of each pair (2m, 2m+1), which differ by swapping
// pos[N-2] and pos[N-1], is solvable, so the solvable ones map one-to-one
// onto [0, N!/2). Unrank inverts it.
func TestRankBruteForceExact(t *testing.T) {
	for _, rp := range rankPatterns {
		if rp.tiles != nil {
			continue
		}
		p := pdbtest.Pattern(t, rp.w, rp.h, rp.goal)
		t.Run(p.String(), func(t *testing.T) {
			n := p.Geom.N()
			hit := make([]bool, p.Size())
			back := make([]uint8, n)
			var l uint64
			solvable := uint64(0)
			errs := 0
			forEachPermutation(n, func(pos []uint8) {
				defer func() { l++ }()
				if errs > 5 {
					return
				}
				if l%97 == 0 { // the reference itself, on a sample
					if ref := pdbtest.RefLehmer(pos); ref != l {
						errs++
						t.Errorf("pdbtest.RefLehmer(%v) = %d, want %d", pos, ref, l)
					}
				}
				if r := p.Rank(pos); r != l/2 {
					errs++
					t.Errorf("Rank(%v) = %d, want floor(%d/2) = %d", pos, r, l, l/2)
				}
				if r := p.RankCells(pos); r != l/2 {
					errs++
					t.Errorf("RankCells(%v) = %d, want %d", pos, r, l/2)
				}
				if !p.SolvablePositions(pos) {
					return
				}
				solvable++
				if hit[l/2] {
					errs++
					t.Errorf("rank %d taken by two solvable states (the second %v)", l/2, pos)
				}
				hit[l/2] = true
				p.Unrank(l/2, back)
				if !slices.Equal(back, pos) {
					errs++
					t.Errorf("Unrank(%d) = %v, want %v", l/2, back, pos)
				}
			})
			if l != pdbtest.RefFactorial(n) {
				t.Fatalf("enumerated %d permutations, want %d", l, pdbtest.RefFactorial(n))
			}
			if solvable != p.Size() {
				t.Errorf("%d solvable states, Size %d", solvable, p.Size())
			}
			for i, h := range hit {
				if !h {
					t.Fatalf("no solvable state has rank %d", i)
				}
			}
		})
	}
}

// TestRankBruteForceAdditive enumerates every placement of the k pattern
// tiles (every sequence of k distinct cells) independently of Unrank:
// RankCells must agree with the definition, be in range and hit every
// index exactly once, and Unrank must invert it.
func TestRankBruteForceAdditive(t *testing.T) {
	for _, rp := range rankPatterns {
		if rp.tiles == nil {
			continue
		}
		p := pdbtest.Pattern(t, rp.w, rp.h, rp.goal, rp.tiles...)
		t.Run(p.String(), func(t *testing.T) {
			n, k := p.Geom.N(), len(p.Tiles)
			if p.CellsLen() != k {
				t.Fatalf("CellsLen = %d, want %d", p.CellsLen(), k)
			}
			hit := make([]bool, p.Size())
			back := make([]uint8, k)
			count := uint64(0)
			errs := 0
			forEachKPermutation(n, k, func(c []uint8) {
				count++
				if errs > 5 {
					return
				}
				r := p.RankCells(c)
				if ref := pdbtest.RefCellsetOrder(n, c); r != ref {
					errs++
					t.Errorf("RankCells(%v) = %d, definition gives %d", c, r, ref)
					return
				}
				if r >= p.Size() || hit[r] {
					errs++
					t.Errorf("RankCells(%v) = %d: out of range or hit twice", c, r)
					return
				}
				hit[r] = true
				p.Unrank(r, back)
				if !slices.Equal(back, c) {
					errs++
					t.Errorf("Unrank(%d) = %v, want %v", r, back, c)
				}
			})
			if count != p.Size() {
				t.Fatalf("%d placements, Size %d", count, p.Size())
			}
			for i, h := range hit {
				if !h {
					t.Fatalf("no placement has rank %d", i)
				}
			}
		})
	}
}

// TestKnownRanks: ranks worked out by hand from the definitions.
func TestKnownRanks(t *testing.T) {
	cases := []struct {
		w, h  int
		goal  string
		tiles []uint8 // nil = exact
		board string
		want  uint64
		why   string
	}{
		// lehmer-half: pos = cell of tile 0 (blank), 1, 2, ...
		{2, 2, "blank-last", nil, "1 2 3 0", 9,
			"pos=(3,0,1,2), digits (3,0,0,0): L = 3·3! = 18, 18/2 = 9"},
		{2, 3, "blank-last", nil, "1 2 3 4 5 0", 300,
			"pos=(5,0,1,2,3,4): L = 5·5! = 600, /2 = 300"},
		{3, 3, "blank-last", nil, "1 2 3 4 5 6 7 8 0", 161280,
			"goal: pos=(8,0,...,7): L = 8·8! = 322560, /2 = 161280"},
		{3, 3, "blank-last", nil, "1 2 3 4 5 6 7 0 8", 141120,
			"pos=(7,0,1,2,3,4,5,6,8), digits (7,0,...,0): L = 7·8! = 282240, /2 = 141120"},
		{3, 3, "blank-last", nil, "1 2 3 4 5 0 7 8 6", 100802,
			"pos=(5,0,1,2,3,4,8,6,7), digits (5,0,0,0,0,0,2,0,0): L = 5·8! + 2·2! = 201604, /2 = 100802"},
		{3, 3, "blank-last", nil, "4 1 0 3 2 5 6 7 8", 43620,
			"SPEC 4.2: pos=(2,1,4,3,0,5,6,7,8): L = 2·8!+1·7!+2·6!+1·5! = 87240, /2 = 43620"},
		{3, 3, "blank-first", nil, "0 1 2 3 4 5 6 7 8", 0,
			"goal: pos is the identity, L = 0"},
		{3, 3, "blank-first", nil, "8 7 6 5 4 3 2 1 0", 181439,
			"pos=(8,7,...,0), the last permutation: L = 9!-1 = 362879, /2 = 181439 = Size-1"},
		{3, 4, "blank-last", nil, "1 2 3 4 5 6 7 8 9 10 11 0", 219542400,
			"goal: pos=(11,0,...,10): L = 11·11! = 439084800, /2 = 219542400"},
		// cellset-order: rank = P·C(N,k) + M
		{3, 3, "blank-last", []uint8{1, 2}, "1 2 3 4 5 6 7 8 0", 0,
			"c=(0,1): M = C(0,1)+C(1,2) = 0, o=(0,1), P=0"},
		{3, 3, "blank-last", []uint8{1, 2}, "3 4 2 5 6 1 7 8 0", 48,
			"c=(5,2), s=(2,5): M = C(2,1)+C(5,2) = 2+10 = 12; o=(1,0), P=1; 1·C(9,2)+12 = 36+12 = 48"},
		{3, 3, "blank-last", []uint8{1, 2}, "3 4 5 6 7 8 0 2 1", 71,
			"c=(8,7), s=(7,8): M = C(7,1)+C(8,2) = 7+28 = 35; P=1; 36+35 = 71 = Size-1"},
		{3, 3, "blank-last", []uint8{1, 2, 3}, "4 1 0 3 2 5 6 7 8", 92,
			"SPEC 4.1: c=(1,4,3), s=(1,3,4), M = 1+3+4 = 8; o=(0,2,1), P=1; 84+8 = 92"},
		{4, 4, "blank-last", []uint8{2, 3, 4}, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", 3,
			"c=(1,2,3): M = C(1,1)+C(2,2)+C(3,3) = 3, P=0"},
		{4, 4, "blank-last", []uint8{1, 2, 3, 4, 7}, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", 6,
			"c=(0,1,2,3,6): M = 0+0+0+0+C(6,5) = 6, P=0"},
		{4, 4, "blank-first", []uint8{1, 2, 3}, "0 3 2 1 4 5 6 7 8 9 10 11 12 13 14 15", 5*560 + 3,
			"c=(3,2,1), s=(1,2,3): M = 3; o=(2,1,0), digits (2,1,0): P = 2·2!+1·1! = 5; 5·C(16,3)+3 = 5·560+3 = 2803"},
	}
	for _, c := range cases {
		p := pdbtest.Pattern(t, c.w, c.h, c.goal, c.tiles...)
		b, err := puzzle.ParseBoard(c.board, p.Geom.N())
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Rank(b.Positions()); got != c.want {
			t.Errorf("%s, board %s: Rank = %d, want %d (%s)", p, c.board, got, c.want, c.why)
		}
	}
}

// TestGoalRank: the goal ranks of the usual exact tables, and GoalCells.
func TestGoalRank(t *testing.T) {
	for _, c := range []struct {
		w, h int
		goal string
		want uint64
	}{
		{2, 2, "blank-last", 9},                 // 3·3!/2
		{2, 3, "blank-last", 300},               // 5·5!/2
		{3, 2, "blank-last", 300},               // same N
		{3, 3, "blank-last", 161280},            // 8·8!/2
		{2, 4, "blank-last", 7 * 5040 / 2},      // 7·7!/2 = 17640
		{3, 3, "blank-first", 0},                // identity
		{3, 4, "blank-last", 11 * 39916800 / 2}, // 11·11!/2
	} {
		p := pdbtest.Pattern(t, c.w, c.h, c.goal)
		if got := p.RankCells(p.GoalCells()); got != c.want {
			t.Errorf("%s: goal rank %d, want %d", p, got, c.want)
		}
		if got := p.Rank(p.Goal.Positions()); got != c.want {
			t.Errorf("%s: Rank(goal) = %d, want %d", p, got, c.want)
		}
	}
	p := pdbtest.Pattern(t, 4, 4, "blank-first", 3, 1, 2)
	if got := p.GoalCells(); !slices.Equal(got, []uint8{1, 2, 3}) {
		t.Errorf("GoalCells = %v", got)
	}
	gp := p.GoalPositions()
	gp[0] = 99
	if p.GoalPositions()[0] != 0 {
		t.Error("GoalPositions returns the pattern's own slice")
	}
}

// TestCombinationRank checks the colex rank of every subset of 16 cells
// against the definition, its range, and CombinationUnrank (the package
// functions and the Pattern methods, which must agree).
func TestCombinationRank(t *testing.T) {
	p := pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3)
	const n = 16
	var hit [n + 1][]bool
	for k := 0; k <= n; k++ {
		hit[k] = make([]bool, pdbtest.RefBinomial(n, k))
	}
	for mask := uint64(0); mask < 1<<n; mask++ {
		k := bits.OnesCount64(mask)
		var ref uint64
		j := 1
		for s := 0; s < n; s++ {
			if mask&(1<<s) != 0 {
				ref += pdbtest.RefBinomial(s, j)
				j++
			}
		}
		r := puzzle.CombinationRank(mask)
		if r != ref || p.CombinationRank(mask) != r {
			t.Fatalf("CombinationRank(%b) = %d (method %d), want %d", mask, r, p.CombinationRank(mask), ref)
		}
		if hit[k][r] {
			t.Fatalf("CombinationRank(%b) = %d twice for k=%d", mask, r, k)
		}
		hit[k][r] = true
		if k > 0 {
			if back := puzzle.CombinationUnrank(r, n, k); back != mask || p.CombinationUnrank(r, k) != mask {
				t.Fatalf("CombinationUnrank(%d, %d, %d) = %b (method %b), want %b", r, n, k, back, p.CombinationUnrank(r, k), mask)
			}
		}
	}
	for k := range hit {
		for r, h := range hit[k] {
			if !h {
				t.Fatalf("k=%d: rank %d never hit", k, r)
			}
		}
	}
}

// TestBinomialFactorial checks the package tables against the definitions
// over the whole domain and just outside it (0 there), and that the
// Pattern methods give the same values.
func TestBinomialFactorial(t *testing.T) {
	p := pdbtest.Pattern(t, 2, 2, "blank-last")
	for n := -2; n <= puzzle.MaxCells+2; n++ {
		for r := -2; r <= n+2; r++ {
			want := pdbtest.RefBinomial(n, r)
			if n < 0 || n > puzzle.MaxCells {
				want = 0
			}
			if got := puzzle.Binomial(n, r); got != want || p.Binomial(n, r) != want {
				t.Errorf("Binomial(%d, %d) = %d (method %d), want %d", n, r, got, p.Binomial(n, r), want)
			}
		}
	}
	for i := -2; i <= 22; i++ {
		want := pdbtest.RefFactorial(i)
		if i < 0 || i > 20 { // 21! does not fit in a uint64
			want = 0
		}
		if got := puzzle.Factorial(i); got != want || p.Factorial(i) != want {
			t.Errorf("Factorial(%d) = %d (method %d), want %d", i, got, p.Factorial(i), want)
		}
	}
}

// TestPatternAccessors: sizes, scheme names and sorting of the tiles.
func TestPatternAccessors(t *testing.T) {
	cases := []struct {
		w, h                int
		goal                string
		tiles               []uint8
		exact               bool
		size, combos        uint64
		k, cellsLen         int
		ranking, str, tsort string
	}{
		{3, 3, "blank-last", tileRange(1, 8), true, 181440, 0, 8, 9, puzzle.RankingLehmerHalf,
			"3x3 blank-last exact (all tiles)", "[1 2 3 4 5 6 7 8]"},
		{3, 3, "blank-last", []uint8{8, 3, 1, 2, 7, 6, 5, 4}, true, 181440, 0, 8, 9, puzzle.RankingLehmerHalf,
			"3x3 blank-last exact (all tiles)", "[1 2 3 4 5 6 7 8]"},
		{4, 4, "blank-last", []uint8{7, 1, 4, 3, 2}, false, 524160, 4368, 5, 5, puzzle.RankingCellsetOrder,
			"4x4 blank-last tiles 1,2,3,4,7", "[1 2 3 4 7]"},
		{4, 4, "blank-first", []uint8{4, 3, 2}, false, 3360, 560, 3, 3, puzzle.RankingCellsetOrder,
			"4x4 blank-first tiles 2,3,4", "[2 3 4]"},
		{4, 4, "blank-last", tileRange(1, 6), false, 5765760, 8008, 6, 6, puzzle.RankingCellsetOrder,
			"4x4 blank-last tiles 1,2,3,4,5,6", "[1 2 3 4 5 6]"},
		{2, 3, "3 0 5 1 4 2", []uint8{2}, false, 6, 6, 1, 1, puzzle.RankingCellsetOrder,
			"2x3 3 0 5 1 4 2 tiles 2", "[2]"},
		{5, 5, "blank-last", tileRange(1, 8), false, 43609104000, 1081575, 8, 8, puzzle.RankingCellsetOrder,
			"5x5 blank-last tiles 1,2,3,4,5,6,7,8", "[1 2 3 4 5 6 7 8]"},
	}
	for _, c := range cases {
		in := slices.Clone(c.tiles)
		p := pdbtest.Pattern(t, c.w, c.h, c.goal, in...)
		got := fmt.Sprint(p.Exact, p.Size(), p.K(), p.CellsLen(), p.Ranking(), p.String(), p.Tiles) //nolint:staticcheck // QF1010: the tiles as numbers, not as a string
		want := fmt.Sprint(c.exact, c.size, c.k, c.cellsLen, c.ranking, c.str, c.tsort)
		if got != want {
			t.Errorf("%s:\n got %s\nwant %s", c.str, got, want)
		}
		if !c.exact && p.Combinations() != c.combos {
			t.Errorf("%s: Combinations = %d, want %d", c.str, p.Combinations(), c.combos)
		}
		if !slices.Equal(in, c.tiles) {
			t.Errorf("%s: NewPattern modified its tiles argument", c.str)
		}
	}
}
