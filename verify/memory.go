package verify

import (
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
)

// MemoryNeed estimates the bytes of memory that File takes to verify a
// table file with header h (as returned by format.ReadHeader, whose checks
// make the fields trustworthy) under opts: loading the table
// (h.DecodeMemory) and, with opts.Deep, Reference's second table:
//
//   - exact table: the distance array and a uint32 queue of every state,
//     5 × Entries, plus the returned copy, Entries: 6 × Entries;
//   - additive table: one byte per abstract state (placement × blank cell,
//     Entries × N) plus the two FIFO queues of 8-byte states, estimated
//     together as 4 × Entries × N: verify --deep of a 5,765,760-entry
//     4x4 table of 6 tiles measured 311 MiB peak resident set for the
//     352 MiB this counts (and the 5.5 MiB table).
//
// The passes of the fast checks allocate little beyond the table, except
// for an additive table the tables of the index walk (sweep.go): at most
// 37 × C(N,k) × k bytes for the moves of every cell set and
// (4+k) × C(N,k) per board symmetry (at most 7): 1.1 MB for a 5-tile
// 15-puzzle table, 52 MB for a 6-tile 24-puzzle one. The result saturates
// at math.MaxUint64.
func MemoryNeed(h *format.Header, opts Options) uint64 {
	need := h.DecodeMemory()
	var ref uint64 // Reference's, with opts.Deep
	switch h.Kind {
	case format.KindExact:
		ref = sysmem.SatMul(6, h.Entries)
	case format.KindAdditive:
		need = sysmem.SatAdd(need, walkBytes(h.Width*h.Height, len(h.Tiles)))
		fallthrough
	default: // additive, zero-aware (and a kind the reader refuses)
		ref = sysmem.SatMul(sysmem.SatMul(4, h.Entries), uint64(max(h.Width*h.Height, 0)))
	}
	if !opts.Deep {
		return need
	}
	return sysmem.SatAdd(need, ref)
}

// walkBytes bounds the memory of the walk's tables for k tiles on a board
// of n cells (0 when the header's numbers are out of range).
func walkBytes(n, k int) uint64 {
	if n < 0 || n > puzzle.MaxCells || k < 0 || k > n {
		return 0
	}
	return cellSetsBytes(n, k) + 7*symmetryImageBytes(n, k)
}
