package format

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
)

func FuzzDecode(f *testing.F) {
	seeds := []*Table{
		mkTable(f, pdbtest.Pattern(f, 2, 2, "blank-last"), 0, 1),
		mkTable(f, pdbtest.Pattern(f, 3, 2, "blank-first", 1, 3), 0, 2),
		mkTable(f, pdbtest.Pattern(f, 3, 3, "blank-last", 1, 2, 3, 4), 1024, 3),
	}
	for _, tb := range seeds {
		for _, major := range []uint16{MajorVersion1, MajorVersion} {
			tb.Header.Major = major
			file := encode(f, tb, 1)
			f.Add(file)
			f.Add(file[:len(file)-3])
			f.Add(withHeader(f, file, func(h *Header) { h.Histogram[0]++ }))
		}
	}
	f.Add([]byte(magic + "\x01\x00\x00\x00\x00\x00"))
	f.Add([]byte(magic + "\x02\x00\x00\x00\x00\x00"))
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
// valid header checksum (and, for a format 2 header, a matching
// payload_sha256), so that mutations reach the checks behind it.
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
		b := fixPayloadSHA(rebuild(js, payload))
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

// FuzzFormat2Codes fuzzes the stored (decompressed) bytes of a format 2
// frame and the encoding: the file around them is valid (frame sizes,
// payload_sha256), so every mutation reaches the decoding of the codes.
func FuzzFormat2Codes(f *testing.F) {
	p := pdbtest.Pattern(f, 3, 3, "blank-last", 1, 2, 3)
	tb := mkTable(f, p, 0, 1)
	file := encode(f, tb, 1)
	h, err := ReadHeader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		f.Fatal(err)
	}
	m := newManhattan(p)
	man := make([]uint8, p.Size())
	stored := make([]uint8, encodedLen(EncodingHalf4, p.Size()))
	var scratch []uint8
	if err := encodeCodes(m, EncodingHalf4, 0, tb.Values, man, stored, &scratch); err != nil {
		f.Fatal(err)
	}
	f.Add(stored, false)
	f.Add(bytes.Repeat([]byte{0xff}, len(stored)), false)
	f.Add(make([]byte, p.Size()), true)
	f.Add(stored[:10], false)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true), zstd.WithSingleSegment(true), zstd.WithEncoderConcurrency(1))
	if err != nil {
		f.Fatal(err)
	}
	defer enc.Close()
	f.Fuzz(func(t *testing.T, stored []byte, eight bool) {
		hh := *h
		hh.Encoding = EncodingHalf4
		if eight {
			hh.Encoding = EncodingHalf8
		}
		frame := enc.EncodeAll(stored, nil)
		hh.Frames = []int64{int64(len(frame))}
		sum := sha256.Sum256(frame)
		hh.PayloadSHA256 = hex.EncodeToString(sum[:])
		js, err := json.Marshal(&hh)
		if err != nil {
			t.Fatal(err)
		}
		b := append(assemble(MajorVersion, 0, js), frame...)
		got, err := Decode(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			if errors.Is(err, ErrChecksum) && !strings.Contains(err.Error(), "raw_sha256") {
				t.Fatalf("checksum error other than raw_sha256: %v", err)
			}
			return
		}
		// Accepted: the stored bytes must be those of the table.
		want := make([]uint8, encodedLen(hh.Encoding, p.Size()))
		if err := encodeCodes(m, hh.Encoding, 0, got.Values, man, want, &scratch); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want, stored) {
			t.Fatalf("accepted stored bytes %x, which encode back to %x", stored, want)
		}
	})
}
