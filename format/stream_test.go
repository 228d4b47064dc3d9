package format

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

// sliceSource is a ValueSource over values that checks the call order
// EncodeStream promises (from 0, each call where the last stopped).
func sliceSource(t *testing.T, values []uint8) ValueSource {
	next := uint64(0)
	return func(lo uint64, dst []uint8) error {
		if lo != next && lo != 0 {
			t.Errorf("source read at %d, want %d or 0", lo, next)
		}
		copy(dst, values[lo:])
		next = lo + uint64(len(dst))
		return nil
	}
}

// TestEncodeStreamMatchesEncode: the streamed file is byte-identical to
// Table.Encode's for both format versions, several frame sizes (one
// frame, many, a short last one), worker counts, and a table whose codes
// need the 8-bit encoding (the second pass).
func TestEncodeStreamMatchesEncode(t *testing.T) {
	p3 := pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3, 4)
	p8 := pdbtest.Pattern(t, 3, 3, "blank-last")
	cases := []struct {
		name    string
		p       *puzzle.Pattern
		values  []uint8
		major   uint16
		frame   int
		workers int
	}{
		{"format 2, many frames", p3, manhattanValues(p3, 1, 5), MajorVersion, MinFrameSize, 3},
		{"format 2, short last frame", p3, manhattanValues(p3, 2, 7), MajorVersion, 10000, 2},
		{"format 2, default frames", p3, manhattanValues(p3, 3, 5), 0, 0, 1},
		{"format 2, 8-bit codes", p3, manhattanValues(p3, 4, 40), MajorVersion, 4096, 2},
		{"format 1", p8, testValues(p8.Size(), 5), MajorVersion1, 5000, 3},
	}
	dir := t.TempDir()
	for _, c := range cases {
		tb, err := NewTable(c.p, c.values, "tilepdb test")
		if err != nil {
			t.Fatal(err)
		}
		tb.Header.Major, tb.Header.FrameSize = c.major, c.frame
		want := encode(t, tb, 2)
		s, err := EncodeStream(c.p, sliceSource(t, c.values), StreamOptions{Major: c.major, FrameSize: c.frame, Workers: c.workers, Generator: "tilepdb test", TempDir: dir})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got bytes.Buffer
		if _, err := s.WriteTo(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: streamed file differs from Encode's (%d and %d bytes)", c.name, got.Len(), len(want))
		}
		path := filepath.Join(dir, "t.pdb")
		if err := s.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, want) {
			t.Errorf("%s: WriteFile differs from Encode's (%v)", c.name, err)
		}
		if err := s.Close(); err != nil {
			t.Error(err)
		}
		if err := s.Close(); err != nil {
			t.Error("second Close:", err)
		}
	}
	// The spools are gone.
	if m, _ := filepath.Glob(filepath.Join(dir, "*.spool")); len(m) > 0 {
		t.Errorf("spools left: %v", m)
	}
}

// TestEncodeStreamErrors: the reserved value, a value below its Manhattan
// distance, and a source error are refused, leaving no spool.
func TestEncodeStreamErrors(t *testing.T) {
	p := pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3)
	dir := t.TempDir()
	bad255 := manhattanValues(p, 1, 3)
	bad255[2000] = puzzle.Unreached
	odd := manhattanValues(p, 1, 3)
	odd[100]++
	srcErr := errors.New("disk gone")
	cases := []struct {
		name string
		src  ValueSource
		want string
	}{
		{"255", sliceSource(t, bad255), "reserved value 255"},
		{"parity", sliceSource(t, odd), "rank 100"},
		{"source", func(uint64, []uint8) error { return srcErr }, "disk gone"},
	}
	for _, c := range cases {
		_, err := EncodeStream(p, c.src, StreamOptions{FrameSize: MinFrameSize, Workers: 2, TempDir: dir})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := EncodeStream(p, nil, StreamOptions{FrameSize: 7}); err == nil {
		t.Error("frame size 7 accepted")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*")); len(m) > 0 {
		t.Errorf("files left: %v", m)
	}
}
