package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/tilepdb/tilepdb/compact"
	"github.com/tilepdb/tilepdb/format"
)

// zeroAwareBitsHelp is the help of solve's --zero-aware-bytes.
const zeroAwareBitsHelp = "IDA* with a catalogue of several partitions: keep its zero-aware tables at a byte per entry (plus a placement table) instead of 1 bit per entry (the default: the same nodes and moves in a seventh of the memory)"

// packZeroAware packs the zero-aware tables of the catalogue set (of
// several partitions) at one bit per entry (package compact), for
// solver.Options.Packed; any other set gives nil. A table that fails
// compact's check is left in bytes, with a line on stderr saying why.
func packZeroAware(stderr io.Writer, set *format.Set) map[*format.Table]*compact.Table {
	if !set.Catalogue() || len(set.Partitions) < 2 {
		return nil
	}
	packed := map[*format.Table]*compact.Table{}
	for _, p := range set.Parts {
		t := p.Table
		if !t.ZeroAware() || packed[t] != nil {
			continue
		}
		c, err := compact.Pack(t, compact.Options{})
		if err != nil {
			fmt.Fprintf(stderr, "pdbgen solve: %v; that table is kept at a byte per entry\n", err)
			continue
		}
		packed[t] = c
	}
	return packed
}

// releasePacked drops the byte values of the tables packed (the Solver
// no longer reads them) and returns their memory to the system.
func releasePacked(packed map[*format.Table]*compact.Table) {
	if len(packed) == 0 {
		return
	}
	for t := range packed {
		t.Values = nil
	}
	debug.FreeOSMemory()
}
