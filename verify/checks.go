package verify

import (
	"context"
	"errors"
	"slices"

	"github.com/tilepdb/tilepdb/puzzle"
)

// ranking is the ranking check, an exhaustive round trip over the whole
// index range: for every index i in [0, Size), Unrank(i) must give a valid
// placement (cells in range and distinct; for an exact table a full
// position vector, i.e. a permutation of the cells, that is solvable), and
// RankCells of it must give i back.
//
// Why this proves the ranking right: it shows that Unrank is injective from
// [0, Size) into the valid placements. There are exactly Size of those
// (N!/(N-k)! ordered placements of k tiles, or N!/2 solvable states), so
// Unrank is a bijection and RankCells, its left inverse, is its inverse on
// every valid placement: every state has exactly one entry and no two
// states share one. (That the scheme is the one the file names, rather
// than some other bijection, is what the format's test vectors are for.)
func (c *checker) exactRanking(lo, hi uint64, tl *tally) {
	p := c.p
	n := p.Geom.N()
	cells := make([]uint8, p.CellsLen())
	for i := lo; i < hi; i++ {
		p.Unrank(i, cells)
		if !distinctCells(cells, n) {
			tl.addf(CheckRanking, int64(i), "Unrank gives %v: cells out of range or repeated", cells)
			continue
		}
		if !p.SolvablePositions(cells) {
			tl.addf(CheckRanking, int64(i), "Unrank gives the unsolvable state %v", cells)
			continue
		}
		if r := p.RankCells(cells); r != i {
			tl.addf(CheckRanking, int64(i), "Unrank gives %v, which ranks to %d", cells, r)
		}
	}
}

// additiveRanking is the ranking check of an additive table, which walks
// the index (see sweep.go) instead of unranking every entry: for every
// index i = P·C(N,k) + M the walk builds the placement whose tiles, in
// pattern order, have the sorted positions LehmerUnrank(P) within the
// M-th k-set of cells in colexicographic order (the M-th bit mask with k
// bits in numeric order), and RankCells of it must give i back. The walk
// gives each of the Size valid placements once (a placement is its cell
// set and the order of its tiles in it), so this proves that RankCells is
// a bijection from the valid placements onto [0, Size), the one
// RankingCellsetOrder defines, which is what every lookup relies on.
// Unrank, which no lookup needs, is compared with the walk's placement on
// every entry of the first order (every cell set) and on the first entry
// of every order (every order): its two halves, CombinationUnrank and
// LehmerUnrank, are thereby checked on their whole ranges, but not their
// combination on every entry (the old round trip over all entries cost an
// Unrank per entry, most of this check's time).
func (c *checker) additiveRanking(lo, hi uint64, tl *tally) {
	p := c.p
	got := make([]uint8, p.K())
	w := newWalk(p, lo, false)
	for i := lo; i < hi; i++ {
		if r := p.RankCells(w.cells); r != i {
			tl.addf(CheckRanking, int64(i), "placement %v (order %d, cell set %d) ranks to %d", w.cells, w.order, w.m, r)
		}
		if w.order == 0 || w.m == 0 {
			p.Unrank(i, got)
			if !slices.Equal(got, w.cells) {
				tl.addf(CheckRanking, int64(i), "Unrank gives %v, want %v (order %d, cell set %d)", got, w.cells, w.order, w.m)
			}
		}
		if i+1 < hi {
			w.advance()
		}
	}
}

// entryRules applies the rules on entry i (value v, Manhattan distance md
// of its pattern tiles) that do not look at neighbours, the same for both
// kinds of table: the goal entry is 0 (CheckGoal), no entry is
// puzzle.Unreached (CheckUnreached), and v is at least md and of its
// parity (CheckManhattan). It reports whether v is a distance, so that the
// caller goes on to the rules on neighbours.
func (c *checker) entryRules(i uint64, v uint8, md int, tl *tally) bool {
	if i == c.goal && v != 0 {
		tl.addf(CheckGoal, int64(i), "goal entry is %d, want 0", v)
	}
	if v == puzzle.Unreached {
		tl.addf(CheckUnreached, int64(i), "holds 255 (unreached)")
		return false
	}
	if int(v) < md {
		tl.addf(CheckManhattan, int64(i), "value %d is below the Manhattan distance %d", v, md)
	} else if (int(v)-md)%2 != 0 {
		tl.addf(CheckManhattan, int64(i), "value %d has not the parity of the Manhattan distance %d", v, md)
	}
	return true
}

// exactEntries runs the checks on the entries of an exact table. The rules,
// for V the stored table and d the true distance:
//
//   - goal: V(goal) = 0.
//   - unreached: no entry is 255 (the value a builder leaves in a state it
//     never reached; every solvable state is reachable).
//   - manhattan: V(s) >= M(s) and V(s) ≡ M(s) (mod 2), where M is the sum
//     of the Manhattan distances of tiles 1..N-1 to their goal cells: every
//     move changes M by exactly ±1.
//   - descent: every non-goal state has a neighbour (one move away) with
//     V exactly one less: the next state on a shortest path.
//   - step: neighbouring states differ by exactly 1: |d(s)-d(s')| <= 1 for
//     any edge of a graph, and it is not 0 because the state graph is
//     bipartite (each move changes M's parity). Each edge is reported once,
//     at its lower index.
//
// Together these are complete: a table passing goal, step and descent is
// the distance table. Step gives V(s) <= V(goal) + d(s) = d(s) along a
// shortest path; descent gives a path from s along which V falls by one per
// move, which can only end at the goal (any other state has a lower
// neighbour, and V >= 0), so d(s) <= V(s). Entries holding 255 are
// reported once, as unreached, and left out of the other rules.
func (c *checker) exactEntries(lo, hi uint64, tl *tally) {
	p := c.p
	n := p.Geom.N()
	nbrs := p.Geom.Neighbors()
	goalPos := p.GoalPositions()
	size := p.Size()
	pos := make([]uint8, n)
	var board [puzzle.MaxCells]uint8
	for i := lo; i < hi; i++ {
		p.Unrank(i, pos)
		if !validPositions(pos, n) {
			continue // the ranking check reports it
		}
		v := c.values[i]
		md := 0
		for t := 1; t < n; t++ {
			md += p.Geom.Manhattan(int(pos[t]), int(goalPos[t]))
		}
		if !c.entryRules(i, v, md, tl) {
			continue
		}
		for t, x := range pos {
			board[x] = uint8(t)
		}
		blank := pos[0]
		descends := false
		for _, x := range nbrs[blank] {
			t := board[x]
			pos[0], pos[t] = x, blank
			r := p.Rank(pos)
			pos[0], pos[t] = blank, x
			if r >= size {
				continue // the ranking check reports it
			}
			w := c.values[r]
			if w == puzzle.Unreached {
				continue
			}
			if w+1 == v {
				descends = true
			}
			if i < r && w != v+1 && v != w+1 {
				tl.addf(CheckStep, int64(i), "value %d, neighbour %d (tile %d moved) has %d: neighbours differ by exactly 1", v, r, t, w)
			}
		}
		if i != c.goal && !descends {
			tl.addf(CheckDescent, int64(i), "value %d, but no neighbour has %d", v, int(v)-1)
		}
	}
}

// additiveEntries runs the checks on the entries of an additive pattern
// database (see the package comment for V and D). The rules:
//
//   - goal: V(goal placement) = 0.
//   - unreached: no entry is 255. Every placement is reachable when at
//     least two non-pattern tiles exist (they can be exchanged to fix the
//     permutation parity); Reference documents the N-2 tile exception.
//   - manhattan: V(P) >= M(P) and V(P) ≡ M(P) (mod 2), M the sum of the
//     Manhattan distances of the pattern tiles to their goal cells. Every
//     counted move changes M by exactly ±1 and free moves leave it alone,
//     so every path from (P,b) to the goal has at least M(P) counted moves,
//     with M(P)'s parity.
//   - descent: every non-goal placement P has a neighbouring placement P'
//     (one pattern tile moved into an adjacent empty cell) with
//     V(P') < V(P). Take b with D(P,b) = V(P) and a shortest path from
//     (P,b): after some free moves its first counted move reaches
//     (P',x) with D(P',x) = V(P)-1, so V(P') <= V(P)-1.
//   - step: when the empty (non-pattern) cells of P form one connected
//     region, every neighbouring placement P' has V(P') <= V(P)+1. The
//     blank reaches every empty cell of P for free, so D(P,b) = V(P) for
//     each of them; in particular for the cell b into which P' moved a
//     tile, from which one counted move gives P' (with the blank where the
//     tile was): V(P') <= V(P) + 1. Applied from both sides of each move,
//     and with the parity rule, this is the local rule "when both P and P'
//     have connected empty cells, |V(P) - V(P')| = 1". Without
//     connectivity nothing bounds the step: P' may have its blank shut in
//     a region from which getting out costs pattern moves.
//
// Entries holding 255 are reported once, as unreached, and left out of
// the other rules.
func (c *checker) additiveEntries(lo, hi uint64, tl *tally) {
	p := c.p
	g := p.Geom
	k := p.K()
	cs := c.cellSets
	goalPos := p.GoalPositions()
	var manhattan [puzzle.MaxCells][puzzle.MaxCells]uint8 // [j][cell]: tile j's distance from cell to its goal cell
	for j, t := range p.Tiles {
		for x := 0; x < g.N(); x++ {
			manhattan[j][x] = uint8(g.Manhattan(x, int(goalPos[t])))
		}
	}
	w := newWalk(p, lo, true)
	for i := lo; i < hi; i++ {
		v := c.values[i]
		md := 0
		for j, x := range w.cells {
			md += int(manhattan[j][x])
		}
		if c.entryRules(i, v, md, tl) {
			connected := cs.connected[w.m]
			descends := false
			for j, x := range w.cells {
				q := int(w.pos[j])
				for _, mv := range cs.movesOf(w.m, q) {
					r := w.nextOrder[q*k+int(mv.q2)]*cs.count + uint64(mv.set)
					wv := c.values[r]
					if wv == puzzle.Unreached {
						continue
					}
					if wv < v {
						descends = true
					}
					if connected && int(wv) > int(v)+1 {
						tl.addf(CheckStep, int64(i), "value %d with connected empty cells, but neighbour %d (tile %d from cell %d to %d) has %d > %d",
							v, r, p.Tiles[j], x, mv.to, wv, int(v)+1)
					}
				}
			}
			if i != c.goal && !descends {
				tl.addf(CheckDescent, int64(i), "value %d, but no neighbouring placement has a smaller value", v)
			}
		}
		if i+1 < hi {
			w.advance()
		}
	}
}

// distinctCells reports whether cells are distinct cells of a board of n
// cells.
func distinctCells(cells []uint8, n int) bool {
	var seen uint64
	for _, x := range cells {
		if int(x) >= n || seen&(1<<x) != 0 {
			return false
		}
		seen |= 1 << x
	}
	return true
}

// validPositions reports whether pos is a permutation of 0..n-1.
func validPositions(pos []uint8, n int) bool {
	return len(pos) == n && distinctCells(pos, n)
}

// connectedCells reports whether the set of cells (a bit mask) is
// connected on the board, by flooding from its lowest cell. The empty set
// counts as connected.
func connectedCells(g puzzle.Geometry, set uint64) bool {
	if set == 0 {
		return true
	}
	n := g.N()
	full := puzzle.FullMask(n)
	var notFirstCol, notLastCol uint64
	for cell := 0; cell < n; cell++ {
		if g.Col(cell) != 0 {
			notFirstCol |= 1 << cell
		}
		if g.Col(cell) != g.W-1 {
			notLastCol |= 1 << cell
		}
	}
	reach := set & -set
	for {
		grow := reach | reach<<g.W | reach>>g.W | (reach<<1)&notFirstCol | (reach>>1)&notLastCol
		grow &= set & full
		if grow == reach {
			return reach == set
		}
		reach = grow
	}
}

// symmetry is a board symmetry that fixes the table: a map of cells that
// preserves adjacency, with the tile relabelling that maps the goal onto
// itself.
type symmetry struct {
	name  string
	cell  [puzzle.MaxCells]uint8 // cell c goes to cell[c]
	tile  [puzzle.MaxCells]uint8 // tile t is renamed tile[t]
	index [puzzle.MaxCells]int8  // additive: pattern tile j goes to pattern tile index[j]
}

// symmetries returns the non-identity symmetries of the board (the 3
// reflections and rotation by 180 degrees, and for a square board also the
// diagonal reflections and quarter turns) that fix the goal's blank cell
// and, after renaming each tile t to the tile whose goal cell is the image
// of t's goal cell, map the pattern's tile set onto itself.
func symmetries(p *puzzle.Pattern) []symmetry {
	g := p.Geom
	w, h := g.W, g.H
	type xf struct {
		name   string
		square bool
		f      func(r, c int) (int, int)
	}
	xfs := []xf{
		{"left-right reflection", false, func(r, c int) (int, int) { return r, w - 1 - c }},
		{"top-bottom reflection", false, func(r, c int) (int, int) { return h - 1 - r, c }},
		{"half turn", false, func(r, c int) (int, int) { return h - 1 - r, w - 1 - c }},
		{"main-diagonal reflection", true, func(r, c int) (int, int) { return c, r }},
		{"anti-diagonal reflection", true, func(r, c int) (int, int) { return w - 1 - c, h - 1 - r }},
		{"quarter turn", true, func(r, c int) (int, int) { return c, h - 1 - r }},
		{"three-quarter turn", true, func(r, c int) (int, int) { return w - 1 - c, r }},
	}
	goalPos := p.GoalPositions()
	inPattern := map[uint8]int{}
	for j, t := range p.Tiles {
		inPattern[t] = j
	}
	var out []symmetry
	for _, x := range xfs {
		if x.square && w != h {
			continue
		}
		var s symmetry
		s.name = x.name
		for cell := 0; cell < g.N(); cell++ {
			r, c := x.f(g.Row(cell), g.Col(cell))
			s.cell[cell] = uint8(r*w + c)
		}
		if s.cell[goalPos[0]] != goalPos[0] {
			continue
		}
		ok := true
		for t := 0; t < g.N(); t++ {
			s.tile[t] = p.Goal[s.cell[goalPos[t]]]
		}
		for j, t := range p.Tiles {
			jj, in := inPattern[s.tile[t]]
			if !in {
				ok = false
				break
			}
			s.index[j] = int8(jj)
		}
		if ok {
			out = append(out, s)
		}
	}
	return out
}

// symmetry is the symmetry check: for every board symmetry σ found by
// symmetries, V(P) = V(σP), where σP puts tile π(t) on cell σ(c) for each
// tile t on cell c (π the renaming of tiles that maps the goal onto
// itself). σ preserves adjacency, π maps pattern tiles to pattern tiles and
// the blank to the blank, and together they fix the goal state, so they
// map the state graph (exact) or the abstract state graph with its move
// costs (additive) onto itself while fixing the search's start: distances,
// hence entries, are preserved. Each unequal pair is reported once per
// symmetry, at its lower index; entries holding 255 are left out.
func (c *checker) exactSymmetry(lo, hi uint64, tl *tally) {
	p := c.p
	size := p.Size()
	cells := make([]uint8, p.CellsLen())
	img := make([]uint8, p.CellsLen())
	for i := lo; i < hi; i++ {
		p.Unrank(i, cells)
		v := c.values[i]
		if v == puzzle.Unreached || !distinctCells(cells, p.Geom.N()) {
			continue // the ranking check reports bad cells
		}
		for _, s := range c.syms {
			for t, x := range cells {
				img[s.tile[t]] = s.cell[x]
			}
			r := p.RankCells(img)
			if r >= size || r <= i {
				continue
			}
			if w := c.values[r]; w != puzzle.Unreached && w != v {
				tl.addf(CheckSymmetry, int64(i), "value %d, but its image %d under the %s has %d", v, r, s.name, w)
			}
		}
	}
}

// additiveSymmetry is the symmetry check of an additive table, walking
// the index (see sweep.go): the image of the placement (order P, cell set
// M) has cell set symmetryImage.set[M], and pattern tile index[j] on the
// sorted position that symmetryImage.pos gives for tile j's; its order is
// the Lehmer rank of those positions.
func (c *checker) additiveSymmetry(lo, hi uint64, tl *tally) {
	p := c.p
	k := p.K()
	count := p.Combinations()
	var img [puzzle.MaxCells]uint8
	w := newWalk(p, lo, false)
	for i := lo; i < hi; i++ {
		if v := c.values[i]; v != puzzle.Unreached {
			for si := range c.syms {
				s, im := &c.syms[si], &c.symImages[si]
				base := w.m * uint64(k)
				for j := 0; j < k; j++ {
					img[s.index[j]] = im.pos[base+uint64(w.pos[j])]
				}
				r := puzzle.LehmerRank(img[:k], k)*count + uint64(im.set[w.m])
				if r <= i {
					continue
				}
				if wv := c.values[r]; wv != puzzle.Unreached && wv != v {
					tl.addf(CheckSymmetry, int64(i), "value %d, but its image %d under the %s has %d", v, r, s.name, wv)
				}
			}
		}
		if i+1 < hi {
			w.advance()
		}
	}
}

// reference is the deep check: the table is rebuilt by Reference and
// compared entry by entry; each differing entry is one finding (want is
// Reference's value, got the table's). A failure of Reference itself other
// than cancellation is reported as a finding too.
func (c *checker) reference(ctx context.Context) error {
	c.pass = CheckReference
	if c.opts.Progress != nil {
		c.opts.Progress(c.pass, 0, c.p.Size())
	}
	want, err := Reference(ctx, c.p)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		tl := newTally(c.opts.MaxFindingsPerCheck)
		tl.addf(CheckReference, -1, "%v", err)
		c.r.merge(tl, c.opts.MaxFindingsPerCheck)
		return nil
	}
	return c.scan(ctx, func(lo, hi uint64, tl *tally) {
		for i := lo; i < hi; i++ {
			if got := c.values[i]; got != want[i] {
				tl.addf(CheckReference, int64(i), "want %d, got %d", want[i], got)
			}
		}
	})
}
