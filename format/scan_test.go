package format

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
)

// TestScanFile: ScanFile hands over every frame's values in order, equal
// to ReadFile's table, for both format versions and worker counts; every
// single-byte change of the payload (and a truncation) is bad data.
func TestScanFile(t *testing.T) {
	p := pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3, 4)
	dir := t.TempDir()
	for _, major := range []uint16{MajorVersion1, MajorVersion} {
		tb := mkTable(t, p, 4096, int(major))
		tb.Header.Major = major
		file := encode(t, tb, 2)
		path := filepath.Join(dir, "t.pdb")
		if err := os.WriteFile(path, file, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 3} {
			var got []uint8
			h, q, err := ScanFile(path, workers, nil, func(lo uint64, vals []uint8) error {
				if lo != uint64(len(got)) {
					t.Fatalf("frame at %d, want %d", lo, len(got))
				}
				got = append(got, vals...)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tb.Values) || h.RawSHA256 != tb.Header.RawSHA256 || q.String() != p.String() {
				t.Fatalf("format %d, %d workers: values or header differ", major, workers)
			}
		}
		js, payload := split(t, file)
		for _, i := range []int{0, 5, len(payload) / 2, len(payload) - 1} {
			bad := bytes.Clone(payload)
			bad[i] ^= 0x10
			if err := os.WriteFile(path, rebuild(js, bad), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, _, err := ScanFile(path, 2, nil, func(uint64, []uint8) error { return nil }); !IsBadData(err) {
				t.Errorf("format %d, payload byte %d flipped: %v", major, i, err)
			}
		}
		if err := os.WriteFile(path, file[:len(file)-3], 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := ScanFile(path, 2, nil, func(uint64, []uint8) error { return nil }); !IsBadData(err) {
			t.Errorf("truncated: %v", err)
		}
	}
}
