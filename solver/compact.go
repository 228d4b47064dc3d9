package solver

import (
	"fmt"

	"github.com/tilepdb/tilepdb/compact"
	"github.com/tilepdb/tilepdb/format"
)

// A catalogue's zero-aware parts at one bit per entry (Options.ZeroAwareBits,
// package compact: Clausecker & Reinefeld, SoCS 2019). The catalogue keeps
// every part's exact value per side (catSide.h); a move of one of the
// part's tiles changes it by exactly ±1, and the stored bit of the child's
// entry says which (compact.Child), so eval reads one bit where the byte
// form reads the placement table and, when it is lazy, the zero-aware
// table. A move of another tile leaves the part's value (the blank stays
// in its region: zeroaware.go). The root's value (catSide.load, at every
// root and idaParallel subtree root) is compact.Table.Value's walk to the
// goal. The values are the byte form's exact values, and eval's
// decisions and next bound are those of the exact maximum in both forms,
// so the search generates the same nodes.
//
// Memory per 6-tile table of the 24-puzzle: 22.6 MB instead of the
// zero-aware table's 181 MB and the placement table's 127.5 MB.

// compactFor packs t (a zero-aware table) once per table, or returns the
// table given in Options.Packed for it. It records the error of a table
// that cannot be packed (compact.Pack) and returns nil for it: the caller
// keeps the byte form.
func (s *Solver) compactFor(built map[*format.Table]*compact.Table, t *format.Table) *compact.Table {
	if c, ok := built[t]; ok {
		return c
	}
	c := s.opt.Packed[t]
	if c == nil {
		var err error
		if c, err = compact.Pack(t, compact.Options{}); err != nil {
			s.compactErrs = append(s.compactErrs, fmt.Errorf("solver: %s kept at a byte per entry: %w", t.Pattern, err))
			c = nil
		}
	}
	built[t] = c
	if c != nil {
		s.compactBytes += c.Bytes()
		s.released = s.released || t.Values == nil
	}
	return c
}

// CompactBytes is the memory of the zero-aware tables held at one bit
// per entry (Options.ZeroAwareBits): their bits, without the region maps
// (C(N,k)·(N+4) bytes per table, which the byte form has too).
func (s *Solver) CompactBytes() uint64 { return s.compactBytes }

// CompactErrors lists the zero-aware tables Options.ZeroAwareBits asked
// for at one bit per entry that are kept at a byte instead, with why
// (compact.ErrNotCompactable: the table is not consistent or not
// parity-fixed).
func (s *Solver) CompactErrors() []error { return s.compactErrs }

// compactValue is the exact value of a compact part at load: the walk of
// compact.Table.Value. It fails only for a table that passed compact's
// checks yet is not consistent (a walk of 255 steps); the search cannot
// go on with a wrong value, so that is a panic naming the table.
func compactValue(c *compact.Table, cells []uint8, blank uint8) uint8 {
	h, err := c.Value(cells, blank)
	if err != nil {
		panic(fmt.Sprintf("solver: the 1-bit form of %s is inconsistent (restart with --zero-aware-bytes): %v", c.Pattern(), err))
	}
	return h
}
