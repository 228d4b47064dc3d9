package format

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tilepdb/tilepdb/puzzle"
)

// TestReadFileInto: a table read into a reused buffer (larger, holding
// another table's bytes or garbage) is the table ReadFile reads, values,
// regions and header alike, and lives in that buffer; a buffer too small
// is left alone. A corrupt file is refused as by ReadFile.
func TestReadFileInto(t *testing.T) {
	g := puzzle.Geometry{W: 3, H: 3}
	dir := t.TempDir()
	write := func(name string, tb *Table) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, encode(t, tb, 2), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	pattern := func(tiles ...uint8) *puzzle.Pattern {
		p, err := puzzle.NewPattern(g, puzzle.BlankLastGoal(g), tiles)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := write("big.pdb", builtZeroAware(t, pattern(1, 2, 3, 4)))
	small := write("small.pdb", builtZeroAware(t, pattern(5, 6, 7)))
	plain := write("plain.pdb", mkTable(t, pattern(1, 2), 0, 3))
	bigT, err := ReadFile(big)
	if err != nil {
		t.Fatal(err)
	}
	buf := bigT.Values
	for _, path := range []string{small, plain, big} {
		want, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i := range buf {
			buf[i] = uint8(i*7 + 3) // garbage where the table goes
		}
		got, err := ReadFileInto(path, buf)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !slices.Equal(got.Values, want.Values) || got.Header.RawSHA256 != want.Header.RawSHA256 || (got.Regions == nil) != (want.Regions == nil) {
			t.Errorf("%s: ReadFileInto differs from ReadFile", path)
		}
		if &got.Values[0] != &buf[0] {
			t.Errorf("%s: the values are not in the buffer given", path)
		}
	}
	tiny := make([]uint8, 1)
	got, err := ReadFileInto(big, tiny)
	if err != nil || !slices.Equal(got.Values, bigT.Values) || tiny[0] != 0 {
		t.Errorf("a buffer too small: %v, values equal %v, buffer %v", err, err == nil && slices.Equal(got.Values, bigT.Values), tiny)
	}
	file, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.pdb")
	if err := os.WriteFile(bad, bytes.Replace(file, file[len(file)-8:], []byte("garbage!"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFileInto(bad, buf); err == nil {
		t.Error("a corrupt file read into a buffer: no error")
	}
}
