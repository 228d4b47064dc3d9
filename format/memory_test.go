package format

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// hugeDeclaredFile is a small file whose header, checksum and frame layout
// are valid but which declares a 5x5 table of tiles 1..8: 25!/17! =
// 43,609,104,000 entries in 650 frames of 64 MiB, each frame the smallest
// size the layout accepts. Its frames are zeros, not zstd: only a full
// decode would notice.
func hugeDeclaredFile(t testing.TB) ([]byte, uint64) {
	t.Helper()
	const entries = 43_609_104_000
	h := Header{
		Width: 5, Height: 5, GoalName: "blank-last",
		Tiles: []int{1, 2, 3, 4, 5, 6, 7, 8}, Kind: KindAdditive,
		Ranking: "cellset-order", RankingVersion: 1,
		Entries: entries, BitsPerEntry: 8, MaxValue: 0, Histogram: []uint64{entries},
		RawSHA256: string(bytes.Repeat([]byte("0"), 64)), Generator: "hostile",
		FrameSize: MaxFrameSize,
	}
	for i := 1; i < 25; i++ {
		h.Goal = append(h.Goal, i)
	}
	h.Goal = append(h.Goal, 0)
	nf := frameCount(entries, MaxFrameSize)
	var payload int64
	for i := range nf {
		c := int64(minFrameLen(min(entries-i*MaxFrameSize, MaxFrameSize)))
		h.Frames = append(h.Frames, c)
		payload += c
	}
	js, err := json.Marshal(&h)
	if err != nil {
		t.Fatal(err)
	}
	file := append(assemble(MajorVersion, MinorVersion, js), make([]byte, payload)...)
	return file, entries
}

func TestDecodeMemoryHugeDeclared(t *testing.T) {
	if strconv.IntSize == 32 {
		t.Skip("a 32-bit build refuses the 43.6 G-entry pattern itself (puzzle: more than an int can index)")
	}
	file, entries := hugeDeclaredFile(t)
	if len(file) > 2<<20 {
		t.Fatalf("hostile file is %d bytes, want under 2 MiB", len(file))
	}
	var h *Header
	alloc := heapDelta(func() {
		var err error
		h, err = ReadHeader(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			t.Fatalf("ReadHeader: %v", err)
		}
	})
	if alloc > 16<<20 {
		t.Errorf("ReadHeader of a %d-byte file allocated %d bytes", len(file), alloc)
	}
	need := h.DecodeMemory()
	if need < entries || need > entries+uint64(runtime.GOMAXPROCS(0))*(3*MaxFrameSize) {
		t.Errorf("DecodeMemory = %d, want Entries %d plus at most 3 frames of %d per goroutine", need, entries, MaxFrameSize)
	}
}

func TestDecodeMemory(t *testing.T) {
	_, file := baseFile(t) // 3360 entries, 4 frames of 1024
	h, err := ReadHeader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	var largest uint64
	for _, c := range h.Frames {
		largest = max(largest, uint64(c))
	}
	workers := uint64(min(runtime.GOMAXPROCS(0), 4))
	if got, want := h.DecodeMemory(), 3360+workers*(2*1024+largest); got != want {
		t.Errorf("DecodeMemory = %d, want %d", got, want)
	}
	absurd := Header{Entries: math.MaxUint64 - 5, FrameSize: 1 << 30, Frames: []int64{1 << 40, -1}}
	if got := absurd.DecodeMemory(); got != math.MaxUint64 {
		t.Errorf("DecodeMemory of an absurd header = %d, want saturation at MaxUint64", got)
	}
}

// TestInspectHeaderFile: the lenient header read accepts what Inspect
// accepts (a bad header checksum is a finding) and so reveals the size a
// file with a broken header checksum declares; ReadHeader refuses it.
func TestInspectHeaderFile(t *testing.T) {
	if strconv.IntSize == 32 {
		t.Skip("a 32-bit build refuses the 43.6 G-entry pattern itself (puzzle: more than an int can index)")
	}
	file, entries := hugeDeclaredFile(t)
	n := int(binary.LittleEndian.Uint32(file[offHeaderLen:]))
	file[prefixLen+n+3] ^= 0x10 // a byte of the header SHA-256
	path := filepath.Join(t.TempDir(), "huge.pdb")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadHeaderFile(path); !errors.Is(err, ErrChecksum) {
		t.Fatalf("ReadHeaderFile: %v, want a checksum error", err)
	}
	h, findings, err := InspectHeaderFile(path)
	if err != nil || len(findings) != 1 || !errors.Is(findings[0], ErrChecksum) {
		t.Fatalf("InspectHeaderFile: %v, findings %v", err, findings)
	}
	if h.Entries != entries || h.DecodeMemory() < entries {
		t.Errorf("entries %d, DecodeMemory %d; want %d", h.Entries, h.DecodeMemory(), entries)
	}
	if _, _, err := InspectHeaderFile(filepath.Join(t.TempDir(), "missing.pdb")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
