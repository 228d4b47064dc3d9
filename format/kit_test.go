package format

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/tilepdb/tilepdb/internal/pdbtest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/tilepdb/tilepdb/builder"
	"github.com/tilepdb/tilepdb/puzzle"
)

// The conformance kit (testdata/conformance, described in its README.md):
// tiny good and broken table files of both format versions with an index
// of what a reader must give for each. TestConformanceKit runs the Go
// reader on the kit and checks that the kit is what kitFiles generates;
// -update rewrites it.

const kitDir = "testdata/conformance"

// Error classes of the kit (SPEC.md section 3).
const (
	classFormat      = "format"
	classChecksum    = "checksum"
	classUnsupported = "unsupported"
	classVersion     = "unsupported-version"
)

type kitIndex struct {
	Comment      string            `json:"comment"`
	KitVersion   int               `json:"kit_version"`
	ErrorClasses map[string]string `json:"error_classes"`
	Files        []kitFile         `json:"files"`
}

type kitFile struct {
	File        string     `json:"file"`
	Description string     `json:"description"`
	Expect      string     `json:"expect"`          // "ok" or "error"
	Error       string     `json:"error,omitempty"` // error class when Expect is "error"
	Step        int        `json:"step,omitempty"`  // reading step (SPEC.md section 3) that rejects the file
	Table       *kitTable  `json:"table,omitempty"`
	Ranks       []kitRank  `json:"ranks,omitempty"`
	Boards      []kitBoard `json:"boards,omitempty"`
}

type kitTable struct {
	Format    string `json:"format"` // "1.0" or "2.0"
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	Goal      []int  `json:"goal"`
	Tiles     []int  `json:"tiles"`
	Kind      string `json:"kind"`
	Encoding  string `json:"encoding,omitempty"`
	Entries   uint64 `json:"entries"`
	MaxValue  int    `json:"max_value"`
	RawSHA256 string `json:"raw_sha256"`
}

type kitRank struct {
	Rank  uint64 `json:"rank"`
	Value int    `json:"value"`
}

type kitBoard struct {
	Board []int  `json:"board"`
	Rank  uint64 `json:"rank"`
	Value int    `json:"value"`
}

var kitErrorClasses = map[string]string{
	classFormat:      "not a table file, or its structure or content breaks SPEC.md (FormatError in Go)",
	classChecksum:    "a stored checksum differs from the recomputed one: header SHA-256, payload_sha256, zstd content checksum or raw_sha256 (ChecksumError in Go)",
	classUnsupported: "a well-formed file asking for something the reader does not implement: ranking_version, bits_per_entry or encoding (UnsupportedError in Go)",
	classVersion:     "a major version other than 1 and 2 (UnsupportedVersionError in Go)",
}

// kitClass maps a Go reader error to its kit class.
func kitClass(err error) string {
	var ve *UnsupportedVersionError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &ve):
		return classVersion
	case errors.Is(err, ErrChecksum):
		return classChecksum
	case errors.Is(err, errors.ErrUnsupported):
		return classUnsupported
	case errors.Is(err, ErrFormat):
		return classFormat
	}
	return "other: " + err.Error()
}

// kitGood is one good table of the kit.
type kitGood struct {
	name, desc string
	tb         *Table
	file       []byte
}

// builtTable builds the real table of p (breadth-first search).
func builtTable(t *testing.T, p *puzzle.Pattern) *Table {
	t.Helper()
	values, err := builder.Build(context.Background(), p, builder.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := NewTable(p, values, "tilepdb conformance kit")
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func encodeAs(t *testing.T, tb *Table, major uint16, frameSize int) []byte {
	t.Helper()
	c := *tb
	c.Header.Major = major
	c.Header.FrameSize = frameSize
	return encode(t, &c, 1)
}

// storedFrames returns the decompressed frames of a good file.
func storedFrames(t *testing.T, file []byte) [][]byte {
	t.Helper()
	tb, err := Decode(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	_, payload := split(t, file)
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	var out [][]byte
	for _, c := range tb.Header.Frames {
		b, err := dec.DecodeAll(payload[:c], nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
		payload = payload[c:]
	}
	return out
}

// craft assembles a file of version major from header h and the
// decompressed frame contents, compressing each frame like the writer
// (same level; crc says whether the frames carry a content checksum) and filling
// frames and, for format 2, payload_sha256. edit may change the JSON text.
func craft(t *testing.T, major uint16, h Header, stored [][]byte, crc bool, edit func(js string) string) []byte {
	t.Helper()
	level := encoderLevel
	if major == MajorVersion {
		level = encoderLevel2
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(level), zstd.WithEncoderCRC(crc), zstd.WithSingleSegment(true), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	var payload []byte
	h.Frames = nil
	for _, s := range stored {
		f := enc.EncodeAll(s, nil)
		h.Frames = append(h.Frames, int64(len(f)))
		payload = append(payload, f...)
	}
	if major == MajorVersion {
		sum := sha256.Sum256(payload)
		h.PayloadSHA256 = hex.EncodeToString(sum[:])
	}
	js, err := json.Marshal(&h)
	if err != nil {
		t.Fatal(err)
	}
	s := string(js)
	if edit != nil {
		s = edit(s)
	}
	return append(assemble(major, 0, []byte(s)), payload...)
}

// replaceOnce replaces old by new in s, failing the test when old is not
// there exactly once.
func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	if strings.Count(s, old) != 1 {
		t.Fatalf("kit: %q occurs %d times in %s", old, strings.Count(s, old), s)
	}
	return strings.Replace(s, old, new, 1)
}

// kitFiles generates the kit: file contents by name and the index.
func kitFiles(t *testing.T) (map[string][]byte, []byte) {
	t.Helper()
	files := map[string][]byte{}
	var index []kitFile

	// Good tables: real distances from the builder, except the one
	// with 8-bit codes (synthetic values; real tables this small never
	// need codes above 15).
	add3 := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2, 3)
	exact32 := pdbtest.Pattern(t, 3, 2, "blank-last")
	add43 := pdbtest.Pattern(t, 4, 3, "blank-first", 1, 2, 3, 4)
	exact22 := pdbtest.Pattern(t, 2, 2, "1 3 2 0")
	odd := pdbtest.Pattern(t, 3, 3, "blank-last", 5)
	t8 := pdbtest.Pattern(t, 3, 3, "blank-last", 1, 2)
	tbAdd3, tbExact32, tbAdd43, tbExact22, tbOdd := builtTable(t, add3), builtTable(t, exact32), builtTable(t, add43), builtTable(t, exact22), builtTable(t, odd)
	synValues := make([]uint8, t8.Size())
	var scratch []uint8
	newManhattan(t8).fill(0, synValues, &scratch)
	for i := range synValues {
		synValues[i] += 2 * uint8(i*11%41) // codes 0..40
	}
	syn, err := NewTable(t8, synValues, "tilepdb conformance kit")
	if err != nil {
		t.Fatal(err)
	}
	goods := []kitGood{
		{"v1-additive-3x3.pdb", "format 1.0, additive 3x3 tiles 1,2,3 (blank-last), one frame", tbAdd3, encodeAs(t, tbAdd3, MajorVersion1, 0)},
		{"v2-additive-3x3.pdb", "format 2.0, the same table as v1-additive-3x3.pdb, 4-bit codes, one frame", tbAdd3, encodeAs(t, tbAdd3, MajorVersion, 0)},
		{"v1-exact-3x2.pdb", "format 1.0, exact 3x2 (blank-last), one frame", tbExact32, encodeAs(t, tbExact32, MajorVersion1, 0)},
		{"v2-exact-3x2.pdb", "format 2.0, the same table as v1-exact-3x2.pdb", tbExact32, encodeAs(t, tbExact32, MajorVersion, 0)},
		{"v1-additive-4x3-frames.pdb", "format 1.0, additive 4x3 tiles 1,2,3,4 (blank-first), 12 frames of 1024 entries (the last 616)", tbAdd43, encodeAs(t, tbAdd43, MajorVersion1, 1024)},
		{"v2-additive-4x3-frames.pdb", "format 2.0, the same table as v1-additive-4x3-frames.pdb, 12 frames", tbAdd43, encodeAs(t, tbAdd43, MajorVersion, 1024)},
		{"v2-exact-2x2-custom-goal.pdb", "format 2.0, exact 2x2 with the custom goal 1 3 2 0 (12 entries)", tbExact22, encodeAs(t, tbExact22, MajorVersion, 0)},
		{"v2-additive-3x3-odd.pdb", "format 2.0, additive 3x3 tile 5 alone: 9 entries, so the last byte holds one code and a zero padding nibble", tbOdd, encodeAs(t, tbOdd, MajorVersion, 0)},
		{"v2-8bit-synthetic.pdb", "format 2.0, encoding manhattan-half-8bit: additive 3x3 tiles 1,2 with SYNTHETIC values (Manhattan distance + 2 x code, codes up to 40), not real distances", syn, encodeAs(t, syn, MajorVersion, 0)},
	}
	if _, err := Decode(bytes.NewReader(goods[8].file), int64(len(goods[8].file))); err != nil {
		t.Fatal(err)
	}
	if h, _ := ReadHeader(bytes.NewReader(goods[8].file), int64(len(goods[8].file))); h.Encoding != EncodingHalf8 {
		t.Fatalf("kit: synthetic table encoded as %q", h.Encoding)
	}

	// A good file whose header has its keys in another order, whitespace,
	// and unknown keys (one differing from a known key only in case).
	base2 := goods[1].file
	js2, _ := split(t, base2)
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(js2, &obj); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	slices.Reverse(keys)
	var sb strings.Builder
	sb.WriteString("{\n  \"WIDTH\": 99,\n  \"future_key\": {\"a\": [1.5, null, \"x\"]}")
	for _, k := range keys {
		fmt.Fprintf(&sb, ",\n  %q: %s", k, obj[k])
	}
	sb.WriteString("\n}\n")
	_, payload2 := split(t, base2)
	// Boards past 5x5: cell sets of more than 32 bits, Manhattan
	// distances on 6 and 7 columns.
	add66 := pdbtest.Pattern(t, 6, 6, "blank-last", 1, 2, 3)
	add77 := pdbtest.Pattern(t, 7, 7, "blank-last", 1, 2, 8)
	tbAdd66, tbAdd77 := builtTable(t, add66), builtTable(t, add77)
	goods = append(goods,
		kitGood{"v2-additive-6x6.pdb", "format 2.0, additive 6x6 tiles 1,2,3 (blank-last; the table 6x6_1-2-3 of the value vectors), 42840 entries, one frame", tbAdd66, encodeAs(t, tbAdd66, MajorVersion, 0)},
		kitGood{"v2-additive-7x7-frames.pdb", "format 2.0, additive 7x7 tiles 1,2,8 (blank-last; the table 7x7_1-2-8 of the value vectors), 110544 entries in 2 frames of 65536", tbAdd77, encodeAs(t, tbAdd77, MajorVersion, 65536)},
	)
	goods = append(goods, kitGood{"v2-reordered-unknown-keys.pdb",
		"format 2.0, the table of v2-additive-3x3.pdb with header keys in reverse order, whitespace and newlines, and unknown keys (\"WIDTH\" and \"future_key\") that a reader must ignore",
		tbAdd3, append(assemble(MajorVersion, MinorVersion, []byte(sb.String())), payload2...)})

	for _, g := range goods {
		files[g.name] = g.file
		index = append(index, goodEntry(t, g))
	}

	// Broken files: each has exactly one defect.
	base1 := goods[0].file
	h1, h2 := headerOf(t, base1), headerOf(t, base2)
	st1, st2 := storedFrames(t, base1), storedFrames(t, base2)
	js2s := string(js2)
	n2 := len(js2)
	pay2 := prefixLen + n2 + checksumLen
	type bad struct {
		name, desc, class string
		step              int
		file              []byte
	}
	setU16 := func(b []byte, off int, v uint16) []byte {
		c := bytes.Clone(b)
		binary.LittleEndian.PutUint16(c[off:], v)
		return c
	}
	setU32 := func(b []byte, off int, v uint32) []byte {
		c := bytes.Clone(b)
		binary.LittleEndian.PutUint32(c[off:], v)
		return c
	}
	json2 := func(edit func(js string) string) []byte { return craft(t, MajorVersion, *h2, st2, true, edit) }
	sub2 := func(old, new string) []byte {
		return json2(func(js string) string { return replaceOnce(t, js, old, new) })
	}
	hdr2 := func(fn func(h *Header)) []byte {
		h := *h2
		h.Goal, h.Tiles, h.Histogram = slices.Clone(h.Goal), slices.Clone(h.Tiles), slices.Clone(h.Histogram)
		fn(&h)
		return craft(t, MajorVersion, h, st2, true, nil)
	}
	// Odd table with the padding nibble set.
	hOdd := headerOf(t, goods[7].file)
	stOdd := storedFrames(t, goods[7].file)
	stOdd[0] = bytes.Clone(stOdd[0])
	stOdd[0][len(stOdd[0])-1] |= 0x10
	// 8-bit table with a code that makes a value above 254.
	h8 := headerOf(t, goods[8].file)
	st8 := storedFrames(t, goods[8].file)
	st8[0] = bytes.Clone(st8[0])
	st8[0][5] = 127
	// Format 1 table holding 255 (with a matching raw_sha256, histogram
	// left as it was).
	raw255 := bytes.Clone(st1[0])
	raw255[7] = puzzle.Unreached
	h255 := *h1
	sum255 := sha256.Sum256(raw255)
	h255.RawSHA256 = hex.EncodeToString(sum255[:])
	// A zstd frame followed by an empty skippable frame in slot 0.
	skip := craft(t, MajorVersion, *h2, st2, true, nil)
	skip = append(skip, 0x50, 0x2A, 0x4D, 0x18, 0, 0, 0, 0)
	{
		js, p := split(t, skip)
		h, err := parseHeader(js, MajorVersion)
		if err != nil {
			t.Fatal(err)
		}
		h.Frames[0] += 8
		sum := sha256.Sum256(p)
		h.PayloadSHA256 = hex.EncodeToString(sum[:])
		js, _ = json.Marshal(h)
		skip = append(assemble(MajorVersion, 0, js), p...)
	}
	// Frame 0 asking for a window of 8 MiB (above the bound of SPEC.md
	// section 1 for its frame size): Single_Segment_flag cleared, a
	// Window_Descriptor of exponent 13, the content size in 4 bytes; the
	// blocks and checksum as they were.
	wide := func() []byte {
		js, p := split(t, base2)
		h, err := parseHeader(js, MajorVersion)
		if err != nil {
			t.Fatal(err)
		}
		f := p[:h.Frames[0]]
		if f[4]&(1<<5) == 0 || f[4]>>6 != 0 {
			t.Fatalf("kit: frame 0 descriptor %#x, want single segment with a 1-byte content size", f[4])
		}
		nf := append([]byte{}, f[:4]...)
		nf = append(nf, 2<<6|f[4]&(1<<2), 13<<3)
		nf = binary.LittleEndian.AppendUint32(nf, uint32(f[5]))
		nf = append(nf, f[6:]...)
		h.Frames[0] = int64(len(nf))
		sum := sha256.Sum256(nf)
		h.PayloadSHA256 = hex.EncodeToString(sum[:])
		js, _ = json.Marshal(h)
		return append(assemble(MajorVersion, 0, js), nf...)
	}()
	// The zstd content checksum of frame 0 spoilt, payload_sha256 fixed.
	crcBad := bytes.Clone(base2)
	crcBad[len(crcBad)-1] ^= 0x01
	crcBad = fixPayloadSHA(crcBad)

	bads := []bad{
		{"bad-magic.pdb", "first magic byte changed", classFormat, 1, flipAt(base2, 0, 0)},
		{"bad-empty.pdb", "empty file", classFormat, 1, []byte{}},
		{"bad-major-3.pdb", "major version 3", classVersion, 1, setU16(base2, offMajor, 3)},
		{"bad-major-0.pdb", "major version 0", classVersion, 1, setU16(base2, offMajor, 0)},
		{"bad-short-11.pdb", "the first 11 bytes of a good file (versions incomplete)", classFormat, 1, base2[:11]},
		{"bad-short-major-3.pdb", "major version 3 in a file of 12 bytes: the version is named before the truncation", classVersion, 1, setU16(base2, offMajor, 3)[:12]},
		{"bad-short-15.pdb", "the first 15 bytes of a good file", classFormat, 1, base2[:15]},
		{"bad-header-length-huge.pdb", "header length 0xFFFFFFFF (above 16 MiB)", classFormat, 1, setU32(base2, offHeaderLen, 0xFFFFFFFF)},
		{"bad-truncated-header.pdb", "file cut inside the JSON header", classFormat, 1, base2[:prefixLen+n2/2]},
		{"bad-header-checksum.pdb", "one bit of the JSON header flipped (inside the generator string)", classChecksum, 2, flipAt(base2, prefixLen+strings.Index(js2s, "conformance"), 0)},
		{"bad-v1-header-checksum.pdb", "format 1.0: one bit of the header SHA-256 flipped", classChecksum, 2, flipAt(base1, prefixLen+len(headerJS(t, base1))+5, 3)},
		{"bad-json-duplicate-key.pdb", `key "width" twice (same value)`, classFormat, 3, sub2(`"width":3,`, `"width":3,"width":3,`)},
		{"bad-v1-json-duplicate-key.pdb", `format 1.0: key "height" twice (same value)`, classFormat, 3, craft(t, MajorVersion1, *h1, st1, true, func(js string) string { return replaceOnce(t, js, `"height":3,`, `"height":3,"height":3,`) })},
		{"bad-json-key-case.pdb", `"Width" instead of "width" (keys are case-sensitive, so "width" is missing)`, classFormat, 3, sub2(`"width":3,`, `"Width":3,`)},
		{"bad-json-fraction.pdb", `"width":3.0 (integers have no fraction)`, classFormat, 3, sub2(`"width":3,`, `"width":3.0,`)},
		{"bad-json-exponent.pdb", `"entries":5.04e2 (integers have no exponent)`, classFormat, 3, sub2(`"entries":504,`, `"entries":5.04e2,`)},
		{"bad-json-exponent-int.pdb", `"width":3e0 (integers have no exponent)`, classFormat, 3, sub2(`"width":3,`, `"width":3e0,`)},
		{"bad-json-string-int.pdb", `"width":"3" (a string, not an integer)`, classFormat, 3, sub2(`"width":3,`, `"width":"3",`)},
		{"bad-json-null.pdb", `"generator":null`, classFormat, 3, sub2(`"generator":"tilepdb conformance kit"`, `"generator":null`)},
		{"bad-json-bom.pdb", "header starts with a UTF-8 byte-order mark", classFormat, 3, json2(func(js string) string { return "\xef\xbb\xbf" + js })},
		{"bad-json-lone-surrogate.pdb", `generator "tilepdb \ud800 kit" (a \u escape of a lone surrogate)`, classFormat, 3, sub2(`"tilepdb conformance kit"`, `"tilepdb \ud800 kit"`)},
		{"bad-json-invalid-utf8.pdb", "byte 0xFF inside the generator string (not UTF-8)", classFormat, 3, sub2(`"tilepdb conformance kit"`, "\"tilepdb \xff kit\"")},
		{"bad-json-missing-generator.pdb", `no "generator" key (required)`, classFormat, 3, sub2(`"generator":"tilepdb conformance kit",`, ``)},
		{"bad-json-missing-encoding.pdb", `format 2.0 without "encoding" (required in 2.x)`, classFormat, 3, sub2(`"encoding":"manhattan-half-4bit",`, ``)},
		{"bad-json-trailing.pdb", "a second JSON value after the header object", classFormat, 3, json2(func(js string) string { return js + " {}" })},
		{"bad-json-not-object.pdb", "the header is a JSON array", classFormat, 3, json2(func(string) string { return "[1,2,3]" })},
		{"bad-tiles-n-minus-2.pdb", "3x3 additive table of 7 tiles (k > N-3)", classFormat, 4, hdr2(func(h *Header) { h.Tiles = []int{1, 2, 3, 4, 5, 6, 7} })},
		{"bad-tiles-order.pdb", "tiles 2,1,3 (not ascending)", classFormat, 4, hdr2(func(h *Header) { h.Tiles = []int{2, 1, 3} })},
		{"bad-entries-over-2-36.pdb", "5x5 with tiles 1..9: 25!/16! = 741354768000 entries, above the limit of 2^36 (checked from the tiles, before entries)", classFormat, 4, hdr2(func(h *Header) {
			h.Width, h.Height, h.Tiles, h.Entries, h.MaxValue, h.Histogram = 5, 5, []int{1, 2, 3, 4, 5, 6, 7, 8, 9}, 741354768000, 0, []uint64{741354768000}
			h.Goal = make([]int, 25)
			for i := range 24 {
				h.Goal[i] = i + 1
			}
		})},
		{"bad-width-9.pdb", "width 9 (sides are 2..8), goal of 27 cells", classFormat, 4, hdr2(func(h *Header) {
			h.Width, h.Height = 9, 3
			h.Goal = make([]int, 27)
			for i := range 26 {
				h.Goal[i] = i + 1
			}
		})},
		{"bad-entries-over-2-36-8x8.pdb", "8x8 with tiles 1..7: 64!/57! = 3379030566912 entries, above the limit of 2^36", classFormat, 4, hdr2(func(h *Header) {
			h.Width, h.Height, h.Tiles, h.Entries, h.MaxValue, h.Histogram = 8, 8, []int{1, 2, 3, 4, 5, 6, 7}, 3379030566912, 0, []uint64{3379030566912}
			h.Goal = make([]int, 64)
			for i := range 63 {
				h.Goal[i] = i + 1
			}
		})},
		{"bad-kind.pdb", `kind "exact" for 3 of 8 tiles`, classFormat, 4, hdr2(func(h *Header) { h.Kind = KindExact })},
		{"bad-entries.pdb", "entries 505, the pattern has 504", classFormat, 4, hdr2(func(h *Header) { h.Entries = 505 })},
		{"bad-ranking-version-2.pdb", "ranking_version 2", classUnsupported, 4, hdr2(func(h *Header) { h.RankingVersion = 2 })},
		{"bad-bits-per-entry-4.pdb", "bits_per_entry 4", classUnsupported, 4, hdr2(func(h *Header) { h.BitsPerEntry = 4 })},
		{"bad-encoding-unknown.pdb", `encoding "manhattan-half-2bit"`, classUnsupported, 4, hdr2(func(h *Header) { h.Encoding = "manhattan-half-2bit" })},
		{"bad-goal-name.pdb", `goal_name "blank-first" for the blank-last goal`, classFormat, 4, hdr2(func(h *Header) { h.GoalName = puzzle.GoalBlankFirst })},
		{"bad-histogram-sum.pdb", "histogram sums to entries+1", classFormat, 4, hdr2(func(h *Header) { h.Histogram[0]++ })},
		{"bad-raw-sha256-syntax.pdb", "raw_sha256 in upper case", classFormat, 4, hdr2(func(h *Header) { h.RawSHA256 = strings.ToUpper(h.RawSHA256) })},
		{"bad-frame-size-odd.pdb", "format 2.0 with frame_size 1025 (odd)", classFormat, 5, hdr2(func(h *Header) { h.FrameSize = 1025 })},
		{"bad-frame-count.pdb", "frames lists 2 frames, ceil(entries/frame_size) = 1", classFormat, 5, json2(func(js string) string {
			return replaceOnce(t, js, fmt.Sprintf(`"frames":[%d]`, h2.Frames[0]), fmt.Sprintf(`"frames":[%d,20]`, h2.Frames[0]-20))
		})},
		{"bad-trailing-bytes.pdb", "one byte after the last frame", classFormat, 5, append(bytes.Clone(base2), 0)},
		{"bad-truncated-payload.pdb", "last byte of the file missing", classFormat, 5, base2[:len(base2)-1]},
		{"bad-payload-sha256.pdb", "one bit of the compressed payload flipped; payload_sha256 no longer matches", classChecksum, 6, flipAt(base2, pay2+int(h2.Frames[0])/2, 2)},
		{"bad-zstd-no-content-checksum.pdb", "frame 0 written without its zstd content checksum", classFormat, 7, craft(t, MajorVersion, *h2, st2, false, nil)},
		{"bad-zstd-window.pdb", "frame 0 asks for a zstd window of 8 MiB, above the bound 2^20 for its frame size (content size and blocks unchanged)", classFormat, 7, wide},
		{"bad-skippable-frame-in-slot.pdb", "frame slot 0 holds the frame and an empty skippable frame after it", classFormat, 8, skip},
		{"bad-zstd-content-checksum.pdb", "last byte of frame 0's zstd content checksum flipped (payload_sha256 matches the spoilt payload)", classChecksum, 8, crcBad},
		{"bad-padding-nibble.pdb", "odd-length 4-bit frame whose padding nibble is 1 (stored bytes of v2-additive-3x3-odd.pdb otherwise)", classFormat, 8, craft(t, MajorVersion, *hOdd, stOdd, true, nil)},
		{"bad-value-over-254.pdb", "8-bit code 127 at rank 5: 2 x 127 + Manhattan > 254 (v2-8bit-synthetic.pdb otherwise)", classFormat, 8, craft(t, MajorVersion, *h8, st8, true, nil)},
		{"bad-raw-sha256.pdb", "raw_sha256 of another table (valid syntax)", classChecksum, 9, hdr2(func(h *Header) { h.RawSHA256 = strings.Repeat("0", 64) })},
		{"bad-v1-raw-sha256.pdb", "format 1.0: raw_sha256 of another table", classChecksum, 9, craft(t, MajorVersion1, func() Header { h := *h1; h.RawSHA256 = strings.Repeat("ab", 32); return h }(), st1, true, nil)},
		{"bad-histogram-recount.pdb", "histogram moves one count between two values (the sum is right, the recount differs)", classFormat, 10, hdr2(func(h *Header) { big, o := bigCount(h); h.Histogram[big]--; h.Histogram[o]++ })},
		{"bad-v1-value-255.pdb", "format 1.0: rank 7 holds the reserved value 255 (raw_sha256 matches)", classFormat, 10, craft(t, MajorVersion1, h255, [][]byte{raw255}, true, nil)},
	}
	for _, b := range bads {
		if _, dup := files[b.name]; dup {
			t.Fatalf("kit: %s twice", b.name)
		}
		files[b.name] = b.file
		index = append(index, kitFile{File: b.name, Description: b.desc, Expect: "error", Error: b.class, Step: b.step})
	}
	idx := kitIndex{
		Comment:      "tilepdb table file conformance kit; see README.md in this folder and ../../SPEC.md. Generated by: go test ./format -run TestConformanceKit -update",
		KitVersion:   1,
		ErrorClasses: kitErrorClasses,
		Files:        index,
	}
	js, err := json.MarshalIndent(idx, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return files, append(js, '\n')
}

func flipAt(b []byte, off int, bit uint) []byte { return flip(b, off, bit) }

func headerJS(t *testing.T, file []byte) []byte {
	js, _ := split(t, file)
	return js
}

func headerOf(t *testing.T, file []byte) *Header {
	t.Helper()
	h, err := ReadHeader(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// goodEntry lists a good table's expected values: ranks 0, 1, the last and
// a few spread over the table, and boards (every cell, 0 = blank) for a
// few ranks, including the goal.
func goodEntry(t *testing.T, g kitGood) kitFile {
	t.Helper()
	tb := g.tb
	p := tb.Pattern
	h := headerOf(t, g.file)
	e := tb.Header.Entries
	kt := &kitTable{Format: h.Version(), Width: h.Width, Height: h.Height, Goal: h.Goal, Tiles: h.Tiles, Kind: string(h.Kind),
		Encoding: h.Encoding, Entries: h.Entries, MaxValue: h.MaxValue, RawSHA256: h.RawSHA256}
	f := kitFile{File: g.name, Description: g.desc, Expect: "ok", Table: kt}
	var ranks []uint64
	for _, r := range []uint64{0, 1, 2, 3, e / 7, e / 3, e / 2, e - 2, e - 1} {
		if r < e && !slices.Contains(ranks, r) {
			ranks = append(ranks, r)
		}
	}
	for _, r := range ranks {
		f.Ranks = append(f.Ranks, kitRank{Rank: r, Value: int(tb.Values[r])})
	}
	goalRank := p.Rank(p.Goal.Positions())
	for i, r := range []uint64{goalRank, e / 5, e/2 + 1, e - 3} {
		if r >= e || (i > 0 && r == goalRank) {
			continue
		}
		var b puzzle.Board
		if i == 0 {
			b = p.Goal
		} else {
			cells := make([]uint8, p.CellsLen())
			p.Unrank(r, cells)
			if p.Exact {
				b = puzzle.BoardFromPositions(cells)
			} else {
				b = fullBoard(p, cells)
			}
		}
		if got := p.Rank(b.Positions()); got != r {
			t.Fatalf("kit: board %v ranks %d, want %d", b, got, r)
		}
		ints := make([]int, len(b))
		for j, x := range b {
			ints[j] = int(x)
		}
		f.Boards = append(f.Boards, kitBoard{Board: ints, Rank: r, Value: int(tb.Values[r])})
	}
	return f
}

// TestConformanceKit runs the Go reader on every file of the kit and
// checks the outcome the index gives; then it checks that the kit on disk
// is the one kitFiles generates (-update rewrites index.json and the .pdb
// files; README.md is written by hand).
func TestConformanceKit(t *testing.T) {
	if *update {
		files, js := kitFiles(t)
		old, err := filepath.Glob(filepath.Join(kitDir, "*.pdb"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(kitDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range files {
			if err := os.WriteFile(filepath.Join(kitDir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(kitDir, "index.json"), js, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	js, err := os.ReadFile(filepath.Join(kitDir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var idx kitIndex
	if err := json.Unmarshal(js, &idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Files) < 40 {
		t.Fatalf("index lists %d files", len(idx.Files))
	}
	classes := map[string]int{}
	for _, f := range idx.Files {
		t.Run(f.File, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(kitDir, f.File))
			if err != nil {
				t.Fatal(err)
			}
			tb, err := Decode(bytes.NewReader(b), int64(len(b)))
			switch f.Expect {
			case "error":
				classes[f.Error]++
				if got := kitClass(err); got != f.Error {
					t.Fatalf("error class %q (%v), want %q", got, err, f.Error)
				}
				return
			case "ok":
			default:
				t.Fatalf("expect %q", f.Expect)
			}
			if err != nil {
				t.Fatal(err)
			}
			classes["ok"]++
			h := tb.Header
			if kt := f.Table; h.Version() != kt.Format || h.Entries != kt.Entries || h.RawSHA256 != kt.RawSHA256 ||
				h.MaxValue != kt.MaxValue || h.Encoding != kt.Encoding || !slices.Equal(h.Tiles, kt.Tiles) {
				t.Errorf("header %+v, index says %+v", h, kt)
			}
			if len(f.Ranks) < 5 || len(f.Boards) < 2 {
				t.Errorf("%d ranks, %d boards listed", len(f.Ranks), len(f.Boards))
			}
			for _, r := range f.Ranks {
				if r.Rank >= uint64(len(tb.Values)) || int(tb.Values[r.Rank]) != r.Value {
					t.Errorf("rank %d: index says %d", r.Rank, r.Value)
				}
			}
			set, err := NewSet(tb)
			if err != nil {
				t.Fatal(err)
			}
			for _, bd := range f.Boards {
				board := make(puzzle.Board, len(bd.Board))
				for i, x := range bd.Board {
					board[i] = uint8(x)
				}
				v, err := set.HeuristicBoard(board)
				if err != nil || v != bd.Value || tb.Pattern.Rank(board.Positions()) != bd.Rank {
					t.Errorf("board %v: value %d (%v), rank %d; index says rank %d value %d", bd.Board, v, err, tb.Pattern.Rank(board.Positions()), bd.Rank, bd.Value)
				}
			}
		})
	}
	for _, c := range []string{"ok", classFormat, classChecksum, classUnsupported, classVersion} {
		if classes[c] == 0 {
			t.Errorf("the kit has no file of class %q", c)
		}
	}
	// The kit on disk is the generated one.
	files, genJS := kitFiles(t)
	if !bytes.Equal(genJS, js) {
		t.Errorf("index.json is stale: run go test ./format -run TestConformanceKit -update")
	}
	for name, b := range files {
		if disk, err := os.ReadFile(filepath.Join(kitDir, name)); err != nil || !bytes.Equal(disk, b) {
			t.Errorf("%s is stale (%v): run go test ./format -run TestConformanceKit -update", name, err)
		}
	}
	entries, err := os.ReadDir(kitDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(files)+2 {
		t.Errorf("%s holds %d files, the kit has %d (+ index.json, README.md)", kitDir, len(entries), len(files))
	}
}

// TestReadersKit: the Go reader gives every file of the readers' kit
// (readers/testdata/kit, shared with the JS and Java readers, written by
// make-kit.mjs) the outcome its index.tsv records.
func TestReadersKit(t *testing.T) {
	index, err := os.ReadFile("../readers/testdata/kit/index.tsv")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(index)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		want := f[1]
		if want == "ok" {
			want = ""
		}
		data, err := os.ReadFile(filepath.Join("../readers/testdata/kit", f[0]))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Decode(bytes.NewReader(data), int64(len(data)))
		if got := kitClass(err); got != want {
			t.Errorf("%s (%s): %q (%v), want %q", f[0], f[2], got, err, want)
		}
		n++
	}
	if n < 60 {
		t.Errorf("%d files, want at least 60", n)
	}
}
