package puzzle_test

import (
	"github.com/tilepdb/tilepdb/puzzle"
)

// This file holds test helpers written straight from the definitions in
// the doc comments and format/SPEC.md, without the bit tricks or
// precomputed tables of pattern.go, so the tests do not check the code
// against itself.

// refFact is n! by repeated multiplication.
func refFact(n int) uint64 {
	f := uint64(1)
	for i := 2; i <= n; i++ {
		f *= uint64(i)
	}
	return f
}

// refBinom is C(n, r), 0 when r < 0 or r > n.
func refBinom(n, r int) uint64 {
	if r < 0 || r > n {
		return 0
	}
	c := uint64(1)
	for i := 1; i <= r; i++ {
		c = c * uint64(n-r+i) / uint64(i)
	}
	return c
}

// refLehmer is the Lehmer (lexicographic) rank of a permutation of
// 0..m-1: sum of d_i·(m-1-i)! with d_i = #{j > i : a_j < a_i}. O(m²).
func refLehmer(a []uint8) uint64 {
	var l uint64
	for i := range a {
		d := 0
		for j := i + 1; j < len(a); j++ {
			if a[j] < a[i] {
				d++
			}
		}
		l += uint64(d) * refFact(len(a)-1-i)
	}
	return l
}

// refCellsetOrder is the cellset-order rank of the cells c_i of the
// pattern tiles (tiles ascending) on a board of n cells:
// P·C(n,k) + M, M = Σ C(s_j, j+1) over the sorted cells s, P = Lehmer rank
// of o_i = index of c_i in s.
func refCellsetOrder(n int, c []uint8) uint64 {
	k := len(c)
	// s = c sorted ascending (insertion sort).
	s := append([]uint8(nil), c...)
	for i := 1; i < k; i++ {
		for j := i; j > 0 && s[j-1] > s[j]; j-- {
			s[j-1], s[j] = s[j], s[j-1]
		}
	}
	var m uint64
	for j, sj := range s {
		m += refBinom(int(sj), j+1)
	}
	o := make([]uint8, k)
	for i, ci := range c {
		for j, sj := range s {
			if sj == ci {
				o[i] = uint8(j)
			}
		}
	}
	return refLehmer(o)*refBinom(n, k) + m
}

// refParity is the parity (0 even, 1 odd) of a permutation by counting
// inversions.
func refParity(a []uint8) int {
	inv := 0
	for i := range a {
		for j := i + 1; j < len(a); j++ {
			if a[j] < a[i] {
				inv++
			}
		}
	}
	return inv % 2
}

// forEachPermutation calls fn with every permutation of 0..n-1 in
// lexicographic order (the j-th call gets the permutation of Lehmer rank
// j). fn must not keep or modify the slice.
func forEachPermutation(n int, fn func([]uint8)) {
	forEachKPermutation(n, n, fn)
}

// forEachKPermutation calls fn with every sequence of k distinct values of
// 0..n-1, in lexicographic order.
func forEachKPermutation(n, k int, fn func([]uint8)) {
	a := make([]uint8, k)
	var used [puzzle.MaxCells]bool
	var rec func(i int)
	rec = func(i int) {
		if i == k {
			fn(a)
			return
		}
		for v := 0; v < n; v++ {
			if used[v] {
				continue
			}
			used[v] = true
			a[i] = uint8(v)
			rec(i + 1)
			used[v] = false
		}
	}
	rec(0)
}

// tileRange returns the tiles lo..hi.
func tileRange(lo, hi int) []uint8 {
	var ts []uint8
	for t := lo; t <= hi; t++ {
		ts = append(ts, uint8(t))
	}
	return ts
}
