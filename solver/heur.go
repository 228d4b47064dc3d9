package solver

import (
	"slices"

	"github.com/tilepdb/tilepdb/puzzle"
)

// The heuristic of the additive searches (IDA* and the A* searches) is
// kept per table and updated one move at a time: a move changes the cell
// of one tile, so only the table holding it (and, with reflection, the
// table holding its reflected image) is looked up again. childOf computes
// a move's effect on one side, make applies it (and, given its own result,
// undoes it); IDA*'s dfs and hcalc.child both go through them. A beam
// search over such a set evaluates its children in two halves instead
// (beamEval: rank the changed part from its cells, read many children's
// entries at once, then finish), with the same values.

// side is the heuristic of one state (or of its reflection) kept per
// table: each table's tile cells, index state and value, and their sum.
type side struct {
	cells [maxTables][puzzle.MaxCells]uint8 // per table, the cell of each of its tiles (in the table's cells)
	st    [maxTables]rankState              // per table, its index state
	h     [maxTables]uint8                  // per table, its value
	sum   int                               // Σ h
}

// tableState is the heuristic of one state: the regular side and, with
// reflect, the side of the state reflected about the main diagonal.
type tableState struct {
	reflect   bool
	reg, refl side
	// creg and crefl replace reg and refl for a catalogue (Solver.cat),
	// of np partitions.
	creg, crefl *catSide
	np          int
	// unranked, unrankedR: with loadKnown's parts, the tables (bit i:
	// table i) of the regular and reflected side whose index state is
	// not computed yet (hcalc.child computes it when a move needs it);
	// cunr, cunrR the same for a catalogue's distinct parts
	// (loadCatParts).
	unranked, unrankedR uint64
	cunr, cunrR         catUnranked
}

// childStep is a move's effect on one side: table t (-1 when the moved
// tile is in no table) whose tile p goes from cell from to cell to (the
// table's cells), its index state and value after the move, and the
// side's sum after it. beamEval.steps sets only t, idx, h and sum.
type childStep struct {
	t        int8
	p        uint8
	from, to uint8
	st       rankState
	h        uint8
	sum      int
	idx      uint64 // the table index (beamEval.steps)
	// lazy: h is only a lower bound, the zero-aware part's minimum over
	// regions (zeroaware.go); resolve gives the value. make needs it
	// resolved.
	lazy bool
}

// childOf sets c to the effect on sd of tile sliding from cell to into the
// blank's cell blank (board cells), pc mapping board cells to each table's
// cells (partCell, or partCellR for the reflected side, where tile is the
// reflected tile). With a direct index the table's index changes by one
// multiply-add; otherwise by the compact rank update (tableInfo.moved).
// sd is not changed. (c is the caller's, to spare copies in IDA*'s inner
// loop.)
func (s *Solver) childOf(c *childStep, sd *side, pc *[maxTables][puzzle.MaxCells]uint8, tile, blank, to uint8) {
	t := s.tileTab[tile]
	c.t = t
	c.lazy = false
	if t < 0 {
		c.sum = sd.sum
		return
	}
	tab := &s.tabs[t]
	c.p, c.from, c.to = s.tileIdx[tile], pc[t][to], pc[t][blank]
	if tab.dvals != nil {
		c.st.d, c.h = tab.directStep(sd.st[t].d, c.from, c.to, c.p)
	} else {
		c.st, c.h = tab.movedValue(&sd.st[t], &sd.cells[t], c.from, c.to, c.p)
	}
	if c.h&zaLazy != 0 && tab.za != nil {
		c.h &^= zaLazy
		c.lazy = true
	}
	c.sum = sd.sum + int(c.h) - int(sd.h[t])
}

// stepValue finishes a step whose table index is known (c.idx) and whose
// h and sum lack the table entry there (beamEval.steps): it adds the
// entry to both.
func (s *Solver) stepValue(c *childStep) {
	if c.t < 0 {
		return
	}
	v := s.tabs[c.t].entry(c.idx)
	c.h += v
	c.sum += int(v)
}

// resolve turns a lazy step (c.lazy: c.h only the minimum over regions of
// a zero-aware part) into the exact one: the value of the blank's region,
// the blank being on the cell the tile left (c.from). sd is the side c
// was computed from (childOf): a part searched through its direct index
// keeps no compact rank, so it is computed here from the part's cells.
func (s *Solver) resolve(c *childStep, sd *side) {
	if !c.lazy {
		return
	}
	tab := &s.tabs[c.t]
	st := c.st
	if tab.dvals != nil {
		cells := sd.cells[c.t]
		cells[c.p] = c.to
		st = tab.rank(&cells)
	}
	h := tab.za.value(st.ord, st.m, c.from)
	c.sum += int(h) - int(c.h)
	c.h, c.lazy = h, false
}

// make applies c to sd and sets back to the step that undoes it: sd.make
// of back restores sd.
func (sd *side) make(c, back *childStep) {
	back.t, back.p, back.from, back.to, back.sum = c.t, c.p, c.to, c.from, sd.sum
	sd.sum = c.sum
	if t := c.t; t >= 0 {
		back.st, back.h = sd.st[t], sd.h[t]
		sd.st[t], sd.h[t] = c.st, c.h
		sd.cells[t][c.p] = c.to
	}
}

// load ranks board (the tile in each of the Solver's n cells) in every
// table of s, and with reflect its reflection too, and sets the values and
// their sums.
func (x *tableState) load(s *Solver, board []uint8) {
	if s.cat != nil {
		x.loadCat(s, board)
		return
	}
	x.loadKnown(s, board, nil)
}

// loadKnown is load for an additive set; with parts (partsLen(s) bytes:
// the regular side's value per table, then with reflect the reflected
// side's, as parts returned them) it looks no value up and leaves the
// tables unranked (hcalc.child ranks the ones a move needs).
func (x *tableState) loadKnown(s *Solver, board []uint8, parts []uint8) {
	for c, t := range board {
		if ti := s.tileTab[t]; ti >= 0 {
			x.reg.cells[ti][s.tileIdx[t]] = s.partCell[ti][c]
		}
		if x.reflect {
			rt := s.reflTile[t]
			if tj := s.tileTab[rt]; tj >= 0 {
				x.refl.cells[tj][s.tileIdx[rt]] = s.partCellR[tj][c]
			}
		}
	}
	x.reg.sum, x.refl.sum = 0, 0
	x.unranked, x.unrankedR = 0, 0
	if parts != nil {
		// The values are known; a table is ranked when a child moves one
		// of its tiles (at most three of a state's tables are).
		np := len(s.tabs)
		all := uint64(1)<<np - 1
		for i := range s.tabs {
			x.reg.h[i] = parts[i]
			x.reg.sum += int(parts[i])
			if x.reflect {
				x.refl.h[i] = parts[np+i]
				x.refl.sum += int(parts[np+i])
			}
		}
		x.unranked = all
		if x.reflect {
			x.unrankedR = all
		}
		return
	}
	blank := slices.Index(board, 0)
	for i := range s.tabs {
		x.reg.rank(&s.tabs[i], i, s.partCell[i][blank])
		if x.reflect {
			x.refl.rank(&s.tabs[i], i, s.partCellR[i][blank])
		}
	}
}

// partsLen is the length of the parts of loadKnown: a byte per table (per
// distinct part of a catalogue), and as many more with reflection.
func partsLen(s *Solver) int {
	n := len(s.tabs)
	if s.cat != nil {
		n = s.cat.nt
	}
	if s.reflSide {
		return 2 * n
	}
	return n
}

// parts appends the loaded state's value per table (loadKnown's parts;
// per distinct part for a catalogue, loadCatParts') to dst.
func (x *tableState) parts(s *Solver, dst []uint8) []uint8 {
	if x.creg != nil {
		dst = append(dst, x.creg.h[:s.cat.nt]...)
		if x.reflect {
			dst = append(dst, x.crefl.h[:s.cat.nt]...)
		}
		return dst
	}
	dst = append(dst, x.reg.h[:len(s.tabs)]...)
	if x.reflect {
		dst = append(dst, x.refl.h[:len(s.tabs)]...)
	}
	return dst
}

// ranked computes table t's index state on sd when the bit t of unranked
// says it is not yet (loadKnown), and clears the bit.
func (sd *side) ranked(s *Solver, t int8, unranked *uint64) {
	if t >= 0 && *unranked&(1<<t) != 0 {
		sd.st[t] = s.tabs[t].rank(&sd.cells[t])
		*unranked &^= 1 << t
	}
}

// rank computes table i's index state and value from its cells (and, for
// a zero-aware table, the blank's cell in the table's frame) and adds the
// value to the sum.
func (sd *side) rank(tab *tableInfo, i int, blank uint8) {
	sd.st[i] = tab.rank(&sd.cells[i])
	sd.h[i] = tab.valueAt(tab.index(sd.st[i]), &sd.cells[i])
	if sd.h[i]&zaLazy != 0 && tab.za != nil {
		sd.h[i] = tab.za.value(sd.st[i].ord, sd.st[i].m, blank)
	}
	sd.sum += int(sd.h[i])
}

// value is the heuristic of the state: the regular sum, or with reflect
// the larger of the two sums (for a catalogue, of the two maxima over
// partitions).
func (x *tableState) value() int {
	if x.creg != nil {
		return x.valueCat()
	}
	return max(x.reg.sum, x.refl.sum)
}

// hcalc evaluates the solver's heuristic (the one IDA* uses: the sum of the
// table values, with Options.Reflect the maximum with the sum for the
// reflected state; the exact value for an exact table) for the children of
// one state: load ranks the state once per part, child then costs one
// incremental update and lookup per part touched by the move (childOf).
type hcalc struct {
	s *Solver
	tableState
	pos   [puzzle.MaxCells]uint8 // exact table: pos[t] = cell of tile t
	steps *catSteps              // a catalogue's steps (childCat)
	// key, ckey: with Solver.rankW, the weighted ranking key of the
	// loaded state and of the last child (child); with Solver.rankSides,
	// ckey is the last child's sum of both sides.
	key, ckey int
	// lastCat, lastCatR: for a catalogue, the distinct parts and values
	// the last child changed on the regular and the reflected side
	// (childParts).
	lastCat, lastCatR []catStepValue
	// last, lastR: the table (-1: none) and value the last child changed
	// on the regular and the reflected side (childParts).
	last, lastR struct {
		t int8
		h uint8
	}
}

func newHcalc(s *Solver) *hcalc {
	return &hcalc{s: s, tableState: tableState{reflect: s.reflSide}}
}

// load prepares the children of board (n cells) and returns its
// heuristic value.
func (x *hcalc) load(board *[puzzle.MaxCells]uint8) int {
	s := x.s
	if s.exact != nil {
		for c := 0; c < s.n; c++ {
			x.pos[board[c]] = uint8(c)
		}
		return int(s.exact.Value(x.pos[:s.n]))
	}
	x.tableState.load(s, board[:s.n])
	return x.loaded()
}

// loadParts is load for an additive set or a catalogue (not exact) whose
// state's values per table (per distinct part) are known: parts as
// childParts or tableState.parts gave them. It looks no value up: a beam
// search keeps its states' parts, so that expanding a state costs the
// lookups of its children only (a cache miss each in a table of
// gigabytes).
func (x *hcalc) loadParts(board *[puzzle.MaxCells]uint8, parts []uint8) int {
	if x.s.cat != nil {
		x.loadCatParts(x.s, board[:x.s.n], parts)
	} else {
		x.loadKnown(x.s, board[:x.s.n], parts)
	}
	return x.loaded()
}

// loaded finishes load: the ranking key and the heuristic value.
func (x *hcalc) loaded() int {
	s := x.s
	if s.rankW != nil {
		x.key = 0
		for t, w := range s.rankW {
			x.key += w * int(x.reg.h[t])
		}
	}
	return x.value()
}

// child returns the heuristic value of the loaded state after tile (in
// cell to) slides into the blank's cell blank. The loaded state is kept.
func (x *hcalc) child(tile, blank, to uint8) int {
	s := x.s
	if s.exact != nil {
		x.pos[0], x.pos[tile] = to, blank
		v := int(s.exact.Value(x.pos[:s.n]))
		x.pos[0], x.pos[tile] = blank, to
		return v
	}
	if s.cat != nil {
		return x.childCat(tile, blank, to)
	}
	var c childStep
	x.reg.ranked(s, s.tileTab[tile], &x.unranked)
	s.childOf(&c, &x.reg, &s.partCell, tile, blank, to)
	s.resolve(&c, &x.reg)
	h := c.sum
	x.last.t, x.last.h = c.t, c.h
	if s.rankW != nil {
		x.ckey = x.key
		if c.t >= 0 {
			x.ckey += s.rankW[c.t] * (int(c.h) - int(x.reg.h[c.t]))
		}
	}
	if x.reflect {
		x.refl.ranked(s, s.tileTab[s.reflTile[tile]], &x.unrankedR)
		s.childOf(&c, &x.refl, &s.partCellR, s.reflTile[tile], blank, to)
		s.resolve(&c, &x.refl)
		if s.rankSides {
			x.ckey = h + c.sum
		}
		h = max(h, c.sum)
		x.lastR.t, x.lastR.h = c.t, c.h
	}
	return h
}

// splitSteps reports whether beam searches may evaluate children in two
// halves (beamEval): an additive set, no rank weights, no zero-aware
// part.
func (s *Solver) splitSteps() bool {
	if s.exact != nil || s.cat != nil || s.rankW != nil {
		return false
	}
	for i := range s.tabs {
		if s.tabs[i].za != nil {
			return false
		}
	}
	return true
}

// childParts appends to dst the values per table of the last child
// (child), given its parent's (parts, as loadParts took them).
func (x *hcalc) childParts(dst, parts []uint8) []uint8 {
	n := len(dst)
	dst = append(dst, parts...)
	if x.creg != nil {
		for _, v := range x.lastCat {
			dst[n+int(v.part)] = v.h
		}
		for _, v := range x.lastCatR {
			dst[n+x.s.cat.nt+int(v.part)] = v.h
		}
		return dst
	}
	if x.last.t >= 0 {
		dst[n+int(x.last.t)] = x.last.h
	}
	if x.reflect && x.lastR.t >= 0 {
		dst[n+len(x.s.tabs)+int(x.lastR.t)] = x.lastR.h
	}
	return dst
}
