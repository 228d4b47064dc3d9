package format

import (
	"math/bits"

	"github.com/tilepdb/tilepdb/puzzle"
)

// manhattan computes, for runs of consecutive ranks, the Manhattan distance
// of the state of each rank: the sum over the table's tiles (the pattern
// tiles of an additive table, tiles 1..N-1 of an exact table; never the
// blank) of the taxicab distance between the tile's cell and its goal cell.
// Format 2 stores (value - Manhattan)/2 instead of the value (SPEC.md,
// section 8).
//
// Ranks are walked in rank order with O(1) amortised work per entry instead
// of unranking each one: for cellset-order (rank = P·C(N,k) + M) the cell
// sets of one tile order P are enumerated in colexicographic order by nested
// loops that keep the partial sum of the outer levels; for lehmer-half the
// (N-2)-permutations are stepped in lexicographic order like an odometer,
// keeping per depth the used cells, the partial sum and the parity of the
// Lehmer digits (which fixes where the last two tiles go).
//
// A manhattan is read-only after newManhattan and safe for concurrent use.
type manhattan struct {
	p    *puzzle.Pattern
	n, k int
	comb uint64 // C(N,k), additive only
	// dist[i][c] is the taxicab distance from cell c to the goal cell of
	// the i-th tile: the i-th pattern tile (additive), tile i (exact; row 0,
	// the blank, is all zero).
	dist    [puzzle.MaxCells][puzzle.MaxCells]uint8
	goalPar uint8 // exact: parity of the goal's position vector
	// za and slotSet, for a zero-aware table (newTableManhattan): its
	// regions and the cell set of every slot.
	za      *puzzle.Regions
	slotSet []uint32
}

func newManhattan(p *puzzle.Pattern) *manhattan {
	m := &manhattan{p: p, n: p.Geom.N(), comb: p.Combinations()}
	goal := p.GoalPositions()
	if p.Exact {
		m.k = m.n - 2
		for t := 1; t < m.n; t++ {
			for c := 0; c < m.n; c++ {
				m.dist[t][c] = uint8(p.Geom.Manhattan(c, int(goal[t])))
			}
		}
		m.goalPar = inversionParity(goal)
		return m
	}
	m.k = len(p.Tiles)
	for i, t := range p.Tiles {
		for c := 0; c < m.n; c++ {
			m.dist[i][c] = uint8(p.Geom.Manhattan(c, int(goal[t])))
		}
	}
	return m
}

// fill sets dst[i] to the Manhattan distance of the state of rank lo+i.
// lo+len(dst) must not exceed the table size. scratch is reused between
// calls of one goroutine (it may be nil).
func (m *manhattan) fill(lo uint64, dst []uint8, scratch *[]uint8) {
	if len(dst) == 0 {
		return
	}
	if m.p.Exact {
		m.fillExact(lo, dst)
		return
	}
	if m.za != nil {
		m.fillZeroAware(lo, dst, scratch)
		return
	}
	c := m.comb
	for len(dst) > 0 {
		ord, first := lo/c, lo%c
		n := min(uint64(len(dst)), c-first)
		if first == 0 && n == c {
			m.block(ord, dst[:n])
		} else {
			if uint64(cap(*scratch)) < c {
				*scratch = make([]uint8, c)
			}
			row := (*scratch)[:c]
			m.block(ord, row)
			copy(dst[:n], row[first:first+n])
		}
		dst = dst[n:]
		lo += n
	}
}

// block fills row (length C(N,k)) with the Manhattan distances of the ranks
// ord·C(N,k) + M for M = 0..C(N,k)-1 (additive tables).
func (m *manhattan) block(ord uint64, row []uint8) {
	// o[i] = index of the cell of tile i among the sorted occupied cells,
	// so the j-th smallest occupied cell holds tile inv[j].
	var o [puzzle.MaxCells]uint8
	puzzle.LehmerUnrank(ord, m.k, m.k, o[:])
	var slot [puzzle.MaxCells]*[puzzle.MaxCells]uint8
	for i := 0; i < m.k; i++ {
		slot[o[i]] = &m.dist[i]
	}
	w := colexWriter{row: row, slot: slot[:m.k]}
	if m.k > 3 {
		// The sums of the three innermost levels for cells below L are
		// the first C(L,3) entries of their sums for cells below N
		// (colexicographic order lists the subsets of {0..L-1} first):
		// compute that row once per block and copy it with the outer sum
		// added.
		t := colexWriter{row: make([]uint8, m.p.Binomial(m.n, 3)), slot: slot[:3]}
		t.level(2, m.n, 0)
		w.tri = t.row
		w.p = m.p
	}
	w.level(m.k-1, m.n, 0)
}

// colexWriter enumerates k-subsets s_0 < ... < s_{k-1} of the cells in
// colexicographic order (s_{k-1} slowest, s_0 fastest), which is the order
// of their combination rank M, appending the sum of slot[j][s_j].
type colexWriter struct {
	row  []uint8
	pos  int
	slot []*[puzzle.MaxCells]uint8
	tri  []uint8 // if set, the output of level 2 for limit N with sum 0
	p    *puzzle.Pattern
}

// level chooses s_j among j..limit-1 given the sum of the levels above.
// The two innermost levels are one loop nest (most calls would otherwise
// write only a couple of entries).
func (w *colexWriter) level(j, limit int, sum uint8) {
	d := w.slot[j]
	if j == 2 && w.tri != nil {
		n := int(w.p.Binomial(limit, 3))
		out := w.row[w.pos : w.pos+n]
		tri := w.tri[:len(out)]
		for i := range out {
			out[i] = sum + tri[i]
		}
		w.pos += n
		return
	}
	switch j {
	case 0:
		out := w.row[w.pos : w.pos+limit]
		for s := range out {
			out[s] = sum + d[s]
		}
		w.pos += limit
		return
	case 1:
		d0 := w.slot[0]
		pos := w.pos
		for s1 := 1; s1 < limit; s1++ {
			base := sum + d[s1]
			out := w.row[pos : pos+s1]
			for s0 := range out {
				out[s0] = base + d0[s0]
			}
			pos += s1
		}
		w.pos = pos
		return
	}
	for s := j; s < limit; s++ {
		w.level(j-1, s, sum+d[s])
	}
}

// fillExact walks the (N-2)-permutations pos[0..N-3] (the blank and tiles
// 1..N-3) in lexicographic order, which is lehmer-half rank order. The last
// two tiles take the two free cells in the order that makes the state
// solvable: the permutation parity is the parity of the sum of the Lehmer
// digits (the two last digits are 0 when the free cells are taken in
// ascending order), and a state is solvable when that parity, combined with
// the goal's, equals the parity of the blank's distance to its goal cell.
func (m *manhattan) fillExact(lo uint64, dst []uint8) {
	n, k := m.n, m.k
	full := puzzle.FullMask(n)
	var pos [puzzle.MaxCells]uint8
	puzzle.LehmerUnrank(lo, n, k, pos[:])
	// State before depth i: used cells, Manhattan sum and digit parity of
	// pos[0..i-1].
	var used [puzzle.MaxCells + 1]uint64
	var sum [puzzle.MaxCells + 1]uint8
	var par [puzzle.MaxCells + 1]uint8
	enter := func(i int) { // computes the state before depth i+1 from depth i
		c := pos[i]
		used[i+1] = used[i] | 1<<c
		sum[i+1] = sum[i] + m.dist[i][c]
		below := uint8(bits.OnesCount64(^used[i] & (1<<c - 1)))
		par[i+1] = par[i] ^ below&1
	}
	for i := 0; i < k; i++ {
		enter(i)
	}
	blankGoal := m.p.GoalPositions()[0]
	dBlank := [puzzle.MaxCells]uint8{}
	for c := 0; c < n; c++ {
		dBlank[c] = uint8(m.p.Geom.Manhattan(c, int(blankGoal)) & 1)
	}
	ta, tb := &m.dist[n-2], &m.dist[n-1]
	for idx := range dst {
		free := full &^ used[k]
		a := bits.TrailingZeros64(free)
		b := bits.TrailingZeros64(free &^ (1 << uint(a)))
		if par[k]^m.goalPar == dBlank[pos[0]] {
			dst[idx] = sum[k] + ta[a] + tb[b]
		} else {
			dst[idx] = sum[k] + ta[b] + tb[a]
		}
		if idx == len(dst)-1 {
			break
		}
		i := k - 1
		for ; i >= 0; i-- {
			next := full &^ used[i] &^ (uint64(2)<<pos[i] - 1)
			if next != 0 {
				pos[i] = uint8(bits.TrailingZeros64(next))
				break
			}
		}
		if i < 0 {
			return // past the last rank; callers never ask for it
		}
		enter(i)
		for j := i + 1; j < k; j++ {
			pos[j] = uint8(bits.TrailingZeros64(full &^ used[j]))
			enter(j)
		}
	}
}

// inversionParity is the parity (0 or 1) of the number of inversions of a
// permutation of 0..len(perm)-1.
func inversionParity(perm []uint8) uint8 {
	var par uint8
	for i := range perm {
		for j := i + 1; j < len(perm); j++ {
			if perm[j] < perm[i] {
				par ^= 1
			}
		}
	}
	return par
}
