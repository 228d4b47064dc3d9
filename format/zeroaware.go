package format

import (
	"fmt"

	"github.com/tilepdb/tilepdb/puzzle"
)

// Zero-aware tables (SPEC.md section 11) hold one value per state
// (placement of the pattern tiles, region of the blank) in the index
// puzzle.RankingCellsetOrderRegion: k!·S entries instead of k!·C(N,k).
// They are a kind of format 2 (and 1) file with kind "zero-aware" and
// ranking "cellset-order-region"; everything else (frames, encodings,
// checksums) is as for an additive table. The Manhattan distance of an
// entry, for format 2's encoding, is that of its placement.

// NewZeroAwareTable wraps the zero-aware values built for r's pattern
// (builder.BuildZeroAware): values[i] is the value of the state of
// zero-aware index i (len r.Size()). It fills the header like NewTable,
// with kind KindZeroAware, ranking puzzle.RankingCellsetOrderRegion and
// entries r.Size(). values is not copied. It fails when len(values) !=
// r.Size() or a value is puzzle.Unreached.
func NewZeroAwareTable(r *puzzle.Regions, values []uint8, generator string) (*Table, error) {
	if r == nil {
		return nil, fmt.Errorf("tilepdb: NewZeroAwareTable: nil regions")
	}
	p := r.Pattern()
	if uint64(len(values)) != r.Size() {
		return nil, fmt.Errorf("tilepdb: NewZeroAwareTable: %d values for the zero-aware table of %s, want %d", len(values), p, r.Size())
	}
	st := computeStats(values)
	if n := st.counts[puzzle.Unreached]; n != 0 {
		return nil, fmt.Errorf("tilepdb: NewZeroAwareTable: %d entries hold the reserved value 255 (unreached), first at index %d", n, firstIndex(values, puzzle.Unreached))
	}
	h := zeroAwareHeader(r)
	h.MaxValue = st.counts.Max()
	h.Histogram = st.counts.Histogram()
	h.RawSHA256 = st.sha
	h.Generator = generator
	return &Table{Header: h, Pattern: p, Values: values, Regions: r}, nil
}

// zeroAwareHeader is patternHeader for the zero-aware table of r's
// pattern.
func zeroAwareHeader(r *puzzle.Regions) Header {
	h := patternHeader(r.Pattern())
	h.Kind = KindZeroAware
	h.Ranking = puzzle.RankingCellsetOrderRegion
	h.Entries = r.Size()
	return h
}

// ReleaseValues drops t's values, which the caller holds in another form
// (package compact's 1 bit per entry): t stays a complete table for the
// checks of NewSet, NewCatalogue and OpenSet, as a table whose header
// alone was read does, but has no Values to look up.
func (t *Table) ReleaseValues() { t.Values, t.headerOnly = nil, true }

// ZeroAware reports whether t is a zero-aware table.
func (t *Table) ZeroAware() bool { return t.Regions != nil }

// entries is the number of values t must hold.
func (t *Table) entries() uint64 {
	if t.Regions != nil {
		return t.Regions.Size()
	}
	return t.Pattern.Size()
}

// recompute is NewTable or NewZeroAwareTable of t's values.
func (t *Table) recompute() (*Table, error) {
	if t.Regions != nil {
		return NewZeroAwareTable(t.Regions, t.Values, t.Header.Generator)
	}
	return NewTable(t.Pattern, t.Values, t.Header.Generator)
}

// zeroAwareHeader labels the regions of p for a header of kind
// KindZeroAware and returns the header fields they determine. The region
// maps take C(N,k)·(N+4) bytes (C(N,k) < puzzle.MaxRegionCellSets = 2^24,
// checked before they are allocated, so at most 1.1 GiB on 8x8; 4.4 MB for
// 6 tiles of the 24-puzzle); their entry count is checked against
// MaxEntries here, before the table is allocated.
func (d *decoder) zeroAwareHeader(h *Header, p *puzzle.Pattern) (Header, error) {
	r, err := puzzle.NewRegions(p)
	if err != nil {
		return Header{}, badHeader("%v", err)
	}
	if r.Size() > puzzle.MaxEntries {
		return Header{}, badHeader("the zero-aware table of %s has %d entries, more than %d", p, r.Size(), uint64(puzzle.MaxEntries))
	}
	d.regions = r
	return zeroAwareHeader(r), nil
}

// newTableManhattan is newManhattan for a table's entries: for a
// zero-aware table (r not nil), the Manhattan distance of index
// P·S + slot is that of placement P·C(N,k) + M, M the cell set of the
// slot.
func newTableManhattan(p *puzzle.Pattern, r *puzzle.Regions) *manhattan {
	m := newManhattan(p)
	if r != nil {
		m.za = r
		m.slotSet = r.SlotCellSets()
	}
	return m
}

// fillZeroAware is fill for a zero-aware table: dst[i] is the Manhattan
// distance of the state of index lo+i. scratch holds the Manhattan row of
// one order (C(N,k) entries), computed once per order the run touches.
func (m *manhattan) fillZeroAware(lo uint64, dst []uint8, scratch *[]uint8) {
	if scratch == nil {
		scratch = new([]uint8)
	}
	s := m.za.Slots()
	c := m.comb
	if uint64(cap(*scratch)) < c {
		*scratch = make([]uint8, c)
	}
	row := (*scratch)[:c]
	for len(dst) > 0 {
		ord, first := lo/s, lo%s
		n := min(uint64(len(dst)), s-first)
		m.block(ord, row)
		for i, set := range m.slotSet[first : first+n] {
			dst[i] = row[set]
		}
		dst = dst[n:]
		lo += n
	}
}
