// Package compact holds a zero-aware pattern database (format.KindZeroAware)
// at one bit per entry for search: Clausecker & Reinefeld, "Zero-Aware
// Pattern Databases with 1-Bit Compression for Sliding Tile Puzzles",
// SoCS 2019. The search carries each part's exact value along its path;
// one stored bit and the parent's exact value give the child's.
//
// Why it is exact. The value h of an abstract state (placement of the
// pattern tiles, region of the blank) is the fewest pattern-tile moves to
// the goal's abstract state; moves of other tiles cost nothing.
//
//   - Parity. Colour the board like a checkerboard, colour(c) =
//     (row+col) mod 2. A pattern-tile move takes that tile one cell, so
//     the parity of the sum of the pattern tiles' colours flips; a move of
//     another tile leaves the pattern tiles where they are. So every path
//     from a state to the goal has a number of pattern moves of the same
//     parity, colourSum(state) − colourSum(goal) mod 2, and h mod 2 is
//     fixed by the placement (Table.Parity).
//   - Consistency. Moves are reversible, so h is a shortest-path distance
//     in an undirected graph whose edges (pattern moves) cost 1 and whose
//     zero-cost moves (the blank within its region) stay inside one
//     abstract state: a pattern move changes h by at most 1, a non-pattern
//     move leaves the state, hence h, unchanged (the blank steps onto an
//     adjacent free cell, which is in its region).
//   - So a pattern move changes h by exactly ±1 (at most 1, and odd). The
//     child's value is old+1 or old−1; those differ by 2, so they differ
//     in bit 1 (adding 2 flips bit 1). Storing bit = (h>>1)&1 for every
//     entry therefore decides between them: Child.
//   - The root's value: h mod 4 is known at every state (bit 0 from the
//     parity, bit 1 stored). A state with h > 0 has a neighbour (one
//     pattern move away) of value h−1, which is its only neighbour ≡ h−1
//     mod 4 (the others are h+1, and h−1 ≢ h+1 mod 4); the goal has none.
//     Walking to such a neighbour until there is none takes exactly h
//     steps: Table.Value.
//
// Plain additive tables (the minimum over the blank's regions, RankingCellsetOrder)
// are not consistent under moves (a placement's value drops to that of a
// region the blank is not in), so they have no compact form: Pack refuses
// them, and checks every table it packs (Check).
package compact

import (
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"weak"

	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
)

// ErrNotZeroAware is returned by Pack for a table that is not zero-aware.
var ErrNotZeroAware = errors.New("compact: not a zero-aware table")

// ErrNotCompactable is wrapped by the errors of Check and Pack for a
// zero-aware table whose values break the parity or consistency the
// 1-bit form relies on, and by Value when a walk does not end.
var ErrNotCompactable = errors.New("compact: the table cannot be held at 1 bit per entry")

// Table is a zero-aware table at one bit per entry: bit i is bit 1 of
// the value of zero-aware index i (puzzle.RankingCellsetOrderRegion).
// Memory: ⌈entries/64⌉·8 bytes and a record per cell set (Bytes, Memory)
// plus the region maps of its puzzle.Regions, which it shares. Read-only after Pack and safe for
// concurrent use.
type Table struct {
	bits    []uint64
	r       *puzzle.Regions
	p       *puzzle.Pattern
	entries uint64
	nb      [][]uint8
	slots   uint64 // S
	// rec holds, per cell set M, slotStart[M] and the region of every
	// cell in one record of 1<<recShift words: word 0 the slot start,
	// then the regions a byte each, four to a word, little end first. A
	// record never straddles a cache line (it is 16 to 128 bytes, a
	// power of two, from an aligned array), so At costs one miss for both
	// where the two maps of puzzle.Regions cost two. The records depend
	// only on the board and the number of pattern tiles, so the tables of
	// one shape share them (sharedRecords): a catalogue's lookups then
	// walk one array of records (5.7 MB for 6 tiles of the 24-puzzle,
	// small enough to stay in a last-level cache) instead of one per table.
	rec      []uint32
	recs     *recordSet // keeps the shared records alive
	recShift uint
	n        uint64
	colour   uint64 // bit c set: cell c has colour 1
	goalPar  uint8  // colour parity of the goal placement
	header   format.Header
}

// Pack packs the zero-aware table t into one bit per entry, after Check
// with opt. It fails with ErrNotZeroAware for any other table and with an
// error wrapping ErrNotCompactable when the check fails; the caller then
// keeps the byte table. t is not modified and not referenced afterwards
// (its Regions are), so its values can be freed.
func Pack(t *format.Table, opt Options) (*Table, error) {
	c, err := newTable(t)
	if err != nil {
		return nil, err
	}
	c.bits = make([]uint64, (c.entries+63)/64)
	sysmem.AdviseHugePages(c.bits, false) // filled at once, then read at random
	if err := c.check(t.Values, opt, c.bits); err != nil {
		return nil, err
	}
	return c, nil
}

// newTable is a Table of t's shape with no bits. It fails for a table
// that is not zero-aware (ErrNotZeroAware) or has the wrong length.
func newTable(t *format.Table) (*Table, error) {
	if t == nil || !t.ZeroAware() {
		name := "nil table"
		if t != nil {
			name = t.Pattern.String()
		}
		return nil, fmt.Errorf("%w: %s", ErrNotZeroAware, name)
	}
	p := t.Pattern
	if n := t.Regions.Size(); uint64(len(t.Values)) != n {
		return nil, fmt.Errorf("compact: %s: %d values, want %d", p, len(t.Values), n)
	}
	g := p.Geom
	r := t.Regions
	c := &Table{r: r, p: p, entries: r.Size(), nb: g.Neighbors(), header: t.Header,
		slots: r.Slots(), n: uint64(g.N())}
	c.records()
	for cell := range g.N() {
		if (g.Row(cell)+g.Col(cell))&1 != 0 {
			c.colour |= 1 << cell
		}
	}
	c.goalPar = c.parity(maskOf(p.GoalCells()))
	return c, nil
}

// recordShift is log2 of the words of a record of Table.rec on a board
// of n cells: the slot start and n region bytes, rounded up to a power of
// two of at least 4 words.
func recordShift(n uint64) uint {
	var shift uint = 2
	for uint64(1)<<shift < 1+(n+3)/4 {
		shift++
	}
	return shift
}

// Memory is the memory in bytes of a Table packed from a zero-aware
// table of entries entries for tiles pattern tiles on a board of cells
// cells (Bytes), before it is packed: its bits and its records, not the
// puzzle.Regions maps it keeps (C(cells,tiles)·(cells+4) bytes, which the
// byte form has too).
func Memory(cells, tiles int, entries uint64) uint64 {
	return (entries+63)/64*8 + puzzle.Binomial(cells, tiles)*4<<recordShift(uint64(cells))
}

// recordSet is the records of Table.rec for one shape (board and number
// of pattern tiles).
type recordSet struct {
	rec []uint32
}

// recordKey is a shape of sharedRecords: the board's sides and the number
// of pattern tiles, which alone decide the region numbering
// (puzzle.NewRegions labels every cell set of k cells of the board).
type recordKey struct {
	w, h, k int
}

// sharedRecords maps each shape to its records while a Table of that
// shape holds them; a weak pointer, so that the records go with the last
// such Table.
var sharedRecords struct {
	sync.Mutex
	m map[recordKey]weak.Pointer[recordSet]
}

// records sets c.rec (see Table.rec) to the records of c's shape: those
// of a live Table of the same shape, or new ones from the maps of c.r.
func (c *Table) records() {
	c.recShift = recordShift(c.n)
	key := recordKey{c.p.Geom.W, c.p.Geom.H, c.p.K()}
	sharedRecords.Lock()
	defer sharedRecords.Unlock()
	if rs := sharedRecords.m[key].Value(); rs != nil {
		c.recs, c.rec = rs, rs.rec
		return
	}
	sets := c.p.Combinations()
	rec := make([]uint32, sets<<c.recShift)
	for m := uint64(0); m < sets; m++ {
		r := rec[m<<c.recShift : (m+1)<<c.recShift]
		r[0] = c.r.SlotStarts()[m]
		for cell, reg := range c.r.RegionsOf(m) {
			r[1+cell/4] |= uint32(reg) << (8 * (cell % 4))
		}
	}
	rs := &recordSet{rec: rec}
	if sharedRecords.m == nil {
		sharedRecords.m = make(map[recordKey]weak.Pointer[recordSet])
	}
	sharedRecords.m[key] = weak.Make(rs)
	c.recs, c.rec = rs, rec
}

// maskOf is the cell set of cells as a bit mask.
func maskOf(cells []uint8) uint64 {
	var mask uint64
	for _, x := range cells {
		mask |= 1 << x
	}
	return mask
}

// parity is the colour parity of the cell set mask (bit c = cell c).
func (c *Table) parity(mask uint64) uint8 {
	return uint8(bits.OnesCount64(mask&c.colour) & 1)
}

// Parity is h mod 2 for every state whose pattern tiles occupy the cell
// set mask (bit c = cell c occupied): 0 or 1.
func (c *Table) Parity(mask uint64) uint8 { return c.parity(mask) ^ c.goalPar }

// Bit is the stored bit of zero-aware index idx (idx < Entries): bit 1 of
// its value, 0 or 1.
func (c *Table) Bit(idx uint64) uint8 {
	return uint8(c.bits[idx>>6] >> (idx & 63) & 1)
}

// Child is the value of a state one pattern-tile move away from a state
// of exact value old (0..254), given the child's stored bit (0 or 1): old+1
// when bit 1 of old+1 is bit, else old−1. Written without a branch:
// bit 1 of old+1 is bit 1 of old XOR bit 0 of old, so
// (bit<<1 ^ old ^ old<<1) & 2 is 0 when the child is old+1 and 2 when it
// is old−1 (the formula, with the bit in position 1).
func Child(old, bit uint8) uint8 {
	return old + 1 - ((bit<<1 ^ old ^ old<<1) & 2)
}

// Next is Child(old, Bit(idx)): the exact value of the state of
// zero-aware index idx, one pattern-tile move away from a state of exact
// value old.
func (c *Table) Next(old uint8, idx uint64) uint8 {
	return Child(old, c.Bit(idx))
}

// At is the zero-aware index of the state of order rank ord and cell set
// m (the P and M of puzzle.RankingCellsetOrder) with the blank on the
// free cell blank: ord·S + slotStart[m] + region of blank. It does not
// check its arguments.
func (c *Table) At(ord, m uint64, blank uint8) uint64 {
	base := m << c.recShift
	reg := c.rec[base+1+uint64(blank>>2)] >> (blank & 3 * 8) & 0xFF
	return ord*c.slots + uint64(c.rec[base]) + uint64(reg)
}

// Index is the zero-aware index of the state whose pattern tiles (tiles
// ascending) are on cells and whose blank is on blank (a free cell).
func (c *Table) Index(cells []uint8, blank uint8) uint64 {
	return c.r.IndexCells(cells, blank)
}

// Value is the exact value of the state whose pattern tiles (ascending)
// are on cells (len K) and whose blank is on blank, found by walking
// downhill in the abstract space (see the package comment): at most
// 4·K·h lookups. It fails for a blank on an occupied cell and, with
// ErrNotCompactable, when the walk runs 255 steps (a table Check let
// through that is not consistent).
func (c *Table) Value(cells []uint8, blank uint8) (uint8, error) {
	k := c.p.K()
	if len(cells) != k {
		return 0, fmt.Errorf("compact: %s: %d cells, want %d", c.p, len(cells), k)
	}
	var cur [puzzle.MaxCells]uint8
	copy(cur[:], cells)
	mask := maskOf(cells)
	if mask>>blank&1 != 0 {
		return 0, fmt.Errorf("compact: %s: the blank is on cell %d, which holds a pattern tile", c.p, blank)
	}
	par := c.Parity(mask)
	mod := par | c.Bit(c.r.IndexCells(cur[:k], blank))<<1
	m := puzzle.CombinationRank(mask)
	reg := c.r.Region(m, int(blank))
	for steps := range uint8(puzzle.Unreached) {
		want := (mod + 3) & 3
		moved := false
		for i := 0; i < k && !moved; i++ {
			from := cur[i]
			for _, d := range c.nb[from] {
				if mask>>d&1 != 0 || c.r.Region(m, int(d)) != reg {
					continue
				}
				cur[i] = d
				nmod := par ^ 1 | c.Bit(c.r.IndexCells(cur[:k], from))<<1
				if nmod == want {
					mask ^= 1<<from | 1<<d
					m = puzzle.CombinationRank(mask)
					reg = c.r.Region(m, int(from))
					mod, par, moved = nmod, par^1, true
					break
				}
				cur[i] = from
			}
		}
		if !moved {
			return steps, nil
		}
	}
	return 0, fmt.Errorf("%w: %s: the walk to the goal did not end in 254 steps", ErrNotCompactable, c.p)
}

// Entries is the number of entries (puzzle.Regions.Size).
func (c *Table) Entries() uint64 { return c.entries }

// Bytes is the memory of the bits and the records: ⌈Entries/64⌉·8 bytes
// plus C(N,k) records of 16 to 128 bytes (Memory; the region maps of
// Regions, C(N,k)·(N+4) bytes, are not counted). The records are shared
// by the live tables of one shape, and counted for each: a sum over
// tables is an upper bound.
func (c *Table) Bytes() uint64 { return uint64(len(c.bits))*8 + uint64(len(c.rec))*4 }

// Regions is the region numbering of the table's pattern.
func (c *Table) Regions() *puzzle.Regions { return c.r }

// Pattern is the table's pattern.
func (c *Table) Pattern() *puzzle.Pattern { return c.p }

// Header is the header of the table it was packed from.
func (c *Table) Header() format.Header { return c.header }
