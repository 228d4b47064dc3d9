package solver

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/tilepdb/tilepdb/compact"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
)

// Catalogues (format/SPEC.md section 12; Holte, Newton, Felner, Meshulam &
// Furcy 2004, "Multiple pattern databases"; Clausecker & Reinefeld): the
// heuristic is the maximum over several additive partitions of the sum of
// each partition's parts, max_q Σ_{P in q} V_P. Each part is searched as
// a table of an additive set is (its index state kept per move, through
// the direct index or the compact rank, zero-aware or plain), once however
// many partitions hold it: the distinct parts are numbered once, a tile
// lists the distinct parts that hold it (at most one per partition, so at
// most one per partition in the list), and each side keeps one sum per
// partition.
//
// A move of tile t changes the values of the parts holding t and so the
// sums of the partitions holding those parts; IDA* (dfs) computes them
// lazily, partition by partition, and stops as soon as one sum cuts the
// child and no exact value could lower the next bound (catalogue.eval): the
// decisions and the next bound are those of the exact maximum. Between
// the regular and the reflected side it behaves as the additive search
// does (the reflected side only for children the regular one does not
// cut), so a catalogue of one partition generates the same nodes as the
// additive set of its parts. A zero-aware part's region is read only when
// the minimum over its regions (zaLazy) does not settle the child, as in
// dfs.
//
// A catalogue's zero-aware tables are searched through their compact
// index only, never through a direct copy (Options.Compact or not): the
// region lookup (resolve) needs the compact rank, which a direct index
// would recompute from the part's cells, and the direct copies (25^6
// bytes per 6-tile table of the 24-puzzle, next to the 1.5 times larger
// zero-aware table itself) multiply the memory the search walks at
// random. On the 24-puzzle catalogue of 14 partitions over 11 zero-aware
// tables, Korf's instance #40 (4.87 M nodes) took 32 CPU-s instead of
// 61 (the direct copies take 30 CPU-s to build), 3.5 GB instead of 6.1,
// with a faster search as well. Plain tables keep their direct index.

// maxPartitions bounds the partitions of a catalogue the solver takes
// (SPEC.md section 12 allows 1 to 64): a tile's parts are tracked in one
// 64-bit mask.
const maxPartitions = 64

// maxCatParts bounds the distinct parts of a catalogue the solver takes:
// parts are numbered by a byte, so that the per-part arrays need no bounds
// checks in the search.
const maxCatParts = 256

// catRef is one distinct part holding a tile: the part and the index of
// the tile's image among the part's table tiles.
type catRef struct {
	part uint8
	idx  uint8
}

// catHold says which part of a partition holds a tile: partition q, and
// the index j of the part in the tile's list of catRef.
type catHold struct {
	q uint8
	j uint8
}

// catalogue is a catalogue set prepared for the search.
type catalogue struct {
	tabs  *[maxCatParts]tableInfo              // per distinct part
	cell  *[maxCatParts][puzzle.MaxCells]uint8 // per distinct part, board cell -> cell of the part's symmetry
	cellR *[maxCatParts][puzzle.MaxCells]uint8 // per distinct part, cell after the main-diagonal reflection, then the symmetry
	parts [][]uint8                            // per partition, its distinct parts
	in    [maxCatParts][]uint8                 // per distinct part, the partitions holding it
	tile  [puzzle.MaxCells][]catRef            // per tile, the distinct parts holding it
	hold  [puzzle.MaxCells][]catHold           // per tile, the partitions with a part holding it
	free  [puzzle.MaxCells][]uint8             // per tile, the partitions with no part holding it
	np    int                                  // partitions
	nt    int                                  // distinct parts
	// packed: every part is held at 1 bit per entry (tableInfo.cz), so
	// that a move of one of a part's tiles changes its value by exactly ±1
	// and eval takes evalPacked.
	packed bool
}

// catStep is a move's effect on one distinct part: tile idx p of part
// goes from cell from to cell to (the part's frame), giving index state
// st and value h. make swaps st and h with the side's, so that the step
// then holds what undoes it.
type catStep struct {
	part     uint8
	p        uint8
	from, to uint8
	h        uint8
	lazy     bool // h is only a lower bound (zaLazy), until resolve
	st       rankState
	idx      uint64 // the entry of st in a part held at 1 bit (evalPacked)
}

// catSide is the heuristic of one state (or of its reflection) under a
// catalogue: per distinct part its cells, index state and value, and per
// partition the sum of its parts' values.
type catSide struct {
	sum   [maxPartitions]int
	h     [maxCatParts]uint8
	st    [maxCatParts]rankState
	cells [maxCatParts][puzzle.MaxCells]uint8
}

// catSteps holds the steps of one move on one side, one per part holding
// the moved tile (at most one per partition).
type catSteps [maxPartitions]catStep

// catLevel holds the steps of the child being made at one depth of
// IDA*, for the regular and the reflected side.
type catLevel struct {
	reg, refl catSteps
}

// addCatalogue prepares a catalogue's parts (Solver.cat): each of its
// distinct parts (format.Set.Parts: a part used by several partitions is
// kept once there) with its table's direct index (once per table) and its
// cell maps.
func (s *Solver) addCatalogue(ctx context.Context) error {
	set := s.set
	if n := len(set.Partitions); n > maxPartitions {
		return fmt.Errorf("solver: a catalogue of %d partitions; the solver takes at most %d", n, maxPartitions)
	}
	if n := len(set.Parts); n > maxCatParts {
		return fmt.Errorf("solver: a catalogue of %d distinct parts; the solver takes at most %d", n, maxCatParts)
	}
	cat := &catalogue{np: len(set.Partitions), nt: len(set.Parts),
		tabs: new([maxCatParts]tableInfo), cell: new([maxCatParts][puzzle.MaxCells]uint8), cellR: new([maxCatParts][puzzle.MaxCells]uint8)}
	direct := map[*format.Table]*directIndex{}
	zas := map[*format.Table]*zeroAwareTable{}
	packed := map[*format.Table]*compact.Table{}
	for id, p := range set.Parts {
		var ti tableInfo
		var err error
		if cz := s.catCompact(packed, p.Table); cz != nil {
			ti = newTableInfo(p.Table)
			ti.values, ti.cz = nil, cz
		} else if ti, err = s.prepareTable(ctx, direct, zas, p.Table, false); err != nil {
			return err
		}
		cat.tabs[id] = ti
		pc, pcR := &cat.cell[id], &cat.cellR[id]
		m := p.Mapping()
		for c := 0; c < s.n; c++ {
			pc[c] = uint8(c)
			if m != nil {
				pc[c] = m.Cell[c]
			}
		}
		for c := 0; c < s.n && s.opt.Reflect; c++ {
			pcR[c] = pc[s.reflCell[c]]
		}
		for _, tile := range p.Pattern.Tiles {
			img := tile
			if m != nil {
				img = m.Tile[tile]
			}
			cat.tile[tile] = append(cat.tile[tile], catRef{part: uint8(id), idx: uint8(slices.Index(p.Table.Pattern.Tiles, img))})
		}
	}
	for q, partition := range set.Partitions {
		members := make([]uint8, len(partition))
		for j, id := range partition {
			members[j] = uint8(id)
			cat.in[id] = append(cat.in[id], uint8(q))
		}
		cat.parts = append(cat.parts, members)
	}
	for t := 0; t < s.n; t++ {
		for q, members := range cat.parts {
			j := -1
			for k, r := range cat.tile[t] {
				if slices.Contains(members, r.part) {
					j = k // one at most: a partition's parts are disjoint
				}
			}
			if j < 0 {
				cat.free[t] = append(cat.free[t], uint8(q))
			} else {
				cat.hold[t] = append(cat.hold[t], catHold{q: uint8(q), j: uint8(j)})
			}
		}
	}
	cat.packed = true
	for i := 0; i < cat.nt; i++ {
		cat.packed = cat.packed && cat.tabs[i].cz != nil
	}
	s.cat = cat
	return nil
}

// catCompact is the 1-bit form of a catalogue part's table t
// (Options.ZeroAwareBits, compact.go), nil when it keeps its byte form.
func (s *Solver) catCompact(packed map[*format.Table]*compact.Table, t *format.Table) *compact.Table {
	if !s.opt.ZeroAwareBits || t.Regions == nil {
		return nil
	}
	return s.compactFor(packed, t)
}

// prepareTable is the tableInfo of one table for the search: the plain
// values or a zero-aware table's placement values, through the direct
// index when one is built (directFor). zaDirect false keeps a zero-aware
// table on its compact index (catalogues: see catDirect).
func (s *Solver) prepareTable(ctx context.Context, direct map[*format.Table]*directIndex, zas map[*format.Table]*zeroAwareTable, t *format.Table, zaDirect bool) (tableInfo, error) {
	ti := newTableInfo(t)
	s.released = s.released || t.Codes != nil // Heuristic: no byte values to look up
	dt := t
	if t.Regions != nil {
		zt := zeroAwareFor(zas, t)
		ti.values, ti.za, dt = zt.placements.Values, zt.za, zt.placements
		if !zaDirect {
			sysmem.AdviseHugePages(t.Values, true)
			return ti, nil
		}
	}
	d, err := s.directFor(ctx, direct, dt)
	if err != nil {
		return ti, err
	}
	if d != nil {
		ti.dvals, ti.dpow = d.values, d.pow
	}
	sysmem.AdviseHugePages(t.Values, true)
	return ti, nil
}

// load ranks board (the tile in each cell) in every distinct part,
// through the cell maps pc (cat.cell, or cat.cellR for the reflected side,
// where tile t of the board is tile tmap[t]), and sums the partitions.
func (sd *catSide) load(cat *catalogue, board []uint8, pc *[maxCatParts][puzzle.MaxCells]uint8, tmap *[puzzle.MaxCells]uint8) {
	blank := slices.Index(board, 0)
	sd.place(cat, board, pc, tmap)
	for i := 0; i < cat.nt; i++ {
		tab := &cat.tabs[i]
		sd.st[i] = tab.rank(&sd.cells[i])
		if tab.cz != nil {
			sd.h[i] = compactValue(tab.cz, sd.cells[i][:tab.k], pc[i][blank])
			continue
		}
		sd.h[i] = tab.valueAt(tab.index(sd.st[i]), &sd.cells[i])
		if sd.h[i]&zaLazy != 0 && tab.za != nil {
			sd.h[i] = tab.za.value(sd.st[i].ord, sd.st[i].m, pc[i][blank])
		}
	}
	sd.sums(cat)
}

// place sets the cells of every distinct part's tiles from board, as load
// does, without ranking.
func (sd *catSide) place(cat *catalogue, board []uint8, pc *[maxCatParts][puzzle.MaxCells]uint8, tmap *[puzzle.MaxCells]uint8) {
	for c, t := range board {
		if tmap != nil {
			t = tmap[t]
		}
		for _, r := range cat.tile[t] {
			sd.cells[r.part][r.idx] = pc[r.part][c]
		}
	}
}

// sums sets each partition's sum from the parts' values.
func (sd *catSide) sums(cat *catalogue) {
	for q, members := range cat.parts {
		sd.sum[q] = 0
		for _, i := range members {
			sd.sum[q] += int(sd.h[i])
		}
	}
}

// catUnranked has a bit per distinct part of a catalogue: set while the
// part's index state is not computed (loadCatParts).
type catUnranked [maxCatParts / 64]uint64

// loadCatParts is tableState.loadKnown for a catalogue: parts holds the
// value of each distinct part (cat.nt bytes), then with the reflected side
// as many more for it, as tableState.parts gave them. It looks no value
// up and ranks no part: childCat ranks the parts a move needs.
func (x *tableState) loadCatParts(s *Solver, board []uint8, parts []uint8) {
	cat := s.cat
	x.newCat(s)
	nt := cat.nt
	x.creg.place(cat, board, cat.cell, nil)
	copy(x.creg.h[:nt], parts[:nt])
	x.creg.sums(cat)
	for i := range x.cunr {
		x.cunr[i] = ^uint64(0)
	}
	if x.reflect {
		x.crefl.place(cat, board, cat.cellR, &s.reflTile)
		copy(x.crefl.h[:nt], parts[nt:2*nt])
		x.crefl.sums(cat)
		x.cunrR = x.cunr
	}
}

// rankFor computes the index state of every part holding tile on sd that
// unr says is not ranked yet (loadCatParts), and clears their bits.
func (cat *catalogue) rankFor(sd *catSide, unr *catUnranked, tile uint8) {
	for _, r := range cat.tile[tile&(puzzle.MaxCells-1)] {
		w, bit := r.part>>6, uint64(1)<<(r.part&63)
		if unr[w&(maxCatParts/64-1)]&bit != 0 {
			sd.st[r.part] = cat.tabs[r.part].rank(&sd.cells[r.part])
			unr[w&(maxCatParts/64-1)] &^= bit
		}
	}
}

// max is the side's heuristic: the largest partition sum.
func (sd *catSide) max(np int) int {
	h := 0
	for _, v := range sd.sum[:np] {
		h = max(h, v)
	}
	return h
}

// eval returns the heuristic of side sd after tile slides from cell to
// into the blank's cell blank (board cells; pc the side's cell maps),
// computing the steps of the parts holding tile into steps as it needs
// them, partition by partition: the index state after the move (direct
// index: one multiply-add; compact rank: tableInfo.moved) and the value.
// A zero-aware part's placement value may be only the minimum over the
// blank's regions (zaLazy, zeroaware.go); it is resolved (resolve) only
// when that lower bound does not already settle the answer. eval stops
// early, with a partial maximum (or a lower bound on it), once that
// exceeds thr and is at least stop: the move is then cut, and the exact
// value would change neither that nor a next bound that takes the
// minimum with stop. The second result is false after such an early
// stop; when true the value is exact and every step is computed and
// resolved (make may use them).
func (cat *catalogue) eval(sd *catSide, steps *catSteps, pc *[maxCatParts][puzzle.MaxCells]uint8, tile, blank, to uint8, thr, stop int) (int, bool) {
	if cat.packed {
		return cat.evalPacked(sd, steps, pc, tile, blank, to, thr, stop)
	}
	h := 0
	for _, q := range cat.free[tile&(puzzle.MaxCells-1)] {
		h = max(h, sd.sum[q&(maxPartitions-1)])
	}
	if h > thr && h >= stop {
		return h, false
	}
	refs := cat.tile[tile&(puzzle.MaxCells-1)]
	var done uint64
	for _, hd := range cat.hold[tile&(puzzle.MaxCells-1)] {
		j := hd.j & (maxPartitions - 1)
		c := &steps[j]
		if done&(1<<j) == 0 {
			done |= 1 << j
			r := refs[j]
			t := r.part
			tab := &cat.tabs[t]
			c.part, c.p, c.from, c.to = t, r.idx&(puzzle.MaxCells-1), pc[t][to&(puzzle.MaxCells-1)], pc[t][blank&(puzzle.MaxCells-1)]
			switch {
			case tab.cz != nil:
				// Exact at once: the parent's value ±1 (compact.go).
				c.st = tab.moved(sd.st[t], &sd.cells[t], c.from, c.to, c.p)
				c.h = tab.cz.Next(sd.h[t], tab.cz.At(c.st.ord, c.st.m, c.from))
			case tab.dvals != nil:
				c.st.d, c.h = tab.directStep(sd.st[t].d, c.from, c.to, c.p)
			default:
				c.st, c.h = tab.movedValue(&sd.st[t], &sd.cells[t], c.from, c.to, c.p)
			}
			c.lazy = c.h&zaLazy != 0 && tab.za != nil
			if c.lazy {
				c.h &^= zaLazy
			}
		}
		q := hd.q & (maxPartitions - 1)
		v := max(h, sd.sum[q]+int(c.h)-int(sd.h[c.part]))
		if v > thr && v >= stop {
			return v, false // a lower bound that settles it when c.lazy
		}
		if c.lazy {
			cat.resolve(c, sd)
			if v = max(h, sd.sum[q]+int(c.h)-int(sd.h[c.part])); v > thr && v >= stop {
				return v, false
			}
		}
		h = v
	}
	return h, true
}

// evalPacked is eval for a catalogue whose parts are all held at 1 bit
// (catalogue.packed), with the same result. A move of tile changes the
// value of each part holding it by exactly ±1 (compact.Child), so the sum
// of a partition holding tile moves by ±1 and only the "hot" partitions,
// whose sum+1 exceeds thr, can cut the child. evalPacked computes the
// steps of the hot partitions' parts first and, when they do not cut, the
// others; each group in three passes, every part's rank update, then
// every part's entry (its record of slot start and regions: one cache
// line), then every part's bit, so that the loads of each pass, each a
// likely cache miss into tables of tens of MB, are issued together and
// overlap instead of waiting one for another. When every
// partition covers every tile (24-best), partition sums all have the
// parity of the distance, so the hot partitions are those attaining the
// maximum when the parent's f equals the bound, and none otherwise: a cut
// child costs the lookups of the partitions at the maximum only.
func (cat *catalogue) evalPacked(sd *catSide, steps *catSteps, pc *[maxCatParts][puzzle.MaxCells]uint8, tile, blank, to uint8, thr, stop int) (int, bool) {
	t := tile & (puzzle.MaxCells - 1)
	h := 0
	for _, q := range cat.free[t] {
		h = max(h, sd.sum[q&(maxPartitions-1)])
	}
	if h > thr && h >= stop {
		return h, false
	}
	holds := cat.hold[t]
	var hot, all uint64 // the parts (index j into cat.tile[t]) of the hot partitions, and of all
	for _, hd := range holds {
		bit := uint64(1) << (hd.j & (maxPartitions - 1))
		all |= bit
		if sd.sum[hd.q&(maxPartitions-1)]+1 > thr {
			hot |= bit
		}
	}
	refs := cat.tile[t]
	from, dst := to&(puzzle.MaxCells-1), blank&(puzzle.MaxCells-1)
	for pass, mask := range [2]uint64{hot, all &^ hot} {
		if mask == 0 {
			continue
		}
		for m := mask; m != 0; m &= m - 1 {
			j := bits.TrailingZeros64(m) & (maxPartitions - 1)
			r := refs[j]
			c := &steps[j]
			tab := &cat.tabs[r.part]
			c.part, c.p, c.from, c.to, c.lazy = r.part, r.idx&(puzzle.MaxCells-1), pc[r.part][from], pc[r.part][dst], false
			c.st = tab.moved(sd.st[r.part], &sd.cells[r.part], c.from, c.to, c.p)
		}
		for m := mask; m != 0; m &= m - 1 {
			c := &steps[bits.TrailingZeros64(m)&(maxPartitions-1)]
			c.idx = cat.tabs[c.part].cz.At(c.st.ord, c.st.m, c.from)
		}
		for m := mask; m != 0; m &= m - 1 {
			j := bits.TrailingZeros64(m) & (maxPartitions - 1)
			c := &steps[j]
			c.h = compact.Child(sd.h[c.part], cat.tabs[c.part].cz.Bit(c.idx))
		}
		if pass == 1 {
			break
		}
		// Only a hot partition can exceed thr: the maximum over them,
		// when it does, is the maximum.
		hh := h
		for _, hd := range holds {
			if q := hd.q & (maxPartitions - 1); sd.sum[q]+1 > thr {
				c := &steps[hd.j&(maxPartitions-1)]
				hh = max(hh, sd.sum[q]+int(c.h)-int(sd.h[c.part]))
			}
		}
		if hh > thr {
			return hh, false
		}
	}
	for _, hd := range holds {
		c := &steps[hd.j&(maxPartitions-1)]
		h = max(h, sd.sum[hd.q&(maxPartitions-1)]+int(c.h)-int(sd.h[c.part]))
	}
	return h, true
}

// resolve turns the lazy value of step c (c.lazy: only the minimum over
// the blank's regions of a zero-aware part) into the value of the blank's
// region, the blank being on the cell the tile left (c.from). A part
// searched through its direct index keeps no compact rank: it is computed
// here from the part's cells after the move.
func (cat *catalogue) resolve(c *catStep, sd *catSide) {
	tab := &cat.tabs[c.part]
	st := c.st
	if tab.dvals != nil {
		cells := sd.cells[c.part]
		cells[c.p&(puzzle.MaxCells-1)] = c.to
		st = tab.rank(&cells)
	}
	c.h = tab.za.value(st.ord, st.m, c.from)
	c.lazy = false
}

// make applies the first n steps (all computed by eval) to sd, leaving in
// steps what undoes them (unmake).
func (cat *catalogue) make(sd *catSide, steps *catSteps, n int) {
	for i := range steps[:n] {
		c := &steps[i]
		t := c.part
		if d := int(c.h) - int(sd.h[t]); d != 0 {
			for _, q := range cat.in[t] {
				sd.sum[q&(maxPartitions-1)] += d
			}
		}
		sd.h[t], c.h = c.h, sd.h[t]
		sd.st[t], c.st = c.st, sd.st[t]
		sd.cells[t][c.p&(puzzle.MaxCells-1)] = c.to
	}
}

// unmake undoes make of the same steps.
func (cat *catalogue) unmake(sd *catSide, steps *catSteps, n int) {
	for i := range steps[:n] {
		c := &steps[i]
		t := c.part
		if d := int(sd.h[t]) - int(c.h); d != 0 {
			for _, q := range cat.in[t] {
				sd.sum[q&(maxPartitions-1)] -= d
			}
		}
		sd.h[t], c.h = c.h, sd.h[t]
		sd.st[t], c.st = c.st, sd.st[t]
		sd.cells[t][c.p&(puzzle.MaxCells-1)] = c.from
	}
}

// newCat allocates the catalogue sides on first use.
func (x *tableState) newCat(s *Solver) {
	if x.creg == nil {
		x.creg = new(catSide)
		if x.reflect {
			x.crefl = new(catSide)
		}
	}
	x.np = s.cat.np
}

// loadCat is tableState.load for a catalogue.
func (x *tableState) loadCat(s *Solver, board []uint8) {
	x.newCat(s)
	x.cunr, x.cunrR = catUnranked{}, catUnranked{}
	x.creg.load(s.cat, board, s.cat.cell, nil)
	if x.reflect {
		x.crefl.load(s.cat, board, s.cat.cellR, &s.reflTile)
	}
}

// valueCat is tableState.value for a catalogue.
func (x *tableState) valueCat() int {
	h := x.creg.max(x.np)
	if x.reflect {
		h = max(h, x.crefl.max(x.np))
	}
	return h
}

// childCat is hcalc.child for a catalogue: the exact value of both sides.
// It records the values of the parts the move changed (childParts).
func (x *hcalc) childCat(tile, blank, to uint8) int {
	cat := x.s.cat
	if x.steps == nil {
		x.steps = new(catSteps)
	}
	cat.rankFor(x.creg, &x.cunr, tile)
	h, _ := cat.eval(x.creg, x.steps, cat.cell, tile, blank, to, math.MaxInt, math.MaxInt)
	x.lastCat = x.lastCat[:0]
	for j := range cat.tile[tile&(puzzle.MaxCells-1)] {
		x.lastCat = append(x.lastCat, catStepValue{x.steps[j].part, x.steps[j].h})
	}
	if x.reflect {
		rt := x.s.reflTile[tile]
		cat.rankFor(x.crefl, &x.cunrR, rt)
		hr, _ := cat.eval(x.crefl, x.steps, cat.cellR, rt, blank, to, math.MaxInt, math.MaxInt)
		h = max(h, hr)
		x.lastCatR = x.lastCatR[:0]
		for j := range cat.tile[rt&(puzzle.MaxCells-1)] {
			x.lastCatR = append(x.lastCatR, catStepValue{x.steps[j].part, x.steps[j].h})
		}
	}
	return h
}

// catStepValue is a distinct part of a catalogue and its value after the
// last child's move (hcalc.childCat), for childParts.
type catStepValue struct {
	part, h uint8
}

// level returns the step buffers of depth g, growing them on first use.
func (x *searcher) level(g int) *catLevel {
	for len(x.levels) <= g {
		x.levels = append(x.levels, new(catLevel))
	}
	return x.levels[g]
}

// reflectClosed reports whether the catalogue is closed under the
// main-diagonal reflection (Solver.reflTile; Options.Reflect set): every
// partition's reflection, each part's tiles mapped by reflTile, is a
// partition of the catalogue whose parts have tables of the same kinds.
// The value of a partition on the reflected state is then the value of
// its reflection on the state itself (a pattern database of the reflected
// pattern is the reflected pattern database, the goal being mapped to
// itself), so the maximum over the partitions is the same on both sides
// and the reflected side can only repeat the regular one: the search
// skips it (Solver.reflSide) and generates the same nodes for half the
// lookups of the children it keeps. Preset 24-best (7 partitions and
// their transposes) is closed.
func (s *Solver) reflectClosed() bool {
	if !s.opt.Reflect || s.cat == nil {
		return false
	}
	sig := func(q []int, tmap func(uint8) uint8) string {
		parts := make([]string, 0, len(q))
		for _, id := range q {
			p := s.set.Parts[id]
			tiles := make([]int, 0, len(p.Pattern.Tiles))
			for _, t := range p.Pattern.Tiles {
				tiles = append(tiles, int(tmap(t)))
			}
			slices.Sort(tiles)
			parts = append(parts, fmt.Sprint(p.Table.Header.Kind, tiles))
		}
		slices.Sort(parts)
		return fmt.Sprint(parts)
	}
	have := map[string]bool{}
	for _, q := range s.set.Partitions {
		have[sig(q, func(t uint8) uint8 { return t })] = true
	}
	for _, q := range s.set.Partitions {
		if !have[sig(q, func(t uint8) uint8 { return s.reflTile[t] })] {
			return false
		}
	}
	return true
}
