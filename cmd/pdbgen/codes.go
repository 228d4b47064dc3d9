package main

import (
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
)

// codesMinEntries is the size from which solve holds a plain additive
// table as its format 2 codes, 4 bits per entry (format.ReadCodesFile),
// instead of a byte per entry: 2^30 entries, so the 6-tile tables of the
// 35- and 48-puzzle (1.4 × 10^9 and 1.0 × 10^10 entries) and nothing
// smaller. A lookup then adds the tiles' Manhattan distance (a few adds
// beside the cache miss of a table this large); smaller tables keep
// their bytes and direct indexes.
var codesMinEntries uint64 = 1 << 30 // a variable for the tests

// heldAsCodes reports whether solve holds the table of header h as codes:
// a plain additive table stored in EncodingHalf4 (every code below 16, so
// the codes are exact) with at least codesMinEntries entries. A nil header
// (not read) is not.
func heldAsCodes(h *format.Header) bool {
	return h != nil && h.Kind == format.KindAdditive && h.Encoding == format.EncodingHalf4 && h.Entries >= codesMinEntries
}

// heldMemory is the memory solve's load of the table of header h takes:
// its codes (heldAsCodes) or its decode memory.
func heldMemory(h *format.Header) uint64 {
	if heldAsCodes(h) {
		return h.CodesMemory()
	}
	return h.DecodeMemory()
}

// heldLoadMemoryNeed is loadMemoryNeed for solve's load: the tables held as
// codes count their codes (heldMemory), and with bits the zero-aware
// tables count their 1-bit form (packedLoadMemoryNeed).
func heldLoadMemoryNeed(e *env, files []string, bits bool) uint64 {
	if bits {
		return packedLoadMemoryNeed(e, files)
	}
	need := uint64(runtimeBase)
	for _, h := range e.planFor(files).Headers() {
		need = sysmem.SatAdd(need, heldMemory(h))
	}
	return need
}

// anyHeldAsCodes reports whether solve holds one of the tables of files as
// codes (heldAsCodes).
func anyHeldAsCodes(e *env, files []string) bool {
	for _, h := range e.planFor(files).Headers() {
		if heldAsCodes(h) {
			return true
		}
	}
	return false
}
