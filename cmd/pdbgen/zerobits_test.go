package main

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/compact"
	"github.com/tilepdb/tilepdb/format"
	"github.com/tilepdb/tilepdb/puzzle"
)

// TestSolveZeroAwareBits: on the kit's catalogue of plain and zero-aware
// tables, solve's default (zero-aware tables at 1 bit) prints exactly what
// --zero-aware-bytes prints (lengths, moves, node counts), with and
// without --reflect, on one and two threads, and nothing on stderr; the
// memory it plans for the load is at most the byte form's (less with
// several zero-aware tables; equal here, with one).
func TestSolveZeroAwareBits(t *testing.T) {
	file := filepath.Join("..", "..", "readers", "testdata", "sets", "good-catalogue-zero-aware.set.json")
	e := &env{}
	if !catalogueFiles(e, []string{file}) {
		t.Fatalf("%s: not seen as a catalogue of several partitions", file)
	}
	geom, _ := puzzle.NewGeometry(4, 4)
	goal := puzzle.BlankLastGoal(geom)
	rng := rand.New(rand.NewPCG(30, 16))
	var in strings.Builder
	for range 6 {
		b := append(puzzle.Board(nil), goal...)
		blank := len(b) - 1
		for range 60 {
			if to, ok := geom.Step(blank, puzzle.Direction(rng.IntN(4))); ok {
				b[blank], b[to] = b[to], 0
				blank = to
			}
		}
		in.WriteString(b.String() + "\n")
	}
	for _, args := range [][]string{{}, {"-t", "2"}, {"--reflect"}, {"--reflect", "-t", "2", "-j", "1"}} {
		bits := pdbgen(t, in.String(), append(append([]string{"solve"}, args...), file)...)
		wantCode(t, bits, 0)
		bytes := pdbgen(t, in.String(), append(append([]string{"solve", "--zero-aware-bytes"}, args...), file)...)
		wantCode(t, bytes, 0)
		if bits.stdout != bytes.stdout || bits.stderr != "" || len(lines(bits.stdout)) != 6 {
			t.Fatalf("solve %v:\n1 bit:\n%v\nbytes:\n%v", args, bits, bytes)
		}
	}
	files := []string{file}
	// At most the bytes of every table plus the bits of the one being
	// packed (while a table is packed, its bytes and its bits are both
	// held), and at least that for each table alone.
	got, full := packedLoadMemoryNeed(e, files), loadMemoryNeed(e, files)
	var bits uint64
	for _, h := range e.planFor(files).Headers() {
		if h.Kind == format.KindZeroAware {
			b := compact.Memory(h.Width*h.Height, len(h.Tiles), h.Entries)
			bits = max(bits, b)
			if both := runtimeBase + h.DecodeMemory() + b; got < both {
				t.Errorf("load memory at 1 bit %d: below the %d of packing %v alone", got, both, h.Tiles)
			}
		}
	}
	if got > full+bits || got <= runtimeBase {
		t.Errorf("load memory: %d bytes at 1 bit, %d in bytes", got, full)
	}
	if catalogueFiles(e, []string{filepath.Join("..", "..", "readers", "testdata", "sets", "good-catalogue-one.set.json")}) {
		t.Error("a catalogue of one partition seen as several")
	}
}
