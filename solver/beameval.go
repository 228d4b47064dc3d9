package solver

import "github.com/tilepdb/tilepdb/puzzle"

// beamEval evaluates the children of a beam search's states in two
// halves for an additive set without zero-aware parts or rank weights
// (Solver.splitSteps), so that a chunk of states can read all its
// children's table entries in one short loop (beamSearch.splitChunk):
// steps ranks the part a child's move changes, on the regular and the
// reflected side, and finds the entry's index; value reads the entries
// and gives the child's heuristic and its values per table. A state
// costs a pass over its cells (load) and the values per table it keeps
// (parts, as hcalc.childParts lays them out); each child's part is
// ranked from its cells, with no rank of the state's own.
type beamEval struct {
	s       *Solver
	reflect bool
	np      int // parts of the set (len(s.tabs))
	// tiles[t][j]: the board tile that is part t's j-th tile; tilesR the
	// same on the reflected side (the board tile whose reflection it is).
	tiles, tilesR [maxTables][puzzle.MaxCells]uint8
	// the loaded state: the cell of each tile, its values per table and
	// its regular and reflected sums.
	pos       [puzzle.MaxCells]uint8
	parts     []uint8
	sum, sumR int
	// the child value evaluated last: its steps and its parent's values
	// per table (appendChild).
	childT     *[2]childStep
	childParts []uint8
}

func newBeamEval(s *Solver) *beamEval {
	e := &beamEval{s: s, reflect: s.reflSide, np: len(s.tabs)}
	var reflInv [puzzle.MaxCells]uint8
	for t := 0; t < s.n; t++ {
		reflInv[s.reflTile[t]] = uint8(t)
	}
	for t := 0; t < s.n; t++ {
		if p := s.tileTab[t]; p >= 0 {
			e.tiles[p][s.tileIdx[t]] = uint8(t)
			e.tilesR[p][s.tileIdx[t]] = reflInv[t]
		}
	}
	return e
}

// load makes board (n cells) and its values per table (parts) the state
// whose children steps evaluates.
func (e *beamEval) load(board *[puzzle.MaxCells]uint8, parts []uint8) {
	for c, t := range board[:e.s.n] {
		e.pos[t] = uint8(c)
	}
	e.parts, e.sum, e.sumR = parts, 0, 0
	for i := range e.np {
		e.sum += int(parts[i])
		if e.reflect {
			e.sumR += int(parts[e.np+i])
		}
	}
}

// steps sets c[0] (and with reflect c[1]) to the steps of the loaded
// state's child in which tile, on cell to, slides into the blank's cell
// blank: the part changed (t, -1 for none), its entry's index (idx), and
// h and sum less that entry (value adds it).
func (e *beamEval) steps(tile, blank, to uint8, c *[2]childStep) {
	e.pos[tile&(puzzle.MaxCells-1)] = blank
	e.step(&c[0], e.s.tileTab[tile&(puzzle.MaxCells-1)], &e.tiles, &e.s.partCell, e.sum, 0)
	if e.reflect {
		e.step(&c[1], e.s.tileTab[e.s.reflTile[tile&(puzzle.MaxCells-1)]], &e.tilesR, &e.s.partCellR, e.sumR, e.np)
	}
	e.pos[tile&(puzzle.MaxCells-1)] = to
}

// step is one side of steps: part t (-1: none), the side's tiles and
// cell maps, its sum and the offset of its values in parts.
func (e *beamEval) step(c *childStep, t int8, tiles *[maxTables][puzzle.MaxCells]uint8, pc *[maxTables][puzzle.MaxCells]uint8, sum, off int) {
	c.t = t
	if t < 0 {
		c.sum = sum
		return
	}
	tab := &e.s.tabs[t]
	var cells [puzzle.MaxCells]uint8
	for j, tile := range tiles[t][:tab.k] {
		cells[j] = pc[t][e.pos[tile]]
	}
	c.h = 0
	if tab.dvals != nil {
		var d uint64
		for j, cell := range cells[:tab.k] {
			d += uint64(cell) * tab.dpow[j]
		}
		c.idx = d
	} else {
		c.idx = tab.index(tab.rank(&cells))
		if tab.codes != nil {
			for j, cell := range cells[:tab.k] {
				c.h += tab.mdist[j][cell]
			}
		}
	}
	c.sum = sum - int(e.parts[off+int(t)]) + int(c.h)
}

// touch reads the bytes that hold the entries of steps c, so that their
// cache misses overlap with other children's; the sum is meaningless.
func (e *beamEval) touch(c *[2]childStep) uint8 {
	var v uint8
	if c[0].t >= 0 {
		v = e.s.tabs[c[0].t].entryByte(c[0].idx)
	}
	if e.reflect && c[1].t >= 0 {
		v += e.s.tabs[c[1].t].entryByte(c[1].idx)
	}
	return v
}

// value finishes the steps c of a child of the state whose values per
// table are parts: it returns the child's heuristic (the larger of its
// two sums with reflect) and ranking key (Solver.rankSides: the sum of
// both; else the heuristic), and keeps c and parts for appendChild.
func (e *beamEval) value(c *[2]childStep, parts []uint8) (h, key int) {
	e.childT, e.childParts = c, parts
	e.s.stepValue(&c[0])
	h = c[0].sum
	if !e.reflect {
		return h, h
	}
	e.s.stepValue(&c[1])
	if e.s.rankSides {
		return max(h, c[1].sum), h + c[1].sum
	}
	h = max(h, c[1].sum)
	return h, h
}

// appendChild appends to dst the values per table of the child value
// evaluated last: its parent's, with the parts its move changed.
func (e *beamEval) appendChild(dst []uint8) []uint8 {
	n := len(dst)
	dst = append(dst, e.childParts...)
	c := e.childT
	if c[0].t >= 0 {
		dst[n+int(c[0].t)] = c[0].h
	}
	if e.reflect && c[1].t >= 0 {
		dst[n+e.np+int(c[1].t)] = c[1].h
	}
	return dst
}
