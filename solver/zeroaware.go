package solver

import (
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// Zero-aware tables (format.KindZeroAware, Clausecker & Reinefeld) hold a
// value per placement and region of the blank. IDA* keeps their parts'
// index state exactly like a plain table's (rankState, or the direct index,
// then ranking the part's cells for a zero-aware lookup), through a placement table of
// k!·C(N,k) bytes: the value of the placement when its cell set leaves one
// region (most of them); otherwise the minimum over its regions (the plain
// table's value, a lower bound) with the bit zaLazy set. A child whose
// lower bound already cuts is cut at once, as the exact value would cut
// it; only the others read the blank's region: the zero-aware table at
// ord·S + slotStart[m] + region of the blank's cell (in the part's frame),
// IDA*'s resolve. (A cut child's f, which sets the next bound, may then
// be the lower bound's: both have the parity of the solution, and the
// next bound is the smallest f over the cut children, so it can come out
// lower only when no child had f = bound+2.)
//
// Why the incremental update stays exact: a move changes the value of
// the part that holds the moving tile only. When a tile of part A moves,
// the blank steps onto the cell the tile left; for every other part B
// that cell and the blank's old cell are both free (neither holds a tile
// of B) and adjacent, so the blank stays in its region of B, and B's cell
// set does not change: B's value stays. For part A the new blank cell is
// the tile's old cell, which childOf knows (c.from).

// zaLazy marks, in a placement table, an entry that is only a lower bound
// (the low 7 bits): a placement whose cell set has more than one region,
// or a value above 127.
const zaLazy = 0x80

// zeroAware is a zero-aware table prepared for lookups.
type zeroAware struct {
	values []uint8  // the zero-aware table, k!·S entries
	slots  uint64   // S
	start  []uint32 // slotStart[M]
	region []uint8  // region[M·N + c]
	n      uint64
}

// value is the entry of order ord, cell set m with the blank on cell blank
// (the part's frame).
func (z *zeroAware) value(ord, m uint64, blank uint8) uint8 {
	return z.values[ord*z.slots+uint64(z.start[m])+uint64(z.region[m*z.n+uint64(blank)])]
}

// zeroAwareTable is a zero-aware table with its placement table (a
// format.Table of the plain table's shape, so that the direct index is
// built from it like from a plain table).
type zeroAwareTable struct {
	za         *zeroAware
	placements *format.Table
}

// zeroAwareFor prepares t (a zero-aware table) once per table.
func zeroAwareFor(built map[*format.Table]*zeroAwareTable, t *format.Table) *zeroAwareTable {
	if zt, ok := built[t]; ok {
		return zt
	}
	r := t.Regions
	p := t.Pattern
	za := &zeroAware{values: t.Values, slots: r.Slots(), start: r.SlotStarts(), region: r.RegionMap(), n: uint64(p.Geom.N())}
	comb := p.Combinations()
	vals := make([]uint8, p.Size())
	for ord := uint64(0); ord < p.Size()/comb; ord++ {
		row := vals[ord*comb : (ord+1)*comb]
		block := t.Values[ord*za.slots : (ord+1)*za.slots]
		for m := range row {
			lo := uint8(puzzle.Unreached)
			for _, v := range block[za.start[m]:za.start[m+1]] {
				lo = min(lo, v)
			}
			if za.start[m+1]-za.start[m] == 1 && lo < zaLazy {
				row[m] = lo
			} else {
				row[m] = zaLazy | min(lo, zaLazy-1)
			}
		}
	}
	zt := &zeroAwareTable{za: za, placements: &format.Table{Header: t.Header, Pattern: p, Values: vals}}
	built[t] = zt
	return zt
}
