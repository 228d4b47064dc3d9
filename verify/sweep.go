package verify

import (
	"math/bits"

	"github.com/tilepdb/tilepdb/puzzle"
)

// The passes over an additive table walk the index in order instead of
// unranking every entry. An additive index is P·C(N,k) + M
// (puzzle.RankingCellsetOrder): M in [0, C(N,k)) is the colexicographic rank
// of the set of occupied cells, P in [0, k!) the Lehmer rank of the order
// of the tiles within them. Colexicographic order of k-sets is the numeric
// order of their bit masks, so a walk over consecutive indexes steps the
// mask to the next larger one with k bits (Gosper's hack) and unranks P
// once per C(N,k) entries. Everything about a neighbouring placement
// (one tile moved into an adjacent empty cell) depends on the cell set
// alone except its order, which depends on P and on the moving tile's
// sorted position before and after the move: so the neighbours' cell sets
// are tabulated once per cell set (cellSets) and their orders once per P
// (walk.nextOrder). The symmetry pass tabulates the image of every cell
// set the same way (symmetry.setImage, symmetry.posImage).
//
// The ranking check still ranks every entry with puzzle's RankCells and
// compares the result with the walk's index; see ranking for what that
// proves.

// cellMove is one move of a pattern tile, tabulated per cell set M and
// sorted position q (the tile on the q-th smallest occupied cell): the
// tile goes to cell to, the cell set becomes set, and the tile's sorted
// position becomes q2.
type cellMove struct {
	set uint32 // the rank of the new cell set: below C(N,k), which is below 2^32 for every table within puzzle.MaxEntries
	to  uint8
	q2  uint8
}

// cellSets tabulates, for every cell set M of an additive pattern, its
// moves and whether its empty cells are connected.
type cellSets struct {
	count     uint64     // C(N,k)
	k         int        // pattern tiles
	moveStart []uint32   // len count·k+1: the moves of (M, q) are moves[moveStart[M·k+q]:moveStart[M·k+q+1]]
	moves     []cellMove // in the order of puzzle.Geometry.Neighbors of the moving tile's cell
	connected []bool     // len count: the empty cells of M form one region (connectedCells)
}

// cellSetsBytes bounds the memory of newCellSets for k tiles on a board
// of n cells: per (cell set, tile) a start and at most 4 moves of 8 bytes,
// and a byte per cell set.
func cellSetsBytes(n, k int) uint64 {
	c := puzzle.Binomial(n, k)
	return c*uint64(k)*(4+4*8) + c
}

func newCellSets(p *puzzle.Pattern) *cellSets {
	g := p.Geom
	n, k := g.N(), p.K()
	full := puzzle.FullMask(n)
	nbrs := g.Neighbors()
	cs := &cellSets{count: p.Combinations(), k: k}
	cs.moveStart = make([]uint32, 0, cs.count*uint64(k)+1)
	cs.moves = make([]cellMove, 0, cs.count*uint64(k)*2)
	cs.connected = make([]bool, cs.count)
	mask := puzzle.FullMask(k)
	var sorted [puzzle.MaxCells]uint8
	for m := uint64(0); m < cs.count; m, mask = m+1, nextCellSet(mask) {
		cs.connected[m] = connectedCells(g, full&^mask)
		sortCells(mask, &sorted)
		for q := 0; q < k; q++ {
			cs.moveStart = append(cs.moveStart, uint32(len(cs.moves)))
			x := sorted[q]
			for _, y := range nbrs[x] {
				if mask&(1<<y) != 0 {
					continue
				}
				next := mask&^(1<<x) | 1<<y
				cs.moves = append(cs.moves, cellMove{
					set: uint32(puzzle.CombinationRank(next)),
					to:  y,
					q2:  uint8(bits.OnesCount64(next & (1<<y - 1))),
				})
			}
		}
	}
	cs.moveStart = append(cs.moveStart, uint32(len(cs.moves)))
	return cs
}

// movesOf returns the moves of the tile at sorted position q in cell set m.
func (cs *cellSets) movesOf(m uint64, q int) []cellMove {
	i := m*uint64(cs.k) + uint64(q)
	return cs.moves[cs.moveStart[i]:cs.moveStart[i+1]]
}

// nextCellSet is the bit mask after mask with as many bits set, in numeric
// (= colexicographic) order: Gosper's hack. mask must not be 0.
func nextCellSet(mask uint64) uint64 {
	low := mask & -mask
	ripple := mask + low
	return ripple | ((ripple^mask)>>2)/low
}

// sortCells writes the cells of mask in increasing order into sorted.
func sortCells(mask uint64, sorted *[puzzle.MaxCells]uint8) {
	for j := 0; mask != 0; j++ {
		sorted[j] = uint8(bits.TrailingZeros64(mask))
		mask &= mask - 1
	}
}

// walk visits the entries of an additive table in index order from a
// given index, keeping the placement of the current entry: the order P,
// the sorted position of each tile (pos), the cell set M and its mask, the
// cell of each tile (cells), and the order reached by each move
// (nextOrder, for the current P).
type walk struct {
	p         *puzzle.Pattern
	count     uint64 // C(N,k)
	k         int
	order, m  uint64
	mask      uint64
	pos       [puzzle.MaxCells]uint8 // pos[j]: sorted position of tile j under order
	sorted    [puzzle.MaxCells]uint8
	cells     []uint8                                   // cells[j]: cell of tile j, len k
	nextOrder [puzzle.MaxCells * puzzle.MaxCells]uint64 // [q·k+q2]: the order after the tile at sorted position q moves to q2
	orders    bool                                      // keep nextOrder up to date
}

// newWalk starts a walk at index i; withOrders asks for nextOrder.
func newWalk(p *puzzle.Pattern, i uint64, withOrders bool) *walk {
	w := &walk{p: p, count: p.Combinations(), k: p.K(), orders: withOrders}
	w.cells = make([]uint8, w.k)
	w.order, w.m = i/w.count, i%w.count
	w.mask = puzzle.CombinationUnrank(w.m, p.Geom.N(), w.k)
	w.setOrder()
	w.setCells()
	return w
}

// setOrder unranks the order and, with orders, tabulates nextOrder.
func (w *walk) setOrder() {
	k := w.k
	puzzle.LehmerUnrank(w.order, k, k, w.pos[:k])
	if !w.orders {
		return
	}
	var next [puzzle.MaxCells]uint8
	for q := 0; q < k; q++ {
		for q2 := 0; q2 < k; q2++ {
			// The tile at q goes to q2; the tiles between shift by one
			// towards q.
			for j := 0; j < k; j++ {
				x := int(w.pos[j])
				switch {
				case x == q:
					x = q2
				case q2 > q && x > q && x <= q2:
					x--
				case q2 < q && x >= q2 && x < q:
					x++
				}
				next[j] = uint8(x)
			}
			w.nextOrder[q*k+q2] = puzzle.LehmerRank(next[:k], k)
		}
	}
}

func (w *walk) setCells() {
	sortCells(w.mask, &w.sorted)
	for j := 0; j < w.k; j++ {
		w.cells[j] = w.sorted[w.pos[j]]
	}
}

// advance moves the walk to the next index.
func (w *walk) advance() {
	w.m++
	if w.m == w.count {
		w.m = 0
		w.mask = puzzle.FullMask(w.k)
		w.order++
		w.setOrder()
	} else {
		w.mask = nextCellSet(w.mask)
	}
	w.setCells()
}

// symmetryImage tabulates a board symmetry on the cell sets: the image of
// cell set M is cell set set[M], and the tile at sorted position q of M
// lands at sorted position pos[M·k+q] of the image.
type symmetryImage struct {
	set []uint32
	pos []uint8
}

// symmetryImageBytes is the memory of one symmetryImage for k tiles on a
// board of n cells.
func symmetryImageBytes(n, k int) uint64 {
	return puzzle.Binomial(n, k) * uint64(4+k)
}

func newSymmetryImage(p *puzzle.Pattern, s *symmetry) symmetryImage {
	k := p.K()
	count := p.Combinations()
	im := symmetryImage{set: make([]uint32, count), pos: make([]uint8, count*uint64(k))}
	mask := puzzle.FullMask(k)
	var sorted [puzzle.MaxCells]uint8
	for m := uint64(0); m < count; m, mask = m+1, nextCellSet(mask) {
		sortCells(mask, &sorted)
		var img uint64
		for q := 0; q < k; q++ {
			img |= 1 << s.cell[sorted[q]]
		}
		im.set[m] = uint32(puzzle.CombinationRank(img))
		for q := 0; q < k; q++ {
			y := s.cell[sorted[q]]
			im.pos[m*uint64(k)+uint64(q)] = uint8(bits.OnesCount64(img & (1<<y - 1)))
		}
	}
	return im
}
