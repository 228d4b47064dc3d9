package puzzle_test

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestRankBigBoards checks the ranking on boards of 30 to 64 cells (square
// and not, both goal conventions) against the SPEC definitions transcribed
// in pdbtest (SpecRank, exact at any size), and that Unrank inverts
// RankCells on the first and last index, the first and last cell set and
// random indexes.
func TestRankBigBoards(t *testing.T) {
	cases := []struct {
		w, h  int
		goal  string
		tiles []uint8
	}{
		{6, 6, "blank-last", []uint8{1, 2, 3}},
		{6, 6, "blank-first", []uint8{29, 30, 31, 33, 34, 35}},
		{7, 7, "blank-last", []uint8{1, 8, 15, 22}},
		{7, 7, "blank-first", []uint8{48}},
		{8, 8, "blank-last", []uint8{1, 2, 3, 4, 5, 6}},
		{8, 8, "blank-last", []uint8{55, 56, 61, 62, 63}},
		{8, 8, "blank-first", []uint8{7, 63}},
		{2, 8, "blank-last", []uint8{1, 2, 3, 4, 5}},
		{8, 2, "blank-first", []uint8{8, 15}},
		{6, 5, "blank-last", []uint8{10, 20, 29}},
	}
	rng := rand.New(rand.NewPCG(20, 64))
	for _, c := range cases {
		p := pdbtest.Pattern(t, c.w, c.h, c.goal, c.tiles...)
		t.Run(p.String(), func(t *testing.T) {
			g := p.Geom
			if got, want := p.Combinations(), pdbtest.RefBinomial(g.N(), p.K()); got != want {
				t.Fatalf("Combinations = %d, want %d", got, want)
			}
			for range 300 {
				pos := pdbtest.RandomSolvable(rng, g, p.Goal).Positions()
				r := p.Rank(pos)
				if want := pdbtest.SpecRank(p, pos); r != want {
					t.Fatalf("Rank(%v) = %d, SPEC definition %d", pos, r, want)
				}
				if r >= p.Size() {
					t.Fatalf("Rank(%v) = %d, out of range %d", pos, r, p.Size())
				}
			}
			cells := make([]uint8, p.CellsLen())
			idxs := []uint64{0, 1, p.Combinations() - 1, p.Combinations(), p.Size() - p.Combinations(), p.Size() - 1}
			for range 300 {
				idxs = append(idxs, rng.Uint64N(p.Size()))
			}
			for _, idx := range idxs {
				if idx >= p.Size() {
					continue // Combinations() is Size() for one tile
				}
				p.Unrank(idx, cells)
				var seen uint64
				for _, x := range cells {
					if int(x) >= g.N() || seen&(1<<x) != 0 {
						t.Fatalf("Unrank(%d) = %v: not distinct cells of the board", idx, cells)
					}
					seen |= 1 << x
				}
				if got := p.RankCells(cells); got != idx {
					t.Fatalf("RankCells(Unrank(%d) = %v) = %d", idx, cells, got)
				}
				if got := pdbtest.RefCellsetOrder(g.N(), cells); got != idx {
					t.Fatalf("Unrank(%d) = %v, whose SPEC rank is %d", idx, cells, got)
				}
			}
		})
	}
}

// TestCombinationRank64 checks the combination rank on 64 cells, where the
// masks use bit 63 and the binomials reach C(64, 32): against the
// combinatorial number system computed with math/big, the rank of the k
// highest cells is C(64, k) - 1, and Unrank inverts Rank for every k.
func TestCombinationRank64(t *testing.T) {
	const n = puzzle.MaxCells
	rng := rand.New(rand.NewPCG(64, 32))
	for k := 0; k <= n; k++ {
		top := puzzle.FullMask(n) &^ puzzle.FullMask(n-k)
		if got, want := puzzle.CombinationRank(top), pdbtest.RefBinomial(n, k)-1; k > 0 && got != want {
			t.Fatalf("k=%d: rank of the top cells = %d, want C(64,%d)-1 = %d", k, got, k, want)
		}
		if got := puzzle.CombinationUnrank(pdbtest.RefBinomial(n, k)-1, n, k); got != top {
			t.Fatalf("k=%d: unrank of C(64,k)-1 = %#x, want %#x", k, got, top)
		}
		for range 50 {
			// A random k-subset of the 64 cells.
			var mask uint64
			for _, c := range rng.Perm(n)[:k] {
				mask |= 1 << c
			}
			ref := new(big.Int)
			j := 1
			for c := 0; c < n; c++ {
				if mask&(1<<c) != 0 {
					ref.Add(ref, new(big.Int).Binomial(int64(c), int64(j)))
					j++
				}
			}
			m := puzzle.CombinationRank(mask)
			if !ref.IsUint64() || ref.Uint64() != m {
				t.Fatalf("CombinationRank(%#x) = %d, want %v", mask, m, ref)
			}
			if got := puzzle.CombinationUnrank(m, n, k); got != mask {
				t.Fatalf("CombinationUnrank(%d, 64, %d) = %#x, want %#x", m, k, got, mask)
			}
		}
	}
	if puzzle.FullMask(64) != ^uint64(0) || puzzle.FullMask(0) != 0 || puzzle.FullMask(25) != 1<<25-1 {
		t.Fatal("FullMask")
	}
}

// TestLehmerRank64 checks LehmerRank and LehmerUnrank on k-permutations of
// the 64 cells for every k whose range 64!/(64-k)! fits a uint64 (k <= 10),
// against the definition Σ_i d_i·(n-1-i)!/(n-k)! computed with math/big.
func TestLehmerRank64(t *testing.T) {
	const n = puzzle.MaxCells
	rng := rand.New(rand.NewPCG(10, 64))
	for k := 1; k <= 10; k++ {
		size := new(big.Int).Div(new(big.Int).MulRange(1, n), new(big.Int).MulRange(1, int64(n-k)))
		if !size.IsUint64() {
			t.Fatalf("64!/(64-%d)! does not fit a uint64", k)
		}
		for range 200 {
			seq := make([]uint8, k)
			for i, c := range rng.Perm(n)[:k] {
				seq[i] = uint8(c)
			}
			ref := new(big.Int)
			for i, c := range seq {
				d := 0
				for x := 0; x < int(c); x++ {
					used := false
					for _, y := range seq[:i] {
						used = used || int(y) == x
					}
					if !used {
						d++
					}
				}
				// (n-1-i)!/(n-k)! = (n-k+1)·...·(n-1-i)
				w := new(big.Int).MulRange(int64(n-k+1), int64(n-1-i))
				ref.Add(ref, w.Mul(w, big.NewInt(int64(d))))
			}
			r := puzzle.LehmerRank(seq, n)
			if ref.Uint64() != r || ref.Cmp(size) >= 0 {
				t.Fatalf("LehmerRank(%v, 64) = %d, want %v", seq, r, ref)
			}
			out := make([]uint8, k)
			puzzle.LehmerUnrank(r, n, k, out)
			for i := range out {
				if out[i] != seq[i] {
					t.Fatalf("LehmerUnrank(%d, 64, %d) = %v, want %v", r, k, out, seq)
				}
			}
		}
		// The last rank is the k highest cells in descending order.
		last := make([]uint8, k)
		puzzle.LehmerUnrank(size.Uint64()-1, n, k, last)
		for i, c := range last {
			if int(c) != n-1-i {
				t.Fatalf("k=%d: LehmerUnrank(last) = %v", k, last)
			}
		}
	}
}
