package solver

import "github.com/tilepdb/tilepdb/puzzle"

// hcalc evaluates the solver's heuristic (the one IDA* uses: the sum of the
// table values, with Options.Reflect the maximum with the sum for the
// reflected state; the exact value for an exact table) for the children of
// one state: load ranks the state once per part, child then costs one
// incremental rank update and lookup per part touched by the move (a part
// looked up through a symmetric table uses its cell map, partCell).
type hcalc struct {
	s *Solver
	tableState
	pos [puzzle.MaxCells]uint8 // exact table: pos[t] = cell of tile t
}

// tableState is the heuristic of one state kept per table, so that a move
// costs one incremental rank update and lookup per table it touches
// (rankState.moved): each table's tile cells, index state and value, their
// sum, and with reflect the same for the reflected state.
type tableState struct {
	reflect bool
	cells   [maxTables][puzzle.MaxCells]uint8 // per table, the cell of each of its tiles
	cellsR  [maxTables][puzzle.MaxCells]uint8 // same for the reflected state
	st, stR [maxTables]rankState              // per table index, state and reflected state
	h, hR   [maxTables]uint8                  // per table value, state and reflected state
	sum     int                               // Σ h
	sumR    int                               // Σ hR
}

// load ranks board (the tile in each of the Solver's n cells) in every
// table of s, and with reflect its reflection too, and sets the values and
// their sums.
func (x *tableState) load(s *Solver, board []uint8) {
	for c, t := range board {
		if ti := s.tileTab[t]; ti >= 0 {
			x.cells[ti][s.tileIdx[t]] = s.partCell[ti][c]
		}
		if x.reflect {
			rt := s.reflTile[t]
			if tj := s.tileTab[rt]; tj >= 0 {
				x.cellsR[tj][s.tileIdx[rt]] = s.partCellR[tj][c]
			}
		}
	}
	x.sum, x.sumR = 0, 0
	for i := range s.tabs {
		tab := &s.tabs[i]
		x.st[i] = tab.rank(&x.cells[i])
		x.h[i] = tab.values[tab.index(x.st[i])]
		x.sum += int(x.h[i])
		if x.reflect {
			x.stR[i] = tab.rank(&x.cellsR[i])
			x.hR[i] = tab.values[tab.index(x.stR[i])]
			x.sumR += int(x.hR[i])
		}
	}
}

func newHcalc(s *Solver) *hcalc {
	return &hcalc{s: s, tableState: tableState{reflect: s.opt.Reflect && s.exact == nil}}
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
	return max(x.sum, x.sumR)
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
	sum := x.sum
	if ti := s.tileTab[tile]; ti >= 0 {
		tab := &s.tabs[ti]
		c := &x.cells[ti]
		pc := &s.partCell[ti]
		c[s.tileIdx[tile]] = pc[blank]
		sum += int(tab.values[tab.index(tab.moved(x.st[ti], c, pc[to], pc[blank], s.tileIdx[tile]))]) - int(x.h[ti])
		c[s.tileIdx[tile]] = pc[to]
	}
	if !x.reflect {
		return sum
	}
	sumR := x.sumR
	rt := s.reflTile[tile]
	if tj := s.tileTab[rt]; tj >= 0 {
		tab := &s.tabs[tj]
		c := &x.cellsR[tj]
		pc := &s.partCellR[tj]
		c[s.tileIdx[rt]] = pc[blank]
		sumR += int(tab.values[tab.index(tab.moved(x.stR[tj], c, pc[to], pc[blank], s.tileIdx[rt]))]) - int(x.hR[tj])
		c[s.tileIdx[rt]] = pc[to]
	}
	return max(sum, sumR)
}
