package format

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"github.com/tilepdb/tilepdb/puzzle"
)

func TestRoundTrip(t *testing.T) {
	cases := []struct {
		name      string
		p         *puzzle.Pattern
		frameSize int
		wantFr    int
	}{
		{"2x2 exact, smaller than a frame", pdbtest.Pattern(t, 2, 2, "blank-last"), 0, 1},
		{"3x2 custom goal", pdbtest.Pattern(t, 3, 2, "2 0 1 3 5 4", 2, 4), MinFrameSize, 1},
		{"4x4 3 tiles, partial last frame", pdbtest.Pattern(t, 4, 4, "blank-last", 1, 2, 3), 1024, 4},
		{"4x4 3 tiles, exact multiple", pdbtest.Pattern(t, 4, 4, "blank-first", 5, 9, 13), 1120, 3},
		{"3x3 exact, many frames", pdbtest.Pattern(t, 3, 3, "blank-last"), 4096, 45},
		{"5x5 2 tiles default frame", pdbtest.Pattern(t, 5, 5, "blank-last", 24, 3), 0, 1},
		{"6x6 3 tiles, 42840 entries", pdbtest.Pattern(t, 6, 6, "blank-last", 1, 2, 3), 16384, 3},
		{"7x7 2 tiles", pdbtest.Pattern(t, 7, 7, "blank-first", 48, 1), 1024, 3},
		{"8x8 2 tiles", pdbtest.Pattern(t, 8, 8, "blank-last", 63, 62), 0, 1},
	}
	for _, major := range []uint16{MajorVersion1, MajorVersion} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("v%d/%s", major, c.name), func(t *testing.T) {
				testRoundTrip(t, major, c.p, c.frameSize, c.wantFr)
			})
		}
	}
}

func testRoundTrip(t *testing.T, major uint16, p *puzzle.Pattern, frameSize, wantFr int) {
	tb := mkTable(t, p, frameSize, 1)
	tb.Header.Major = major
	file := encode(t, tb, 3)
	if got := len(tb.Header.Frames); got != wantFr {
		t.Errorf("%d frames, want %d", got, wantFr)
	}
	for _, w := range []int{0, 1, 2, 4, 8} {
		if other := encode(t, tb, w); !bytes.Equal(other, file) {
			t.Fatalf("workers=%d: output differs from workers=3", w)
		}
	}
	got, err := Decode(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Header, tb.Header) {
		t.Errorf("header:\n got %+v\nwant %+v", got.Header, tb.Header)
	}
	if !bytes.Equal(got.Values, tb.Values) {
		t.Error("values differ")
	}
	if got.Pattern.String() != p.String() || got.Pattern.Size() != p.Size() || !got.Pattern.Goal.Equal(p.Goal) {
		t.Errorf("pattern %s, want %s", got.Pattern, p)
	}
	h, err := ReadHeader(bytes.NewReader(file), int64(len(file)))
	if err != nil || !reflect.DeepEqual(*h, tb.Header) {
		t.Errorf("ReadHeader = %+v, %v", h, err)
	}
	tt, findings, err := inspect(bytes.NewReader(file), int64(len(file)))
	if err != nil || len(findings) != 0 || !bytes.Equal(tt.Values, tb.Values) {
		t.Errorf("inspect: %v %v", findings, err)
	}
	// The payload is one valid zstd stream.
	_, payload := split(t, file)
	dec, err := zstd.NewReader(bytes.NewReader(payload))
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	raw, err := io.ReadAll(dec)
	want := tb.Values
	if major == MajorVersion {
		// The stream is the codes (value - Manhattan)/2, two per
		// byte, computed here by unranking every entry.
		if tb.Header.Encoding != EncodingHalf4 {
			t.Fatalf("encoding %q", tb.Header.Encoding)
		}
		want = refEncode4(p, tb.Values, tb.Header.FrameSize)
	}
	if err != nil || !bytes.Equal(raw, want) {
		t.Errorf("payload as one zstd stream: %d bytes, want %d, err %v", len(raw), len(want), err)
	}
}

// refEncode4 is EncodingHalf4 from the definition: per frame of fs
// entries, code(r) = (value - Manhattan)/2, entry 2j in the low nibble of
// byte j, a zero high nibble after an odd last entry.
func refEncode4(p *puzzle.Pattern, values []uint8, fs int) []byte {
	var out []byte
	for lo := 0; lo < len(values); lo += fs {
		hi := min(lo+fs, len(values))
		for r := lo; r < hi; r += 2 {
			b := (values[r] - refManhattan(p, uint64(r))) / 2
			if r+1 < hi {
				b |= (values[r+1] - refManhattan(p, uint64(r+1))) / 2 << 4
			}
			out = append(out, b)
		}
	}
	return out
}

func TestNewTable(t *testing.T) {
	p := pdbtest.Pattern(t, 3, 3, "blank-first", 1, 2)
	vals := make([]uint8, p.Size())
	for i := range vals {
		vals[i] = uint8(i % 5)
	}
	vals[7] = 9
	tb, err := NewTable(p, vals, "gen")
	if err != nil {
		t.Fatal(err)
	}
	h := tb.Header
	if h.Width != 3 || h.Height != 3 || h.GoalName != "blank-first" || h.Kind != KindAdditive ||
		h.Ranking != puzzle.RankingCellsetOrder || h.RankingVersion != puzzle.RankingVersion ||
		h.Entries != 72 || h.BitsPerEntry != 8 || h.MaxValue != 9 || h.Generator != "gen" ||
		h.FrameSize != 0 || len(h.Histogram) != 10 || h.Histogram[9] != 1 ||
		!reflect.DeepEqual(h.Tiles, []int{1, 2}) || !reflect.DeepEqual(h.Goal, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}) ||
		len(h.RawSHA256) != 64 {
		t.Errorf("header %+v", h)
	}
	ex, err := NewTable(pdbtest.Pattern(t, 2, 2, "1 3 2 0"), make([]uint8, 12), "")
	if err != nil {
		t.Fatal(err)
	}
	if ex.Header.Kind != KindExact || ex.Header.Ranking != puzzle.RankingLehmerHalf || ex.Header.GoalName != GoalCustom {
		t.Errorf("exact header %+v", ex.Header)
	}
	if _, err := NewTable(p, vals[:71], ""); err == nil {
		t.Error("short values accepted")
	}
	vals[3] = puzzle.Unreached
	if _, err := NewTable(p, vals, ""); err == nil || !strings.Contains(err.Error(), "255") {
		t.Errorf("value 255: err %v", err)
	}
}

func TestValue(t *testing.T) {
	p := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2, 3)
	tb := mkTable(t, p, 0, 3)
	goal := p.Goal.Positions()
	if got, want := tb.Value(goal), tb.Values[p.Rank(goal)]; got != want {
		t.Errorf("Value(goal) = %d, want %d", got, want)
	}
	cells := make([]uint8, p.CellsLen())
	for r := uint64(0); r < p.Size(); r += 7 {
		p.Unrank(r, cells)
		pos := make([]uint8, 9)
		for i, tile := range p.Tiles {
			pos[tile] = cells[i]
		}
		if tb.Value(pos) != tb.Values[r] {
			t.Fatalf("rank %d: Value %d, want %d", r, tb.Value(pos), tb.Values[r])
		}
	}
}

func TestEncodeRejectsInconsistentTable(t *testing.T) {
	p := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2, 3)
	for name, spoil := range map[string]func(tb *Table){
		"value changed":  func(tb *Table) { tb.Values[5]++ },
		"value 255":      func(tb *Table) { tb.Values[5] = 255 },
		"short values":   func(tb *Table) { tb.Values = tb.Values[:10] },
		"no pattern":     func(tb *Table) { tb.Pattern = nil },
		"kind":           func(tb *Table) { tb.Header.Kind = KindExact },
		"goal":           func(tb *Table) { tb.Header.Goal[0] = 2 },
		"frame size":     func(tb *Table) { tb.Header.FrameSize = 100 },
		"huge frame":     func(tb *Table) { tb.Header.FrameSize = MaxFrameSize + 1 },
		"histogram":      func(tb *Table) { tb.Header.Histogram[0]++ },
		"ranking vers.":  func(tb *Table) { tb.Header.RankingVersion = 9 },
		"bits per entry": func(tb *Table) { tb.Header.BitsPerEntry = 4 },
	} {
		tb := mkTable(t, p, 0, 1)
		spoil(tb)
		var buf bytes.Buffer
		if err := tb.Encode(&buf, 2); err == nil {
			t.Errorf("%s: Encode succeeded", name)
		} else if buf.Len() != 0 {
			t.Errorf("%s: %d bytes written despite error %v", name, buf.Len(), err)
		}
	}
}

func TestNewerMinorAndUnknownKeys(t *testing.T) {
	p := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2, 3)
	tb := mkTable(t, p, 1024, 1)
	file := encode(t, tb, 1)
	js, payload := split(t, file)
	js2 := append([]byte(`{"future_key":{"a":[1,2]},`), js[1:]...)
	f2 := append(assemble(MajorVersion, MinorVersion+3, js2), payload...)
	got, err := Decode(bytes.NewReader(f2), int64(len(f2)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Values, tb.Values) {
		t.Error("values differ")
	}
}

// BenchmarkCodec encodes and decodes a 4x4 6-tile table (5,765,760 entries).
func BenchmarkCodec(b *testing.B) {
	p := pdbtest.Pattern(b, 4, 4, "blank-last", 1, 2, 3, 4, 5, 6)
	tb := mkTable(b, p, 0, 1)
	file := encode(b, tb, 4)
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(int64(len(tb.Values)))
		for b.Loop() {
			if err := tb.Encode(io.Discard, 4); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(tb.Values)))
		for b.Loop() {
			if _, err := Decode(bytes.NewReader(file), int64(len(file))); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestEncodeFormat2Rules: format 2 refuses values below their Manhattan
// distance or of the other parity (naming the first such rank) while 1.0
// takes them, and switches to 8-bit codes when a code exceeds 15.
func TestEncodeFormat2Rules(t *testing.T) {
	p := pdbtest.Pattern(t, 4, 3, "blank-last", 1, 2, 3)
	good := manhattanValues(p, 3, 5)
	for name, c := range map[string]struct {
		rank  int
		delta int
	}{"odd": {700, 1}, "below": {901, -2}} {
		vals := slices.Clone(good)
		// Make sure the change breaks the rule at c.rank (a value below
		// the Manhattan distance needs one above 1 to go below).
		vals[c.rank] = uint8(int(refManhattan(p, uint64(c.rank))) + c.delta)
		if c.delta < 0 && refManhattan(p, uint64(c.rank)) < 2 {
			t.Fatalf("rank %d has Manhattan %d", c.rank, refManhattan(p, uint64(c.rank)))
		}
		tb, err := NewTable(p, vals, "test")
		if err != nil {
			t.Fatal(err)
		}
		err = tb.Encode(io.Discard, 2)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("rank %d ", c.rank)) || !strings.Contains(err.Error(), "format 1") {
			t.Errorf("%s: Encode error %v", name, err)
		}
		tb.Header.Major = MajorVersion1
		if err := tb.Encode(io.Discard, 2); err != nil {
			t.Errorf("%s: format 1.0: %v", name, err)
		}
	}
	wide := slices.Clone(good)
	wide[1234] += 2 * 16 // code >= 16
	tb, err := NewTable(p, wide, "test")
	if err != nil {
		t.Fatal(err)
	}
	tb.Header.FrameSize = 1024
	file := encode(t, tb, 3)
	got, err := Decode(bytes.NewReader(file), int64(len(file)))
	if err != nil || got.Header.Encoding != EncodingHalf8 || !bytes.Equal(got.Values, wide) {
		t.Fatalf("wide codes: %v, encoding %q", err, tb.Header.Encoding)
	}
	if other := encode(t, tb, 1); !bytes.Equal(other, file) {
		t.Error("8-bit output depends on the worker count")
	}
}
