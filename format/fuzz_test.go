package format

import (
	"bytes"
	"testing"

	"github.com/tilepdb/tilepdb/internal/pdbtest"
)

func FuzzDecode(f *testing.F) {
	seeds := []*Table{
		mkTable(f, pdbtest.Pattern(f, 2, 2, "blank-last"), 0, 1),
		mkTable(f, pdbtest.Pattern(f, 3, 2, "blank-first", 1, 3), 0, 2),
		mkTable(f, pdbtest.Pattern(f, 3, 3, "blank-last", 1, 2, 3, 4), 1024, 3),
	}
	for _, tb := range seeds {
		file := encode(f, tb, 1)
		f.Add(file)
		f.Add(file[:len(file)-3])
		f.Add(withHeader(f, file, func(h *Header) { h.Histogram[0]++ }))
	}
	f.Add([]byte(magic + "\x01\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := bytes.NewReader(b)
		tb, err := Decode(r, int64(len(b)))
		if err == nil {
			if uint64(len(tb.Values)) != tb.Header.Entries || tb.Pattern.Size() != tb.Header.Entries {
				t.Fatalf("inconsistent table: %d values, header %d", len(tb.Values), tb.Header.Entries)
			}
			// A valid file re-encodes to a valid file with the same content.
			var buf bytes.Buffer
			if err := tb.Encode(&buf, 2); err != nil {
				t.Fatalf("re-encode: %v", err)
			}
			tb2, err := Decode(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			if err != nil || !bytes.Equal(tb2.Values, tb.Values) {
				t.Fatalf("re-decode: %v", err)
			}
		}
		h, herr := ReadHeader(r, int64(len(b)))
		if (herr == nil) != (h != nil) {
			t.Fatal("ReadHeader result and error disagree")
		}
		it, findings, ierr := inspect(r, int64(len(b)))
		if ierr == nil && it == nil {
			t.Fatal("inspect returned neither table nor error")
		}
		if err == nil && (ierr != nil || len(findings) != 0) {
			t.Fatalf("Decode accepts, inspect says %v %v", findings, ierr)
		}
		if err != nil && ierr == nil && len(findings) == 0 {
			t.Fatalf("Decode rejects (%v), inspect finds nothing", err)
		}
	})
}

// FuzzDecodeParts fuzzes the JSON header and the payload separately, with a
// valid header checksum, so that mutations reach the checks behind it.
func FuzzDecodeParts(f *testing.F) {
	for i, p := range []struct {
		w, h  int
		tiles []uint8
		fs    int
	}{{2, 2, nil, 0}, {3, 3, []uint8{2, 5}, 0}, {3, 3, []uint8{1, 2, 3, 4}, 1024}} {
		file := encode(f, mkTable(f, pdbtest.Pattern(f, p.w, p.h, "blank-last", p.tiles...), p.fs, i), 1)
		js, payload := split(f, file)
		f.Add(js, payload)
	}
	f.Fuzz(func(t *testing.T, js, payload []byte) {
		if len(js) > MaxHeaderLen {
			return
		}
		b := rebuild(js, payload)
		tb, err := Decode(bytes.NewReader(b), int64(len(b)))
		if err == nil && uint64(len(tb.Values)) != tb.Pattern.Size() {
			t.Fatal("inconsistent table")
		}
		_, findings, ierr := inspect(bytes.NewReader(b), int64(len(b)))
		if (err == nil) != (ierr == nil && len(findings) == 0) {
			t.Fatalf("Decode: %v; inspect: %v %v", err, findings, ierr)
		}
	})
}
