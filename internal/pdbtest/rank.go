package pdbtest

import (
	"fmt"
	"math/big"

	"github.com/tilepdb/tilepdb/puzzle"
)

// The reference ranking below is written straight from the definitions in
// format/SPEC.md and the doc comments of puzzle, without the bit tricks or
// precomputed tables of puzzle's code, the way a reader in another
// language would write it, so that tests do not check the code against
// itself. Everything here is O(N²) and allocates; it is for tests only.

// RefFactorial is n! by repeated multiplication (n <= 20).
func RefFactorial(n int) uint64 {
	f := uint64(1)
	for i := 2; i <= n; i++ {
		f *= uint64(i)
	}
	return f
}

// RefBinomial is C(n, r) by math/big's Binomial (exact at any size, so
// also for C(64, 32)), 0 when r < 0 or r > n. It panics when the result
// does not fit a uint64 (n > 67 or so).
func RefBinomial(n, r int) uint64 {
	if r < 0 || r > n {
		return 0
	}
	c := new(big.Int).Binomial(int64(n), int64(r))
	if !c.IsUint64() {
		panic(fmt.Sprintf("RefBinomial(%d, %d) = %v does not fit a uint64", n, r, c))
	}
	return c.Uint64()
}

// RefLehmer is the Lehmer (lexicographic) rank of a permutation a of
// 0..m-1: Σ_i d_i·(m-1-i)! with d_i = #{j > i : a_j < a_i}.
func RefLehmer(a []uint8) uint64 {
	var l uint64
	for i := range a {
		d := 0
		for j := i + 1; j < len(a); j++ {
			if a[j] < a[i] {
				d++
			}
		}
		l += uint64(d) * RefFactorial(len(a)-1-i)
	}
	return l
}

// RefCellsetOrder is the cellset-order rank of the cells c_i of the k
// pattern tiles (tiles ascending) on a board of n cells: P·C(n,k) + M,
// where s is c sorted ascending, M = Σ_j C(s_j, j+1) and P is the Lehmer
// rank of o_i = index of c_i in s.
func RefCellsetOrder(n int, c []uint8) uint64 {
	k := len(c)
	s := append([]uint8(nil), c...) // insertion sort
	for i := 1; i < k; i++ {
		for j := i; j > 0 && s[j-1] > s[j]; j-- {
			s[j-1], s[j] = s[j], s[j-1]
		}
	}
	var m uint64
	for j, sj := range s {
		m += RefBinomial(int(sj), j+1)
	}
	o := make([]uint8, k)
	for i, ci := range c {
		for j, sj := range s {
			if sj == ci {
				o[i] = uint8(j)
			}
		}
	}
	return RefLehmer(o)*RefBinomial(n, k) + m
}

// SpecRank is the table index of the state with position vector pos under
// p's ranking scheme, from the definitions: lehmer-half is floor(L/2) for
// L the Lehmer rank of the whole position vector; cellset-order is
// RefCellsetOrder of the pattern tiles' cells.
func SpecRank(p *puzzle.Pattern, pos []uint8) uint64 {
	if p.Exact {
		return RefLehmer(pos) / 2
	}
	c := make([]uint8, len(p.Tiles))
	for i, t := range p.Tiles {
		c[i] = pos[t]
	}
	return RefCellsetOrder(len(pos), c)
}
