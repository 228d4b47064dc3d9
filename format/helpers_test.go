package format

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
)

// testValues is a deterministic stand-in for real distances: small values
// with some structure, never 255.
func testValues(n uint64, seed int) []uint8 {
	v := make([]uint8, n)
	x := uint32(seed*7919 + 1)
	for i := range v {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		v[i] = uint8((i/13)%17 + int(x%4))
	}
	return v
}

// manhattanValues is a deterministic stand-in for real distances that
// format 2 can store: the Manhattan distance of each state plus twice a
// small pseudo-random code (0..maxCode).
func manhattanValues(p *puzzle.Pattern, seed int, maxCode uint8) []uint8 {
	v := make([]uint8, p.Size())
	var scratch []uint8
	newManhattan(p).fill(0, v, &scratch)
	x := uint32(seed*7919 + 1)
	for i := range v {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		v[i] += 2 * uint8((uint32(i/13)+x%4)%uint32(maxCode+1))
	}
	return v
}

// mkTable builds a table of manhattanValues (codes 0..5) for p with the
// given frame size (0 = default).
func mkTable(t testing.TB, p *puzzle.Pattern, frameSize, seed int) *Table {
	t.Helper()
	tb, err := NewTable(p, manhattanValues(p, seed, 5), "tilepdb test")
	if err != nil {
		t.Fatal(err)
	}
	if frameSize != 0 {
		tb.Header.FrameSize = frameSize
	}
	return tb
}

func encode(t testing.TB, tb *Table, workers int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := tb.Encode(&buf, workers); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// split returns the JSON header and the payload of a well-formed file.
func split(t testing.TB, file []byte) (js, payload []byte) {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(file[offHeaderLen:]))
	return file[prefixLen : prefixLen+n], file[prefixLen+n+checksumLen:]
}

// rebuild re-assembles a format 2.0 file with a valid header checksum.
func rebuild(js, payload []byte) []byte {
	return append(assemble(MajorVersion, MinorVersion, js), payload...)
}

// rebuildLike re-assembles a file with the version of file and a valid
// header checksum.
func rebuildLike(file, js, payload []byte) []byte {
	major := binary.LittleEndian.Uint16(file[offMajor:])
	minor := binary.LittleEndian.Uint16(file[offMinor:])
	return append(assemble(major, minor, js), payload...)
}

// withHeader returns file with its header modified by fn and a valid header
// checksum.
func withHeader(t testing.TB, file []byte, fn func(h *Header)) []byte {
	t.Helper()
	js, payload := split(t, file)
	var h Header
	if err := json.Unmarshal(js, &h); err != nil {
		t.Fatal(err)
	}
	fn(&h)
	js2, err := json.Marshal(&h)
	if err != nil {
		t.Fatal(err)
	}
	return rebuildLike(file, js2, payload)
}

// withRawHeader replaces the JSON header by js, with a valid checksum.
func withRawHeader(t testing.TB, file []byte, js string) []byte {
	t.Helper()
	_, payload := split(t, file)
	return rebuildLike(file, []byte(js), payload)
}

// heapDelta runs fn and returns the bytes it allocated on the heap.
func heapDelta(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}
