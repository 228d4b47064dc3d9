package format

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
)

// TestReadCodesFile checks that the codes ReadCodesFile keeps give back
// every value ReadFile decodes (CodeValue with the pattern's Manhattan
// distance), for real tables and for Manhattan-plus-code tables, with
// frame sizes that cut the table into several frames (the last one odd
// for an odd number of entries) and with one frame.
func TestReadCodesFile(t *testing.T) {
	cases := []struct {
		name      string
		w, h      int
		tiles     []uint8
		frameSize int
		real      bool
	}{
		{"3x3 one tile, 9 entries", 3, 3, []uint8{5}, 0, false},
		{"3x3 tiles 1-3, frames of 1024", 3, 3, []uint8{1, 2, 3}, 1024, true},
		{"4x4 tiles 1-4, default frames", 4, 4, []uint8{1, 2, 3, 4}, 0, true},
		{"4x4 tiles 1-4, codes up to 15, frames of 1026", 4, 4, []uint8{1, 2, 3, 4}, 1026, false},
		{"7x7 one tile, 49 entries", 7, 7, []uint8{30}, 0, false},
	}
	dir := t.TempDir()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := puzzle.Geometry{W: c.w, H: c.h}
			p, err := puzzle.NewPattern(g, puzzle.BlankLastGoal(g), c.tiles)
			if err != nil {
				t.Fatal(err)
			}
			var tb *Table
			if c.real {
				tb = builtTable(t, p)
			} else if tb, err = NewTable(p, manhattanValues(p, i, 15), "codes test"); err != nil {
				t.Fatal(err)
			}
			tb.Header.FrameSize = c.frameSize
			path := filepath.Join(dir, c.name+".pdb")
			if err := os.WriteFile(path, encode(t, tb, 2), 0o644); err != nil {
				t.Fatal(err)
			}
			want, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ReadCodesFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got.Values != nil || uint64(len(got.Codes)) != (p.Size()+1)/2 {
				t.Fatalf("Values %d, Codes %d bytes: want none and %d", len(got.Values), len(got.Codes), (p.Size()+1)/2)
			}
			md := make([]uint8, p.Size())
			var scratch []uint8
			newManhattan(p).fill(0, md, &scratch)
			for r, v := range want.Values {
				if cv := got.CodeValue(uint64(r), md[r]); cv != v {
					t.Fatalf("rank %d: CodeValue %d, ReadFile %d", r, cv, v)
				}
			}
			if got.Header.RawSHA256 != want.Header.RawSHA256 {
				t.Fatal("headers differ")
			}
		})
	}
}

// TestReadCodesFileRefuses checks that ReadCodesFile refuses what it cannot
// hold as codes (format 1, codes above 15) and every corruption ReadFile
// refuses: a flipped payload bit, a flipped header bit.
func TestReadCodesFileRefuses(t *testing.T) {
	g := puzzle.Geometry{W: 4, H: 4}
	p, err := puzzle.NewPattern(g, puzzle.BlankLastGoal(g), []uint8{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	good := mkTable(t, p, 1024, 3)
	wide, err := NewTable(p, manhattanValues(p, 3, 20), "codes test")
	if err != nil {
		t.Fatal(err)
	}
	file := encode(t, good, 1)
	cases := []struct {
		name   string
		file   []byte
		noCode bool
	}{
		{"format 1", encodeAs(t, good, 1, 0), true},
		{"codes above 15 (half8)", encode(t, wide, 1), true},
		{"payload bit flipped", flip(file, len(file)-20, 3), false},
		{"header bit flipped", flip(file, 60, 1), false},
		{"truncated", file[:len(file)-5], false},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			if err := os.WriteFile(path, c.file, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadCodesFile(path)
			if err == nil {
				t.Fatal("accepted")
			}
			if errors.Is(err, ErrNoCodes) != c.noCode {
				t.Fatalf("error %v: ErrNoCodes %v, want %v", err, errors.Is(err, ErrNoCodes), c.noCode)
			}
			if !c.noCode {
				if _, rerr := Decode(bytes.NewReader(c.file), int64(len(c.file))); rerr == nil {
					t.Fatal("ReadFile accepts it: the case is no corruption")
				}
			}
		})
	}
}
