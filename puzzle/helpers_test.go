package puzzle_test

import (
	"github.com/tilepdb/tilepdb/puzzle"
)

// This file holds test helpers written straight from the definitions in
// the doc comments and format/SPEC.md, without the bit tricks or
// precomputed tables of pattern.go, so the tests do not check the code
// against itself. The reference ranking (RefLehmer, RefCellsetOrder, ...)
// is shared with other packages' tests in internal/pdbtest.

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
