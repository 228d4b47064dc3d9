package format

import (
	"os"
	"runtime"

	"github.com/tilepdb/tilepdb/internal/sysmem"
	"github.com/tilepdb/tilepdb/puzzle"
)

// DecodeMemory estimates the bytes of memory that decoding the table this
// header describes allocates (Decode, ReadFile, Inspect; OpenSet decodes its
// tables one after another and keeps them all): the table itself, Entries
// bytes, plus for each decoding goroutine (min(GOMAXPROCS, frames) of them)
// its compressed frame and the zstd decoder's window and buffers, counted
// as twice the raw frame size (FrameSize, or Entries when smaller) plus the
// largest frame; for a zero-aware table (SPEC.md section 11) also its
// region maps, C(N,k)·(N+4)+4 bytes (puzzle.Regions). It does not count the Go
// runtime itself (about 8 MiB).
//
// It uses header fields only, so a caller can read the header (ReadHeader,
// ReadHeaderFile: cheap, and they verify that the frames add up to the file
// size) and refuse a file that declares a table larger than the memory it
// has, before anything large is allocated: the format allows a 1.4 MB file
// to declare a 5x5 table of 8 tiles, 43.6 G entries. Measured on a
// 127,512,000-entry table (24-puzzle, 6 tiles, 122 frames of 1 MiB, two
// goroutines): about 126 MiB estimated, 135 MiB peak resident set of the
// whole process (pdbgen lookup). The result saturates at math.MaxUint64 instead of overflowing.
func (h *Header) DecodeMemory() uint64 {
	var largest uint64
	for _, c := range h.Frames {
		largest = max(largest, uint64(max(c, 0)))
	}
	workers := uint64(max(1, min(runtime.GOMAXPROCS(0), len(h.Frames))))
	window := min(uint64(max(h.FrameSize, 0)), h.Entries) // no frame holds more than the table
	perWorker := sysmem.SatAdd(sysmem.SatMul(2, window), largest)
	need := sysmem.SatAdd(h.Entries, sysmem.SatMul(workers, perWorker))
	if n := h.Width * h.Height; h.Kind.PerRegion() && n > 0 && len(h.Tiles) <= n {
		comb := puzzle.Binomial(n, len(h.Tiles))
		need = sysmem.SatAdd(need, sysmem.SatAdd(sysmem.SatMul(comb, uint64(n+4)), 4))
	}
	return need
}

// InspectHeaderFile is the header part of Inspect: it reads and checks the
// file's header as leniently as Inspect does (a header checksum mismatch,
// an inconsistent goal_name, max_value or histogram are findings, not
// errors) and returns it, without reading the payload. A verifier uses it
// to learn what Inspect would allocate (Header.DecodeMemory) before calling
// it: Inspect goes on past a bad header checksum, so a strict ReadHeader
// failing says nothing about the size. err as for Inspect.
func InspectHeaderFile(path string) (h *Header, findings []error, err error) {
	err = withFile(path, func(f *os.File, size int64) error {
		d := &decoder{r: f, size: size, strict: false}
		var herr error
		h, _, _, herr = d.header()
		findings = d.findings
		return herr
	})
	if err != nil {
		h = nil
	}
	return h, findings, err
}
