package main

import (
	"fmt"
	"runtime/debug"

	"github.com/tilepdb/tilepdb/compact"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
)

// zeroAwareBitsHelp is the help of solve's --zero-aware-bytes.
const zeroAwareBitsHelp = "IDA* with a catalogue of several partitions: keep its zero-aware tables at a byte per entry (plus a placement table) instead of 1 bit per entry (the default: the same nodes and moves in a seventh of the memory)"

// catalogueFiles reports whether files (the command's plan of them,
// planFor) name a catalogue of several partitions (a set file of
// format.CatalogueVersion), whose zero-aware tables IDA* holds at one bit
// per entry (solver.Options.ZeroAwareBits). A file that cannot be read
// counts as none: the load reports it.
func catalogueFiles(e *env, files []string) bool {
	plan := e.planFor(files)
	for i := range files {
		if _, sf, err := plan.File(i); err == nil && sf != nil && sf.Version == format.CatalogueVersion && len(sf.Partitions) > 1 {
			return true
		}
	}
	return false
}

// openTablesHeld is openTables holding the large plain tables as codes
// (heldAsCodes: format.ReadCodesFile, never in bytes) and, with bits,
// packing each zero-aware table at one bit per entry (package compact) as
// soon as it is read, its bytes released (format.Table.ReleaseValues) and
// their buffer reused for the next table (format.ReadFileInto), so that the
// load never holds more than one table in bytes and pays the page faults
// of one buffer only. The packed tables are added to packed, for
// solver.Options.Packed. A table that fails compact's check keeps its
// bytes, with a line on stderr saying why.
func openTablesHeld(e *env, files []string, packed map[*format.Table]*compact.Table, bits bool) (*format.Set, error) {
	stderr := e.stderr
	plan := e.planFor(files)
	var buf []uint8 // the decode buffer of the last table packed, for the next (format.ReadFileInto)
	read := func(path string) (*format.Table, error) {
		if heldAsCodes(plan.TableHeader(path)) {
			return format.ReadCodesFile(path)
		}
		t, err := format.ReadFileInto(path, buf)
		buf = nil // t owns it now
		if err != nil || !bits || !t.ZeroAware() {
			return t, err
		}
		c, err := compact.Pack(t, compact.Options{})
		if err != nil {
			fmt.Fprintf(stderr, "pdbgen solve: %s: %v; that table is kept at a byte per entry\n", path, err)
			return t, nil
		}
		packed[t] = c
		buf = t.Values // free again: the table is held packed
		t.ReleaseValues()
		debug.FreeOSMemory() // the garbage of this read, before the heap grows past it
		return t, nil
	}
	return untilDone(e.context(), func() (*format.Set, error) {
		set, err := plan.OpenWith(read)
		buf = nil
		debug.FreeOSMemory() // the last decode buffer
		return set, err
	})
}

// packedLoadMemoryNeed is loadMemoryNeed for openTablesPacked: each
// zero-aware table counts its bits and records (compact.Memory) and region maps
// (C(N,k)·(N+4) bytes), plus, once, the largest decode memory of a
// zero-aware table less its region maps: while a table is packed its bytes
// and its bits are both held (the region maps are shared). Other tables
// count their decode memory. It exceeds loadMemoryNeed by at most one
// table's bits, and is far below it when the set has several large
// zero-aware tables. (Before this counted the
// bytes and bits of the table being packed once, not both: the 24-7tile set
// was planned at 6.7 GiB and peaked at 7.19 GiB, short by about the 0.48
// GiB of a 7-tile table's bits.)
func packedLoadMemoryNeed(e *env, files []string) uint64 {
	need := uint64(runtimeBase)
	var excess uint64
	for _, h := range e.planFor(files).Headers() {
		dec := heldMemory(h)
		if h.Kind != format.KindZeroAware {
			need = sysmem.SatAdd(need, dec)
			continue
		}
		n := h.Width * h.Height
		regions := sysmem.SatMul(puzzle.Binomial(n, len(h.Tiles)), uint64(n+4))
		held := min(dec, sysmem.SatAdd(compact.Memory(n, len(h.Tiles), h.Entries), regions))
		need = sysmem.SatAdd(need, held)
		excess = max(excess, dec-min(dec, regions))
	}
	return sysmem.SatAdd(need, excess)
}
